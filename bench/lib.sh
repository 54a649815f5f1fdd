# lib.sh - helpers shared by the benchmark scripts (sourced).

# Where things are: here (bench/), root (the source tree), build (BUILD,
# default build/), whose tools go first on PATH.  Paths a user gives are
# made absolute here: the scripts build and run in other directories.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
build=$(realpath -m "${BUILD:-$root/build}")
export PATH=$build/tools:$PATH

# now: seconds since the epoch, with microseconds.
now() { echo "$EPOCHREALTIME"; }

# median and range of numbers on stdin: "median min max"
stats() { sort -g | awk '{v[NR]=$1} END {m=(NR%2)?v[(NR+1)/2]:(v[NR/2]+v[NR/2+1])/2; printf "%.4f %.4f %.4f\n", m, v[1], v[NR]}'; }

# time_runs ROUNDS NAME... : run "run_NAME" for each variant, rounds
# alternating between the variants (rotating the order), and leave the
# times in $work/times.NAME, a line per round.  The time is the CPU time
# (user + system) of the run's processes: the programs are single-threaded,
# and on a shared virtual machine the time a run waits for a processor
# (other guests, other processes) is most of what wall times add.
#
# Within a round each variant runs $repeats times (BENCH_REPEATS, default
# 3; the scripts' --repeats), the passes interleaved, and the round keeps
# its least time: what the machine does beside a run (other guests taking
# the caches, the memory bus, the core's other thread) only ever adds
# CPU time, so the least of a few runs is the one nearest the program's
# own cost, and a round's ratio is less often decided by which run was
# hit (bench_noise.sh measures how much less, on the machine at hand).
# A variant's "prepare_NAME", where a script defines one, runs before
# each of its runs, untimed (a fresh data directory, say).
repeats=${BENCH_REPEATS:-3}
time_runs() {
  local rounds=$1; shift
  local names=("$@") n=${#@} r i k p t TIMEFORMAT='%3U %3S'
  declare -A least
  for ((r = 0; r < rounds; r++)); do
    least=()
    for ((p = 0; p < repeats; p++)); do
      for ((i = 0; i < n; i++)); do
        k=${names[$(((i + r + p) % n))]}
        ! declare -F "prepare_$k" > /dev/null || "prepare_$k"
        # time's report goes to the file, the run's own errors to ours
        { time "run_$k" >/dev/null 2>&3; } 3>&2 2> "$work/time.tmp"
        t=$(awk '{printf "%.6f", $1 + $2}' "$work/time.tmp")
        if [ -z "${least[$k]:-}" ] || awk -v a="$t" -v b="${least[$k]}" 'BEGIN {exit !(a < b)}'; then
          least[$k]=$t
        fi
      done
    done
    for k in "${names[@]}"; do echo "${least[$k]}" >> "$work/times.$k"; done
  done
}

# build_time ROUNDS COMMAND...: run COMMAND (a build) ROUNDS times and
# print the median of its CPU time (user + system of all its processes,
# both jobs of a -j2 build included): what the compiler costs, which the
# wall time of one build on a shared machine did not tell within 0.3x.
# The first round's errors go to ours, the others' nowhere (the same).
build_time() {
  local rounds=$1 r TIMEFORMAT='%3U %3S'
  shift
  for ((r = 0; r < rounds; r++)); do
    if ((r == 0)); then
      { time "$@" 2>&3; } 3>&2 2> "$work/btime.tmp"
    else
      { time "$@" 2>/dev/null; } 2> "$work/btime.tmp"
    fi
    awk '{printf "%.6f\n", $1 + $2}' "$work/btime.tmp"
  done | stats | cut -d' ' -f1
}

# ratio_stats NAME BASE: "median min max" of NAME's time over BASE's in
# the same round.  Pairing by round takes out what drifts between rounds
# (the machine slowing down for a while hits both).
ratio_stats() {
  paste "$work/times.$1" "$work/times.$2" | awk '{printf "%.6f\n", $1 / $2}' | stats
}

# report_row LABEL NAME PLAIN USE: a row of CPU ms (median, range) of
# NAME's rounds, and its ratios to PLAIN's and USE's.
report_row() {
  local med lo hi r rlo rhi u ulo uhi
  read -r med lo hi < <(stats < "$work/times.$2")
  read -r r rlo rhi < <(ratio_stats "$2" "$3")
  read -r u ulo uhi < <(ratio_stats "$2" "$4")
  printf '  %-8s %8.1f (%.1f-%.1f)  / plain %s (%s-%s)  / use %s (%s-%s)\n' "$1" \
    "$(awk -v v="$med" 'BEGIN {print v * 1000}')" "$(awk -v v="$lo" 'BEGIN {print v * 1000}')" \
    "$(awk -v v="$hi" 'BEGIN {print v * 1000}')" "$r" "$rlo" "$rhi" "$u" "$ulo" "$uhi"
}

# rounds_faster NAME OTHER: in how many rounds NAME took less CPU time
# than OTHER.
rounds_faster() {
  paste "$work/times.$1" "$work/times.$2" | awk '$1 < $2 {n++} END {print n+0}'
}

geomean() { awk '{s+=log($1); n++} END {if (n) printf "%.3f\n", exp(s/n)}'; }

# ensure_deb_src: a deb-src entry for bookworm main, so that apt-get
# source works (added when there is none; needs root or sudo).
ensure_deb_src() {
  grep -rqs "^Types:.*deb-src" /etc/apt/sources.list.d/ && return 0
  grep -qs "^deb-src" /etc/apt/sources.list && return 0
  local sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' |
    $sudo tee /etc/apt/sources.list.d/xprof-bench-src.sources >/dev/null
  $sudo apt-get update -qq
}

# deb_source DIR PACKAGE: Debian's source package PACKAGE downloaded into
# DIR/dl and its upstream tarball unpacked into DIR/src; nothing done when
# DIR/src has a configure script already.
deb_source() {
  [ -x "$1/src/configure" ] && return 0
  ensure_deb_src
  mkdir -p "$1/dl" "$1/src"
  (cd "$1/dl" && apt-get source --download-only -qq "$2" 2>&1 |
     grep -v '^W: Download is performed unsandboxed' || true)
  tar -xf "$(ls "$1/dl/$2"_*.orig.tar.* | head -1)" -C "$1/src" --strip-components=1
}

# text_bytes FILE: its code, every .text section (-xprofile_order adds
# .text.xprof; BOLT's output keeps the original beside the new as
# .bolt.org.text, not counted).
text_bytes() { size -A "$1" | awk '$1 ~ /^\.text/ {s += $2} END {print s}'; }

# ensure_debs PACKAGE...: install the Debian packages that are missing
# (needs root or sudo).
ensure_debs() {
  local missing=() p sudo=""
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$p")
  done
  ((${#missing[@]})) || return 0
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
}

# xprof_debug_flags COMPILER: the plugin options that put a debug counter
# on every edge and dump each object's CFG beside it (OBJECT.xpcfg).
xprof_debug_flags() {
  if [ "$1" = gcc ]; then
    echo "-fplugin-arg-xprof-all-edges -fplugin-arg-xprof-cfg-dump"
  else
    echo "-mllvm -xprof-all-edges -mllvm -xprof-cfg-dump"
  fi
}

# verify_tree DIR PROFILE: xprof_verify on every CFG dump under DIR but
# configure's probes (they share one object name, so a probe's dump need
# not be the one whose program ran); the full output goes to
# DIR/verify.log, messages to DIR/verify.err; prints its summary line,
# "N procedures (M never run), K edges checked: all exact" (or MISMATCHES).
verify_tree() {
  find "$1" -name '*.xpcfg' ! -name 'conftest*' -print0 |
    xargs -0 xprof_verify "$2" 2>"$1/verify.err" | tee "$1/verify.log" | tail -1
}

# bolt_optimize BIN DIR TRAIN...: BIN (linked with --emit-relocs) rewritten
# in place by llvm-bolt-16 as CPython's --enable-bolt runs it: instrumented,
# the command TRAIN run with it (each process writes its own data into
# DIR; merged), then ext-TSP blocks, hfsort+ functions and split
# functions.  The original stays as BIN.orig; logs in DIR.
# BOLT_INSTRUMENT_FLAGS: more options for the instrumentation.
bolt_optimize() {
  local b=$1 d=$2 bolt=${BOLT:-llvm-bolt-16} merge=${MERGE_FDATA:-/usr/lib/llvm-16/bin/merge-fdata}
  local more=${BOLT_INSTRUMENT_FLAGS:-}
  # llvm-bolt-16 looks for its instrumentation runtime under the lib
  # directory beside its bin (/usr/lib here), not LLVM 16's own.
  local rt=${BOLT_RT_LIB:-llvm-16/lib/libbolt_rt_instr.a}
  shift 2
  rm -f "$d"/bolt.fdata*
  [ -f "$b" ] || { echo "bolt_optimize: no $b" >&2; return 1; }
  "$bolt" "$b" -instrument -instrumentation-file="$d/bolt.fdata" \
    -instrumentation-file-append-pid -runtime-instrumentation-lib="$rt" $more -o "$b.inst" \
    > "$d/bolt-instrument.log" 2>&1 || { echo "bolt_optimize: see $d/bolt-instrument.log" >&2; return 1; }
  mv "$b" "$b.orig"
  cp "$b.inst" "$b"
  "$@" > /dev/null || true
  "$merge" "$d"/bolt.fdata.* > "$d/bolt.fdata" 2> /dev/null
  "$bolt" "$b.orig" -o "$b" -data="$d/bolt.fdata" -reorder-blocks=ext-tsp \
    -reorder-functions=hfsort+ -split-functions -split-all-cold -split-eh -dyno-stats \
    > "$d/bolt-apply.log" 2>&1 || { echo "bolt_optimize: see $d/bolt-apply.log" >&2; return 1; }
}
