# distcc.sh DIR: a distccd on 127.0.0.1 (as nobody when run as root: a
# user that cannot read the profile, kept in a directory of mode 700)
# compiles for both drivers in collect and in use mode; prints what the
# profile recorded and whether the remote objects are the local ones;
# then use builds by lines alone: another compiler's training, and time
# samples of a program built without xprof.
set -eu
w=$1 inputs=$(cd "$(dirname "$0")" && pwd)
rm -rf "$w" && mkdir -p "$w/src" && cd "$w"
chmod 755 "$w" "$w/src"
cp "$inputs/main.c" "$inputs/work.c" "$inputs/afdo/loop.c" src/
for d in xprof-gcc xprof-clang; do command -v $d; done >cmdlist
chmod 644 cmdlist src/*.c
: >distccd.log
port=$((36000 + $$ % 2000))
user=
[ "$(id -u)" -ne 0 ] || { user="--user nobody"; chown nobody distccd.log; }
mkdir -m 1777 distccd-tmp && mkdir distcc-state # its temporary files; the client's state
# shellcheck disable=SC2086
TMPDIR=$w/distccd-tmp DISTCC_CMDLIST=$w/cmdlist distccd --daemon --no-detach --allow 127.0.0.1 --listen 127.0.0.1 \
  --port $port $user --log-file "$w/distccd.log" --log-level info --jobs 2 &
daemon=$!
trap 'kill $daemon 2>/dev/null' EXIT
for _ in $(seq 100); do grep -q "listening on" distccd.log 2>/dev/null && break; sleep 0.05; done
export DISTCC_HOSTS=127.0.0.1:$port/2 DISTCC_FALLBACK=0 DISTCC_SKIP_LOCAL_RETRY=1 DISTCC_DIR=$w/distcc-state

for drv in xprof-gcc xprof-clang; do
  prof=$w/prof-$drv
  mkdir -m 700 "$prof"
  before=$(grep -c COMPILE_OK distccd.log || true)
  for f in main work; do
    distcc "$(command -v $drv)" --xprofile=collect:"$prof/app" -O2 -c src/$f.c -o $f.o
  done
  "$drv" -xprofile=collect:"$prof/app" main.o work.o -o app && ./app 300
  echo "$drv collect:" $(xprof_btoa "$prof/app.profile" - | sed -n "s|^OBJFILE: $w/\([^ ]*\) .*|\1|p")
  for f in main work; do
    "$drv" -xprofile=use:"$prof/app" -O2 -c src/$f.c -o $f.o && cp $f.o $f.local.o
    distcc "$(command -v $drv)" --xprofile=use:"$prof/app" -O2 -c src/$f.c -o $f.o
    cmp -s $f.o $f.local.o && echo "$drv use: $f.o is the local use build's" ||
      echo "$drv use: $f.o DIFFERS from the local use build's"
  done
  "$drv" main.o work.o -o app && ./app 300 && echo "$drv use: app runs"
  echo "$drv: $(($(grep -c COMPILE_OK distccd.log) - before)) compilations on the distccd"
done

# Use builds whose counts come by source line from the line profile,
# which the remote machine cannot read either: the driver ships the lines
# of the functions the source names.  Said remotely (distcc passes the
# compiler's messages on) as locally, and the same object.
remote_lines() { # DRIVER PROFILE SOURCE WHAT PATTERN [FLAGS...]
  local drv=$1 prof=$2 src=$3 what=$4 pattern=$5 obj same
  shift 5
  obj=$(basename "$src" .c).o
  "$drv" -xprofile=use:"$prof" "$@" -O2 -c "$src" -o "$obj" 2>local.err && cp "$obj" local.o
  rm -rf client-tmp && mkdir client-tmp # distcc keeps the preprocessed source there
  DISTCC_SAVE_TEMPS=1 TMPDIR=$w/client-tmp \
    distcc "$(command -v "$drv")" --xprofile=use:"$prof" "$@" -O2 -c "$src" -o "$obj" 2>remote.err
  cmp -s "$obj" local.o && same="the local use build's" || same="NOT the local use build's"
  echo "$what: $obj is $same; by lines here $(grep -c "$pattern" local.err), there $(grep -c "$pattern" remote.err)"
  # The functions whose lines went: the last word of the shipped line.
  echo "$what: lines shipped of" $(sed -n 's/.*# xprof use data 4 .* \([^ ]*\)");$/\1/p' client-tmp/*.i |
    base64 -d | grep -o '^[^ #][^:]*' | sort)
}
# xprof-gcc's training, used by xprof-clang: the graphs differ, the lines
# place work's counts (a warning, as locally).
remote_lines xprof-clang "$w/prof-xprof-gcc/app" src/work.c "gcc's training by clang" \
  "placed by source line"
# Time samples of a plain -g build: only lines (a note with verbose).
gcc -O2 -g -o loop src/loop.c && xprof_collect ./loop 400000000 >/dev/null
remote_lines xprof-gcc "$w/loop" src/loop.c "samples by gcc" "given counts by source line" \
  -fplugin-arg-xprof-verbose

# icecc reads the preprocessed output through a pipe: the driver keeps
# it in a file until it has chosen the lines, then passes it on.  (A copy
# of the shell named icecc stands in: the driver knows the tool by its
# parent's executable.)
cp "$(command -v bash)" icecc
./icecc -c "xprof-clang --xprofile=use:$w/prof-xprof-gcc/app -O2 -E src/work.c; true" | cat >piped.i
echo "icecc, through a pipe: source passed on $(grep -c '^int work(int n) {$' piped.i), lines shipped of" \
  $(sed -n 's/.*# xprof use data 4 .* \([^ ]*\)");$/\1/p' piped.i | base64 -d | grep -o '^[^ #][^:]*' | sort)
