#!/usr/bin/env python3
"""Check that the call counts of gprof's call graph (gprof -b -q
--no-demangle: "called", with recursive calls after a +) are the entry counts a use build gave the compiler: GCC's -fdump-ipa-xprof (the call
graph right after the use pass, before any inlining) or clang's IR
(function_entry_count).  Static functions of one name in several objects
are compared as the lists of their counts.  Prints how many functions agree; exits
1 on the first that does not.  A fourth argument, xprof_gprof -v's
messages, gives the abnormal entries (computed gotos, setjmp) and the calls
of unknown caller, which the compiler's entry count
includes besides the calls gprof sees."""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gprofgraph import gprof_calls  # noqa: E402


def gcc_entries(path):
    entries, fn = {}, None
    for line in open(path):
        m = re.match(r"(\S+)/\d+ \((\S+)\) @0x", line)
        if m:
            fn = m.group(1)
            continue
        m = re.match(r"\s+Function flags: count:(\d+) \((precise|adjusted)\)", line)
        if fn and m:
            entries.setdefault(fn, []).append(int(m.group(1)))
            fn = None
    return entries


def llvm_entries(path):
    text = open(path).read()
    meta = dict(re.findall(r'^(![0-9]+) = !\{!"function_entry_count", i64 ([0-9]+)\}', text, re.M))
    entries = {}
    for name, ref in re.findall(r'^define .*?@"?([^"(\s]+)"?\(.*\) .*!prof (![0-9]+)', text, re.M):
        if ref in meta:
            entries.setdefault(name, []).append(int(meta[ref]))
    return entries


def main():
    graph, kind, dump = sys.argv[1], sys.argv[2], sys.argv[3]
    calls = gprof_calls(graph)
    entries = gcc_entries(dump) if kind == "--gcc" else llvm_entries(dump)
    extra = {}
    if len(sys.argv) > 4:
        for line in open(sys.argv[4]):
            m = re.match(r"xprof_gprof: (\S+): (\d+) calls and (\d+) abnormal entries", line)
            if m:
                extra.setdefault(m.group(1), []).append(int(m.group(3)))
            m = re.match(r"xprof_gprof: (\S+): (\d+) calls of unknown caller", line)
            if m:
                extra.setdefault(m.group(1), []).append(int(m.group(2)))
    same = 0
    for name, counts in sorted(calls.items()):
        if name not in entries:
            continue
        # what gprof sees, and what it cannot: its calls and the extras, as
        # a list per function of the name, or summed over them
        want = sorted(entries[name])
        got = sorted(counts)
        more = sum(extra.get(name, []))
        if len(got) == len(want) and len(got) == 1:
            ok = got[0] + more == want[0]
        else:
            ok = sum(got) + more == sum(want)
        if not ok:
            print(f"{name}: gprof says {got} calls (and {more} it cannot see), the use build {want}")
            return 1
        same += 1
    print(f"same calls: {same} functions")
    return 0


sys.exit(main())
