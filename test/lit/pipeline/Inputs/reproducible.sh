# reproducible.sh DRIVER DIR: use builds of Inputs/main.c and work.c that
# must come out byte for byte the same: from the profile as binary data
# and as text, from trainings run in either order or in parallel, from
# merges in either order, and in another build directory (each tree
# compiled with -ffile-prefix-map=TREE=.).  Prints one line per
# comparison.  Every use build reads the profile by one name, cur.profile
# (a directory, or the text as a file), because with -g GCC records its
# options, the profile's name among them, in the debug information.
set -eu
drv=$1 w=$2 inputs=$(cd "$(dirname "$0")" && pwd)
rm -rf "$w" && mkdir -p "$w/A" "$w/B" && cd "$w"
for d in A B; do cp "$inputs/main.c" "$inputs/work.c" $d/; done
flags="-O2 -g"

collect() { # DIR: the instrumented program DIR/prog, profile DIR/t
  (cd "$1" && "$drv" -xprofile=collect:"$w/$1/t" $flags -ffile-prefix-map="$w/$1"=. \
    -c main.c work.c && "$drv" -xprofile=collect:"$w/$1/t" main.o work.o -o prog)
}
use() { # DIR PROFILE: DIR/prog built with PROFILE (as cur.profile)
  rm -rf cur.profile && cp -r "$2" cur.profile
  (cd "$1" && "$drv" -xprofile=use:"$w/cur.profile" $flags -ffile-prefix-map="$w/$1"=. \
    -c main.c work.c && "$drv" main.o work.o -o prog)
}
same() { # WHAT A B
  cmp -s "$2" "$3" && echo "$1: the same" || echo "$1: DIFFERENT"
}
keep() { # NAME: keep A's objects and program as NAME.*
  cp A/main.o "$1.main.o" && cp A/work.o "$1.work.o" && cp A/prog "$1.prog"
}

collect A
(cd A && ./prog 100 && ./prog 5000)
cp -r A/t.profile ab.profile
rm -rf A/t.profile
(cd A && ./prog 5000 && ./prog 100)
cp -r A/t.profile ba.profile
rm -rf A/t.profile
(cd A && { ./prog 100 & ./prog 5000 & wait; })
cp -r A/t.profile parallel.profile
rm -rf A/t.profile
(cd A && ./prog 100) && mv A/t.profile one.profile
(cd A && ./prog 5000) && mv A/t.profile other.profile
xprof_merge -o merged1.profile one.profile other.profile
xprof_merge -o merged2.profile other.profile one.profile
xprof_btoa ab.profile ab.text

use A ab.profile && keep ab
use A ba.profile && keep ba
use A parallel.profile && keep parallel
use A merged1.profile && keep merged
use A ab.text && keep text
(cd A && "$drv" $flags -ffile-prefix-map="$w/A"=. -c work.c -o ../plain.work.o)
for o in work.o prog; do
  same "runs in the other order, $o" ab.$o ba.$o
  same "runs in parallel, $o" ab.$o parallel.$o
  same "runs merged by xprof_merge, $o" ab.$o merged.$o
  same "the profile as text, $o" ab.$o text.$o
done
same "xprof_merge in the other order, the profile's bytes" merged1.profile/feedback merged2.profile/feedback
cmp -s ab.work.o plain.work.o && echo "work.o: the plain build's (THE PROFILE WAS NOT USED)" ||
  echo "work.o: not the plain build's"

# Another build directory: the profile knows the objects as ./main.o and
# ./work.o, mapped as the debug information's paths are.
use B ab.profile
same "another build directory, work.o" ab.work.o B/work.o
same "another build directory, prog" ab.prog B/prog
