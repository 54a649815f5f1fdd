# verify.sh WORKDIR [gcc|clang] FLAGS...: build the C and C++ test
# programs with the all-edges debug counters under FLAGS, run them, check
# their output against a plain build and every edge count against the
# flow solver.
set -eu
work=$1; shift
family=gcc
if [ "${1:-}" = gcc ] || [ "${1:-}" = clang ]; then family=$1; shift; fi
flags="$*"
inputs=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work" && cd "$work"
rm -rf ./*.profile ./*.xpcfg
if [ $family = gcc ]; then
  cc=gcc cxx=g++ debug="-fplugin-arg-xprof-all-edges -fplugin-arg-xprof-cfg-dump"
else
  cc=clang cxx=clang++ debug="-mllvm -xprof-all-edges -mllvm -xprof-cfg-dump"
fi
for src in features.c other.c; do
  xprof-$cc -xprofile=collect $debug $flags -c "$inputs/$src" -o "${src%.c}.o"
done
xprof-$cc -xprofile=collect $flags features.o other.o -o features
# header.cpp holds no code: its dump names no procedure, and no run puts
# it into the profile.
for src in shapes.cpp main.cpp header.cpp; do
  xprof-$cxx -xprofile=collect $debug $flags -c "$inputs/$src" -o "${src%.cpp}.o"
done
xprof-$cxx -xprofile=collect $flags shapes.o main.o header.o -o shapes
$cc $flags "$inputs/features.c" "$inputs/other.c" -o features-plain
$cxx $flags "$inputs/shapes.cpp" "$inputs/main.cpp" -o shapes-plain
for prog in features shapes; do
  ./$prog 300 > out.txt
  ./$prog-plain 300 > want.txt
  cmp out.txt want.txt
done
xprof_verify features.profile features.o.xpcfg other.o.xpcfg
xprof_verify shapes.profile shapes.o.xpcfg main.o.xpcfg header.o.xpcfg
