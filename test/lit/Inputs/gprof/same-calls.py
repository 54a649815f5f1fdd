#!/usr/bin/env python3
"""Check that the call counts of gprof's call graph (gprof -b -q
--no-demangle: "called", with recursive calls after a +) are the entry counts a use build gave the compiler: GCC's
-fdump-tree-optimized (the count of each function's first block) or
clang's IR (function_entry_count).  Prints how many functions agree; exits
1 on the first that does not."""
import re
import sys


def gprof_calls(path):
    calls = {}
    for line in open(path):
        # [index] %time self children called name [index]
        m = re.match(r"\[\d+\]\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+(\d+)(?:\+(\d+))?\s+(\S+)", line)
        if m:
            calls[m.group(3)] = int(m.group(1)) + int(m.group(2) or 0)
    return calls


def gcc_entries(path):
    entries, fn = {}, None
    for line in open(path):
        m = re.match(r";; Function \S+ \((\S+?),", line)
        if m:
            fn = m.group(1)
            continue
        m = re.search(r"<bb \d+> \[count: (\d+)\]", line)
        if fn and m:
            entries[fn] = int(m.group(1))
            fn = None
    return entries


def llvm_entries(path):
    text = open(path).read()
    meta = dict(re.findall(r'^(![0-9]+) = !\{!"function_entry_count", i64 ([0-9]+)\}', text, re.M))
    entries = {}
    for name, ref in re.findall(r'^define .*?@"?([^"(\s]+)"?\(.*\) .*!prof (![0-9]+)', text, re.M):
        if ref in meta:
            entries[name] = int(meta[ref])
    return entries


def main():
    graph, kind, dump = sys.argv[1], sys.argv[2], sys.argv[3]
    calls = gprof_calls(graph)
    entries = gcc_entries(dump) if kind == "--gcc" else llvm_entries(dump)
    same = 0
    for name, n in sorted(calls.items()):
        if name not in entries:
            continue
        if entries[name] != n:
            print(f"{name}: gprof says {n} calls, the use build {entries[name]}")
            return 1
        same += 1
    print(f"same calls: {same} functions")
    return 0


sys.exit(main())
