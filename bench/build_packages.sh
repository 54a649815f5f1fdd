#!/usr/bin/env bash
# Real-world build test: Debian source packages built the way users build
# them (CC=xprof-gcc / CC=xprof-clang, -xprofile in CFLAGS), their own
# test suites run on the collect build (the training run) and again on
# the use build, which is made in another directory (-xprofile_pathmap).
#
#   bench/build_packages.sh [--compilers "gcc clang"] [--packages "gzip xz pcre2 lz4 zlib"]
#
# Prints one markdown row per package and compiler: whether each build
# and its test suite passed, how many object files the use build
# compiled without data (objects linked into no program that ran), and
# how many functions it found stale -- always 0 for an unchanged source
# tree; anything else is a bug.  Exits 1 when a build or test fails or a
# function is stale.  Sources are fetched with apt-get source (never
# committed); logs stay in $BENCH_WORK (default: a temporary directory,
# printed at the end).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
build=${BUILD:-$root/build}
export PATH=$build/tools:$PATH
. "$here/lib.sh"
compilers="gcc clang" packages="gzip xz pcre2 lz4 zlib"
while (($#)); do
  case $1 in
    --compilers) compilers=$2; shift ;;
    --packages) packages=$2; shift ;;
    *) echo "usage: build_packages.sh [--compilers LIST] [--packages LIST]" >&2; exit 2 ;;
  esac
  shift
done
work=${BENCH_WORK:-$(mktemp -d)}
mkdir -p "$work/dl"
declare -A source=([gzip]=gzip [xz]=xz-utils [pcre2]=pcre2 [lz4]=lz4 [zlib]=zlib)
declare -A tarball=([gzip]='gzip_*.orig.tar.xz' [xz]='xz-utils_*.orig.tar.xz'
                    [pcre2]='pcre2_*.orig.tar.gz' [lz4]='lz4_*.orig.tar.gz'
                    [zlib]='zlib_*.orig.tar.*')
need=()
for p in $packages; do
  [ -n "${source[$p]:-}" ] || { echo "build_packages.sh: unknown package $p" >&2; exit 2; }
  ls "$work"/dl/${tarball[$p]} >/dev/null 2>&1 || need+=("${source[$p]}")
done
if ((${#need[@]})); then
  ensure_deb_src
  (cd "$work/dl" && apt-get source --download-only -qq "${need[@]}" 2>&1 | grep -v '^W: Download is performed unsandboxed' || true)
fi

# build PACKAGE CC MODE: unpack, build and run the package's tests in
# $work/PACKAGE-CC-MODE; "ok", "build failed" or "tests failed".
build() {
  local p=$1 cc=$2 mode=$3 d=$work/$1-$2-$3
  local flags="-O2 -xprofile=$mode:$work/prof-$p-$cc"
  [ "$mode" = use ] && flags="$flags -xprofile_pathmap=$work/$p-$cc-collect:$d"
  rm -rf "$d" && mkdir -p "$d"
  tar -xf $(ls "$work"/dl/${tarball[$p]} | head -1) -C "$d" --strip-components=1
  (
    cd "$d"
    case $p in
      lz4)
        make -j2 CC="$cc" CFLAGS="$flags" >build.log 2>&1 || exit 1
        make -j2 CC="$cc" CFLAGS="$flags" check >check.log 2>&1 || exit 2 ;;
      zlib)
        CC=$cc CFLAGS=$flags ./configure >build.log 2>&1 && make -j2 >>build.log 2>&1 || exit 1
        make check >check.log 2>&1 || exit 2 ;;
      *)
        ./configure -q CC="$cc" CFLAGS="$flags" >build.log 2>&1 && make -j2 >>build.log 2>&1 || exit 1
        make -j2 check >check.log 2>&1 || exit 2 ;;
    esac
  ) && echo ok || { [ $? = 1 ] && echo "build failed" || echo "tests failed"; }
}

status=0
echo "| package | compiler | collect build, tests | use build, tests | objects without data | stale functions |"
echo "|---|---|---|---|---|---|"
for cc in $compilers; do
  for p in $packages; do
    rm -rf "$work/prof-$p-xprof-$cc.profile"
    c=$(build "$p" "xprof-$cc" collect)
    u=$(build "$p" "xprof-$cc" use)
    logs=("$work/$p-xprof-$cc-use"/{build,check}.log)
    missing=$(cat "${logs[@]}" 2>/dev/null | grep -ac "xprof: no profile data for" || true)
    stale=$(cat "${logs[@]}" 2>/dev/null | grep -acE "xprof: profile data for .* (does not match|cannot be solved)" || true)
    echo "| $p | xprof-$cc | $c | $u | $missing | $stale |"
    [ "$c" = ok ] && [ "$u" = ok ] && [ "$stale" = 0 ] || status=1
  done
done
echo "logs in $work" >&2
exit $status
