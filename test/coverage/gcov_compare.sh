#!/usr/bin/env bash
# gcov_compare.sh [--quick] [PROGRAM...]: xprof's line counts against gcov's on real
# programs from Debian's sources (bzip2, lua, sqlite and zstd by default;
# fetched with apt-get source into build/bench-sources, as the benchmarks
# fetch them).
# Each program is built twice at -O0 and at -O2 -- with gcc --coverage,
# and with xprof-gcc -xprofile=tcov -- and run on the same workload; gcov's
# listings are compared with xprof_tcov --lcov line by line
# (compare-gcov.py).  Exit status 1 when any line differs but for what
# differs by definition (below).  --quick (the test suite's) builds each
# program at one level: bzip2 at both, lua and sqlite (the largest) at
# -O0, zstd at -O2.
# Environment: BUILD (default build), BENCH_SOURCES.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${BUILD:-$root/build}" && pwd)
src=${BENCH_SOURCES:-$build/bench-sources}
quick=0
if [ "${1:-}" = --quick ]; then quick=1; shift; fi
programs=${*:-bzip2 lua sqlite zstd}
export PATH=$build/tools:$PATH
PROGRAMS="$programs" bash "$root/bench/programs/fetch.sh" "$src"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
awk -v seed=11 -v words=20000 -f "$root/bench/workloads/gendata.awk" > "$work/in.txt"
awk -v seed=22 -v rows=800 -v kind=run -f "$root/bench/workloads/gensql.awk" > "$work/in.sql"

# build PROGRAM DIR CC FLAGS: the program's sources into DIR, built.
build() {
  mkdir -p "$2"
  case $1 in
    bzip2)
      cp -r "$src/bzip2/." "$2/"
      make -s -C "$2" CC="$3" CFLAGS="$4 -D_FILE_OFFSET_BITS=64" bzip2 >/dev/null 2>&1 ;;
    lua)
      cp -r "$src/lua/src/." "$2/"
      make -s -C "$2" CC="$3" MYLDFLAGS="$4" \
        CFLAGS="$4 -DLUA_COMPAT_5_3 -DLUA_USE_POSIX '-Dluai_makeseed(L)=0x2545f491u'" \
        lua >/dev/null ;;
    sqlite)
      cp "$src/sqlite/sqlite3.c" "$src/sqlite/sqlite3.h" "$src/sqlite/shell.c" "$2/"
      (cd "$2" && $3 $4 -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION -c sqlite3.c shell.c &&
       $3 $4 sqlite3.o shell.o -o sqlite3 -lm) ;;
    zstd)
      cp -r "$src/zstd/lib" "$src/zstd/programs" "$2/"
      (cd "$2" && for f in lib/common/*.c lib/compress/*.c lib/decompress/*.c \
                              lib/dictBuilder/*.c programs/*.c; do
         $3 $4 -DZSTD_DISABLE_ASM -DZSTD_NOTRACE -Ilib -Ilib/common \
           -c "$f" -o "$(echo "${f%.c}" | tr / _).o" || exit 1
       done && $3 $4 ./*.o -o zstd) ;;
  esac
}
# workload PROGRAM DIR: the same runs for both builds.
workload() {
  case $1 in
    bzip2) (cd "$2" && ./bzip2 -9 -c "$work/in.txt" > out.bz2 && ./bzip2 -dc out.bz2 | cmp - "$work/in.txt" &&
            ./bzip2 -1 -c "$work/in.txt" > out1.bz2 && ./bzip2 -t out1.bz2) ;;
    # Without the collector: when it runs depends on how long the paths
    # in the program's strings are, and lua's counts with it.
    lua) (cd "$2" && ./lua -e "collectgarbage('stop')" "$root/bench/workloads/train.lua" 1 >/dev/null) ;;
    sqlite) (cd "$2" && ./sqlite3 :memory: < "$work/in.sql" >/dev/null) ;;
    zstd) (cd "$2" && ./zstd -q -3 -c "$work/in.txt" > out.zst && ./zstd -q -dc out.zst | cmp - "$work/in.txt") ;;
  esac
}

# differ_by_definition PROGRAM OPT: compare-gcov.py's options for what the
# two builds do not count alike.  lua: its API's cache of C strings
# (lstring.c, luaS_new) is keyed by their addresses, which differ between
# the builds, and so do the counts of the string functions; gcov leaves a
# setjmp's second return out of the line that calls it (ldo.c:144,
# LUAI_TRY), xprof counts it.
differ_by_definition() {
  case $1 in
    lua) echo "--ignore lstring.c --ignore ldo.c:144" ;;
  esac
}

status=0 verdicts=""
for p in $programs; do
  for opt in -O0 -O2; do
    if [ $quick = 1 ]; then
      case $p$opt in lua-O2 | sqlite-O2 | zstd-O0) continue ;; esac
    fi
    # Both builds in the same directory, one after the other: the
    # programs' runs must not differ (lua's strings include its path).
    d=$work/$p g=$work/$p$opt.gcov
    rm -rf "$d" && build "$p" "$d" gcc "$opt --coverage"
    workload "$p" "$d"
    mkdir -p "$g" && (cd "$d" && gcov -o . ./*.gcda >/dev/null 2>&1 && mv ./*.gcov "$g/")
    rm -rf "$d" && build "$p" "$d" xprof-gcc "$opt -xprofile=tcov:$work/run"
    workload "$p" "$d"
    xprof_tcov --lcov "$work/run.info" -x "$work/run.profile"
    out=$(GCOV_SOURCE_DIR=$d python3 "$here/compare-gcov.py" $(differ_by_definition "$p" "$opt") \
      "$work/run.info" "$g"/*.gcov) || status=1
    echo "$out" | tail -n +2 # the differences, then all the verdicts at the end
    verdicts+="$p $opt: $(echo "$out" | head -1)"$'\n'
    rm -rf "$work/run.profile"
  done
done
printf '%s' "$verdicts"
exit $status
