#!/usr/bin/env bash
# A large program against the anchors of issue 63: the PostgreSQL 15
# server (Debian's postgresql-15 sources, about 5 MB of code), built the
# way its own documentation builds it (./configure; make; the compiler's
# options in PROFILE, which the Makefiles add to every compile and link),
# trained on its own regression suite (make check: initdb, a server and
# the 200-odd tests, processes forked by the server and writing their
# profiles at the same time), and measured on a workload the training
# never runs (bench/workloads/postgres-work.sql: pgbench-style
# transactions in PL/pgSQL, then sorts, joins, aggregates, window
# functions), run by "postgres --single" on a fresh copy of one data
# directory.
#
#   bench/bench_postgres.sh [--compilers "gcc clang"] [--rounds N] [--scale N]
#                           [--no-bolt] [--no-cachegrind] [--reuse]
#
# Rows per compiler, all from the same training:
#   plain    ./configure's -O2
#   native   the compiler's own PGO (-fprofile-generate, -fprofile-use)
#   bolt     native's profile used again, linked with --emit-relocs (GCC:
#            -fno-reorder-blocks-and-partition, which BOLT cannot take),
#            then llvm-bolt-16 instrumented, trained on the same suite and
#            applied as CPython's --enable-bolt does (lib.sh bolt_optimize),
#            but without the profile of indirect calls (see build)
#   lld      (clang) native's objects linked by lld, which sorts the
#            functions by the call-graph profile clang leaves in them
#   xprof    xprof-CC's use build (-xprofile=collect, -xprofile=use): its
#            objects compiled with -xprofile_order, linked without it,
#            which lays them out as a use build without the option would
#            (the functions the compiler calls hot in .text.hot)
#   order    the same objects linked with -xprofile_order
# Prints each row's regression-suite result (the use builds' suite is run
# once more on the use build), CPU time of the workload (median of
# paired rounds, least of BENCH_REPEATS runs each) and its ratio to
# native (range, rounds faster), I1 misses and instructions of one run at
# scale 1 under cachegrind's cache simulation, code (.text*) and file
# bytes, and the CPU time of xprof's link of postgres without and with
# the order (LINK_ROUNDS rounds, default 5).
#
# PostgreSQL will not run as root: run as root, the script installs what
# it needs, then runs itself again as the user BENCH_USER (default
# xprofbench, created without a home or a shell).  Everything stays in
# $BENCH_WORK (default: a temporary directory, printed at the end);
# --reuse takes the builds a run left there.  About 60 minutes a compiler
# on 2 cores, most of it builds and training.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
compilers="gcc clang" rounds=11 scale=2 bolt=1 cachesim=1 reuse=0
link_rounds=${LINK_ROUNDS:-5}
args=("$@")
while (($#)); do
  case $1 in
    --compilers) compilers=$2; shift ;;
    --rounds) rounds=$2; shift ;;
    --scale) scale=$2; shift ;;
    --no-bolt) bolt=0 ;;
    --no-cachegrind) cachesim=0 ;;
    --reuse) reuse=1 ;;
    *) echo "usage: bench_postgres.sh [--compilers LIST] [--rounds N] [--scale N] [--no-bolt] [--no-cachegrind] [--reuse]" >&2; exit 2 ;;
  esac
  shift
done
work=${BENCH_WORK:-$(mktemp -d)}
mkdir -p "$work"
export PATH=$PATH:/usr/lib/llvm-14/bin

# fetch: PostgreSQL's sources in $work/src.
fetch() { deb_source "$work" postgresql-15; }

if [ "$(id -u)" -eq 0 ]; then
  ensure_debs bison flex valgrind
  ((bolt)) && ensure_debs bolt-16
  [[ " $compilers " == *" clang "* ]] && ensure_debs lld
  fetch
  user=${BENCH_USER:-xprofbench}
  id -u "$user" > /dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$user"
  chown -R "$user" "$work"
  exec runuser -u "$user" -- env PATH="$PATH" BUILD="$build" BENCH_WORK="$work" \
    BENCH_REPEATS="$repeats" LINK_ROUNDS="$link_rounds" bash "$0" "${args[@]}"
fi
fetch

# pg_bin DIR: where DIR's temporary installation keeps its programs.
pg_bin() { echo "$1/tmp_install/usr/local/pgsql/bin"; }

# make_tree DIR PROFILE [MAKE-ARGS]: make in DIR with PROFILE added to
# every compile and link; the commands go to DIR/build.log.  Returns
# make's status.
make_tree() {
  local d=$1 profile=$2
  shift 2
  (cd "$d" && make -j"$(nproc)" PROFILE="$profile" "$@" >> build.log 2>&1)
}

# configure_tree DIR CC: a fresh copy of the sources in DIR, configured for
# the compiler (driver) CC.
configure_tree() {
  rm -rf "$1" && cp -r "$work/src" "$1"
  (cd "$1" && ./configure -q --without-readline --without-zlib --without-icu CC="$2" \
     > build.log 2>&1)
}

# rebuild DIR PROFILE: everything compiled again with PROFILE, and the
# temporary installation made again from it.  make clean, because
# PostgreSQL's Makefiles make every target .SECONDARY (an object deleted
# is not made again while what it went into is newer than its source);
# the profiles the training left stay (clean removes GCC's .gcda files:
# they are put back).
rebuild() {
  (cd "$1" && find . -name '*.gcda' -print0 > gcda.list &&
     tar -cf gcda.tar --null -T gcda.list && make clean > /dev/null 2>&1 && tar -xf gcda.tar) ||
    return 1
  make_tree "$1" "$2" && (cd "$1" && make temp-install PROFILE="$2" >> build.log 2>&1)
}

# trained DIR: did a run before this one train DIR (--reuse)?
trained() { [ $reuse = 1 ] && grep -qs "^trained$" "$1/stamp"; }

# regress DIR [MAKE-ARGS]: the regression suite on DIR's temporary
# installation (make check); prints pg_regress's verdict.
regress() {
  local d=$1; shift
  (cd "$d" && make check "$@" > "$d/check.log" 2>&1) || true
  grep -E 'tests passed|tests failed|failed \(ignored\)' "$d/check.log" | tail -1 | tr -d '=#' |
    sed 's/^ *//' || echo "the suite did not run ($d/check.log)"
}

# native_train DIR CC: DIR (configured) built with CC's own
# instrumentation and trained; the profile stays in DIR.  libpq's build
# checks that it calls no exit function, which the compilers' profiling
# runtimes do (libgcov calls exit): enable_coverage=yes skips the check,
# as PostgreSQL's Makefile does for its own profiling builds.  xprof's
# runtime passes it.
native_train() {
  local d=$1 cc=$2
  if [ "$cc" = gcc ]; then
    make_tree "$d" "-fprofile-generate" enable_coverage=yes || return 1
  else
    make_tree "$d" "-fprofile-generate=$d/prof" enable_coverage=yes || return 1
  fi
  echo "  $cc native training: $(regress "$d" enable_coverage=yes)"
  if [ "$cc" = clang ]; then
    llvm-profdata merge -o "$d/pg.profdata" "$d"/prof/*.profraw
  fi
}

# native_use_flags CC DIR: the options of CC's own profile use.
native_use_flags() {
  if [ "$1" = gcc ]; then echo "-fprofile-use -Wno-missing-profile"
  else echo "-fprofile-use=$2/pg.profdata -Wno-profile-instr-unprofiled -Wno-profile-instr-out-of-date"; fi
}

# link_cmd DIR: the command that linked postgres in DIR (from its
# build.log), run in DIR/src/backend.
link_cmd() { grep -E ' -o postgres$' "$1/build.log" | tail -1; }

# relink DIR OUT EXTRA: postgres linked again from DIR's objects as OUT
# (in DIR/src/backend), without the build's -xprofile_order, EXTRA added.
relink() {
  local cmd
  cmd=$(link_cmd "$1")
  [ -n "$cmd" ] || return 1
  cmd=${cmd// -xprofile_order/}
  (cd "$1/src/backend" && eval "${cmd% -o postgres} $3 -o $2" >> "$1/relink.log" 2>&1)
}

# copy_native CC DIR: native's tree (its objects, profile and temporary
# installation) copied to DIR, for a row that builds on it.  configure
# wrote the tree's own path into Makefile.global, which the copy's make
# would otherwise install into (native's temporary installation); and
# the copy's stamp is native's, gone until the row is done, so that
# --reuse does not take an interrupted row as built.
copy_native() {
  local from=$work/native-$1 d=$2
  rm -rf "$d" && cp -r "$from" "$d" && rm -f "$d/stamp" &&
    sed -i "s|^\(abs_top_[a-z]*dir = \)$from\$|\1$d|" "$d/src/Makefile.global" &&
    grep -q "^abs_top_builddir = $d\$" "$d/src/Makefile.global"
}

# build KIND CC: the row KIND of compiler CC in $work/KIND-CC.
build() {
  local kind=$1 cc=$2 d=$work/$1-$2 flags
  [ $reuse = 1 ] && grep -qs "^built$" "$d/stamp" && return 0
  case $kind in
    plain)
      configure_tree "$d" "$cc" && make_tree "$d" "" &&
        (cd "$d" && make temp-install >> build.log 2>&1) || return 1 ;;
    native)
      if ! trained "$d"; then
        configure_tree "$d" "$cc" && native_train "$d" "$cc" || return 1
        echo trained > "$d/stamp"
      fi
      rebuild "$d" "$(native_use_flags "$cc" "$d")" || return 1 ;;
    bolt)
      # native's training, used again with what BOLT needs
      copy_native "$cc" "$d" && : > "$d/build.log" || return 1
      flags="$(native_use_flags "$cc" "$d") -Wl,--emit-relocs"
      [ "$cc" = gcc ] && flags="$flags -fno-reorder-blocks-and-partition"
      rebuild "$d" "$flags" || return 1
      # Without BOLT's profile of indirect calls: with it, llvm-bolt-16's
      # instrumented server had a backend crash (SIGSEGV) and others spin
      # in place, and most of the suite failed (the cause not found: its
      # runtime keeps the calls in a table of its own, where the others
      # are plain counters); without it the whole suite passes.  BOLT's
      # order of functions then lacks the indirect calls' edges.
      BOLT_INSTRUMENT_FLAGS=--instrument-calls=false \
        bolt_optimize "$(pg_bin "$d")/postgres" "$d" regress "$d" NO_TEMP_INSTALL=1 || return 1
      echo "  $cc bolt build: $(regress "$d" NO_TEMP_INSTALL=1)" ;;
    lld)
      copy_native "$cc" "$d" || return 1
      relink "$d" postgres-lld "$(native_use_flags "$cc" "$d") -fuse-ld=lld" &&
        cp "$d/src/backend/postgres-lld" "$(pg_bin "$d")/postgres" || return 1 ;;
    xprof)
      if ! trained "$d"; then
        configure_tree "$d" "xprof-$cc" && make_tree "$d" "-xprofile=collect:$d/train" || return 1
        echo "  $cc xprof training: $(regress "$d")"
        echo trained > "$d/stamp"
      fi
      rebuild "$d" "-xprofile=use:$d/train -xprofile_order" || return 1
      # The installation has the ordered postgres; the same objects
      # linked without the order are the xprof row.
      cp "$d/src/backend/postgres" "$(pg_bin "$d")/postgres-order"
      relink "$d" postgres-unordered "-xprofile=use:$d/train" &&
        cp "$d/src/backend/postgres-unordered" "$(pg_bin "$d")/postgres" || return 1
      echo "  $cc xprof use build: $(regress "$d" NO_TEMP_INSTALL=1)" ;;
  esac
  echo built > "$d/stamp"
}

# postgres_of KIND CC: the server of row KIND.
postgres_of() {
  case $1 in
    order) echo "$(pg_bin "$work/xprof-$2")/postgres-order" ;;
    *) echo "$(pg_bin "$work/$1-$2")/postgres" ;;
  esac
}

# workload SCALE: the measured SQL at that scale, in $work/work-SCALE.sql.
workload() {
  sed "s/@SCALE@/$1/g" "$root/bench/workloads/postgres-work.sql" > "$work/work-$1.sql"
}

# serve BIN SCALE: the workload run by BIN in single-user mode on the data
# directory $work/data (made by prepare_data); the results on stdout.
serve() { "$1" --single -j -F -D "$work/data" postgres < "$work/work-$2.sql" 2> /dev/null; }
prepare_data() { rm -rf "$work/data" && cp -a "$work/data-template" "$work/data"; }

# cache_sim BIN: "I1-misses instructions" of one run at scale 1.
cache_sim() {
  prepare_data
  valgrind --tool=cachegrind --cache-sim=yes --cachegrind-out-file=/dev/null \
    "$1" --single -j -F -D "$work/data" postgres < "$work/work-1.sql" 2>&1 >/dev/null |
    awk '/I1  misses:/ {gsub(",", "", $NF); m = $NF} /I   refs:/ {gsub(",", "", $NF); r = $NF}
         END {print m, r}'
}

# measure CC KINDS...: the rows of compiler CC.
measure() {
  local cc=$1 k names=() expected m lo hi r rlo rhi won i1 ir bin
  shift
  for k in "$@"; do
    eval "run_$k-$cc() { serve $(postgres_of "$k" "$cc") $scale; }"
    eval "prepare_$k-$cc() { prepare_data; }"
    names+=("$k-$cc")
    rm -f "$work/times.$k-$cc"
  done
  prepare_data; expected=$(serve "$(postgres_of plain "$cc")" "$scale")
  for k in "$@"; do
    prepare_data
    [ "$(serve "$(postgres_of "$k" "$cc")" "$scale")" = "$expected" ] ||
      echo "  $cc $k: the workload's output DIFFERS"
  done
  time_runs "$rounds" "${names[@]}"
  echo "| compiler | build | CPU ms: median (range) | / native: median (range) | rounds faster than native | I1 misses | instructions | code | file |"
  echo "|---|---|---|---|---|---|---|---|---|"
  for k in "$@"; do
    bin=$(postgres_of "$k" "$cc") won= i1= ir=
    read -r m lo hi < <(stats < "$work/times.$k-$cc")
    read -r r rlo rhi < <(ratio_stats "$k-$cc" "native-$cc")
    [ "$k" != native ] && won="$(rounds_faster "$k-$cc" "native-$cc") of $rounds"
    ((cachesim)) && read -r i1 ir < <(cache_sim "$bin")
    printf '| %s | %s | %.0f (%.0f-%.0f) | %s (%s-%s) | %s | %s | %s | %s | %s |\n' "$cc" "$k" \
      "$(awk -v v="$m" 'BEGIN {print v * 1000}')" "$(awk -v v="$lo" 'BEGIN {print v * 1000}')" \
      "$(awk -v v="$hi" 'BEGIN {print v * 1000}')" "$r" "$rlo" "$rhi" "$won" "$i1" "$ir" \
      "$(text_bytes "$bin")" "$(stat -c %s "$bin")"
  done
  read -r r rlo rhi < <(ratio_stats "order-$cc" "xprof-$cc")
  echo "  $cc order / xprof: $r ($rlo-$rhi), faster in $(rounds_faster "order-$cc" "xprof-$cc") of $rounds"
}

# link_times CC: CPU time of xprof's link of postgres without and with the
# order, on the same objects.
link_times() {
  local cc=$1 d=$work/xprof-$1 a b r lo hi
  eval "run_link-$cc() { relink $d postgres-t1 '-xprofile=use:$d/train'; }"
  eval "run_link-order-$cc() { relink $d postgres-t2 '-xprofile=use:$d/train -xprofile_order'; }"
  rm -f "$work/times.link-$cc" "$work/times.link-order-$cc"
  time_runs "$link_rounds" "link-$cc" "link-order-$cc"
  read -r a _ _ < <(stats < "$work/times.link-$cc")
  read -r b _ _ < <(stats < "$work/times.link-order-$cc")
  read -r r lo hi < <(ratio_stats "link-order-$cc" "link-$cc")
  printf '  %s link CPU ms: use %.0f, use + order %.0f; order / use %s (%s-%s), %s rounds\n' "$cc" \
    "$(awk -v v="$a" 'BEGIN {print v * 1000}')" "$(awk -v v="$b" 'BEGIN {print v * 1000}')" \
    "$r" "$lo" "$hi" "$link_rounds"
}

workload "$scale"; workload 1
for cc in $compilers; do
  kinds=(plain native)
  ((bolt)) && kinds+=(bolt)
  [ "$cc" = clang ] && kinds+=(lld)
  kinds+=(xprof)
  # xprof's build first: the rows after it copy or share nothing of it,
  # and a failure shows before the anchors' builds.
  ok=1
  for k in xprof "${kinds[@]/xprof}"; do
    [ -n "$k" ] || continue
    build "$k" "$cc" || { echo "  $cc $k: the build FAILED ($work/$k-$cc/build.log)"; ok=0; break; }
  done
  ((ok)) || continue
  if [ ! -d "$work/data-template" ]; then
    "$(pg_bin "$work/plain-$cc")/initdb" -D "$work/data-template" -A trust -U postgres \
      --no-sync > "$work/initdb.log" 2>&1
  fi
  measure "$cc" "${kinds[@]}" order
  link_times "$cc"
  echo "  $cc xprof warnings: $(grep -c 'warning: xprof' "$work/xprof-$cc/build.log" || true)"
done
echo "work: $work"
