# verify.sh WORKDIR FLAGS...: build the C and C++ test programs with the
# all-edges debug counters under FLAGS, run them, check their output
# against a plain build and every edge count against the flow solver.
set -eu
work=$1; shift
flags="$*"
inputs=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work" && cd "$work"
rm -rf ./*.profile ./*.xpcfg
debug="-fplugin-arg-xprof-all-edges -fplugin-arg-xprof-cfg-dump"
for src in features.c other.c; do
  xprof-gcc -xprofile=collect $debug $flags -c "$inputs/$src" -o "${src%.c}.o"
done
xprof-gcc -xprofile=collect $flags features.o other.o -o features
for src in shapes.cpp main.cpp; do
  xprof-g++ -xprofile=collect $debug $flags -c "$inputs/$src" -o "${src%.cpp}.o"
done
xprof-g++ -xprofile=collect $flags shapes.o main.o -o shapes
gcc $flags "$inputs/features.c" "$inputs/other.c" -o features-plain
g++ $flags "$inputs/shapes.cpp" "$inputs/main.cpp" -o shapes-plain
for prog in features shapes; do
  ./$prog 300 > out.txt
  ./$prog-plain 300 > want.txt
  cmp out.txt want.txt
done
xprof_verify features.profile features.o.xpcfg other.o.xpcfg
xprof_verify shapes.profile shapes.o.xpcfg main.o.xpcfg
