# meson.sh DRIVER DIR: Inputs/meson-project built with Meson and Ninja:
# collect in one build directory, train, use in another (object paths
# mapped by -xprofile_prefix_map), then a new training makes Ninja
# compile again (the profile is in the dependency files).
set -eu
drv=$1 w=$2 inputs=$(cd "$(dirname "$0")" && pwd)
rm -rf "$w" && mkdir -p "$w/src"
cp -r "$inputs/meson-project" "$w/src/project"
cp "$inputs/main.c" "$inputs/work.c" "$w/src"
cd "$w"
printf "[binaries]\nc = ['%s']\n" "$(command -v "$drv")" >native.ini

setup() { # MODE
  meson setup "$w/b-$1" "$w/src/project" --native-file native.ini \
    -Dc_args="['--xprofile=$1:$w/app', '--xprofile_prefix_map=$w/b-$1=.']" \
    -Dc_link_args="['--xprofile=$1:$w/app']" >"$w/setup-$1.log" 2>&1 ||
    { cat "$w/setup-$1.log"; exit 1; }
  ninja -C "$w/b-$1" >"$w/build-$1.log" 2>&1 || { cat "$w/build-$1.log"; exit 1; }
}
setup collect
grep -q "C compiler for the host machine: .*$drv" setup-collect.log && echo "meson: the compiler is $drv"
./b-collect/app 300
echo "collect: $(xprof_btoa app.profile - | grep -c '^OBJFILE: \./app\.p/') object files of app"
setup use
echo "use: $(grep -c 'warning: xprof' build-use.log || true) warnings"
./b-use/app 300 && echo "use: app runs"
ninja -C b-use | grep -q "no work to do" && echo "use: nothing to do with the same profile"
./b-collect/app 5000
echo "use, a new training: $(ninja -C b-use | grep -c 'Compiling C object') sources compiled again"
