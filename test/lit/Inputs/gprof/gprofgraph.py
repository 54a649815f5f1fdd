"""gprof's call graph (gprof -b -q), as the scripts beside this one read
it: per function name, the calls of each function of that name (static
functions of one name are listed apart), recursive calls included."""
import re


def gprof_calls(path):
    calls = {}
    for line in open(path):
        # [index] %time self children called name [index]
        m = re.match(r"\[\d+\]\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+(\d+)(?:\+(\d+))?\s+(\S+)", line)
        if m:
            calls.setdefault(m.group(3), []).append(int(m.group(1)) + int(m.group(2) or 0))
    return calls
