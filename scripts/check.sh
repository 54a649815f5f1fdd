#!/usr/bin/env bash
# Set up and run the whole test suite:
#   unit tests (plain and under ASan+UBSan), lit tests, a quick run of the
#   real-program benchmark (bzip2 from Debian's sources, built every way,
#   outputs compared; no timing assertions), the same program checked
#   exact edge by edge (--verify), its profile salvaged after source edits,
#   GCC's own profile-feedback test programs through both xprof drivers,
#   xprof_tcov's line counts against gcov's
#   on bzip2, lua, sqlite and zstd, and a short run of every fuzz target.
#   Ends with a line "N passed, N failed".
# Environment: FUZZ_SECONDS (default 30 per target; 0 skips fuzzing).
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh || exit 1
cmake -S . -B build-asan -DXPROF_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null &&
  cmake --build build-asan -j "$(nproc)" --target xprof_unit_tests >/dev/null ||
  { echo "check: sanitizer build failed"; exit 1; }

passed=0
failed=0
count() { # add "N passed, M failed" from the last such line of a log
  local line
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -1)
  if [ -z "$line" ]; then
    failed=$((failed + 1))
    return
  fi
  passed=$((passed + $(echo "$line" | cut -d' ' -f1)))
  failed=$((failed + $(echo "$line" | cut -d' ' -f3)))
}

logs=$(mktemp -d)
echo "== unit tests"
build/test/unit/xprof_unit_tests test/lit/Inputs/sample.text >"$logs/unit" 2>&1
grep -v '^PASS' "$logs/unit"
count "$logs/unit"

echo "== unit tests under ASan+UBSan"
build-asan/test/unit/xprof_unit_tests test/lit/Inputs/sample.text >"$logs/asan" 2>&1
grep -v '^PASS' "$logs/asan"
count "$logs/asan"

echo "== lit tests (the conformance corpus among them)"
rm -rf build/test/lit/corpus-summary
python3 /usr/lib/llvm-14/build/utils/lit/lit.py -sv --param build=build test/lit >"$logs/lit" 2>&1
grep -E '^(FAIL|UNRESOLVED|XPASS|TIMEOUT):' "$logs/lit" || true
lp=$(grep -E '^ *(Passed|Expectedly Failed|Unsupported): ' "$logs/lit" | awk '{s+=$NF} END {print s+0}')
lf=$(grep -E '^ *(Failed|Unresolved|Unexpectedly Passed|Timed Out): ' "$logs/lit" | awk '{s+=$NF} END {print s+0}')
echo "$lp passed, $lf failed"
passed=$((passed + lp))
failed=$((failed + lf))
if [ "$lp" -eq 0 ]; then failed=$((failed + 1)); fi

# What the corpus found of the compilers' own PGO (information, not tests).
if compgen -G "build/test/lit/corpus-summary/*.txt" >/dev/null; then
  echo "== conformance corpus: xprof and each compiler's own PGO on the same programs"
  cat build/test/lit/corpus-summary/*.txt | awk '
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

# step TITLE LOG N COMMAND...: one test that passes when COMMAND does;
# prints the last N lines of its log (20 when it fails).
step() {
  local title=$1 log=$logs/$2 n=$3
  shift 3
  echo "== $title"
  if "$@" >"$log" 2>&1; then
    tail -"$n" "$log"
    echo "1 passed, 0 failed"
    passed=$((passed + 1))
  else
    tail -20 "$log"
    echo "0 passed, 1 failed"
    failed=$((failed + 1))
  fi
}
step "benchmark smoke test (bench/bench_programs.sh --quick: bzip2, both compilers)" \
  bench 4 bash bench/bench_programs.sh --quick
step "real-program exactness (bench/bench_programs.sh --quick --verify: bzip2, both compilers)" \
  verify 2 bash bench/bench_programs.sh --quick --verify
step "stale-profile salvage (bench/bench_salvage.sh --quick: bzip2 edited after training, both compilers)" \
  salvage 4 bash bench/bench_salvage.sh --quick
step "exports: a lua training run in xprof_show, DCPI files, gprof and aprof, which agree; gprof's calls are the use build's (test/exports/exports_check.sh)" \
  exports 3 bash test/exports/exports_check.sh lua
step "time sampling on a real program (bench/bench_sampling.sh --quick: bzip2, output unchanged, samples taken)" \
  sampling 3 bash bench/bench_sampling.sh --quick
step "GCC's own PGO tests (tree-prof, bprob: trained and rebuilt; the other tests of its profiling options: built) with xprof-gcc and xprof-clang (test/suites/gcc_testsuite.sh)" \
  treeprof 3 bash test/suites/gcc_testsuite.sh
step "coverage: xprof_tcov's line counts against gcov's (bzip2, lua, sqlite, zstd at -O0 and -O2)" \
  gcov 8 bash test/coverage/gcov_compare.sh

secs=${FUZZ_SECONDS:-30}
if [ "$secs" != 0 ]; then
  echo "== fuzzing (${secs}s per target)"
  scripts/fuzz.sh "$secs" >"$logs/fuzz" 2>&1
  cat "$logs/fuzz"
  passed=$((passed + $(grep -c ': ok' "$logs/fuzz")))
  failed=$((failed + $(grep -c 'FAILED' "$logs/fuzz")))
fi

rm -rf "$logs"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
