#!/usr/bin/env bash
# Set up xprof and show it at work on the bundled sample profile:
# text -> binary -> text, a weighted merge, and the hottest procedures.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bin=$PWD/build/tools
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

echo
echo "== xprof_atob: the sample text profile becomes a profile directory"
"$bin/xprof_atob" "$OLDPWD/test/lit/Inputs/sample.text" sample.profile
ls -l sample.profile
head -1 sample.profile/feedback

echo
echo "== xprof_btoa: and back to text (identical to the input)"
"$bin/xprof_btoa" sample.profile sample.text
diff -q "$OLDPWD/test/lit/Inputs/sample.text" sample.text && echo "identical"
head -12 sample.text

echo
echo "== xprof_merge: the sample plus 3 more runs' worth of it"
"$bin/xprof_merge" -o merged.profile sample.profile -w 3:sample.profile
"$bin/xprof_btoa" merged.profile - | sed -n '6,10p'

echo
echo "== the hottest procedures (entry counts are counter 0 here)"
"$bin/xprof_btoa" merged.profile - | awk '
  /^OBJFILE:/ { obj = $2 }
  /^PROC:/    { proc = $2; want = 1; next }
  want && /^[0-9]+ [0-9]+$/ { if ($1 == 0) print $2, proc, obj; want = 0 }
' | sort -rn | head -5
