#!/usr/bin/env bash
# Set up xprof and run the whole profile-feedback cycle on the example
# program (bench/programs/vm, an interpreter with a shared library):
# collect build, training run (its time and calls in gprof) and what it
# covered, use build, then the
# use build's speed next to a plain -O2 build on a different input, and
# the hottest procedures.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
bash scripts/setup.sh
export PATH=$root/build/tools:$PATH
. bench/lib.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
vm=$root/bench/programs/vm
mk() { make -s -C "$work/$1" -f "$vm/Makefile" "${@:2}"; }
mkdir -p "$work/plain" "$work/pgo"
bash "$vm/gen.sh" 150 > "$work/train.vm"
bash "$vm/gen.sh" 800 > "$work/run.vm"

echo
echo "== 1. collect build: make CC=xprof-gcc CFLAGS='-O2 -xprofile=collect'"
mk pgo CC=xprof-gcc CFLAGS="-O2 -xprofile=collect"
echo "== 2. training run, sampling where the time goes (writes vm.profile/feedback)"
(cd "$work/pgo" && SUN_PROFDATA_SAMPLE=1 ./vm "$work/train.vm")
xprof_show -n 6 "$work/pgo/vm.profile"
echo "   the training run in gprof (xprof_gprof vm.profile ./vm; gprof -b ./vm gmon.out):"
(cd "$work/pgo" && xprof_gprof vm.profile ./vm && gprof -b ./vm gmon.out 2>&1) |
  awk '/^Flat profile/ {p = 1} /Call graph/ {p = 2; n = 0} p == 1 && NR < 30 {print}
       p == 2 && n++ < 28 {print}' | sed 's/^/  /'
echo "   what the training run covered (xprof_tcov --summary; the collect build's"
echo "   coverage tables are beside its objects):"
(cd "$work/pgo" && xprof_tcov --summary -x vm.profile) | sed 's/^/  /'

echo
echo "== 3. use build: make CC=xprof-gcc CFLAGS='-O2 -xprofile=use:vm'"
mk pgo clean
mk pgo CC=xprof-gcc CFLAGS="-O2 -xprofile=use:vm -fplugin-arg-xprof-verbose" 2>&1 |
  sed -n 's/.*note: xprof: /  /p'
mk plain CC=gcc CFLAGS=-O2

echo
echo "== 4. a different input, plain gcc -O2 against the use build (7 alternating rounds)"
run_plain() { (cd "$work/plain" && ./vm -q -n 2 "$work/run.vm"); }
run_pgo() { (cd "$work/pgo" && ./vm -q -n 2 "$work/run.vm"); }
[ "$(run_plain)" = "$(run_pgo)" ] && echo "  outputs identical: $(run_pgo)"
time_runs 7 plain pgo
read -r p _ _ < <(stats < "$work/times.plain")
read -r u _ _ < <(stats < "$work/times.pgo")
read -r r lo hi < <(ratio_stats pgo plain)
echo "  CPU time, medians of 7 rounds: plain -O2 $p s, xprof use build $u s"
echo "$r $lo $hi" | awk '{printf "  use build / plain, paired by round = %.3f (%.3f-%.3f; speedup %.3f; CPU time on a shared machine is noisy)\n", $1, $2, $3, 1/$1}'
if command -v valgrind >/dev/null; then
  ip=$(cd "$work/plain" && valgrind --tool=callgrind --callgrind-out-file=/dev/null ./vm -q "$work/run.vm" 2>&1 >/dev/null | awk '/Collected/ {print $NF}')
  iu=$(cd "$work/pgo" && valgrind --tool=callgrind --callgrind-out-file=/dev/null ./vm -q "$work/run.vm" 2>&1 >/dev/null | awk '/Collected/ {print $NF}')
  echo "$ip $iu" | awk '{printf "  instructions (callgrind, repeatable): plain %d, use build %d = %.3fx\n", $1, $2, $2/$1}'
fi
