# cmake.sh BUILD DIR: install xprof from BUILD into DIR/inst, then build
# Inputs/cmake-project against it with each generator and compiler:
# collect in one build directory, train, use in another; with ccache as
# the project's launcher.  Prints what each step found.
set -eu
build=$1 w=$2 inputs=$(cd "$(dirname "$0")" && pwd)
rm -rf "$w" && mkdir -p "$w/src"
cmake --install "$build" --prefix "$w/inst" >/dev/null
cp -r "$inputs/cmake-project" "$w/src/project"
cp "$inputs/main.c" "$inputs/work.c" "$w/src"
export CCACHE_DIR=$w/ccache CCACHE_CONFIGPATH=$w/ccache.conf
: >"$w/ccache.conf"
# The installed drivers, not the build tree's.
export PATH=$w/inst/bin:/usr/bin:/bin

for cc in gcc clang; do
  for gen in Ninja "Unix Makefiles"; do
    tag=$cc-$(echo "$gen" | tr -d ' ')
    prof=$w/$tag-app
    configure() { # MODE
      cmake -S "$w/src/project" -B "$w/$tag-$1" -G "$gen" -DCMAKE_C_COMPILER=$cc \
        -DCMAKE_PREFIX_PATH="$w/inst" -DCMAKE_C_COMPILER_LAUNCHER=ccache \
        -DAPP_PGO="$1" -DAPP_PROFILE="$prof" >/dev/null
      cmake --build "$w/$tag-$1" >"$w/$tag-$1.log" 2>&1 || { cat "$w/$tag-$1.log"; exit 1; }
    }
    configure collect
    (cd "$w" && "$w/$tag-collect/app" 300 && "$w/$tag-collect/tool" 300)
    objects=$(xprof_btoa "$prof.profile" - | grep -c '^OBJFILE: \./CMakeFiles/app.dir/')
    echo "$tag: collect: $objects object files of app in the profile, none of tool:" \
      "$(xprof_btoa "$prof.profile" - | grep -c 'tool.dir' || true)"
    configure use
    grep -c 'warning: xprof' "$w/$tag-use.log" | sed "s/^/$tag: use: warnings: /"
    # The use build's work.o, compiled by hand in the use tree with the
    # profile, is the one the build made; plain is not.
    "$w/$tag-use/app" 300 && echo "$tag: use: app runs"
    if cmp -s "$w/$tag-use/CMakeFiles/app.dir/__/work.c.o" "$w/$tag-use/CMakeFiles/tool.dir/__/work.c.o"; then
      echo "$tag: use: work.o of app is tool's (the profile was not used)"
    else
      echo "$tag: use: work.o of app is not tool's"
    fi
  done
done
ccache --print-stats | awk '$1 == "cache_miss" || $1 ~ /_cache_hit$/ { n += $2 }
  END { print (n > 0 ? "ccache: the compiles went through it" : "ccache: NOT USED") }'
