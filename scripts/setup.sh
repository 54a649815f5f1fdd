#!/usr/bin/env bash
# Set up a Debian bookworm machine for xprof and build it.
#   scripts/setup.sh            install what is missing, configure, build
# Idempotent: packages already installed are not touched, and the build
# directory is reused.  Environment: BUILD (default ./build).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake make gcc g++ gcc-12-plugin-dev python3 clang-14 llvm-14
          llvm-14-dev llvm-14-tools lld-14 lld libclang-rt-14-dev valgrind ccache graphviz
          ninja-build meson pkg-config distcc sccache lcov zlib1g-dev libzstd-dev)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

build=${BUILD:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j "$(nproc)" >/dev/null
echo "setup: built in $build"
