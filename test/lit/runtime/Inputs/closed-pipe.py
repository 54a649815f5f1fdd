"""closed-pipe.py PROGRAM...: run PROGRAM with its standard error a pipe
whose reader is gone (as in `prog 2>&1 | head -1` once head has ended)
and print "exit status N" (128 + the signal when one ended it)."""
import os
import subprocess
import sys

r, w = os.pipe()
os.close(r)
# restore_signals (the default) gives the child SIGPIPE's default action.
p = subprocess.run(sys.argv[1:], stderr=w)
print("exit status %d" % (p.returncode if p.returncode >= 0 else 128 - p.returncode))
