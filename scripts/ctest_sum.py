"""Sums the "N passed, M failed" line each test of a ctest run printed last
(Testing/Temporary/LastTest.log); a test that printed none counts as one
test, passed or failed as ctest saw it.  Prints the tests' lines and the
total, "N passed, M failed", and exits 1 when anything failed."""
import re
import sys

log = open(sys.argv[1], errors="replace").read()
passed = failed = 0
for block in re.split(r"^(?=\d+/\d+ Testing: )", log, flags=re.M)[1:]:
    name = re.match(r"\d+/\d+ Testing: (\S+)", block).group(1)
    counts = re.findall(r"^(\d+) passed, (\d+) failed$", block, flags=re.M)
    ok = "Test Passed." in block
    p, f = (int(counts[-1][0]), int(counts[-1][1])) if counts else (int(ok), int(not ok))
    if not ok and f == 0:
        f = 1  # failed without saying so (a crash, a timeout)
    print("%-20s %d passed, %d failed" % (name, p, f))
    passed += p
    failed += f
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
