"""long.py OBJECT FIRST...: a response file (long.rsp) that links the
objects FIRST... with 1000 links to OBJECT under long names, over 100,000
bytes, in collect mode: the driver must hand it on in a response file of
its own."""
import os
import sys

obj, first = sys.argv[1], sys.argv[2:]
names = []
for i in range(1000):
    name = "o" * 120 + "_%d.o" % i
    if not os.path.lexists(name):
        os.symlink(obj, name)
    names.append(name)
with open("long.rsp", "w") as f:
    f.write("%s\n%s\n-o long -xprofile=collect\n" % (" ".join(first), "\n".join(names)))
