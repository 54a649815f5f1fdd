# order.sh DRIVER LINKER DIR: main.c, hot.c and cold.c (an archive of
# it) trained, rebuilt with -xprofile=use -xprofile_order and linked by
# LINKER (bfd, gold, lld) in the order main.o libcold.a hot.o, which puts
# hot_leaf before hot_step; prints the order of their functions in the
# program, then the same without -xprofile_order.
set -eu
drv=$1 ld=$2 w=$3 inputs=$(cd "$(dirname "$0")" && pwd)/order
rm -rf "$w" && mkdir -p "$w" && cd "$w"
order() { nm -n "$1" | awk '$2 ~ /^[tT]$/ && $3 ~ /^(main|hot_step|hot_leaf|warm|cold_path|cold_other)$/ {printf "%s ", $3} END {print ""}'; }
build() {
  for f in main hot cold; do "$drv" -O2 "$@" -c "$inputs/$f.c" -o $f.o; done
  rm -f libcold.a && ar rc libcold.a cold.o
}
build -xprofile=collect
"$drv" -xprofile=collect main.o libcold.a hot.o -o prog
./prog
build -xprofile=use:prog -xprofile_order
"$drv" -xprofile=use:prog -xprofile_order -fuse-ld="$ld" main.o libcold.a hot.o -o prog
./prog
echo "ordered: $(order prog)"
"$drv" -xprofile=use:prog -fuse-ld="$ld" main.o libcold.a hot.o -o plain
echo "plain: $(order plain)"
