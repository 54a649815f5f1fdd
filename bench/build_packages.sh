#!/usr/bin/env bash
# Real-world build test: Debian source packages built the way users build
# them (CC=xprof-gcc / CC=xprof-clang, CXX=xprof-g++ / xprof-clang++,
# -xprofile in CFLAGS or CMAKE_*_FLAGS), their own test suites run on the
# collect build (the training run) and again on the use build, which is
# made in another directory (-xprofile_pathmap); then a third build with
# the plugins' debug counters on every edge runs the tests once more and
# xprof_verify checks that the spanning-tree counters give every edge
# count exactly.  Two more kinds of use build take their counts by source
# line (xprof-gcc(1), ANOTHER COMPILER, AND SAMPLES), and must pass the
# package's tests as well:
#   cross    the other compiler's driver builds from this compiler's
#            training (the collect build above), in another directory;
#   samples  a plain -O2 -g build by the compiler itself, its test suite
#            run under xprof_collect (every process of it sampled into one
#            profile), then xprof-COMPILER's use build of those samples,
#            in another directory.
#
#   bench/build_packages.sh [--compilers "gcc clang"] [--packages LIST]
#                           [--kinds "exact cross samples"]
#
# Packages: gzip xz pcre2 lz4 zlib libpng (C: autoconf, libtool, plain
# make; libpng's errors leave by longjmp) and
# pugixml tinyxml2 double-conversion yaml-cpp (C++: cmake, exceptions,
# templates; yaml-cpp's tests use the system's googletest, installed when
# missing); all by default.  Prints one markdown row per package and compiler:
# whether each build and its test suite passed, how many object files the
# use build compiled without data (objects linked into no program that
# ran), how many functions it found stale -- always 0 for an unchanged
# source tree; anything else is a bug -- and the edges xprof_verify found
# exact.  Exits 1 when a build or test fails, a function is stale or an
# edge count is not exact.  Sources are fetched with apt-get source
# (never committed); logs stay in $BENCH_WORK (default: a temporary
# directory, printed at the end).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
compilers="gcc clang" kinds="exact cross samples"
packages="gzip xz pcre2 lz4 zlib libpng pugixml tinyxml2 double-conversion yaml-cpp"
while (($#)); do
  case $1 in
    --compilers) compilers=$2; shift ;;
    --packages) packages=$2; shift ;;
    --kinds) kinds=$2; shift ;;
    *) echo "usage: build_packages.sh [--compilers LIST] [--packages LIST] [--kinds LIST]" >&2; exit 2 ;;
  esac
  shift
done
work=${BENCH_WORK:-$(mktemp -d)}
mkdir -p "$work/dl"
declare -A source=([gzip]=gzip [xz]=xz-utils [pcre2]=pcre2 [lz4]=lz4 [zlib]=zlib [libpng]=libpng1.6
                   [pugixml]=pugixml [tinyxml2]=tinyxml2
                   [double-conversion]=double-conversion [yaml-cpp]=yaml-cpp)
declare -A tarball=([gzip]='gzip_*.orig.tar.xz' [xz]='xz-utils_*.orig.tar.xz'
                    [pcre2]='pcre2_*.orig.tar.gz' [lz4]='lz4_*.orig.tar.gz'
                    [zlib]='zlib_*.orig.tar.*' [libpng]='libpng1.6_*.orig.tar.*'
                    [pugixml]='pugixml_*.orig.tar.*'
                    [tinyxml2]='tinyxml2_*.orig.tar.*'
                    [double-conversion]='double-conversion_*.orig.tar.*'
                    [yaml-cpp]='yaml-cpp_*.orig.tar.*')
case " $packages " in *" yaml-cpp "*) ensure_debs googletest ;; esac
need=()
for p in $packages; do
  [ -n "${source[$p]:-}" ] || { echo "build_packages.sh: unknown package $p" >&2; exit 2; }
  ls "$work"/dl/${tarball[$p]} >/dev/null 2>&1 || need+=("${source[$p]}")
done
if ((${#need[@]})); then
  ensure_deb_src
  (cd "$work/dl" && apt-get source --download-only -qq "${need[@]}" 2>&1 | grep -v '^W: Download is performed unsandboxed' || true)
fi

# build PACKAGE COMPILER MODE: unpack, build with xprof-COMPILER (and its
# C++ twin) and run the package's tests in $work/PACKAGE-COMPILER-MODE;
# "ok", "build failed" or "tests failed".  MODE: collect (the training:
# the tests), use (of its profile), verify (a collect build with the
# debug counters on every edge and a profile of its own), cross (use of
# the other compiler's collect build's profile), sampled (the plain
# compiler with -g, the tests run under xprof_collect into the profile
# samples-PACKAGE-COMPILER) and suse (use of those samples).
build() {
  local p=$1 compiler=$2 mode=$3 d=$work/$1-$2-$3
  local cc=xprof-$compiler cxx=xprof-g++ prof=$work/prof-$p-$compiler other=gcc tester=
  [ "$compiler" = clang ] && cxx=xprof-clang++
  [ "$compiler" = gcc ] && other=clang
  local flags="-O2 -xprofile=$mode:$prof"
  case $mode in
    use) flags="$flags -xprofile_pathmap=$work/$p-$compiler-collect:$d" ;;
    verify) flags="-O2 -xprofile=collect:$work/prof-verify-$p-$compiler $(xprof_debug_flags $compiler)" ;;
    cross) flags="-O2 -xprofile=use:$work/prof-$p-$other -xprofile_pathmap=$work/$p-$other-collect:$d" ;;
    sampled)
      cc=${cc#xprof-} cxx=${cxx#xprof-} flags="-O2 -g"
      tester="env SUN_PROFDATA_DIR=$work SUN_PROFDATA=samples-$p-$compiler.profile xprof_collect" ;;
    suse) flags="-O2 -xprofile=use:$work/samples-$p-$compiler -xprofile_pathmap=$work/$p-$compiler-sampled:$d" ;;
  esac
  rm -rf "$d" && mkdir -p "$d"
  tar -xf $(ls "$work"/dl/${tarball[$p]} | head -1) -C "$d" --strip-components=1
  (
    cd "$d"
    case $p in
      lz4)
        make -j2 CC="$cc" CFLAGS="$flags" >build.log 2>&1 || exit 1
        $tester make -j2 CC="$cc" CFLAGS="$flags" check >check.log 2>&1 || exit 2 ;;
      zlib)
        CC=$cc CFLAGS=$flags ./configure >build.log 2>&1 && make -j2 >>build.log 2>&1 || exit 1
        $tester make check >check.log 2>&1 || exit 2 ;;
      pugixml | tinyxml2 | double-conversion | yaml-cpp)
        if [ $p = yaml-cpp ]; then # Debian's patches: the system's googletest
          tar -xf $(ls "$work"/dl/yaml-cpp_*.debian.tar.* | head -1)
          for patch in $(cat debian/patches/series); do
            patch -p1 -s < debian/patches/$patch || exit 1
          done
        fi
        cmake -S . -B build -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
          -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" -DBUILD_TESTING=ON \
          -DPUGIXML_BUILD_TESTS=ON -Dtinyxml2_BUILD_TESTING=ON \
          -DYAML_CPP_BUILD_TESTS=ON -DYAML_CPP_BUILD_TOOLS=OFF >build.log 2>&1 &&
          make -C build -j2 >>build.log 2>&1 || exit 1
        (cd build && $tester ctest --output-on-failure) >check.log 2>&1 || exit 2 ;;
      *)
        ./configure -q CC="$cc" CFLAGS="$flags" >build.log 2>&1 && make -j2 >>build.log 2>&1 || exit 1
        $tester make -j2 check >check.log 2>&1 || exit 2 ;;
    esac
  ) && echo ok || { [ $? = 1 ] && echo "build failed" || echo "tests failed"; }
}

# exact PACKAGE COMPILER: after the verify build, "all N" (edges exact)
# or what went wrong.
exact() {
  local out
  out=$(verify_tree "$work/$1-$2-verify" "$work/prof-verify-$1-$2.profile")
  case $out in
    *"edges checked: all exact") echo "$out" | sed 's/.*), \([0-9]*\) edges.*/all \1/' ;;
    *MISMATCHES) echo "MISMATCHES" ;;
    *) echo "not checked" ;;
  esac
}

has() { case " $kinds " in *" $1 "*) return 0 ;; esac; return 1; }
other_of() { [ "$1" = gcc ] && echo clang || echo gcc; }
# count PATTERN DIR: the lines of DIR's build and test logs that match.
count() { cat "$2"/{build,check}.log 2>/dev/null | grep -acE "$1" || true; }

status=0
declare -A trained
echo "| package | compiler | collect build, tests | use build, tests | objects without data | stale functions | edges exact | cross use, tests (objects placed by line) | sampled build, tests (samples of the tests) | use of samples, tests |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for p in $packages; do
  # The collect builds (the training) that exact and cross take.
  for compiler in gcc clang; do
    if { has exact && [[ " $compilers " == *" $compiler "* ]]; } ||
       { has cross && [[ " $compilers " == *" $(other_of $compiler) "* ]]; }; then
      rm -rf "$work/prof-$p-$compiler.profile" "$work/prof-verify-$p-$compiler.profile"
      trained[$p-$compiler]=$(build "$p" "$compiler" collect)
    fi
  done
  for compiler in $compilers; do
    c=- u=- missing=- stale=- e=- x=- sb=- su=-
    if has exact; then
      c=${trained[$p-$compiler]}
      u=$(build "$p" "$compiler" use)
      missing=$(count "xprof: no profile data for" "$work/$p-$compiler-use")
      stale=$(count "xprof: profile data for .* (does not match|cannot be solved)" "$work/$p-$compiler-use")
      v=$(build "$p" "$compiler" verify)
      [ "$v" = ok ] && e=$(exact "$p" "$compiler") || e="verify build: $v"
      [ "$c" = ok ] && [ "$u" = ok ] && [ "$stale" = 0 ] && [ "${e#all }" != "$e" ] || status=1
    fi
    if has cross; then
      t=${trained[$p-$(other_of $compiler)]}
      if [ "$t" = ok ]; then
        x=$(build "$p" "$compiler" cross)
        x="$x ($(count "did not match the profile's graphs" "$work/$p-$compiler-cross"))"
      else
        x="no training: $t"
      fi
      [ "${x#ok }" != "$x" ] || status=1
    fi
    if has samples; then
      rm -rf "$work/samples-$p-$compiler.profile"
      sb=$(build "$p" "$compiler" sampled)
      if [ "$sb" = ok ]; then su=$(build "$p" "$compiler" suse); fi
      [ "$sb" = ok ] && [ "$su" = ok ] || status=1
      n=$(xprof_show "$work/samples-$p-$compiler.profile" 2>/dev/null |
          sed -n 's/^time samples: \([0-9]*\),.*/\1/p')
      sb="$sb (${n:-0} samples)"
    fi
    echo "| $p | xprof-$compiler | $c | $u | $missing | $stale | $e | $x | $sb | $su |"
  done
done
echo "logs in $work" >&2
exit $status
