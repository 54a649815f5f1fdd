# For thread-churn.c: each of the fifty procedures ran 64 times (scale
# 64, or as given): its counters are 1, 10 and 100 times that.  Prints
# how many procedures there are and how many have exactly those counts.
BEGIN { if (!scale) scale = 64 }
$1 == "PROC:" { p = $2; procs++; k = 0; next }
p != "" && NF == 2 && $1 == k {
  want = k == 0 ? scale : k == 1 ? 10 * scale : 100 * scale
  if ($2 == want) good[p]++
  k++
}
END {
  for (q in good) if (good[q] == 3) exact++
  printf "procedures %d, exact %d\n", procs, exact
}
