# sccache.sh DRIVER DIR: use builds of work.c under sccache with two
# trainings: the object sccache gives is always the one an uncached
# compile makes (its server preprocesses without the command's -o, so the
# key covers the profile data by the object's name from the source, or
# the whole profile).
set -eu
drv=$1 w=$2 inputs=$(cd "$(dirname "$0")" && pwd)
rm -rf "$w" && mkdir -p "$w" && cd "$w"
cp "$inputs/main.c" "$inputs/work.c" .
export SCCACHE_DIR=$w/cache SCCACHE_SERVER_PORT=$((42000 + $$ % 2000)) SCCACHE_IDLE_TIMEOUT=0
sccache --start-server >/dev/null
trap 'sccache --stop-server >/dev/null 2>&1' EXIT
stats() { # STEP
  sccache -s | awk -v step="$1" '/^Cache hits  /{h=$3} /^Cache misses  /{m=$3}
    END { printf "%s: hits %d misses %d\n", step, h, m }'
  sccache -z >/dev/null
}
"$drv" --xprofile=collect:"$w/p" -O2 -c main.c work.c
"$drv" --xprofile=collect:"$w/p" main.o work.o -o app
sccache -z >/dev/null
for n in 100 5000 100; do
  rm -rf p.profile && ./app $n
  "$drv" --xprofile=use:"$w/p" -O2 -c work.c -o work.o && cp work.o fresh.o
  sccache "$(command -v "$drv")" --xprofile=use:"$w/p" -O2 -c work.c -o work.o
  sccache "$(command -v "$drv")" --xprofile=use:"$w/p" -O2 -c work.c -o work.o
  stats "training $n, twice"
  cmp -s work.o fresh.o && echo "work.o: an uncached compile's" || echo "work.o: STALE"
done
