#!/usr/bin/env bash
# xprof against native PGO on real programs nobody here wrote: lua 5.4,
# bzip2, sqlite3 (amalgamation and shell) and zstd, fetched with
# apt-get source (never committed) and built with -O2 seven ways per
# compiler, the way users build (CC=xprof-gcc, CC=xprof-clang):
#   plain; native -fprofile-generate (plain and atomic counters);
#   native -fprofile-use; xprof collect (per-thread, the default); xprof
#   collect (single-threaded updates); xprof use.
# Training and measured inputs are our own and differ; every build's
# output on the measured input must equal the plain build's.  A second
# measured input (run2), unlike both, times the use builds again.
#
#   bench/bench_programs.sh [--quick] [--rounds N] [--repeats N] [--compile-rounds N]
#                           [--compilers "gcc clang"]
#                           [--programs "lua bzip2 sqlite zstd"] [--callgrind]
#                           [--churn-rounds N] [--churn-funcs N] [--verify]
#
# Prints a table (markdown) of run-time ratios against the plain build of
# the same compiler, measured in the same run: the CPU time of each run
# over the plain build's in the same round (medians, ranges), counters,
# profile sizes and build times (CPU time of the build's processes, the
# median of --compile-rounds builds, 3 by default); the .text size of the
# plain and use builds and the use builds' compile times; then xprof's use
# build against the
# compiler's own, round by round: the median ratio with its range, and in
# how many rounds xprof's was faster (15 rounds by default, so that a
# difference the noise could make does not pass for a lead; in each round
# every build runs --repeats times, 3 by default, and the round keeps the
# least time of each: lib.sh's time_runs says why).  --callgrind: also the instructions of
# every build on the measured input, counted by callgrind (repeatable where
# CPU times on a shared machine are not quite; adds about 15 minutes).  --quick: one program, one
# round, small inputs (the test suite's smoke test).  Nothing is asserted
# about speed.  --verify: instead of all that, build each program with
# the xprof plugins' debug counters on every edge, run the training and
# the measured input, and check with xprof_verify that the spanning-tree
# counters give every edge count exactly (exit status 1 if not).
# Last, collection under thread churn (bench/churn.sh: 20,000 short
# threads over --churn-funcs functions' counters, 1000 by default),
# --churn-rounds rounds (7 by default; 0 leaves it out, as --quick does).
# BENCH_XPROF_GCC_FLAGS and BENCH_XPROF_CLANG_FLAGS add options to the
# xprof builds, --verify's too (e.g. "-O3 -flto"); BENCH_SECOND_GCC_FLAGS
# and BENCH_SECOND_CLANG_FLAGS replace the single-update build's options,
# to pair another collect mode with the default one in the same rounds
# (per-thread copies: "-fplugin-arg-xprof-no-tls-counters" and
# "-mllvm -xprof-tls-counters=false").  gcc and clang are the
# ones on PATH, and clang's native profiles are merged by the
# llvm-profdata beside it; another LLVM, e.g. 16 (docs/llvm-pass.md):
# PATH=b16/tools:/usr/lib/llvm-16/bin:$PATH XPROF_CC=clang-16
# XPROF_CXX=clang++-16 XPROF_LLVM_PLUGIN=b16/llvm-pass/xprof-llvm16.so.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rounds=15 compilers="gcc clang" programs="lua bzip2 sqlite zstd" quick=0 callgrind=0 verify=0
compile_rounds=3 churn_rounds=7 churn_funcs=1000
while (($#)); do
  case $1 in
    --quick) quick=1 rounds=1 repeats=1 compile_rounds=1 churn_rounds=0 programs=bzip2 ;;
    --rounds) rounds=$2; shift ;;
    --compile-rounds) compile_rounds=$2; shift ;;
    --repeats) repeats=$2; shift ;;
    --compilers) compilers=$2; shift ;;
    --programs) programs=$2; shift ;;
    --callgrind) callgrind=1 ;;
    --churn-rounds) churn_rounds=$2; shift ;;
    --churn-funcs) churn_funcs=$2; shift ;;
    --verify) verify=1 ;;
    *) echo "usage: bench_programs.sh [--quick] [--rounds N] [--repeats N] [--compile-rounds N] [--compilers LIST] [--programs LIST] [--callgrind] [--churn-rounds N] [--churn-funcs N] [--verify]" >&2; exit 2 ;;
  esac
  shift
done
. "$here/programs.sh"

# second_workload PROG CC DIR: the use builds on run2, which neither
# training nor the first measured input resembles: outputs checked, then
# plain, native use and xprof use in alternating rounds; a line of
# "$results.second": each use build over plain, xprof over native use
# (medians/min/max) and the rounds xprof's was faster.
second_workload() {
  local prog=$1 cc=$2 d=$3 v m lo hi line want
  want=$("run_$prog" "$d/plain" run2)
  for v in nuse xuse; do
    [ "$("run_$prog" "$d/$v" run2)" = "$want" ] ||
      { echo "$prog/$cc/$v: output on run2 differs from the plain build" >&2; exit 1; }
  done
  for v in plain nuse xuse; do
    eval "run_${v}2() { run_$prog \"$d/$v\" run2; }"
    rm -f "$work/times.${v}2"
  done
  time_runs "$rounds" plain2 nuse2 xuse2
  read -r m _ _ < <(stats < "$work/times.plain2")
  line="$prog $cc $m"
  for v in nuse2 xuse2; do
    read -r m lo hi < <(ratio_stats $v plain2)
    line="$line $(printf "%.3f/%.3f/%.3f" "$m" "$lo" "$hi")"
  done
  read -r m lo hi < <(ratio_stats xuse2 nuse2)
  echo "$line $(printf "%.3f/%.3f/%.3f" "$m" "$lo" "$hi") $(rounds_faster xuse2 nuse2)/$rounds" >> "$results.second"
}

# The llvm-profdata of the clang on PATH (clang's raw profiles change
# format between LLVM versions).
llvm_profdata() { echo "$(dirname "$(readlink -f "$(command -v clang)")")/llvm-profdata"; }
# second_collect COMPILER: the options of the second xprof collect build,
# single-threaded updates unless BENCH_SECOND_GCC_FLAGS /
# BENCH_SECOND_CLANG_FLAGS say otherwise (e.g. per-thread copies,
# "-fplugin-arg-xprof-no-tls-counters", to pair them with the default
# twins round by round); second_name is its name in the tables.
second_collect() {
  if [ "$1" = gcc ]; then echo "${BENCH_SECOND_GCC_FLAGS:--fplugin-arg-xprof-update=single}"
  else echo "${BENCH_SECOND_CLANG_FLAGS:--mllvm -xprof-update=single}"; fi
}
second_name=$([ -n "${BENCH_SECOND_GCC_FLAGS:-}${BENCH_SECOND_CLANG_FLAGS:-}" ] && echo "second" || echo "single")

native_flags() { # COMPILER KIND
  case $1/$2 in
    gcc/gen) echo "-fprofile-generate -fprofile-update=single" ;;
    gcc/genat) echo "-fprofile-generate -fprofile-update=atomic" ;;
    clang/gen) echo "-fprofile-generate" ;;
    clang/genat) echo "-fprofile-generate -mllvm -instrprof-atomic-counter-update-all" ;;
  esac
}

# --verify: every edge count exact on both inputs, or exit status 1.
if [ $verify = 1 ]; then
  echo "| program | compiler | procedures (never run) | edges checked | result |"
  echo "|---|---|---|---|---|"
  status=0
  for prog in $programs; do
    for cc in $compilers; do
      d=$work/$prog-$cc/verify
      mkdir -p "$d"
      "build_$prog" "$d" "xprof-$cc" "-xprofile=collect:$d/verify $(xprof_debug_flags $cc) $(xprof_extra $cc)"
      "run_$prog" "$d" train >/dev/null
      "run_$prog" "$d" run >/dev/null
      out=$(verify_tree "$d" "$d/verify.profile")
      echo "$out" | awk -v p=$prog -v c=$cc '{gsub(/[(]/, "", $3);
        printf "| %s | %s | %s (%s) | %s | %s |\n", p, c, $1, $3, $6, ($NF == "exact" ? "all exact" : "MISMATCHES")}'
      case $out in *"all exact") ;; *) status=1; grep -v 'edges checked' "$d/verify.log" | head -5 >&2 ;; esac
    done
  done
  exit $status
fi

results=${BENCH_RESULTS:-$work/results}
: > "$results"
: > "$results.size"
: > "$results.second"
for prog in $programs; do
  for cc in $compilers; do
    d=$work/$prog-$cc
    mkdir -p "$d"/{plain,gen,genat,xat,xsin,nuse,xuse}
    declare -A btime=()
    # The first build of a program and compiler is slow (the sources and
    # the compiler are not in the page cache yet): built once untimed, so
    # that the compile-time ratios do not flatter every later build.
    "build_$prog" "$d/plain" "$cc" ""
    btime[plain]=$(build_time "$compile_rounds" "build_$prog" "$d/plain" "$cc" "")
    btime[gen]=$(build_time "$compile_rounds" "build_$prog" "$d/gen" "$cc" "$(native_flags $cc gen)")
    "build_$prog" "$d/genat" "$cc" "$(native_flags $cc genat)"
    xdump=$([ $cc = gcc ] && echo "-fplugin-arg-xprof-cfg-dump" || echo "-mllvm -xprof-cfg-dump")
    xextra=$(xprof_extra $cc)
    btime[xat]=$(build_time "$compile_rounds" "build_$prog" "$d/xat" "xprof-$cc" "-xprofile=collect $xextra")
    # Once more with the CFG dumps that the counters are counted from, not
    # timed: users do not ask for them (GCC's cost 5% of sqlite3.c's build).
    "build_$prog" "$d/xat" "xprof-$cc" "-xprofile=collect $xdump $xextra"
    "build_$prog" "$d/xsin" "xprof-$cc" "-xprofile=collect $(second_collect $cc) $xextra"
    # Native use: the generate build, trained, rebuilt in place.
    "build_$prog" "$d/nuse" "$cc" "$(native_flags $cc gen)"
    LLVM_PROFILE_FILE=$d/nuse/prof-%p.profraw "run_$prog" "$d/nuse" train >/dev/null
    if [ $cc = clang ]; then
      "$(llvm_profdata)" merge -o "$d/nuse.profdata" "$d"/nuse/prof-*.profraw
      nprof_size=$(stat -c %s "$d/nuse.profdata")
      btime[nuse]=$(build_time "$compile_rounds" "build_$prog" "$d/nuse" "$cc" \
        "-fprofile-use=$d/nuse.profdata -Wno-profile-instr-unprofiled -Wno-profile-instr-out-of-date")
    else
      nprof_size=$(find "$d/nuse" -name '*.gcda' -exec cat {} + | wc -c)
      btime[nuse]=$(build_time "$compile_rounds" "build_$prog" "$d/nuse" "$cc" "-fprofile-use -Wno-missing-profile")
    fi
    # xprof use: the collect build, trained, rebuilt in place.
    "build_$prog" "$d/xuse" "xprof-$cc" "-xprofile=collect $xextra"
    "run_$prog" "$d/xuse" train >/dev/null
    bin=$(binary $prog)
    xprof_size=$(stat -c %s "$d/xuse/$bin.profile/feedback")
    btime[xuse]=$(build_time "$compile_rounds" "build_$prog" "$d/xuse" "xprof-$cc" "-xprofile=use:$bin $xextra" 2> "$d/xuse.log")
    # .text of the builds users ship, and the use builds' compile times.
    text() { size -A "$1" | awk '$1 == ".text" {print $2}'; }
    echo "$prog $cc $(text "$d/plain/$bin") $(text "$d/nuse/$bin") $(text "$d/xuse/$bin") ${btime[plain]} ${btime[nuse]} ${btime[xuse]}" >> "$results.size"
    warnings=$(grep -c 'warning: xprof' "$d/xuse.log" || true)

    want=$("run_$prog" "$d/plain" run)
    for v in gen genat xat xsin nuse xuse; do
      got=$("run_$prog" "$d/$v" run)
      [ "$got" = "$want" ] || { echo "$prog/$cc/$v: output differs from the plain build" >&2; exit 1; }
    done
    for v in plain gen genat xat xsin nuse xuse; do
      eval "run_$v() { run_$prog \"$d/$v\" run; }"
      rm -f "$work/times.$v"
    done
    time_runs "$rounds" plain gen genat xat xsin nuse xuse
    read -r base _ _ < <(stats < "$work/times.plain")
    line="$prog $cc $base"
    for v in gen genat xat xsin nuse xuse; do
      read -r m lo hi < <(ratio_stats "$v" plain)
      line="$line $(printf "%.3f/%.3f/%.3f" "$m" "$lo" "$hi")"
    done
    # xprof's use build against the compiler's own, round by round.
    read -r m lo hi < <(ratio_stats xuse nuse)
    head_to_head="$(printf "%.3f/%.3f/%.3f" "$m" "$lo" "$hi") $(rounds_faster xuse nuse)/$rounds"
    second_workload "$prog" "$cc" "$d"
    # counters: native arcs, xprof from its CFG dumps
    native=0
    if [ $cc = gcc ]; then
      while read -r _ size _ name; do
        [[ $name == __gcov0.* ]] && native=$((native + 16#$size / 8))
      done < <(find "$d/gen" -name '*.o' -exec nm -S {} + 2>/dev/null)
    else
      while read -r size; do native=$((native + 16#$size / 8)); done < <(
        find "$d/gen" -name '*.o' -exec readelf -SW {} + | awk '/__llvm_prf_cnts/ {print $6}')
    fi
    xctrs=$(find "$d/xat" -name '*.xpcfg' -exec cat {} + | awk '/^PROC/ {s += $6} END {print s+0}')
    ir="-"
    if [ $callgrind = 1 ] && command -v valgrind >/dev/null; then
      ir=""
      for v in plain gen genat xat xsin nuse xuse; do
        ir="$ir$(instructions "$prog" "$d/$v")/"
      done
    fi
    echo "$line $native $xctrs $nprof_size $xprof_size ${btime[plain]} ${btime[gen]} ${btime[xat]} $warnings $head_to_head $ir" | tee -a "$results"
    unset btime
  done
done

echo "| program | compiler | plain (CPU s) | native gen | native gen, atomic | xprof collect (exact, per-thread) | xprof collect ($second_name) | native use | xprof use | counters native / xprof | profile bytes native / xprof | build s plain / native gen / xprof | use warnings |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
while read -r prog cc base gen genat xat xsin nuse xuse native xc nps xps bp bg bx warn _ _ _; do
  cell() { echo "$1" | awk -F/ '{printf "%sx (%s–%s)", $1, $2, $3}'; }
  printf "| %s | %s | %.3f | %s | %s | %s | %s | %s | %s | %s / %s | %s / %s | %.1f / %.1f / %.1f | %s |\n" \
    "$prog" "$cc" "$base" "$(cell $gen)" "$(cell $genat)" "$(cell $xat)" "$(cell $xsin)" \
    "$(cell $nuse)" "$(cell $xuse)" "$native" "$xc" "$nps" "$xps" "$bp" "$bg" "$bx" "$warn"
done < "$results"
echo
echo "code size (.text bytes) and use-build compile time (CPU seconds of the build's processes, median of $compile_rounds builds; -j$jobs for lua and zstd):"
echo
echo "| program | compiler | .text plain | native use | xprof use | xprof / native | compile s plain | native use | xprof use |"
echo "|---|---|---|---|---|---|---|---|---|"
awk '{printf "| %s | %s | %d | %d (%.3f) | %d (%.3f) | %.3f | %.1f | %.1f (%.2fx) | %.1f (%.2fx) |\n",
      $1, $2, $3, $4, $4 / $3, $5, $5 / $3, $5 / $4, $6, $7, $7 / $6, $8, $8 / $6}' "$results.size"
echo
echo "geomeans of the medians (CPU time, ratio to plain in the same round):"
for cc in $compilers; do
  for col in 4 5 6 7 8 9; do
    awk -v cc=$cc -v c=$col '$2 == cc {split($c, a, "/"); print a[1]}' "$results" | geomean > "$work/g.$col"
  done
  echo "  $cc: native gen $(cat $work/g.4), native gen atomic $(cat $work/g.5), xprof exact $(cat $work/g.6), xprof $second_name $(cat $work/g.7), native use $(cat $work/g.8), xprof use $(cat $work/g.9)"
done
echo
echo "xprof use against the compiler's own use build, CPU time in the same round (below 1: xprof faster):"
echo
echo "| program | compiler | xprof use / native use, median (range) | rounds xprof faster |"
echo "|---|---|---|---|"
awk '{split($(NF-2), r, "/"); split($(NF-1), w, "/");
      printf "| %s | %s | %.3f (%.3f-%.3f) | %d of %d |\n", $1, $2, r[1], r[2], r[3], w[1], w[2]}' "$results"
for cc in $compilers; do
  g=$(awk -v cc=$cc '$2 == cc {split($(NF-2), r, "/"); print r[1]}' "$results" | geomean)
  wins=$(awk -v cc=$cc '$2 == cc {split($(NF-1), w, "/"); f += w[1]; n += w[2]} END {printf "%d of %d", f, n}' "$results")
  echo "  $cc: geomean of the medians $g; xprof faster in $wins rounds"
done
echo
echo "the second measured workload (run2), CPU time in the same round:"
echo
echo "| program | compiler | plain (CPU s) | native use / plain | xprof use / plain | xprof use / native use | rounds xprof faster |"
echo "|---|---|---|---|---|---|---|"
awk '{split($4, n, "/"); split($5, x, "/"); split($6, r, "/"); split($7, w, "/");
      printf "| %s | %s | %.3f | %.3f (%.3f-%.3f) | %.3f (%.3f-%.3f) | %.3f (%.3f-%.3f) | %d of %d |\n",
             $1, $2, $3, n[1], n[2], n[3], x[1], x[2], x[3], r[1], r[2], r[3], w[1], w[2]}' "$results.second"
for cc in $compilers; do
  g=$(awk -v cc=$cc '$2 == cc {split($6, r, "/"); print r[1]}' "$results.second" | geomean)
  wins=$(awk -v cc=$cc '$2 == cc {split($7, w, "/"); f += w[1]; n += w[2]} END {printf "%d of %d", f, n}' "$results.second")
  echo "  $cc: geomean of the medians $g; xprof faster in $wins rounds"
done
if [ $callgrind = 1 ]; then
  # Instructions are repeatable where CPU times on a shared machine are
  # not: the same comparison, counted by callgrind.
  echo
  echo "instructions (callgrind, the whole measured run, ratio to plain):"
  echo
  echo "| program | compiler | plain | native gen | native gen, atomic | xprof collect (exact) | xprof collect ($second_name) | native use | xprof use |"
  echo "|---|---|---|---|---|---|---|---|---|"
  awk '{n = split($NF, v, "/"); if (n < 7 || v[1] == "") next;
        printf "| %s | %s | %.3g |", $1, $2, v[1];
        for (i = 2; i <= 7; i++) printf " %.3f |", v[i] / v[1]; printf "\n"}' "$results"
  for cc in $compilers; do
    line="  $cc geomeans:"
    for i in 2 3 4 5 6 7; do
      g=$(awk -v cc=$cc -v i=$i '$2 == cc {split($NF, v, "/"); if (v[1] != "") print v[i] / v[1]}' "$results" | geomean)
      line="$line $g"
    done
    echo "$line (native gen, native gen atomic, xprof exact, xprof $second_name, native use, xprof use)"
  done
fi
if [ "$churn_rounds" -gt 0 ]; then
  . "$here/churn.sh"
  for cc in $compilers; do
    echo
    churn_measure "$cc" "$churn_rounds" "$churn_funcs" "$work/churn-$cc"
  done
fi
