#!/usr/bin/env python3
"""compare-gcov.py [--ignore SOURCE[:LINE]]... TRACEFILE GCOV-FILE...: compare the line counts of an
xprof_tcov --lcov tracefile with gcov's listings (.gcov files) of the same
program and runs.  Every line gcov counts (a number or #####) must be in
the tracefile with the same count, and every line of the tracefile in
gcov's listing of that source; counts of a source listed in several .gcov
files (a header in each object) are summed, as lcov sums them.  Prints
"compared N lines of M sources, K differ" and the differences; exit 1
when any differ."""
import collections, os, sys

def read_lcov(path):
    lines, source = collections.defaultdict(dict), None
    for raw in open(path):
        raw = raw.rstrip("\n")
        if raw.startswith("SF:"):
            source = raw[3:]
        elif raw.startswith("DA:"):
            ln, count = raw[3:].split(",")[:2]
            lines[source][int(ln)] = lines[source].get(int(ln), 0) + int(count)
    return lines

def read_gcov(paths):
    lines = collections.defaultdict(dict)
    for path in paths:
        source, in_group, after_rule = None, False, False
        for raw in open(path, errors="replace"):
            # Functions that start on the same line (static copies of a
            # header's function) get sections of their own after the
            # summed listing: "----" then "NAME:" then their lines.
            if raw.startswith("------------------"):
                after_rule = True
                continue
            if after_rule:
                after_rule = False
                in_group = not raw.startswith(" ") and raw.rstrip().endswith(":")
                if in_group:
                    continue
            if in_group:
                continue
            parts = raw.split(":", 2)
            if len(parts) < 3:
                continue
            count, ln = parts[0].strip(), parts[1].strip()
            if ln == "0" and parts[2].startswith("Source:"):
                source = parts[2][7:].strip()
                if not os.path.isabs(source):  # relative to where it was compiled
                    source = os.path.join(os.environ.get("GCOV_SOURCE_DIR", "."), source)
                source = os.path.realpath(source)
                continue
            if count == "-" or not ln.isdigit():
                continue
            count = count.rstrip("*")
            value = 0 if count in ("#####", "=====") else int(count)
            lines[source][int(ln)] = lines[source].get(int(ln), 0) + value
    return lines

def main():
    args, ignore = sys.argv[1:], set()
    while args and args[0] == "--ignore":
        ignore.add(args[1])
        args = args[2:]
    ours, gcov = read_lcov(args[0]), read_gcov(args[1:])
    compared, differ, out = 0, 0, []
    for source in sorted(gcov):
        mine = ours.get(source, {})
        base = os.path.basename(source)
        if base in ignore:
            continue
        for ln in sorted(set(gcov[source]) | set(mine)):
            if "%s:%d" % (base, ln) in ignore:
                continue
            compared += 1
            g, x = gcov[source].get(ln), mine.get(ln)
            if g != x:
                differ += 1
                out.append("%s:%d: gcov %s, xprof %s" % (source, ln, g, x))
    print("compared %d lines of %d sources, %d differ" % (compared, len(gcov), differ))
    for line in out[:40]:
        print(line)
    return 1 if differ else 0

sys.exit(main())
