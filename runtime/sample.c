/*
 * sample.c - where the time goes: program-counter samples over every
 * executable text segment of the process (SUN_PROFDATA_SAMPLE=1).
 *
 * The model is sprofil(2)'s: a list of text regions, each with its own
 * array of 32-bit bins (PROF_UINT), and an overflow bin for the program
 * counters outside all of them; on each SIGPROF of the process's CPU-time
 * timer (ITIMER_PROF) the handler adds one to the bin of the interrupted
 * program counter.  The runtime implements it itself rather than calling
 * glibc's sprofil: glibc's (2.36) counts every sample that falls in
 * another region than the sample before it as an overflow, and cannot be
 * armed a second time (it frees its region table twice).
 *
 * The regions are the executable segments of every loaded image,
 * instrumented or not (dl_iterate_phdr), looked for again when the set of
 * images changed (checked at each registration and profile write); the
 * handler reads an immutable table that re-arming replaces with one
 * pointer store.  The bins are the runtime's own memory, so they survive
 * re-arming; a write takes what they hold into the profile (xprof_image,
 * SMPL records) and empties them.
 *
 * A program with its own SIGPROF handler or profiling timer keeps them:
 * the runtime says so once and does not sample.  A forked child starts
 * from empty bins and arms its own timer (timers are not inherited); the
 * timer is stopped before an exec replaces the process, whose SIGPROF
 * would otherwise end the new program.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "rt_internal.h"

/* A bin per byte by default: each sample then keeps its exact program
 * counter, which the line profile needs to give the time to the
 * instruction before it (libxprof/views/lineprof_samples.c, sampled_at).
 * The bins are four bytes per byte of text, but only reserved: the pages
 * the handler never writes (code that did not run) cost nothing. */
#define DEFAULT_BIN_WIDTH 1u
#define MAX_BIN_WIDTH 65536u

typedef struct region {
  uintptr_t start;          /* where the segment is mapped */
  uint64_t text_off, size;  /* relative to the image's load address */
  char *path;
  unsigned char id[XPROF_IMAGE_ID_MAX];
  uint32_t id_len;
  uint32_t *bins;           /* mmap'd, n_bins of them */
  size_t n_bins;
  int present;              /* seen by the latest scan */
} region;

static struct {
  int on;             /* sampling (in this process) */
  int said_no;        /* the once-only message was given */
  pid_t armed_pid;    /* the process whose timer is running */
  unsigned bin_width;
  region *r;
  uint32_t n, cap;
  unsigned shift;     /* log2(bin_width) */
  uint32_t overflow;  /* the overflow bin */
  unsigned long long adds, subs; /* dl_iterate_phdr's at the last scan */
  uint64_t cpu_ns;    /* process CPU time at the last harvest */
  int handler_set;    /* our SIGPROF handler is installed */
  int timer_set;      /* and this process's timer runs */
  struct sigaction saved; /* the action before ours */
} S;

/* What the signal handler reads: the regions by increasing start.  A new
 * table replaces the old with one store. */
typedef struct table_entry {
  uintptr_t start, end;
  uint32_t *bins;
} table_entry;
typedef struct table {
  size_t n;
  table_entry e[];
} table;
static table *live_table;

/* Memory a handler may still be using: a table replaced, the bins of an
 * image gone.  A handler that loaded the old table pointer may be
 * preempted inside it, so it is released only two profile writes later,
 * not when it is replaced. */
typedef struct retired {
  void *p;
  size_t map_len; /* bins: munmap this much; 0: a table, xprof_free */
  unsigned write; /* the write during which it was retired */
  struct retired *next;
} retired;
static retired *graveyard;
static unsigned writes;

static void retire(void *p, size_t map_len) {
  retired *r = xprof_malloc(sizeof *r);
  if (!r)
    return; /* kept for good rather than risk a handler's read */
  *r = (retired){p, map_len, writes, graveyard};
  graveyard = r;
}

static void release_retired(void) {
  for (retired **pp = &graveyard; *pp;) {
    retired *r = *pp;
    if (writes - r->write < 2) {
      pp = &r->next;
      continue;
    }
    if (r->map_len)
      munmap(r->p, r->map_len);
    else
      xprof_free(r->p);
    *pp = r->next;
    xprof_free(r);
  }
}

/* Program counters outside every region, kept for the next scan: a
 * library dlopen'ed without xprof is found only then, and its samples
 * until then are given to it rather than to the overflow bin.  Only when
 * this fills up do they go there at once. */
#define PENDING_PCS 65536u
static uintptr_t *pending_pcs;
static uint32_t n_pending;

static uint64_t cpu_now_ns(void) {
  struct timespec ts;
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) < 0)
    return 0;
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- images ------------------------------------------------------------ */

/* The GNU build-id of a loaded image, from its notes in memory; 0 when it
 * has none. */
static uint32_t build_id(const struct dl_phdr_info *info, unsigned char *out) {
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_NOTE)
      continue;
    const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
    const unsigned char *end = p + ph->p_memsz;
    while (end - p >= (ptrdiff_t)sizeof(ElfW(Nhdr))) {
      const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)(const void *)p;
      size_t name = (nh->n_namesz + 3u) & ~3u, desc = (nh->n_descsz + 3u) & ~3u;
      const unsigned char *body = p + sizeof *nh;
      if ((size_t)(end - body) < name + desc)
        break;
      if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 && memcmp(body, "GNU", 4) == 0 &&
          nh->n_descsz && nh->n_descsz <= XPROF_IMAGE_ID_MAX) {
        memcpy(out, body + name, nh->n_descsz);
        return nh->n_descsz;
      }
      p = body + name + desc;
    }
  }
  return 0;
}

static region *find_region(uintptr_t start, uint64_t size, const char *path) {
  for (size_t i = 0; i < S.n; i++)
    if (S.r[i].start == start && S.r[i].size == size && strcmp(S.r[i].path, path) == 0)
      return &S.r[i];
  return NULL;
}

/* A region for a segment not seen before, with empty bins. */
static region *new_region(const struct dl_phdr_info *info, const ElfW(Phdr) *ph,
                          const char *path) {
  if (xprof_grow((void **)&S.r, &S.cap, S.n, sizeof *S.r) < 0)
    return NULL;
  region *g = &S.r[S.n];
  memset(g, 0, sizeof *g);
  g->start = info->dlpi_addr + ph->p_vaddr;
  g->text_off = ph->p_vaddr;
  g->size = ph->p_memsz;
  g->n_bins = (g->size + S.bin_width - 1) / S.bin_width;
  g->bins = mmap(NULL, g->n_bins * sizeof *g->bins, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (g->bins == MAP_FAILED || !(g->path = xprof_format("%s", path))) {
    if (g->bins != MAP_FAILED)
      munmap(g->bins, g->n_bins * sizeof *g->bins);
    return NULL;
  }
  g->id_len = build_id(info, g->id);
  if (!g->id_len) { /* no build-id: what the text holds identifies it */
    uint64_t h = xprof_hash64((const void *)g->start, g->size);
    memcpy(g->id, &h, sizeof h);
    g->id_len = sizeof h;
  }
  S.n++;
  return g;
}

static int scan_cb(struct dl_phdr_info *info, size_t size, void *data);

/* Whether a text segment is that of this runtime's own shared library
 * (xprof_collect preloads it): its time is the measurement's, not the
 * program's, and its debugging lines would put the runtime's functions
 * into the program's line profile.  A runtime linked into the program
 * shares the program's segment and is sampled with it. */
static int own_library(const struct dl_phdr_info *info, const ElfW(Phdr) *ph) {
  uintptr_t self = (uintptr_t)&scan_cb, start = info->dlpi_addr + ph->p_vaddr;
  return info->dlpi_name && info->dlpi_name[0] && self >= start && self - start < ph->p_memsz;
}

static int scan_cb(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  (void)data;
  char exe[4096];
  const char *path = info->dlpi_name;
  if (!path || !path[0]) { /* the program */
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[len > 0 ? len : 0] = 0;
    path = len > 0 ? exe : program_invocation_name;
  }
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X) || !ph->p_memsz || own_library(info, ph))
      continue;
    region *g = find_region(info->dlpi_addr + ph->p_vaddr, ph->p_memsz, path);
    if (!g)
      g = new_region(info, ph, path);
    if (g)
      g->present = 1;
  }
  return 0;
}

static int count_cb(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  unsigned long long *v = data;
  v[0] = info->dlpi_adds;
  v[1] = info->dlpi_subs;
  return 1; /* the counts are the same in every entry */
}

/* ---- the sampler ------------------------------------------------------ */

static uintptr_t interrupted_pc(const void *uctx) {
  const ucontext_t *uc = uctx;
#if defined(__x86_64__)
  return (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__i386__)
  return (uintptr_t)uc->uc_mcontext.gregs[REG_EIP];
#elif defined(__aarch64__)
  return (uintptr_t)uc->uc_mcontext.pc;
#else
  (void)uc;
  return 0; /* counted in the overflow bin */
#endif
}

/* The bin of pc in table t; NULL when no region holds it. */
static uint32_t *bin_of(const table *t, uintptr_t pc) {
  size_t lo = 0, hi = t ? t->n : 0;
  while (lo < hi) { /* the first entry that ends after pc */
    size_t mid = lo + (hi - lo) / 2;
    if (t->e[mid].end <= pc)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (t && lo < t->n && pc >= t->e[lo].start)
    return &t->e[lo].bins[(pc - t->e[lo].start) >> S.shift];
  return NULL;
}

/* Async-signal-safe: reads the table, adds to one bin. */
static void on_sigprof(int sig, siginfo_t *si, void *uctx) {
  (void)sig;
  (void)si;
  uintptr_t pc = interrupted_pc(uctx);
  uint32_t *bin = bin_of(__atomic_load_n(&live_table, __ATOMIC_ACQUIRE), pc);
  if (bin) {
    __atomic_fetch_add(bin, 1, __ATOMIC_RELAXED);
    return;
  }
  uint32_t k = pending_pcs ? __atomic_fetch_add(&n_pending, 1, __ATOMIC_RELAXED) : PENDING_PCS;
  if (k < PENDING_PCS && pc)
    __atomic_store_n(&pending_pcs[k], pc, __ATOMIC_RELAXED);
  else
    __atomic_fetch_add(&S.overflow, 1, __ATOMIC_RELAXED);
}

/* Give the counters kept outside every region to the regions of table t,
 * or to the overflow bin.  (A handler that took a slot but had not yet
 * stored its counter leaves a 0: an overflow.) */
static void settle_pending(const table *t) {
  if (!pending_pcs)
    return;
  /* Closed while we read it: samples meanwhile are overflows. */
  uint32_t n = __atomic_exchange_n(&n_pending, PENDING_PCS, __ATOMIC_ACQUIRE);
  if (n > PENDING_PCS)
    n = PENDING_PCS;
  for (uint32_t i = 0; i < n; i++) {
    uintptr_t pc = __atomic_exchange_n(&pending_pcs[i], 0, __ATOMIC_RELAXED);
    uint32_t *bin = pc ? bin_of(t, pc) : NULL;
    __atomic_fetch_add(bin ? bin : &S.overflow, 1, __ATOMIC_RELAXED);
  }
  __atomic_store_n(&n_pending, 0, __ATOMIC_RELEASE);
}

/* Whether the program has a SIGPROF handler or profiling timer of its own
 * (before we arm), or replaced ours (after). */
static int timer_taken(void) {
  struct sigaction sa;
  struct itimerval it;
  if (rt_sigaction(SIGPROF, NULL, &sa) < 0 || rt_getitimer(ITIMER_PROF, &it) < 0)
    return 1;
  int running = it.it_interval.tv_sec || it.it_interval.tv_usec || it.it_value.tv_sec ||
                it.it_value.tv_usec;
  if (!S.handler_set)
    return running || (sa.sa_handler != SIG_DFL && sa.sa_handler != SIG_IGN);
  return !running || !(sa.sa_flags & SA_SIGINFO) || sa.sa_sigaction != on_sigprof;
}

/* Stop sampling, saying why once (why NULL: without a word). */
static void give_up(const char *why) {
  if (!S.said_no && why)
    rt_message("SUN_PROFDATA_SAMPLE: %s; no more time samples are taken", why);
  S.said_no = 1;
  S.on = 0;
}

static int by_start(const void *a, const void *b) {
  uintptr_t x = ((const table_entry *)a)->start, y = ((const table_entry *)b)->start;
  return (x > y) - (x < y);
}

/* Stop the timer and give SIGPROF its old action back. */
static void disarm(void) {
  struct itimerval off;
  memset(&off, 0, sizeof off);
  if (S.timer_set)
    rt_setitimer(ITIMER_PROF, &off, NULL);
  if (S.handler_set)
    rt_sigaction(SIGPROF, &S.saved, NULL);
  S.handler_set = S.timer_set = 0;
}

/* Publish a table of the present regions; start the handler and the
 * timer if they are not running, the timer's first sample after first_us
 * microseconds of CPU time. */
static void arm_after(long first_us) {
  table *t = xprof_malloc(sizeof *t + (S.n + 1) * sizeof t->e[0]);
  if (!t) {
    disarm();
    give_up("out of memory");
    return;
  }
  t->n = 0;
  for (uint32_t i = 0; i < S.n; i++)
    if (S.r[i].present)
      t->e[t->n++] = (table_entry){S.r[i].start, S.r[i].start + S.r[i].size, S.r[i].bins};
  qsort(t->e, t->n, sizeof t->e[0], by_start);
  table *old = live_table;
  __atomic_store_n(&live_table, t, __ATOMIC_RELEASE);
  if (old)
    retire(old, 0);
  /* The program may have taken SIGPROF since (rt_sample_yield). */
  if (!__atomic_load_n(&S.on, __ATOMIC_ACQUIRE))
    return;
  if (!S.handler_set) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigprof;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigfillset(&sa.sa_mask);
    if (rt_sigaction(SIGPROF, &sa, &S.saved) < 0) {
      give_up("cannot install the SIGPROF handler");
      return;
    }
    S.handler_set = 1;
  }
  if (!S.timer_set) {
    /* Every millisecond of CPU time, or as often as the kernel's CPU-time
     * accounting can when that is less often (once a tick: 4 ms with
     * Debian's kernel). */
    struct itimerval it = {{0, 1000}, {0, first_us}};
    if (rt_setitimer(ITIMER_PROF, &it, NULL) < 0) {
      disarm();
      give_up("cannot start the profiling timer");
      return;
    }
    S.timer_set = 1;
    S.armed_pid = getpid();
  }
}

static void arm(void) { arm_after(1000); }


/* Look for images loaded or unloaded since the last look; re-arm when
 * there are. */
static void rescan(int force) {
  unsigned long long v[2] = {0, 0};
  dl_iterate_phdr(count_cb, v);
  if (!force && v[0] == S.adds && v[1] == S.subs)
    return;
  S.adds = v[0];
  S.subs = v[1];
  for (size_t i = 0; i < S.n; i++)
    S.r[i].present = 0;
  dl_iterate_phdr(scan_cb, NULL);
  arm();
  settle_pending(live_table);
}

static unsigned bin_width_setting(void) {
  const char *w = rt_getenv("SUN_PROFDATA_SAMPLE_BIN");
  if (!w || !*w)
    return DEFAULT_BIN_WIDTH;
  char *end;
  unsigned long v = strtoul(w, &end, 10);
  if (*end || v < 1 || v > MAX_BIN_WIDTH || (v & (v - 1))) {
    rt_message("SUN_PROFDATA_SAMPLE_BIN=%s is not a power of two from 1 to %u; using %u", w,
               MAX_BIN_WIDTH, DEFAULT_BIN_WIDTH);
    return DEFAULT_BIN_WIDTH;
  }
  return (unsigned)v;
}

void rt_sample_start(void) {
  const char *e = rt_getenv("SUN_PROFDATA_SAMPLE");
  if (!e || !*e || strcmp(e, "0") == 0)
    return;
  if (timer_taken()) {
    give_up("the program has its own SIGPROF handler or profiling timer");
    return;
  }
  S.bin_width = bin_width_setting();
  while ((1u << S.shift) < S.bin_width)
    S.shift++;
  S.on = 1;
  S.cpu_ns = cpu_now_ns();
  void *ring = mmap(NULL, PENDING_PCS * sizeof *pending_pcs, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  pending_pcs = ring == MAP_FAILED ? NULL : ring;
  rescan(1);
}

/* Whether SIGPROF's action now is its default or to be ignored. */
static int sigprof_default(void) {
  struct sigaction sa;
  return rt_sigaction(SIGPROF, NULL, &sa) == 0 && !(sa.sa_flags & SA_SIGINFO) &&
         (sa.sa_handler == SIG_DFL || sa.sa_handler == SIG_IGN);
}

/* SIGPROF and the profiling timer go to the program; how: what it did.
 * Our timer stops, unless it may be the program's own by now (a change
 * found at a check, not seen as it was made), and says nothing where the
 * program set SIGPROF's action back to the default (a process spawner's
 * child does so for every signal before its exec: CMake's ctest, libuv)
 * or to be ignored: it asked for nothing, and the exec's program samples
 * itself.  A timer of the program's own will tick: SIGPROF's action goes
 * back to what it was before ours, as if we had never been. */
static void hand_over(enum rt_sigprof_change how) {
  if (S.timer_set && how != RT_SIGPROF_FOUND) {
    struct itimerval off;
    memset(&off, 0, sizeof off);
    rt_setitimer(ITIMER_PROF, &off, NULL);
  }
  if ((how == RT_SIGPROF_TIMER || how == RT_SIGPROF_POSIX_TIMER) && S.handler_set)
    rt_sigaction(SIGPROF, &S.saved, NULL);
  S.handler_set = S.timer_set = 0;
  give_up(how == RT_SIGPROF_HANDLER ? "the program installed its own SIGPROF handler"
          : how == RT_SIGPROF_TIMER ? "the program set the profiling timer (ITIMER_PROF)"
          : how == RT_SIGPROF_POSIX_TIMER ? "the program made a timer that sends SIGPROF (timer_create)"
          : how == RT_SIGPROF_WAIT ? "the program waits for SIGPROF itself (sigwait, signalfd)"
          : how == RT_SIGPROF_FOUND ? "the program installed its own SIGPROF handler or profiling timer"
                                    : NULL);
}

int rt_sample_own_action(const struct sigaction *act) {
  return (act->sa_flags & SA_SIGINFO) && act->sa_sigaction == on_sigprof;
}

/* In the process that armed the timer only: a vfork child shares our
 * memory but not our timer. */
int rt_sample_active(void) {
  return __atomic_load_n(&S.on, __ATOMIC_ACQUIRE) && S.armed_pid == getpid();
}

void rt_sample_yield(enum rt_sigprof_change how) {
  /* A vfork child's change is its own: our timer is its parent's. */
  if (!rt_sample_active() || !__atomic_exchange_n(&S.on, 0, __ATOMIC_ACQ_REL))
    return;
  hand_over(how);
}

void rt_sample_check_locked(void) {
  /* A vfork child (the exec wrapper writes before its exec) runs in our
   * memory without our timer: what it sees of the timer is not ours, and
   * giving up there would give up for us. */
  if (!rt_sample_active())
    return;
  if (timer_taken())
    hand_over(S.timer_set && sigprof_default() ? RT_SIGPROF_DEFAULT : RT_SIGPROF_FOUND);
  else
    rescan(0);
}

/* ---- taking the samples ------------------------------------------------ */

/* The bins of region g with samples, emptied; how many there were.  Only
 * the pages of bins the handler wrote are read (mincore): the rest were
 * never touched, and reading them would map them in -- megabytes for a
 * C library whose text mostly never ran. */
static uint64_t take_bins(region *g, xprof_sample_bin *out, uint32_t *n_out) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  size_t bytes = g->n_bins * sizeof *g->bins, n_pages = (bytes + page - 1) / page;
  unsigned char *resident = xprof_malloc(n_pages ? n_pages : 1);
  if (resident && mincore(g->bins, bytes, resident) < 0) {
    xprof_free(resident);
    resident = NULL; /* read them all */
  }
  size_t per_page = page / sizeof *g->bins;
  uint64_t sum = 0;
  uint32_t n = 0;
  for (size_t p = 0; p < n_pages; p++) {
    if (resident && !(resident[p] & 1))
      continue;
    size_t end = (p + 1) * per_page < g->n_bins ? (p + 1) * per_page : g->n_bins;
    for (size_t i = p * per_page; i < end; i++) {
      if (!g->bins[i])
        continue;
      uint32_t c = __atomic_exchange_n(&g->bins[i], 0, __ATOMIC_RELAXED);
      if (c) {
        out[n].index = i;
        out[n++].count = c;
        sum += c;
      }
    }
  }
  xprof_free(resident);
  *n_out = n;
  return sum;
}

static xprof_image *add_image(xprof_profile *p, const char *path, uint64_t off,
                              const unsigned char *id, uint32_t id_len) {
  xprof_image *img = xprof_add_image(p, path, off);
  if (img && xprof_image_set_id(p, img, id, id_len) < 0)
    return NULL;
  if (img)
    img->bin_width = S.bin_width;
  return img;
}

/* Spread the CPU time since the last harvest over the images by their
 * samples (each sample stands for the same time). */
static void share_time(xprof_profile *p, uint64_t first, uint64_t total) {
  /* A vfork child's CPU clock is its own: the time of the samples it
   * writes goes with our next write. */
  if (S.armed_pid != getpid())
    return;
  uint64_t now = cpu_now_ns(), spent = now > S.cpu_ns ? now - S.cpu_ns : 0;
  S.cpu_ns = now;
  for (uint32_t i = (uint32_t)first; i < p->n_images && total; i++)
    p->images[i].time_ns = (uint64_t)((double)spent * (double)p->images[i].samples / (double)total);
}

int rt_sample_take_locked(xprof_profile *p) {
  rt_sample_check_locked();
  if (!S.n)
    return 0; /* never sampled */
  settle_pending(live_table);
  size_t most = 1;
  for (size_t i = 0; i < S.n; i++)
    if (S.r[i].n_bins > most)
      most = S.r[i].n_bins;
  /* Bins with samples are few; a region's worth is the bound. */
  xprof_sample_bin *bins = xprof_malloc(most * sizeof *bins);
  if (!bins)
    return -1;
  uint64_t first = p->n_images, total = 0;
  for (size_t i = 0; i < S.n; i++) {
    region *g = &S.r[i];
    uint32_t n;
    uint64_t got = take_bins(g, bins, &n);
    if (!got)
      continue;
    xprof_image *img = add_image(p, g->path, g->text_off, g->id, g->id_len);
    if (!img || xprof_image_set_bins(p, img, bins, n) < 0) {
      xprof_free(bins);
      return -1;
    }
    img->text_size = g->size;
    total += got;
  }
  uint32_t over = __atomic_exchange_n(&S.overflow, 0, __ATOMIC_RELAXED);
  if (over) {
    xprof_image *img = add_image(p, "", 0, NULL, 0);
    xprof_sample_bin b = {0, over};
    if (!img || xprof_image_set_bins(p, img, &b, 1) < 0) {
      xprof_free(bins);
      return -1;
    }
    img->flags = XPROF_IMAGE_OVERFLOW;
    total += over;
  }
  xprof_free(bins);
  share_time(p, first, total);
  /* Regions of images gone since: their samples are taken, their bins
   * go (once no handler can be writing into them). */
  size_t k = 0;
  for (size_t i = 0; i < S.n; i++) {
    if (S.r[i].present) {
      S.r[k++] = S.r[i];
      continue;
    }
    retire(S.r[i].bins, S.r[i].n_bins * sizeof *S.r[i].bins);
    xprof_free(S.r[i].path);
  }
  S.n = k;
  writes++;
  release_retired();
  return 0;
}

/* ---- fork and exec ------------------------------------------------------ */

void rt_sample_fork_child_locked(void) {
  /* The parent's samples are the parent's to write, also those taken
   * before it stopped sampling.  Given back rather than cleared: a
   * private anonymous page given back reads as zeros again, and clearing
   * would touch every page of every image's bins (megabytes) in each
   * child. */
  for (size_t i = 0; i < S.n; i++) {
    size_t bytes = S.r[i].n_bins * sizeof *S.r[i].bins;
    if (madvise(S.r[i].bins, bytes, MADV_DONTNEED) < 0)
      memset(S.r[i].bins, 0, bytes);
  }
  S.overflow = 0;
  n_pending = 0;
  if (!S.on)
    return;
  S.cpu_ns = cpu_now_ns();
  S.timer_set = 0; /* the handler is inherited, the timer is not */
  /* Most children of a fork exec soon, and a process spawner's child
   * sets every signal back to its default first (ctest, libuv).  Where
   * the reset does not go through the runtime's sigaction or signal()
   * (sigprof.c), only the exec wrapper stops the timer, and a tick
   * between the two would end the child.  The first sample waits for
   * 20 ms of the child's CPU time, which such a child does not spend; a
   * child that goes on to work loses its first few samples. */
  arm_after(20000);
}

void rt_sample_stop_for_exec(void) {
  /* A vfork child shares our memory but not our timer: leave both be. */
  if (S.on && S.armed_pid == getpid())
    disarm();
}

void rt_sample_resume_after_exec(void) {
  if (S.on && S.armed_pid == getpid())
    arm();
}
