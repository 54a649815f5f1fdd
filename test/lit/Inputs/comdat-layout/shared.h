// An inline function whose copies agree on the CFG signature but not on
// which edges can be counted: its last block calls helper() and returns.
// a.cpp cannot see helper's body, so the call may exit and the return
// edge is left uncounted; b.cpp defines helper, so there the call returns
// and the edge gets a debug counter.  With all-edges the two copies' arrays
// differ in size, and must not be one comdat array.
void helper(int x);
extern long acc;
inline void shared(int x) {
  if (x % 4 == 1)
    acc += x;
  helper(x);
}
int from_a(int);
int from_b(int);
