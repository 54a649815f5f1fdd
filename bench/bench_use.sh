#!/usr/bin/env bash
# Speed of profile-guided builds: xprof-gcc (xprof-clang) -xprofile=use
# against the same compiler's -fprofile-use, both trained on the same
# input, measured on another, in one run, as ratios to plain -O2.
#   bench/bench_use.sh [ROUNDS] [TRAIN_SIZE] [RUN_SIZE] [gcc|clang]
#   (defaults 7, 150, 400, gcc)
# Also counts instructions with callgrind when valgrind is there.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rounds=${1:-7}
train=${2:-150}
size=${3:-400}
cc=${4:-gcc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
vmsrc=$here/programs/vm
mk() { make -s -C "$work/$1" -f "$vmsrc/Makefile" "${@:2}"; }
bash "$vmsrc/gen.sh" "$train" > "$work/train.vm"
bash "$vmsrc/gen.sh" "$size" > "$work/run.vm"
mkdir -p "$work/plain" "$work/gcc" "$work/xprof"

if [ "$cc" = gcc ]; then
  mk plain CC=gcc CFLAGS=-O2
  mk gcc CC=gcc CFLAGS="-O2 -fprofile-generate"
  (cd "$work/gcc" && ./vm -q "$work/train.vm" >/dev/null)
  mk gcc clean >/dev/null
  mk gcc CC=gcc CFLAGS="-O2 -fprofile-use -Wno-missing-profile"
else
  mk plain CC=clang CFLAGS=-O2
  mk gcc CC=clang CFLAGS="-O2 -fprofile-generate"
  (cd "$work/gcc" && LLVM_PROFILE_FILE=$work/native-%p.profraw ./vm -q "$work/train.vm" >/dev/null)
  llvm-profdata-14 merge -o "$work/native.profdata" "$work"/native-*.profraw
  mk gcc clean >/dev/null
  mk gcc CC=clang CFLAGS="-O2 -fprofile-use=$work/native.profdata -Wno-profile-instr-unprofiled"
fi
mk xprof CC=xprof-$cc CFLAGS="-O2 -xprofile=collect"
(cd "$work/xprof" && ./vm -q "$work/train.vm" >/dev/null)
mk xprof clean >/dev/null
mk xprof CC=xprof-$cc CFLAGS="-O2 -xprofile=use:$work/xprof/vm"

for v in plain gcc xprof; do
  eval "run_$v() { (cd \"$work/$v\" && ./vm -q -n 3 \"$work/run.vm\"); }"
done
want=$(run_plain)
for v in gcc xprof; do
  [ "$("run_$v")" = "$want" ] || { echo "output of $v differs"; exit 1; }
done
time_runs "$rounds" plain gcc xprof
read -r base _ _ < <(stats < "$work/times.plain")
echo "vm, $cc, trained on size $train, measured on size $size, $rounds rounds:"
printf "  %-28s %6.3f s\n" "plain $cc -O2" "$base"
for v in gcc xprof; do
  read -r m lo hi < <(ratio_stats "$v" plain)
  label=$([ $v = gcc ] && echo "$cc -fprofile-use" || echo "xprof-$cc -xprofile=use")
  printf "  %-28s %6.3fx CPU time (%.3f-%.3f), speedup %.3f\n" "$label" \
    "$m" "$lo" "$hi" "$(echo "$m" | awk '{print 1/$1}')"
done
if command -v valgrind >/dev/null; then
  for v in plain gcc xprof; do
    (cd "$work/$v" && valgrind --tool=callgrind --callgrind-out-file=/dev/null \
       ./vm -q "$work/run.vm" 2>&1 >/dev/null | awk '/Collected/ {print $NF}') > "$work/ir.$v"
  done
  p=$(cat "$work/ir.plain")
  echo "instructions (callgrind): plain $p, $cc-use $(cat "$work/ir.gcc") ($(echo "$(cat "$work/ir.gcc") $p" | awk '{printf "%.3f", $1/$2}')x), xprof-use $(cat "$work/ir.xprof") ($(echo "$(cat "$work/ir.xprof") $p" | awk '{printf "%.3f", $1/$2}')x)"
fi
