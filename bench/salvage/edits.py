#!/usr/bin/env python3
"""Small source edits to the benchmark programs, for bench/bench_salvage.sh:
what a developer changes between a training run and a release build.

  edits.py PROGRAM DIR     apply PROGRAM's edits to the sources in DIR

Each program gets the four kinds the salvage benchmark asks for, in
functions its workloads spend their time in: a statement added, a branch
added, a call added, and a loop restructured.  None of them changes what
the program prints.  Each edit names the text it changes, which must occur
exactly once: a Debian update that moves the code fails loudly instead of
leaving a program unedited.
"""
import sys

# What the edits use, put at the top of every file they touch (static:
# one of each per translation unit; guarded: a header and the source that
# includes it are both edited).
DEFS = """#ifndef XPROF_EDIT_DEFS
#define XPROF_EDIT_DEFS
static long xprof_edit_count;
static __attribute__((noinline, unused)) void xprof_edit_note(const void *p) {
  if (!p)
    __builtin_trap();
  xprof_edit_count++;
}
#endif
"""

# program -> [(kind, file, old text, new text)]
EDITS = {
    "lua": [
        ("statement", "lvm.c",
         "      vmcase(OP_MOVE) {\n        setobjs2s(L, ra, RB(i));\n",
         "      vmcase(OP_MOVE) {\n        setobjs2s(L, ra, RB(i));\n        xprof_edit_count++;\n"),
        ("branch", "lvm.c",
         "        lua_Integer b = GETARG_sBx(i);\n        setivalue(s2v(ra), b);\n",
         "        lua_Integer b = GETARG_sBx(i);\n        setivalue(s2v(ra), b);\n"
         "        if (b == -123456789)\n          xprof_edit_count--;\n"),
        ("call", "ltable.c",
         "    Node *n = hashint(t, key);\n",
         "    Node *n = hashint(t, key);\n    xprof_edit_note(n);\n"),
        ("loop", "ltable.c",
         """  for (;;) {  /* check whether 'key' is somewhere in the chain */
    if (keyisshrstr(n) && eqshrstr(keystrval(n), key))
      return gval(n);  /* that's it */
    else {
      int nx = gnext(n);
      if (nx == 0)
        return &absentkey;  /* not found */
      n += nx;
    }
  }
""",
         """  while (!(keyisshrstr(n) && eqshrstr(keystrval(n), key))) {
    int nx = gnext(n);
    if (nx == 0)
      return &absentkey;  /* not found */
    n += nx;
  }
  return gval(n);
"""),
    ],
    "bzip2": [
        ("statement", "compress.c",
         "            mtfv[wr] = j+1; wr++; s->mtfFreq[j+1]++;\n",
         "            mtfv[wr] = j+1; wr++; s->mtfFreq[j+1]++;\n            xprof_edit_count++;\n"),
        ("branch", "blocksort.c",
         "   k = nblock + 8;\n",
         "   k = nblock + 8;\n   if (k == -1) (*budget)++;\n"),
        ("call", "blocksort.c",
         "   Int32 i, j, h, bigN, hp;\n   UInt32 v;\n\n   bigN = hi - lo + 1;\n",
         "   Int32 i, j, h, bigN, hp;\n   UInt32 v;\n\n   xprof_edit_note(ptr);\n   bigN = hi - lo + 1;\n"),
        ("loop", "compress.c",
         """            while ( rll_i != rtmp ) {
               register UChar rtmp2;
               ryy_j++;
               rtmp2  = rtmp;
               rtmp   = *ryy_j;
               *ryy_j = rtmp2;
            };
""",
         """            while ( rll_i != rtmp ) {
               register UChar rtmp2;
               ryy_j++;
               rtmp2  = rtmp;
               rtmp   = *ryy_j;
               *ryy_j = rtmp2;
               if ( rll_i == rtmp ) break;
               ryy_j++;
               rtmp2  = rtmp;
               rtmp   = *ryy_j;
               *ryy_j = rtmp2;
            };
"""),
    ],
    "sqlite": [
        ("statement", "sqlite3.c",
         "case OP_Column: {\n",
         "case OP_Column: {\n  xprof_edit_count++;\n"),
        ("branch", "sqlite3.c",
         """  u64 iKey;               /* Extracted Key value */

  assert( sqlite3_mutex_held(pPage->pBt->mutex) );
  assert( pPage->leaf==0 || pPage->leaf==1 );
  assert( pPage->intKeyLeaf );
""",
         """  u64 iKey;               /* Extracted Key value */

  if( pCell==0 ) xprof_edit_count--;
  assert( sqlite3_mutex_held(pPage->pBt->mutex) );
  assert( pPage->leaf==0 || pPage->leaf==1 );
  assert( pPage->intKeyLeaf );
"""),
        ("call", "sqlite3.c",
         "SQLITE_PRIVATE u8 sqlite3GetVarint(const unsigned char *p, u64 *v){\n  u32 a,b,s;\n",
         "SQLITE_PRIVATE u8 sqlite3GetVarint(const unsigned char *p, u64 *v){\n  u32 a,b,s;\n"
         "  xprof_edit_note(p);\n"),
        ("loop", "sqlite3.c",
         """    nPayload &= 0x7f;
    do{
      nPayload = (nPayload<<7) | (*++pIter & 0x7f);
    }while( (*pIter)>=0x80 && pIter<pEnd );
  }
  pIter++;

  /* The next block of code is equivalent to:
  **
  **     pIter += getVarint(pIter, (u64*)&pInfo->nKey);
""",
         """    nPayload &= 0x7f;
    nPayload = (nPayload<<7) | (*++pIter & 0x7f);
    while( (*pIter)>=0x80 && pIter<pEnd ){
      nPayload = (nPayload<<7) | (*++pIter & 0x7f);
    }
  }
  pIter++;

  /* The next block of code is equivalent to:
  **
  **     pIter += getVarint(pIter, (u64*)&pInfo->nKey);
"""),
    ],
    "zstd": [
        ("statement", "lib/compress/zstd_lazy.c",
         '        const BYTE* start=ip+1;\n        DEBUGLOG(7, "search baseline (depth 0)");\n',
         '        const BYTE* start=ip+1;\n        DEBUGLOG(7, "search baseline (depth 0)");\n'
         "        xprof_edit_count++;\n"),
        ("branch", "lib/compress/zstd_compress_internal.h",
         "    const BYTE* const pStart = pIn;\n    const BYTE* const pInLoopLimit = pInLimit - (sizeof(size_t)-1);\n",
         "    const BYTE* const pStart = pIn;\n    const BYTE* const pInLoopLimit = pInLimit - (sizeof(size_t)-1);\n"
         "    if (pIn == pMatch) xprof_edit_count--;\n"),
        ("call", "lib/decompress/zstd_decompress_block.c",
         '            DEBUGLOG(6, "regenerated sequence size : %u", (U32)oneSeqSize);\n'
         "            op += oneSeqSize;\n            if (UNLIKELY(!--nbSeq))\n                break;\n",
         '            DEBUGLOG(6, "regenerated sequence size : %u", (U32)oneSeqSize);\n'
         "            op += oneSeqSize;\n            xprof_edit_note(op);\n"
         "            if (UNLIKELY(!--nbSeq))\n                break;\n"),
        ("loop", "lib/compress/zstd_compress_internal.h",
         """        while (pIn < pInLoopLimit) {
            size_t const diff = MEM_readST(pMatch) ^ MEM_readST(pIn);
            if (!diff) { pIn+=sizeof(size_t); pMatch+=sizeof(size_t); continue; }
            pIn += ZSTD_NbCommonBytes(diff);
            return (size_t)(pIn - pStart);
    }   }
""",
         """        for (; pIn < pInLoopLimit; pIn+=sizeof(size_t), pMatch+=sizeof(size_t)) {
            size_t const diff = MEM_readST(pMatch) ^ MEM_readST(pIn);
            if (diff) return (size_t)(pIn + ZSTD_NbCommonBytes(diff) - pStart);
    }   }
"""),
    ],
}


def apply(program, directory):
    touched = []
    for kind, name, old, new in EDITS[program]:
        path = f"{directory}/{name}"
        with open(path) as f:
            text = f.read()
        n = text.count(old)
        if n != 1:
            sys.exit(f"edits.py: {program}: the {kind} edit's text occurs {n} times in {path}, "
                     "not once (did the sources change?)")
        if name not in touched:
            text = DEFS + text
            touched.append(name)
        with open(path, "w") as f:
            f.write(text.replace(old, new))


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in EDITS:
        sys.exit("usage: edits.py lua|bzip2|sqlite|zstd DIR")
    apply(sys.argv[1], sys.argv[2])
