# order-kinds.sh DRIVER DIR: order.sh's program linked with -xprofile_order
# in the ways a build links (GNU ld): hot.c and cold.c as a shared library
# (its own order), the program -static, with --gc-sections, and -no-pie;
# prints each program's exit status and the order of the functions that
# ran (main, hot_step, hot_leaf, warm) in it or in the library.
set -eu
drv=$1 w=$2 inputs=$(cd "$(dirname "$0")" && pwd)/order
rm -rf "$w" && mkdir -p "$w" && cd "$w"
order() { nm -n "$1" | awk '$2 ~ /^[tT]$/ && $3 ~ /^(main|hot_step|hot_leaf|warm)$/ {printf "%s ", $3} END {print ""}'; }
build() {
  for f in main hot cold; do "$drv" -O2 -fPIC "$@" -c "$inputs/$f.c" -o $f.o; done
}
# Trained through the library and statically alike: one profile, prog.
build -xprofile=collect
"$drv" -xprofile=collect -shared cold.o hot.o -o libhot.so
"$drv" -xprofile=collect main.o -L. -lhot -Wl,-rpath,"$w" -o prog
./prog || true
build -xprofile=use:prog -xprofile_order
use="-xprofile=use:prog -xprofile_order"
"$drv" $use -shared cold.o hot.o -o libhot.so
"$drv" $use main.o -L. -lhot -Wl,-rpath,"$w" -o shared
st=0; ./shared || st=$?
echo "shared: $st, library: $(order libhot.so)"
for kind in static gc nopie; do
  case $kind in
    static) flags=-static ;;
    gc) flags=-Wl,--gc-sections ;;
    nopie) flags=-no-pie ;;
  esac
  "$drv" $use $flags main.o cold.o hot.o -o $kind
  st=0; ./$kind || st=$?
  echo "$kind: $st, $(order $kind)"
done
