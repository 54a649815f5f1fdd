#!/usr/bin/env bash
# Collection under thread churn (bench/churn.sh says what is built and
# measured), one compiler or both.  bench_programs.sh measures the same
# in its run.
#   bench/bench_churn.sh [ROUNDS] [FUNCS] [gcc|clang|both]   (7, 1000, both)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$here/churn.sh"
rounds=${1:-7}
funcs=${2:-1000}
which=${3:-both}
top=$(mktemp -d)
trap 'rm -rf "$top"' EXIT
case $which in
  both) churn_measure gcc "$rounds" "$funcs" "$top/gcc"; churn_measure clang "$rounds" "$funcs" "$top/clang" ;;
  gcc | clang) churn_measure "$which" "$rounds" "$funcs" "$top/$which" ;;
  *) echo "usage: bench_churn.sh [ROUNDS] [FUNCS] [gcc|clang|both]" >&2; exit 2 ;;
esac
