# gendata.awk -v seed=S -v words=N: text-like compressible data with a
# skewed vocabulary, deterministic for a seed.
BEGIN {
  srand(seed)
  split("the of and to in is that for it as with was on be by this are or his from at which but have not an they he had were one all there been their has more we when will can who what if would about out up so no into them than some other its time only could new these may two first any like now my such over also years", v, " ")
  nv = length(v)
  line = ""
  for (i = 0; i < words; i++) {
    r = rand()
    w = v[int(r * r * r * nv) + 1]
    if (rand() < 0.05) w = w sprintf("%d", int(rand() * 1000))
    line = line (line == "" ? "" : " ") w
    if (length(line) > 70) { print line; line = "" }
  }
  print line
}
