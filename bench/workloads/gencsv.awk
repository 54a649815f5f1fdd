# gencsv.awk -v seed=S -v rows=N: a CSV of numbers with a few categories,
# deterministic for a seed; far less redundant than gendata.awk's text
# (the compressors' second measured input).
BEGIN {
  srand(seed)
  split("alpha beta gamma delta epsilon zeta eta theta", cat, " ")
  print "id,category,amount,ratio,flag,code"
  for (i = 1; i <= rows; i++)
    printf "%d,%s,%d,%.6f,%d,%08x\n", i, cat[1 + int(rand() * 8)], int(rand() * 1000000),
           rand(), rand() < 0.1, int(rand() * 4294967295)
}
