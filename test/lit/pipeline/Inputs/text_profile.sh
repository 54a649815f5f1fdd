# text_profile.sh DIR: the text profile is binary data's lossless twin.
# For each driver: a collect build of hot_cold.c trained twice (once with
# time samples), the profile converted to text (xprof_btoa) and back
# (xprof_atob), and a use build from each; prints what the text carries,
# whether the round trip gave the same bytes, and whether both use builds
# are the same object.
set -eu
w=$1 inputs=$(cd "$(dirname "$0")" && pwd)
rm -rf "$w" && mkdir -p "$w" && cd "$w"
cp "$inputs/hot_cold.c" p.c
for drv in xprof-gcc xprof-clang; do
  rm -rf p.profile p.text back.profile
  "$drv" -O2 -xprofile=collect:"$w/p" -c p.c -o p.o
  "$drv" -xprofile=collect:"$w/p" p.o -o p
  ./p 300000 >/dev/null
  SUN_PROFDATA_SAMPLE=1 ./p 20000000 >/dev/null # long enough for ticks of the CPU clock
  xprof_btoa p.profile p.text
  echo "$drv text:" $(grep -c '^#+ RUNS 2 ' p.text) runs line, \
    $(grep -c '^#+ FIRST-RUN ' p.text) first-run ranks, $(grep -c '^#+ SHAPE ' p.text) shapes, \
    $(grep -c "^#+ IMAGE " p.text) image
  xprof_atob p.text back.profile
  cmp -s p.profile/feedback back.profile/feedback && cmp -s p.profile/shapes back.profile/shapes &&
    echo "$drv: text -> binary is the same bytes" ||
    echo "$drv: text -> binary DIFFERS"
  for v in p p.text; do
    "$drv" -O2 -xprofile=use:"$w/$v" -c p.c -o p.o
    cp p.o "use-$v.o"
  done
  cmp -s use-p.o use-p.text.o && echo "$drv: the use builds are the same object" ||
    echo "$drv: the use builds DIFFER"
  echo "$drv: cold in $(objdump -t use-p.text.o | awk '$NF == "cold" {print $4}')"
done
