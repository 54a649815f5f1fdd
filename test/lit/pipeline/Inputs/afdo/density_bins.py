"""density_bins.py PROGRAM LINE... < TEXT: the profile TEXT (xprof_btoa's,
of a run of PROGRAM) with its samples replaced: 3 in every bin whose
address the line table gives to one of the LINEs, none elsewhere."""
import os
import subprocess
import sys

prog, want = sys.argv[1], {int(x) for x in sys.argv[2:]}
rows = []  # (address, line) in the table's order
dump = subprocess.run(["objdump", "--dwarf=decodedline", prog], capture_output=True,
                      text=True, check=True).stdout
for text in dump.splitlines():
    f = text.split()
    if len(f) >= 3 and f[1].isdigit() and f[2].startswith("0x"):
        rows.append((int(f[2], 16), int(f[1])))
rows.sort(key=lambda r: r[0])  # stable: of rows at one address, the last stays last


def line_at(addr):
    """The line of the last row at or before addr (as a reader takes it)."""
    found = None
    for a, line in rows:
        if a > addr:
            break
        found = line
    return found


out, skip = [], False
for text in sys.stdin.read().splitlines():
    f = text.split()
    if text.startswith("#+ IMAGE "):
        skip = True
        if f[2] != os.path.abspath(prog):
            continue  # another file's samples (the C library's) go
        off, size, width = int(f[5], 16), int(f[6], 16), int(f[7])
        bins = [(a - off) // width for a in range(off, off + size, width) if line_at(a) in want]
        f[8], f[10] = str(3 * len(bins)), str(len(bins))
        out.append(" ".join(f))
        out.extend("#+ BIN %d 3" % b for b in bins)
        continue
    if skip and text.startswith("#+ BIN "):
        continue
    skip = False
    out.append(text)
print("\n".join(out))
