# programs.sh - the benchmark programs, sourced by the bench scripts that
# build them (bench_programs.sh, bench_salvage.sh, bench_afdo.sh, ...):
# their sources (fetched with apt-get source, never committed), inputs,
# builds and runs, and their time samples (take_samples).  Expects: here,
# root, programs, quick (1: small inputs).  Sets work (a scratch
# directory, removed at exit unless BENCH_KEEP=1), src, wl, jobs.

src=${BENCH_SOURCES:-${BUILD:-$root/build}/bench-sources}
PROGRAMS="$programs" bash "$here/programs/fetch.sh" "$src"
work=$(mktemp -d)
# BENCH_KEEP=1 keeps the builds and inputs for a closer look (the path is
# printed at the end).
if [ "${BENCH_KEEP:-0}" = 1 ]; then
  trap 'echo "builds kept in $work" >&2' EXIT
else
  trap 'rm -rf "$work"' EXIT
fi
wl=$here/workloads
jobs=$(nproc)

# ---- inputs -----------------------------------------------------------------
scale=$([ $quick = 1 ] && echo 1 || echo 6)
awk -v seed=11 -v words=$((60000 * scale)) -f "$wl/gendata.awk" > "$work/train.txt"
awk -v seed=12 -v words=$((150000 * scale)) -f "$wl/gendata.awk" > "$work/run.txt"
awk -v seed=21 -v rows=$((1500 * scale)) -v kind=train -f "$wl/gensql.awk" > "$work/train.sql"
awk -v seed=22 -v rows=$((2500 * scale)) -v kind=run -f "$wl/gensql.awk" > "$work/run.sql"
# The second measured workload (run2): other code paths than training and
# run -- numbers for the compressors, text, window functions and triggers
# for sqlite, patterns and coroutines for lua (workloads/run2.lua).
awk -v seed=31 -v rows=$((15000 * scale)) -f "$wl/gencsv.awk" > "$work/run2.txt"
awk -v seed=23 -v rows=$((2500 * scale)) -v kind=run2 -f "$wl/gensql.awk" > "$work/run2.sql"

# ---- building -------------------------------------------------------------
# build_PROG DIR CC FLAGS: FLAGS go to every compile and link.  A rebuild
# in place (use after training) keeps the profile data, not the objects.
clean_objects() { find "$1" \( -name '*.o' -o -name '*.a' \) -delete; }
# edit_sources PROG DIR: called by each build after it copies the
# sources into DIR; bench_salvage.sh edits them there.
edit_sources() { :; }
# Lua seeds its string hashes with the time and the addresses of a heap
# block, a stack slot and a function (which differ between builds): the
# instructions of the same build moved by about 1% between runs and
# builds.  A fixed seed makes them measure the code.
build_lua() {
  clean_objects "$1"
  cp -r "$src/lua/src/." "$1/"
  edit_sources lua "$1"
  make -s -C "$1" -j"$jobs" CC="$2" \
    CFLAGS="-O2 -DLUA_COMPAT_5_3 -DLUA_USE_POSIX '-Dluai_makeseed(L)=0x2545f491u' $3" \
    MYLDFLAGS="$3" lua >/dev/null
}
build_bzip2() {
  clean_objects "$1"
  cp -r "$src/bzip2/." "$1/"
  edit_sources bzip2 "$1"
  make -s -C "$1" -j"$jobs" CC="$2" CFLAGS="-O2 -D_FILE_OFFSET_BITS=64 $3" bzip2 >/dev/null 2> "$1/build.err" ||
    { cat "$1/build.err" >&2; return 1; }
  # bzip2 warns about its own code: only what xprof says goes on
  grep "xprof" "$1/build.err" >&2 || true
}
build_sqlite() {
  clean_objects "$1"
  cp "$src/sqlite/sqlite3.c" "$src/sqlite/sqlite3.h" "$src/sqlite/shell.c" "$1/"
  edit_sources sqlite "$1"
  (
    cd "$1"
    $2 -O2 $3 -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION -c sqlite3.c -o sqlite3.o &
    $2 -O2 $3 -DSQLITE_THREADSAFE=0 -DSQLITE_OMIT_LOAD_EXTENSION -c shell.c -o shell.o
    wait $!
    $2 $3 sqlite3.o shell.o -o sqlite3 -lm
  )
}
build_zstd() {
  clean_objects "$1"
  cp -r "$src/zstd/lib" "$src/zstd/programs" "$1/"
  edit_sources zstd "$1"
  (cd "$1" && ls lib/common/*.c lib/compress/*.c lib/decompress/*.c lib/dictBuilder/*.c programs/*.c |
     xargs -P"$jobs" -I{} sh -c "$2 -O2 $3 -DZSTD_DISABLE_ASM -DZSTD_NOTRACE -Ilib -Ilib/common -c {} -o \$(echo {} | tr / _ | sed 's/\\.c\$/.o/')" &&
   $2 $3 *.o -o zstd)
}
# link_PROG DIR CC FLAGS: the link step of build_PROG alone, again, on
# the objects it left in DIR (bench_layout.sh times it).
link_lua() {
  rm -f "$1/lua"
  make -s -C "$1" CC="$2" \
    CFLAGS="-O2 -DLUA_COMPAT_5_3 -DLUA_USE_POSIX '-Dluai_makeseed(L)=0x2545f491u' $3" \
    MYLDFLAGS="$3" lua >/dev/null
}
link_bzip2() {
  rm -f "$1/bzip2"
  make -s -C "$1" CC="$2" CFLAGS="-O2 -D_FILE_OFFSET_BITS=64 $3" bzip2 >/dev/null 2>&1
}
link_sqlite() { (cd "$1" && $2 $3 sqlite3.o shell.o -o sqlite3 -lm); }
link_zstd() { (cd "$1" && $2 $3 *.o -o zstd); }
# run_PROG DIR INPUT-KIND: print what is compared between builds.
run_lua() {
  local n=1
  [ $quick = 1 ] || n=$([ "$2" = train ] && echo 3 || echo 10)
  (cd "$1" && ./lua "$wl/$2.lua" "$n")
}
run_bzip2() { (cd "$1" && ./bzip2 -9 -c "$work/$2.txt" > "$1/out.bz2" && ./bzip2 -dc "$1/out.bz2" | cksum && wc -c < "$1/out.bz2"); }
run_sqlite() { (cd "$1" && ./sqlite3 :memory: < "$work/$2.sql"); }
# zstd compresses its input three times over (three frames, each alone):
# one copy took 65 ms, too short a run for the machine's noise to leave
# a round's ratio alone.
run_zstd() {
  local in=$work/$2.txt
  (cd "$1" && ./zstd -q -f -6 -c "$in" "$in" "$in" > "$1/out.zst" && ./zstd -q -dc "$1/out.zst" | cksum && wc -c < "$1/out.zst")
}
# xprof_extra COMPILER: BENCH_XPROF_GCC_FLAGS / BENCH_XPROF_CLANG_FLAGS,
# more options for the xprof builds (e.g. "-ftree-loop-im", "-mllvm
# -xprof-promote"), to measure what a default of ours is worth.
xprof_extra() { [ "$1" = gcc ] && echo "${BENCH_XPROF_GCC_FLAGS:-}" || echo "${BENCH_XPROF_CLANG_FLAGS:-}"; }
# instructions PROG DIR: what callgrind counts of the build in DIR on the
# measured input: every process of the run (the program twice for bzip2
# and zstd); the shell's own share is the same for every build.
instructions() {
  (cd "$2" && valgrind --tool=callgrind --trace-children=yes \
     --trace-children-skip='*/cksum,*/wc' --callgrind-out-file=/dev/null \
     bash -c "work=$work wl=$wl quick=$quick; $(declare -f "run_$1"); run_$1 \"\$PWD\" run" 2>&1 >/dev/null) |
    awk '/Collected/ {s += $NF} END {print s}'
}
# take_samples PROG CC SECONDS [DIR]: time samples of a plain -O2 -g
# build of PROG run under the sampling runtime on the training input,
# again and again for SECONDS; prints the directory whose PROGRAM.profile
# holds them.  With DIR, the samples are kept in DIR/PROG-CC (the sampled
# build beside them in DIR/PROG-CC-build: its tables give the lines) and
# taken only when DIR has none for PROG and CC; without it, in the work
# directory.
take_samples() {
  local prog=$1 cc=$2 seconds=$3 dir=${4:-} s sb end
  s=$work/samples-$prog-$cc sb=$work/$prog-sampled-$cc
  [ -n "$dir" ] && s=$dir/$prog-$cc sb=$dir/$prog-$cc-build
  if [ -n "$dir" ] && [ -e "$s/$(binary "$prog").profile" ]; then
    echo "  $prog, $cc: the samples kept in $s" >&2
  else
    rm -rf "$s" "$sb" && mkdir -p "$s" "$sb"
    "build_$prog" "$sb" "$cc" "-g" >&2
    end=$((SECONDS + seconds))
    while ((SECONDS < end)); do
      LD_PRELOAD=$build/runtime/libxprof_collect.so SUN_PROFDATA_SAMPLE=1 SUN_PROFDATA_DIR=$s \
        "run_$prog" "$sb" train > /dev/null
    done
  fi
  echo "$s"
}
binary() { case $1 in lua) echo lua ;; bzip2) echo bzip2 ;; sqlite) echo sqlite3 ;; zstd) echo zstd ;; esac; }
