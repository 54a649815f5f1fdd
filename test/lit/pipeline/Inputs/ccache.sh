# ccache.sh DRIVER DIR: builds Inputs/main.c and work.c under ccache with
# DRIVER in collect and use mode, and prints what ccache did at each step
# (hits: direct and preprocessed; misses) and whether the objects it gave
# are the ones an uncached build makes.
set -eu
drv=$1 w=$2 inputs=$(cd "$(dirname "$0")" && pwd)
rm -rf "$w" && mkdir -p "$w/out" "$w/out2" "$w/mq" && cd "$w"
cp "$inputs/main.c" "$inputs/work.c" .
: >ccache.conf
export CCACHE_DIR=$w/cache CCACHE_CONFIGPATH=$w/ccache.conf
unset CCACHE_DISABLE CCACHE_DEPEND CCACHE_NODIRECT CCACHE_RECACHE CCACHE_READONLY

stats() { # STEP: what ccache did since the last call
  ccache --print-stats | awk -v step="$1" '
    $1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" { h += $2 }
    $1 == "cache_miss" { m += $2 }
    END { printf "%s: hits %d misses %d\n", step, h, m }'
  ccache -z >/dev/null
}
build() { # MODE [FLAGS...]: both objects under ccache, then the link
  local mode=$1
  shift
  ccache "$drv" "$mode" -O2 "$@" -c main.c -o out/main.o
  ccache "$drv" "$mode" -O2 "$@" -c work.c -o out/work.o
  "$drv" "$mode" -O2 out/main.o out/work.o -o prog
}
train() { # INPUT: a fresh profile from one run (old enough for direct mode)
  build --xprofile=collect
  ccache -z >/dev/null
  rm -rf prog.profile
  ./prog "$1"
  touch -d '-1 minute' prog.profile/feedback
}
same_as_uncached() { # FLAGS...: work.o compiled again without ccache
  cp out/work.o cached.o
  "$drv" "$@" -O2 -c work.c -o out/work.o 2>/dev/null
  cmp -s cached.o out/work.o && echo "work.o: the same as an uncached build" ||
    echo "work.o: DIFFERS from an uncached build"
}

build --xprofile=collect
stats "collect"
build --xprofile=collect
stats "collect again"
ccache "$drv" --xprofile=collect -O2 -c work.c -o out2/work.o
stats "collect to another object file"

train 100
build --xprofile=use:prog
stats "use"
cp out/work.o first.o
build --xprofile=use:prog
stats "use, the same profile"

train 5000  # main.o's data unchanged, work.o's changed
build --xprofile=use:prog
stats "use, work.o's counts changed"
cmp -s first.o out/work.o && echo "work.o: the same as with the first profile" ||
  echo "work.o: not the first profile's"
same_as_uncached --xprofile=use:prog
ccache "$drv" --xprofile=use:prog -O2 -c work.c -o out2/work.o 2>/dev/null
stats "use to another object file"

ln -s "$(command -v ccache)" "mq/$drv"
PATH=$w/mq:$PATH build --xprofile=use:prog
stats "masquerade, the same profile"

# Depend mode runs no preprocessor: the dependency file names the header
# that turns direct mode off, so ccache compiles every time.
export CCACHE_DEPEND=1
build --xprofile=use:prog -MD
stats "depend mode"
build --xprofile=use:prog -MD
stats "depend mode, the same profile"
train 100
build --xprofile=use:prog -MD
stats "depend mode, a new profile"
same_as_uncached --xprofile=use:prog -MD
