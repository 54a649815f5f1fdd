/*
 * shape.c - a procedure's shape: its graph, where its counters are and a
 * hash of each block's contents, as a collect build records it in the
 * profile (SHAP records, xprof_binary(5)), so that a later build whose
 * code changed can still carry the counts over (salvage.c).
 *
 * The encoding is a byte string of unsigned LEB128 numbers ("uleb") and
 * packed bytes.  Version 2, which collect builds write, spends about a
 * byte per edge and two per block, because every collect build carries
 * the shapes of all its procedures and every profile those of the
 * procedures that ran:
 *
 *   version (2), n_nodes, n_edges,
 *   per edge one byte, bits
 *     0-1 its source: 0 the previous edge's, 1 and 2 one and two after
 *         it, 3 given (uleb);
 *     2-3 its counter: 0 on the spanning tree, 1 the counter after the
 *         last one given, 2 not in the graph, 3 given (uleb: 2 measured,
 *         3 + k counter k);
 *     4   the FAKE flag alone; 5 other flags (uleb: FAKE, IGNORE,
 *         MEASURED; a measured edge's site follows, uleb);
 *     6-7 its target: 0 and 1 one and two after its source, 2 EXIT,
 *         3 given (uleb, zigzag: target - source);
 *     then what the bits say is given, in that order;
 *   per node but ENTRY and EXIT: its hash folded to 16 bits, 2 bytes
 *   little-endian;
 *   n_sites, per value-profile site: its node, its record type;
 *   n_side, per side counter: its node, its counter id.
 *
 * Version 1 (profiles of xprof 4.5 to 4.7 data) is read as well: every
 * field of an edge a uleb (source, target, flags, counter code, and the
 * site of a measured edge), and every node's full 32-bit hash.  Salvage
 * compares hashes folded to 16 bits (xprof_block_hash_fold), so shapes
 * of either version match a new build's blocks alike.
 */
#include <stdlib.h>

#include "internal.h"
#include "xprof_graph.h"

#define SHAPE_VERSION 2
#define WHERE_TREE 0
#define WHERE_IGNORED 1
#define WHERE_MEASURED 2
#define WHERE_COUNTER 3
/* The edge flags a shape keeps: those the flow solver reads. */
#define SHAPE_FLAGS (XPROF_EDGE_FAKE | XPROF_EDGE_IGNORE | XPROF_EDGE_MEASURED)

/* ---- block hashes ------------------------------------------------------- */

uint32_t xprof_block_hash_add(uint32_t h, uint64_t v) {
  uint64_t x = ((uint64_t)h << 32 | h) ^ (v * 0x9e3779b97f4a7c15ull);
  x ^= x >> 31;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 29;
  return (uint32_t)x;
}

uint32_t xprof_block_hash_str(uint32_t h, const char *s) {
  return xprof_block_hash_add(h, xprof_hash64(s, strlen(s)));
}

uint32_t xprof_block_hash_fold(uint32_t h) { return (h ^ h >> 16) & 0xffff; }

/* ---- encoding ----------------------------------------------------------- */

typedef struct sink {
  unsigned char *buf;
  size_t len, cap;
  int failed;
} sink;

static void put_byte(sink *s, unsigned char b) {
  if (s->len == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 256;
    unsigned char *grown = s->failed ? NULL : xprof_realloc(s->buf, cap);
    if (!grown) {
      s->failed = 1;
      return;
    }
    s->buf = grown;
    s->cap = cap;
  }
  s->buf[s->len++] = b;
}

static void put_uleb(sink *s, uint64_t v) {
  do {
    unsigned char b = v & 0x7f;
    v >>= 7;
    put_byte(s, (unsigned char)(b | (v ? 0x80 : 0)));
  } while (v);
}

static uint64_t where_code(uint32_t counter) {
  if (counter == XPROF_ON_TREE)
    return WHERE_TREE;
  if (counter == XPROF_NOT_IN_GRAPH)
    return WHERE_IGNORED;
  if (counter == XPROF_MEASURED)
    return WHERE_MEASURED;
  return WHERE_COUNTER + (uint64_t)counter;
}

/* The packed byte of an edge (see the top), and what follows it. */
#define SRC_SAME 0
#define SRC_GIVEN 3
#define CTR_TREE 0
#define CTR_NEXT 1
#define CTR_IGNORED 2
#define CTR_GIVEN 3
#define FLAG_FAKE 0x10
#define FLAG_GIVEN 0x20
#define DST_EXIT 2
#define DST_GIVEN 3

static uint64_t zigzag(int64_t v) { return v < 0 ? ((uint64_t)-(v + 1) << 1) | 1 : (uint64_t)v << 1; }
static int64_t unzigzag(uint64_t v) { return v & 1 ? -(int64_t)(v >> 1) - 1 : (int64_t)(v >> 1); }

static void put_edge(sink *s, const xprof_edge *g, uint32_t counter, uint32_t *prev_src,
                     uint64_t *next_counter) {
  uint32_t flags = g->flags & SHAPE_FLAGS;
  uint64_t where = where_code(counter);
  unsigned src = g->src >= *prev_src && g->src - *prev_src < SRC_GIVEN ? g->src - *prev_src
                                                                       : SRC_GIVEN;
  unsigned ctr = where == WHERE_TREE                      ? CTR_TREE
                 : where == WHERE_COUNTER + *next_counter ? CTR_NEXT
                 : where == WHERE_IGNORED                 ? CTR_IGNORED
                                                          : CTR_GIVEN;
  unsigned dst = g->dst == g->src + 1 ? 0 : g->dst == g->src + 2 ? 1 : g->dst == XPROF_EXIT ? DST_EXIT
                                                                                       : DST_GIVEN;
  unsigned fl = flags == 0 ? 0 : flags == XPROF_EDGE_FAKE ? FLAG_FAKE : FLAG_GIVEN;
  put_byte(s, (unsigned char)(src | ctr << 2 | fl | dst << 6));
  if (src == SRC_GIVEN)
    put_uleb(s, g->src);
  if (ctr == CTR_GIVEN)
    put_uleb(s, where);
  if (fl == FLAG_GIVEN) {
    put_uleb(s, flags);
    if (flags & XPROF_EDGE_MEASURED)
      put_uleb(s, g->site);
  }
  if (dst == DST_GIVEN)
    put_uleb(s, zigzag((int64_t)g->dst - (int64_t)g->src));
  *prev_src = g->src;
  if (where >= WHERE_COUNTER)
    *next_counter = where - WHERE_COUNTER + 1;
}

int xprof_shape_encode(const xprof_shape *shape, unsigned char **buf, size_t *len) {
  sink s = {NULL, 0, 0, 0};
  uint32_t prev_src = 0;
  uint64_t next_counter = 0;
  put_uleb(&s, SHAPE_VERSION);
  put_uleb(&s, shape->n_nodes);
  put_uleb(&s, shape->n_edges);
  for (uint32_t e = 0; e < shape->n_edges; e++)
    put_edge(&s, &shape->edges[e], shape->counter_of_edge[e], &prev_src, &next_counter);
  for (uint32_t v = 2; v < shape->n_nodes; v++) {
    uint32_t h = xprof_block_hash_fold(shape->hash[v]);
    put_byte(&s, (unsigned char)h);
    put_byte(&s, (unsigned char)(h >> 8));
  }
  put_uleb(&s, shape->n_sites);
  for (uint32_t k = 0; k < shape->n_sites; k++) {
    put_uleb(&s, shape->site_node[k]);
    put_uleb(&s, shape->site_type[k]);
  }
  put_uleb(&s, shape->n_side);
  for (uint32_t k = 0; k < shape->n_side; k++) {
    put_uleb(&s, shape->side_node[k]);
    put_uleb(&s, shape->side_counter[k]);
  }
  if (s.failed) {
    xprof_free(s.buf);
    return -1;
  }
  *buf = s.buf;
  *len = s.len;
  return 0;
}

/* ---- decoding ----------------------------------------------------------- */

typedef struct source {
  const unsigned char *p, *end;
  const char *what; /* for messages: whose shape */
  xprof_error *err;
} source;

/* The next number, at most `max`; returns -1 after setting the error. */
static int get_uleb(source *s, uint64_t max, const char *field, uint64_t *out) {
  uint64_t v = 0;
  for (unsigned shift = 0;; shift += 7) {
    if (s->p == s->end)
      return xprof_fail(s->err, XPROF_ERR_FORMAT, "%s: shape ends inside its %s", s->what,
                        field);
    unsigned char b = *s->p++;
    if (shift > 63 || (shift == 63 && (b & 0x7e)))
      return xprof_fail(s->err, XPROF_ERR_FORMAT, "%s: shape's %s is too large", s->what,
                        field);
    v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80))
      break;
  }
  if (v > max)
    return xprof_fail(s->err, XPROF_ERR_FORMAT, "%s: shape's %s is %llu, at most %llu allowed",
                      s->what, field, (unsigned long long)v, (unsigned long long)max);
  *out = v;
  return 0;
}

/* An edge's fields, checked, as the graph holds them. */
static int make_edge(source *s, uint64_t src, uint64_t dst, uint64_t flags, uint64_t where,
                     uint64_t site, xprof_edge *g, uint32_t *counter) {
  if (flags & ~(uint64_t)SHAPE_FLAGS)
    return xprof_fail(s->err, XPROF_ERR_FORMAT, "%s: shape's edge %llu->%llu has flags 0x%llx",
                      s->what, (unsigned long long)src, (unsigned long long)dst,
                      (unsigned long long)flags);
  if ((flags & XPROF_EDGE_MEASURED) != (where == WHERE_MEASURED ? XPROF_EDGE_MEASURED : 0))
    return xprof_fail(s->err, XPROF_ERR_FORMAT,
                      "%s: shape's measured edge %llu->%llu has no site, or a site and no flag",
                      s->what, (unsigned long long)src, (unsigned long long)dst);
  *g = (xprof_edge){(uint32_t)src, (uint32_t)dst, (uint32_t)flags, 0, (uint32_t)site};
  *counter = where == WHERE_TREE       ? XPROF_ON_TREE
             : where == WHERE_IGNORED  ? XPROF_NOT_IN_GRAPH
             : where == WHERE_MEASURED ? XPROF_MEASURED
                                       : (uint32_t)(where - WHERE_COUNTER);
  return 0;
}


/* One edge of version 1 of a graph of n_nodes nodes and n_edges edges
 * (an edge has at most one counter: the ids are below n_edges). */
static int get_edge_v1(source *s, uint32_t n_nodes, uint32_t n_edges, xprof_edge *g,
                    uint32_t *counter) {
  uint64_t src, dst, flags, where, site = 0;
  if (get_uleb(s, n_nodes - 1, "edge source", &src) < 0 ||
      get_uleb(s, n_nodes - 1, "edge target", &dst) < 0 ||
      get_uleb(s, SHAPE_FLAGS, "edge flags", &flags) < 0 ||
      get_uleb(s, WHERE_COUNTER + (uint64_t)n_edges - 1, "counter", &where) < 0)
    return -1;
  if ((flags & XPROF_EDGE_MEASURED) && get_uleb(s, UINT32_MAX, "site", &site) < 0)
    return -1;
  return make_edge(s, src, dst, flags, where, site, g, counter);
}

/* One edge of version 2: the packed byte and what it says follows. */
static int get_edge_v2(source *s, uint32_t n_nodes, uint32_t n_edges, uint32_t *prev_src,
                       uint64_t *next_counter, xprof_edge *g, uint32_t *counter) {
  uint64_t src, dst = 0, flags = 0, where, site = 0, delta = 0;
  uint64_t max_where = WHERE_COUNTER + (uint64_t)n_edges - 1;
  if (s->p == s->end)
    return xprof_fail(s->err, XPROF_ERR_FORMAT, "%s: shape ends inside its edges", s->what);
  unsigned b = *s->p++;
  unsigned src_code = b & 3, ctr = b >> 2 & 3, dst_code = b >> 6;
  src = *prev_src + (uint64_t)src_code;
  if (src_code == SRC_GIVEN && get_uleb(s, n_nodes - 1, "edge source", &src) < 0)
    return -1;
  where = ctr == CTR_TREE ? WHERE_TREE : ctr == CTR_NEXT ? WHERE_COUNTER + *next_counter : WHERE_IGNORED;
  if (ctr == CTR_GIVEN && get_uleb(s, max_where, "counter", &where) < 0)
    return -1;
  if (b & FLAG_FAKE)
    flags = XPROF_EDGE_FAKE;
  if ((b & FLAG_GIVEN) && get_uleb(s, SHAPE_FLAGS, "edge flags", &flags) < 0)
    return -1;
  if ((flags & XPROF_EDGE_MEASURED) && get_uleb(s, UINT32_MAX, "site", &site) < 0)
    return -1;
  if (dst_code == DST_GIVEN && get_uleb(s, 2 * (uint64_t)n_nodes, "edge target", &delta) < 0)
    return -1;
  int64_t t = dst_code == 0 ? (int64_t)src + 1
              : dst_code == 1 ? (int64_t)src + 2
              : dst_code == DST_EXIT ? (int64_t)XPROF_EXIT
                                     : (int64_t)src + unzigzag(delta);
  if (src >= n_nodes || t < 0 || (uint64_t)t >= n_nodes || where > max_where)
    return xprof_fail(s->err, XPROF_ERR_FORMAT, "%s: shape's edge %llu->%lld lies outside its "
                      "%u nodes, or its counter past its %u edges",
                      s->what, (unsigned long long)src, (long long)t, n_nodes, n_edges);
  dst = (uint64_t)t;
  *prev_src = (uint32_t)src;
  if (where >= WHERE_COUNTER)
    *next_counter = where - WHERE_COUNTER + 1;
  return make_edge(s, src, dst, flags, where, site, g, counter);
}

/* A list of pairs (a node, and a type or a counter id): the value-profile
 * sites, or the side counters. */
static int get_pairs(source *s, const char *what, uint32_t n_nodes, uint32_t *n_out,
                     uint32_t **node_out, uint32_t **other_out) {
  uint64_t n, node = 0, other = 0; /* (set by get_uleb; GCC -O3 cannot tell) */
  if (get_uleb(s, (uint64_t)(s->end - s->p) / 2, what, &n) < 0)
    return -1;
  *n_out = (uint32_t)n;
  *node_out = xprof_calloc(n + 1, sizeof **node_out);
  *other_out = xprof_calloc(n + 1, sizeof **other_out);
  if (!*node_out || !*other_out)
    return xprof_fail_nomem(s->err, s->what);
  for (uint32_t k = 0; k < n; k++) {
    if (get_uleb(s, n_nodes - 1, "node of a site or side counter", &node) < 0 ||
        get_uleb(s, UINT32_MAX, "type or counter of a site or side counter", &other) < 0)
      return -1;
    (*node_out)[k] = (uint32_t)node;
    (*other_out)[k] = (uint32_t)other;
  }
  return 0;
}

static int get_sites(source *s, xprof_shape *shape) {
  if (get_pairs(s, "number of sites", shape->n_nodes, &shape->n_sites, &shape->site_node,
                &shape->site_type) < 0)
    return -1;
  return get_pairs(s, "number of side counters", shape->n_nodes, &shape->n_side,
                   &shape->side_node, &shape->side_counter);
}

/* The edges and node hashes of version 1 or 2. */
static int get_graph(source *s, uint64_t version, xprof_shape *shape) {
  uint32_t prev_src = 0;
  uint64_t next_counter = 0;
  for (uint32_t e = 0; e < shape->n_edges; e++) {
    int rc = version == 1 ? get_edge_v1(s, shape->n_nodes, shape->n_edges, &shape->edges[e],
                                        &shape->counter_of_edge[e])
                          : get_edge_v2(s, shape->n_nodes, shape->n_edges, &prev_src,
                                        &next_counter, &shape->edges[e],
                                        &shape->counter_of_edge[e]);
    if (rc < 0)
      return -1;
  }
  size_t width = version == 1 ? 4 : 2, first = version == 1 ? 0 : 2;
  size_t need = width * (shape->n_nodes - first);
  if ((size_t)(s->end - s->p) < need)
    return xprof_fail(s->err, XPROF_ERR_FORMAT,
                      "%s: shape has %zu bytes for the hashes of %u nodes, not %zu", s->what,
                      (size_t)(s->end - s->p), shape->n_nodes, need);
  for (uint32_t v = (uint32_t)first; v < shape->n_nodes; v++, s->p += width)
    shape->hash[v] = version == 1 ? xprof_get32(s->p) : (uint32_t)s->p[0] | (uint32_t)s->p[1] << 8;
  return 0;
}

int xprof_shape_decode(const unsigned char *buf, size_t len, const char *what,
                       xprof_shape *shape, xprof_error *err) {
  source s = {buf, buf + len, what, err};
  uint64_t version, n_nodes, n_edges;
  memset(shape, 0, sizeof *shape);
  if (get_uleb(&s, UINT32_MAX, "version", &version) < 0)
    return -1;
  if (version != 1 && version != SHAPE_VERSION)
    return xprof_fail(err, XPROF_ERR_VERSION, "%s: shape version %llu, this xprof reads 1 and %d",
                      what, (unsigned long long)version, SHAPE_VERSION);
  /* Each edge takes a byte or more (four in version 1) and each node two
   * (four): the counts are checked against what is left before anything
   * is allocated. */
  uint64_t left = (uint64_t)(s.end - s.p), per_edge = version == 1 ? 4 : 1;
  if (get_uleb(&s, left / 2 + 2, "number of nodes", &n_nodes) < 0 ||
      get_uleb(&s, left / per_edge, "number of edges", &n_edges) < 0)
    return -1;
  if (n_nodes < 2)
    return xprof_fail(err, XPROF_ERR_FORMAT, "%s: shape has %llu nodes, not ENTRY and EXIT",
                      what, (unsigned long long)n_nodes);
  shape->n_nodes = (uint32_t)n_nodes;
  shape->n_edges = (uint32_t)n_edges;
  shape->edges = xprof_calloc(n_edges + 1, sizeof *shape->edges);
  shape->counter_of_edge = xprof_calloc(n_edges + 1, sizeof *shape->counter_of_edge);
  shape->hash = xprof_calloc(n_nodes, sizeof *shape->hash);
  if (!shape->edges || !shape->counter_of_edge || !shape->hash) {
    xprof_shape_free(shape);
    return xprof_fail_nomem(err, what);
  }
  if (get_graph(&s, version, shape) < 0 || get_sites(&s, shape) < 0) {
    xprof_shape_free(shape);
    return -1;
  }
  if (s.p != s.end) {
    xprof_shape_free(shape);
    return xprof_fail(err, XPROF_ERR_FORMAT, "%s: shape has %zu bytes after its end", what,
                      (size_t)(s.end - s.p));
  }
  return 0;
}

void xprof_shape_free(xprof_shape *shape) {
  xprof_free(shape->edges);
  xprof_free(shape->counter_of_edge);
  xprof_free(shape->hash);
  xprof_free(shape->site_node);
  xprof_free(shape->site_type);
  xprof_free(shape->side_node);
  xprof_free(shape->side_counter);
  memset(shape, 0, sizeof *shape);
}
