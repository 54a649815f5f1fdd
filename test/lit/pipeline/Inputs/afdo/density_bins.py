"""density_bins.py [--every K] [--samples N] [--table FILE] PROGRAM LINE[:COLUMN][=M]... < TEXT:
the profile TEXT (xprof_btoa's, of a run of PROGRAM) with its samples
replaced: N (3), or M for a LINE=M, in the bins whose address the line
table gives to one of the LINEs (with a COLUMN, to that column of it),
one in every K bytes of them (every bin: K 1, the default), none
elsewhere.  (A few samples spread thin, as a short run leaves them over
a large function: --every 16 --samples 1.)  With bins
of a byte, a reader gives a bin's samples to the byte before it (the
instruction in flight when the timer fired): the samples of a line's
bytes go in the bins one byte further on.  --table FILE: the line table
read from FILE, a copy of PROGRAM whose debug sections llvm-dwarfdump
can read (PROGRAM's compressed with zstd, say)."""
import os
import subprocess
import sys

args, every, per_bin, table = sys.argv[1:], 1, 3, None
while args and args[0].startswith("--"):
    if args[0] == "--every":
        every = int(args[1])
    elif args[0] == "--samples":
        per_bin = int(args[1])
    elif args[0] == "--table":
        table = args[1]
    else:
        sys.exit("density_bins.py: unknown option " + args[0])
    args = args[2:]
prog, want = args[0], {}
for arg in args[1:]:
    place, _, n = arg.partition("=")
    line, _, column = place.partition(":")
    want[(int(line), int(column)) if column else int(line)] = int(n) if n else per_bin
rows = []  # (address, line, column) in the table's order
dump = subprocess.run(["llvm-dwarfdump", "--debug-line", table or prog], capture_output=True,
                      text=True, check=True).stdout
for text in dump.splitlines():
    f = text.split()
    if len(f) >= 3 and f[0].startswith("0x") and f[1].isdigit() and f[2].isdigit():
        rows.append((int(f[0], 16), int(f[1]), int(f[2])))
rows.sort(key=lambda r: r[0])  # stable: of rows at one address, the last stays last


def line_at(addr):
    """The line (or line and column, where one is wanted) of the last row
    at or before addr, as a reader takes it."""
    found = None
    for a, line, column in rows:
        if a > addr:
            break
        found = (line, column) if (line, column) in want else line
    return found


out, skip = [], False
for text in sys.stdin.read().splitlines():
    f = text.split()
    if text.startswith("#+ IMAGE "):
        skip = True
        if f[2] != os.path.abspath(prog):
            continue  # another file's samples (the C library's) go
        off, size, width = int(f[5], 16), int(f[6], 16), int(f[7])
        after = 1 if width == 1 else 0  # the bin a byte's samples land in
        bins = [((a + after - off) // width, want[line_at(a)])
                for a in range(off, off + size - after, width)
                if line_at(a) in want][::max(1, every // width)]
        f[8], f[10] = str(sum(n for _, n in bins)), str(len(bins))
        out.append(" ".join(f))
        out.extend("#+ BIN %d %d" % b for b in bins)
        continue
    if skip and text.startswith("#+ BIN "):
        continue
    skip = False
    out.append(text)
print("\n".join(out))
