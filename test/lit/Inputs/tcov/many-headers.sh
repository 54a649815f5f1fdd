#!/usr/bin/env bash
# many-headers.sh N: many.c and h1.h .. hN.h in the working directory, a
# static inline function in each header, all called from main.
set -eu
n=$1
: > many.c
for i in $(seq 1 "$n"); do
  echo "static inline int h$i(int x) { return x > $i ? x - $i : x + $i; }" > "h$i.h"
  echo "#include \"h$i.h\"" >> many.c
done
echo 'int main(int argc, char **argv) { (void)argv; int s = 0;' >> many.c
for i in $(seq 1 "$n"); do echo "  s += h$i(argc);" >> many.c; done
echo '  return s == 7; }' >> many.c
