#!/usr/bin/env python3
"""callgrind_kinds.py CALLGRIND_OUT BINARY FUNCTION

The instructions one function executed, by kind: counter updates (an
access through %fs, where the thread-local counters of an executable
live), stack traffic (through %rsp), compares and branches, and the
rest.  CALLGRIND_OUT must come from `valgrind --tool=callgrind
--dump-instr=yes`; the kinds come from `objdump -d BINARY`.  Comparing a
collect build with the plain build of the same compiler shows where the
instrumentation's cost went (bench/history.md, nineteenth
measurement)."""
import collections
import re
import subprocess
import sys


def costs(path, function):
    """Self cost per instruction address of FUNCTION (calls excluded)."""
    names, cost = {}, collections.Counter()
    current, after_calls, last = None, False, 0
    position = re.compile(r'(0x[0-9a-f]+|[+-]\d+|\*)\s+(?:[-+*]?\d*\s+)?(\d+)$')
    with open(path) as f:
        for line in f:
            line = line.rstrip('\n')
            m = re.match(r'(c?fn)=\((\d+)\)(?: (.*))?', line)
            if m:
                if m.group(3):
                    names[m.group(2)] = m.group(3)
                if m.group(1) == 'fn':
                    current, after_calls = names.get(m.group(2)), False
                continue
            if line.startswith('calls='):
                after_calls = True  # the next cost line is the call's, inclusive
                continue
            m = position.match(line)
            if not m:
                continue
            a = m.group(1)
            last = int(a, 16) if a.startswith('0x') else last if a == '*' else last + int(a)
            if after_calls:
                after_calls = False
            elif current == function:
                cost[last] += int(m.group(2))
    return cost


def kind(text):
    if '%fs' in text:
        return 'counter (%fs)'
    if '(%rsp)' in text:
        return 'stack (%rsp)'
    if text.startswith(('j', 'cmp', 'test')):
        return 'compare/branch'
    return 'other'


def main():
    if len(sys.argv) != 4:
        sys.exit('usage: callgrind_kinds.py CALLGRIND_OUT BINARY FUNCTION')
    out, binary, function = sys.argv[1:]
    dis = subprocess.run(['objdump', '-d', '--no-show-raw-insn', binary],
                         capture_output=True, text=True, check=True).stdout
    text = {}
    for line in dis.splitlines():
        m = re.match(r'\s+([0-9a-f]+):\s+(.*)', line)
        if m:
            text[int(m.group(1), 16)] = m.group(2)
    by_kind = collections.Counter()
    for address, n in costs(out, function).items():
        by_kind[kind(text.get(address, '?'))] += n
    print('%s: %d instructions' % (function, sum(by_kind.values())))
    for k, n in sorted(by_kind.items()):
        print('  %-15s %d' % (k, n))


if __name__ == '__main__':
    main()
