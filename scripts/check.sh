#!/usr/bin/env bash
# Set up and run the whole test suite: everything `ctest` runs in the
# build (test/CMakeLists.txt) -- the unit tests, plain and under
# ASan+UBSan; the lit tests, the conformance corpus among them; each fuzz
# target's corpus replayed; the tests on real programs from Debian's
# sources (a quick run of the benchmark, bzip2 checked exact edge by edge,
# salvage after source edits, the exports, time sampling, GCC's own
# profile-feedback test programs through both drivers, xprof_tcov's line
# counts against gcov's); and a short run of every fuzz target.
# Ends with a line "N passed, N failed": what each test counted.
# Environment: BUILD (default build), FUZZ_SECONDS (default 10 per
# target; 0 runs none), CTEST_ARGS (more options for ctest, such as
# -L unit or -E programs).
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || exit 1
build=${BUILD:-build}
rm -rf "$build/test/lit/corpus-summary"
# shellcheck disable=SC2086
(cd "$build" && ctest -j2 --output-on-failure ${CTEST_ARGS:-})

# What the corpus found of the compilers' own PGO (information, not tests).
if compgen -G "$build/test/lit/corpus-summary/*.txt" >/dev/null; then
  echo "== conformance corpus: xprof and each compiler's own PGO on the same programs"
  cat "$build"/test/lit/corpus-summary/*.txt | awk '
    { split($3, x, "="); split($4, n, "="); c = $2
      total[c]++; if (x[2] == "ok") xok[c]++
      if (n[2] == "ok") nok[c]++
      else if (n[2] == "skipped") skip[c]++
      else { gsub("_", " ", n[2]); bad[c] = bad[c] "\n    " $1 ": " n[2] } }
    END { for (c in total) {
            printf "%s: xprof right on %d of %d programs; %s'"'"'s own PGO on %d of %d tried\n",
                   c, xok[c], total[c], c, nok[c], total[c] - skip[c]
            if (bad[c] != "") printf "  where the own PGO is not:%s\n", bad[c] } }'
fi

# The sum of what each test said last ("N passed, M failed"); a test that
# said nothing counts as one, by its result.
python3 scripts/ctest_sum.py "$build/Testing/Temporary/LastTest.log"
