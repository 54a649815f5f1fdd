# density-ratio.sh SOURCE PROFILE: whether main's LONG and SHORT lines
# (marked in SOURCE) have counts within a factor of 5 in the LLVM text
# PROFILE (offsets from main's line); prints what it found.
src=$1 prof=$2
decl=$(grep -n '^int main' "$src" | cut -d: -f1)
long=$(( $(grep -n 'LONG' "$src" | cut -d: -f1) - decl ))
short=$(( $(grep -n 'SHORT' "$src" | cut -d: -f1) - decl ))
awk -v l="$long" -v s="$short" '
  /^[^ ]/ { inmain = ($0 ~ /^main:/) }
  inmain && /^ [0-9]/ { split($1, o, /[.:]/); c[o[1]] += $2 }
  END {
    if (!c[l] || !c[s]) { printf "long and short lines: missing (%d, %d)\n", c[l], c[s]; exit }
    r = c[l] / c[s]
    printf "long and short lines: %s (%d, %d)\n", (r < 5 && r > 1 / 5) ? "alike" : "unlike", c[l], c[s]
  }' "$prof"
