/* A callee that xprof did not compile: its calls are counted as "not
 * profiled" (an empty value) in the caller's record. */
void plain_op(long x);
void plain_op(long x) { (void)x; }
