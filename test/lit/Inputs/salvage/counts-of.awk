# The block counts of one function (-v fn=NAME) in GCC's
# -fdump-tree-optimized output, on one line.
/^;; Function/ { in_fn = $3 == fn }
in_fn && /count: / { match($0, /count: [0-9]+/); printf "%s ", substr($0, RSTART, RLENGTH); n++ }
END { printf "\n%d blocks\n", n }
