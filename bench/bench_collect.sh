#!/usr/bin/env bash
# Collection overhead and counter counts of xprof-gcc (or xprof-clang)
# against the same compiler's -fprofile-generate, on the example VM,
# measured in one run.
#   bench/bench_collect.sh [ROUNDS] [SIZE] [gcc|clang]   (7, 400, gcc)
# Prints, per build, its CPU time as a ratio to the plain -O2 build's in
# the same round (median and range over the rounds); and the edge counters
# each instrumented.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rounds=${1:-7}
size=${2:-400}
cc=${3:-gcc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
vmsrc=$here/programs/vm

build_vm() { # DIR CC CFLAGS
  mkdir -p "$work/$1"
  make -s -C "$work/$1" -f "$vmsrc/Makefile" CC="$2" CFLAGS="$3"
}
if [ "$cc" = gcc ]; then
  build_vm plain gcc "-O2"
  build_vm native-single gcc "-O2 -fprofile-generate -fprofile-update=single"
  build_vm native-atomic gcc "-O2 -fprofile-generate -fprofile-update=atomic"
  build_vm xprof-thread xprof-gcc "-O2 -xprofile=collect -fplugin-arg-xprof-cfg-dump"
  build_vm xprof-atomic xprof-gcc "-O2 -xprofile=collect -fplugin-arg-xprof-update=atomic"
  build_vm xprof-single xprof-gcc "-O2 -xprofile=collect -fplugin-arg-xprof-update=single"
else
  # clang 14 ignores -fprofile-update=atomic with -fprofile-generate.
  build_vm plain clang "-O2"
  build_vm native-single clang "-O2 -fprofile-generate"
  build_vm native-atomic clang "-O2 -fprofile-generate -mllvm -instrprof-atomic-counter-update-all"
  build_vm xprof-thread xprof-clang "-O2 -xprofile=collect -mllvm -xprof-cfg-dump"
  build_vm xprof-atomic xprof-clang "-O2 -xprofile=collect -mllvm -xprof-update=atomic"
  build_vm xprof-single xprof-clang "-O2 -xprofile=collect -mllvm -xprof-update=single"
fi
export LLVM_PROFILE_FILE=$work/clang-%p.profraw
bash "$vmsrc/gen.sh" "$size" > "$work/p.vm"

for v in plain native-single native-atomic xprof-thread xprof-atomic xprof-single; do
  eval "run_$v() { (cd \"$work/$v\" && ./vm -q -n 3 \"$work/p.vm\"); }"
done
want=$(run_plain)
for v in native-single native-atomic xprof-thread xprof-atomic xprof-single; do
  got=$("run_$v")
  [ "$got" = "$want" ] || { echo "output of $v differs: $got vs $want"; exit 1; }
done

time_runs "$rounds" plain native-single native-atomic xprof-thread xprof-atomic xprof-single
read -r base _ _ < <(stats < "$work/times.plain")
echo "vm, $cc, size $size, $rounds rounds; CPU time relative to plain $cc -O2 in the same round (median, range):"
printf "  %-34s %6.3f s\n" "plain -O2" "$base"
for v in native-single native-atomic xprof-single xprof-thread xprof-atomic; do
  read -r m lo hi < <(ratio_stats "$v" plain)
  printf "  %-34s %6.3fx  (%.3f-%.3f)\n" "$v" "$m" "$lo" "$hi"
done

# Counters: the native arc counters are GCC's __gcov0.* arrays or clang's
# __profc_* arrays (8 bytes each); xprof's come from the CFG dumps, next to
# the spanning-tree minimum E - V + 2 (with the virtual exit-to-entry edge)
# of the same graphs.
native_ctrs=0
if [ "$cc" = gcc ]; then
  while read -r _ size _ name; do
    [[ $name == __gcov0.* ]] && native_ctrs=$((native_ctrs + 16#$size / 8))
  done < <(nm -S "$work"/native-single/*.o "$work"/native-single/libvmops.so 2>/dev/null)
else # clang's counters are private symbols: count their sections instead
  for f in "$work"/native-single/*.o "$work"/native-single/libvmops.so; do
    while read -r size; do
      native_ctrs=$((native_ctrs + 16#$size / 8))
    done < <(readelf -SW "$f" | awk '/__llvm_prf_cnts/ {print $6}')
  done
fi
read -r xp_ctrs xp_min xp_procs < <(cat "$work"/xprof-thread/*.xpcfg | awk '
  /^PROC/ {procs++; ctrs += $6; if (n) min += e - n + 2; n = $4; e = 0; next}
  /^[0-9]/ && $3 % 4 < 2 {e++}   # edges in the graph (not IGNORE, flag 2)
  END {if (n) min += e - n + 2; print ctrs, min, procs}')
echo "edge counters: $cc -fprofile-generate $native_ctrs, xprof $xp_ctrs (spanning-tree minimum $xp_min, $xp_procs procedures)"
