#!/usr/bin/env python3
"""The exports of one training run agree with each other and with
xprof_show: per function, the samples of xprof_show and of xprof_dcpi -l;
per routine, the calls of gprof's call graph and aprof's bb-count report,
and the sampled time of xprof_show and aprof's time-usec report.  Prints
what it compared; exits 1 at the first disagreement.
usage: agree.py SHOW DCPI_LIST GPROF_GRAPH APROF_BB APROF_TIME"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gprofgraph import gprof_calls  # noqa: E402


def show_functions(path):
    rows, on = {}, False
    for line in open(path):
        if line.startswith("busiest functions by time"):
            on = True
            continue
        m = re.match(r"\s+(\d+)\s+[\d.]+%\s+([\d.]+)\s+(\S+)\s+\((\S+)\)$", line) if on else None
        if m:
            rows[(m.group(3), m.group(4))] = (int(m.group(1)), float(m.group(2)))
    return rows


def dcpi_functions(path):
    rows = {}
    for line in open(path):
        m = re.match(r"\s*(\d+)\s+[\d.]+%\s+[\d.]+%\s+(\S+)\s+(\S+)$", line)
        if m:
            rows[(m.group(2), m.group(3).rsplit("/", 1)[-1])] = int(m.group(1))
    return rows


def aprof(path):
    names, points = {}, {}
    for line in open(path):
        m = re.match(r'r "(.*)" "(.*)" (\d+)$', line)
        if m:
            names[m.group(3)] = m.group(1)
        f = line.split()
        if f and f[0] == "p":
            points.setdefault(names[f[1]], []).append({"occ": int(f[7]), "self": int(f[9])})
    return points


def main():
    show, dcpi, graph, bb, tm = sys.argv[1:6]
    s, d = show_functions(show), dcpi_functions(dcpi)
    n = 0
    for key, samples in d.items():
        if key[0] == "(no":
            continue
        if key not in s or s[key][0] != samples:
            print(f"{key}: xprof_dcpi -l {samples} samples, xprof_show {s.get(key)}")
            return 1
        n += 1
    calls, points = gprof_calls(graph), aprof(bb)
    m = 0
    for name, c in calls.items():
        if name in points:
            # static functions of one name: their calls as lists
            occ = sorted(p["occ"] for p in points[name])
            if sorted(c) != occ and sum(c) != sum(occ):
                print(f"{name}: gprof {sorted(c)} calls, aprof {occ}")
                return 1
            m += 1
    t = aprof(tm)
    k = 0
    for (name, image), (samples, seconds) in s.items():
        if name in t and abs(sum(p["self"] for p in t[name]) - seconds * 1e6) > 1000:
            print(f"{name}: aprof {t[name]} us, xprof_show {seconds} s")
            return 1
        k += name in t
    print(f"agree: {n} functions by samples, {m} routines by calls, {k} by time")
    return 0


sys.exit(main())
