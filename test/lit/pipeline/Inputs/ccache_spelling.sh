# ccache_spelling.sh DRIVER DIR: a make build of main.c and work.c with
# CC="ccache DRIVER", the options spelled -xprofile=... (which ccache reads
# as -x LANGUAGE, caching nothing) and --xprofile=...: prints what ccache
# did and how many notes the build printed, for two builds of each.
set -eu
drv=$1 w=$2 inputs=$(cd "$(dirname "$0")" && pwd)
rm -rf "$w" && mkdir -p "$w/tmp" && cd "$w"
cp "$inputs/main.c" "$inputs/work.c" .
: >ccache.conf
export CCACHE_DIR=$w/cache CCACHE_CONFIGPATH=$w/ccache.conf TMPDIR=$w/tmp
unset CCACHE_DISABLE CCACHE_DEPEND CCACHE_NODIRECT CCACHE_RECACHE CCACHE_READONLY
printf 'prog: main.o work.o\n\t$(CC) $(CFLAGS) main.o work.o -o prog\n' > Makefile
for spelling in -xprofile --xprofile; do
  for build in 1 2; do
    rm -f ./*.o prog
    ccache -z > /dev/null
    make -s -j2 CC="ccache $drv" CFLAGS="-O2 $spelling=collect:$w/p" 2> err.txt
    ccache --print-stats | awk -v s="$spelling build $build" '
      $1 == "direct_cache_hit" || $1 == "preprocessed_cache_hit" { h += $2 }
      $1 == "cache_miss" { m += $2 }
      $1 == "unsupported_source_language" || $1 == "unsupported_compiler_option" { u += $2 }
      END { printf "%s: hits %d misses %d uncacheable %d, ", s, h, m, u }'
    echo "$(grep -c 'note: ccache caches none' err.txt || true) note"
  done
done
grep -m1 'note: ccache' err.txt || true
