#!/usr/bin/env bash
# fetch.sh DIR: fetch the real programs of the benchmark from Debian's
# source packages (never committed) and unpack them into DIR/lua,
# DIR/bzip2, DIR/sqlite (with its amalgamation generated) and DIR/zstd.
# Adds a deb-src entry for bookworm main when there is none (needs root).
# PROGRAMS (default "lua bzip2 sqlite zstd") limits what is fetched.
set -euo pipefail
. "$(dirname "$0")/../lib.sh"
dir=$1
programs=${PROGRAMS:-lua bzip2 sqlite zstd}
mkdir -p "$dir/dl"
declare -A pkg=([lua]=lua5.4 [bzip2]=bzip2 [sqlite]=sqlite3 [zstd]=libzstd)
need=()
for p in $programs; do [ -e "$dir/$p/.ready" ] || need+=("${pkg[$p]}"); done
((${#need[@]})) || exit 0

ensure_deb_src
(cd "$dir/dl" && apt-get source --download-only -qq "${need[@]}" 2>&1 | grep -v '^W: Download is performed unsandboxed' || true)

unpack() { # NAME TARBALL-GLOB
  rm -rf "$dir/$1" "$dir/tmp" && mkdir -p "$dir/tmp"
  tar -xf $(ls "$dir"/dl/$2 | head -1) -C "$dir/tmp"
  mv "$dir"/tmp/* "$dir/$1" && rmdir "$dir/tmp"
}
for p in $programs; do
  [ -e "$dir/$p/.ready" ] && continue
  case $p in
    lua) unpack lua 'lua5.4_*.orig.tar.gz' ;;
    bzip2) unpack bzip2 'bzip2_*.orig.tar.gz' ;;
    zstd) unpack zstd 'libzstd_*.orig.tar.xz' ;;
    sqlite)
      unpack sqlite 'sqlite3_*.orig.tar.xz'
      (cd "$dir/sqlite" && ./configure -q >/dev/null && make -s sqlite3.c shell.c >/dev/null 2>&1) ;;
  esac
  touch "$dir/$p/.ready"
done
