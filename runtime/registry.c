/*
 * registry.c - registration of instrumented object files, process-wide
 * hooks (exit, fork) and the public API.
 *
 * Every object file's constructor calls XPROF_REGISTER; its destructor
 * calls XPROF_UNREGISTER, which writes that object's remaining counts
 * (dlclose, or code that ran in destructors after the exit-time write).
 * Data is written at exit by an atexit handler installed at the first
 * registration, so C++ static destructors registered later are counted;
 * the same handler is registered with at_quick_exit, since quick_exit
 * runs only those.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/uio.h>
#include <link.h>
#include <unistd.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <sys/auxv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_internal.h"

static pthread_mutex_t rt_lock = PTHREAD_MUTEX_INITIALIZER;
__thread unsigned rt_busy;
struct xprof_abi_object *rt_objects;
struct rt_settings rt_settings;

/* rt_busy is raised before the lock is taken and lowered after it is
 * released: a signal handler on this thread never sees the lock held by
 * its own thread with rt_busy at 0. */
void rt_enter(void) {
  rt_busy++;
  pthread_mutex_lock(&rt_lock);
}

void rt_leave(void) {
  pthread_mutex_unlock(&rt_lock);
  rt_busy--;
}

int rt_enter_unless_inside(const char *what) {
  static volatile sig_atomic_t said; /* once: exit then skips its destructors too */
  if (rt_busy) {
    if (!said)
      rt_message("%s from inside the runtime's own work (a signal handler "
                 "that interrupted it?): the profile is not written then",
                 what);
    said = 1;
    return 0;
  }
  rt_enter();
  return 1;
}

void rt_message(const char *fmt, ...) {
  char buf[1024 + PATH_MAX];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof buf - 1, fmt, ap);
  va_end(ap);
  if (n < 0)
    return;
  if ((size_t)n > sizeof buf - 2)
    n = sizeof buf - 2;
  buf[n] = '\n';
  /* Straight to the file descriptor: no stdio buffer or lock, which the
   * program may hold, and no malloc. */
  static const char tag[] = "xprof: ";
  struct iovec iov[2] = {{(void *)tag, sizeof tag - 1}, {buf, (size_t)n + 1}};
  sigset_t mask;
  int pending = rt_hold_write_signals(&mask);
  while (writev(2, iov, 2) < 0 && errno == EINTR)
    ;
  rt_release_write_signals(&mask, pending);
}

/* The signals a write can raise. */
static const int write_sigs[] = {SIGXFSZ, SIGPIPE};
enum { N_WRITE_SIGS = sizeof write_sigs / sizeof write_sigs[0] };

/* Which of them are pending: bit k for write_sigs[k]. */
static int pending_write_signals(void) {
  sigset_t p;
  if (sigpending(&p) != 0)
    return 0;
  int bits = 0;
  for (int k = 0; k < N_WRITE_SIGS; k++)
    bits |= (sigismember(&p, write_sigs[k]) == 1) << k;
  return bits;
}

int rt_hold_write_signals(sigset_t *old) {
  sigset_t s;
  sigemptyset(&s);
  for (int k = 0; k < N_WRITE_SIGS; k++)
    sigaddset(&s, write_sigs[k]);
  pthread_sigmask(SIG_BLOCK, &s, old);
  return pending_write_signals();
}

void rt_release_write_signals(const sigset_t *old, int pending_before) {
  int raised = pending_write_signals() & ~pending_before;
  for (int k = 0; k < N_WRITE_SIGS; k++) {
    if (!(raised & 1 << k))
      continue;
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, write_sigs[k]);
    static const struct timespec now = {0, 0};
    while (sigtimedwait(&one, NULL, &now) < 0 && errno == EINTR)
      ;
  }
  pthread_sigmask(SIG_SETMASK, old, NULL);
}

const char *rt_getenv(const char *name) {
  size_t n = strlen(name);
  for (char **e = environ; e && *e; e++)
    if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
      return *e + n + 1;
  return NULL;
}

const char *rt_secure_getenv(const char *name) {
  return getauxval(AT_SECURE) ? NULL : rt_getenv(name);
}

void rt_read_settings(void) {
  const char *r = rt_getenv("SUN_PROFDATA_REPLACE");
  rt_settings.replace = XPROF_REPLACE_OBJFILE;
  if (r && *r && xprof_replace_parse(r, &rt_settings.replace) < 0)
    rt_message("SUN_PROFDATA_REPLACE=%s is not objfile, program or all; "
               "using objfile",
               r);
  const char *a = rt_getenv("SUN_PROFDATA_ASYNC_INTERVAL");
  if (a && *a) {
    char *end;
    unsigned long v = strtoul(a, &end, 10);
    if (*end || v == 0 || v > 86400 * 365)
      rt_message("SUN_PROFDATA_ASYNC_INTERVAL=%s is not a number of seconds "
                 "(1 or more); no periodic writes",
                 a);
    else
      rt_settings.async_interval = (unsigned)v;
  }
  const char *v = rt_getenv("SUN_PROFDATA_ASYNC_VERBOSE");
  rt_settings.async_verbose = v && *v && strcmp(v, "0") != 0;
  rt_settings.initialized = 1;
}

/* Find the loaded module whose segments hold an address. */
struct module_search {
  uintptr_t addr;
  const char *name; /* "" for the main program */
  int found;
};

static int module_cb(struct dl_phdr_info *info, size_t size, void *data) {
  struct module_search *m = data;
  (void)size;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD)
      continue;
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    if (m->addr >= lo && m->addr < lo + ph->p_memsz) {
      m->name = info->dlpi_name ? info->dlpi_name : "";
      m->found = 1;
      return 1;
    }
  }
  return 0;
}

/* The last file mapping mapped_file found.  A program's objects are
 * mostly in one module, and each read of /proc/self/maps costs the
 * kernel a walk of every mapping: one read serves them all.  Forgotten
 * whenever an object registers or unregisters, since a module loaded
 * later may sit where an unloaded one was. */
static struct {
  uintptr_t lo, hi;
  char path[PATH_MAX];
} last_map;

static void forget_mapping(void) { last_map.lo = last_map.hi = 0; }

/* Does this line of /proc/self/maps map `addr`?  Then its path goes to
 * last_map: the kernel's, absolute, with symbolic links resolved (what
 * realpath would give, without the malloc that realpath may call). */
static int maps_line(const char *line, uintptr_t addr) {
  char *end;
  uintptr_t lo = (uintptr_t)strtoull(line, &end, 16);
  if (*end != '-')
    return 0;
  uintptr_t hi = (uintptr_t)strtoull(end + 1, &end, 16);
  const char *path = strchr(end, '/');
  if (addr < lo || addr >= hi || !path)
    return 0;
  size_t n = strlen(path);
  static const char deleted[] = " (deleted)"; /* rebuilt while running */
  if (n > sizeof deleted - 1 && strcmp(path + n - (sizeof deleted - 1), deleted) == 0)
    n -= sizeof deleted - 1;
  if (n >= sizeof last_map.path)
    return 0;
  memcpy(last_map.path, path, n);
  last_map.path[n] = 0;
  last_map.lo = lo;
  last_map.hi = hi;
  return 1;
}

/* The path of the file mapped at addr, in last_map.path; 0 when /proc
 * is not there.  Caller holds rt_lock. */
static int mapped_file(uintptr_t addr) {
  if (addr >= last_map.lo && addr < last_map.hi)
    return 1;
  int fd = xprof_open("/proc/self/maps", O_RDONLY, 0);
  if (fd < 0)
    return 0;
  char block[4096], line[PATH_MAX + 128];
  size_t len = 0;
  int found = 0;
  ssize_t got;
  while (!found && (got = read(fd, block, sizeof block)) > 0)
    for (ssize_t i = 0; i < got && !found; i++) {
      if (block[i] != '\n') {
        if (len < sizeof line - 1)
          line[len++] = block[i];
        continue;
      }
      line[len] = 0;
      found = maps_line(line, addr);
      len = 0;
    }
  close(fd);
  return found;
}

/* The module's path, worked out once and kept in the object: the file
 * mapped where the object is, else the name the dynamic linker knows it
 * by, else the program's. */
const char *rt_object_module(const struct xprof_abi_object *obj) {
  struct xprof_abi_object *o = (struct xprof_abi_object *)obj;
  if (o->runtime_reserved[0])
    return (const char *)(uintptr_t)o->runtime_reserved[0];
  struct module_search m = {(uintptr_t)obj, NULL, 0};
  const char *path = NULL;
  if (mapped_file((uintptr_t)obj)) {
    path = last_map.path;
  } else {
    dl_iterate_phdr(module_cb, &m);
    path = m.found && m.name[0] ? m.name : program_invocation_name;
  }
  char *kept = xprof_format("%s", path);
  o->runtime_reserved[0] = (uintptr_t)kept;
  return kept ? kept : "unknown";
}

static void at_exit(void) {
  if (!rt_enter_unless_inside("exit"))
    return;
  rt_threads_exiting_locked();
  rt_async_stop();
  rt_dump_locked(NULL, RT_AT_EXIT);
  /* What could not be written now never will be: no second message from
   * the destructors' writes. */
  rt_drop_pending_locked();
  rt_leave();
}

/* fork from a signal handler that interrupted the runtime on this thread
 * (a write, a thread's start): the locks are this thread's already, and
 * taking them again would wait forever.  The fork goes ahead without
 * them; the parent carries on with its work, and the child, whose copy
 * of the runtime's data is half-way through an update, writes nothing
 * (it mostly execs or _exits anyway). */
static __thread int fork_inside;

static void fork_prepare(void) {
  if (rt_busy) {
    fork_inside = 1;
    return;
  }
  rt_enter();
  rt_memory_fork_prepare();
}
static void fork_parent(void) {
  if (fork_inside) {
    fork_inside = 0;
    return;
  }
  rt_memory_fork_done();
  rt_leave();
}
static void fork_child(void) {
  if (fork_inside) {
    fork_inside = 0;
    rt_dumped = 1; /* no write but one on request, as after __gcov_dump */
    rt_message("fork from inside the runtime's own work (a signal handler "
               "that interrupted it?): the child writes no profile");
    return;
  }
  rt_memory_fork_done();
  /* The child counts from zero so that parent and child add up to the
   * truth; data the parent could not write yet stays the parent's. */
  rt_threads_fork_child_locked();
  rt_zero_locked(NULL);
  rt_drop_pending_locked();
  rt_forget_runs_locked();
  rt_first_run_fork_child();
  rt_sample_fork_child_locked();
  rt_dumped = 0; /* as GCC's __gcov_fork resets the child */
  rt_leave();
  if (rt_settings.async_interval)
    rt_async_start();
  rt_signals_fork_child();
}

/* The at_quick_exit handler: glibc calls it with an argument and the
 * status, which at_exit does not take. */
static void at_quick_exit_cxa(void *arg) {
  (void)arg;
  at_exit();
}

/* register_quick_exit: at_exit registered to run at quick_exit (C11;
 * servers call it, from a SIGTERM handler too, to end without running
 * destructors), which runs the at_quick_exit handlers and then _Exit:
 * without this a training run ended so would write nothing.
 *
 * Found by name, not linked (libc_symbol.c says why), or in a static
 * link by the name the drivers give it: glibc's __cxa_at_quick_exit,
 * with this module's __dso_handle as at_quick_exit passes it (crtbegin
 * defines it: the module's own address in a shared library, 0 in an
 * executable), so that glibc drops a library's handler when the library
 * is unloaded; else a C library's at_quick_exit.
 * Returns nothing: a C library with neither ends a quick_exit without
 * the write, as before there was this handler. */
extern void *__dso_handle __attribute__((visibility("hidden")));
extern int XPROF_QUICK_REGISTER(void (*)(void *), void *) __attribute__((weak));
static void register_quick_exit(void) {
  typedef int (*cxa_fn)(void (*)(void *), void *);
  typedef int (*plain_fn)(void (*)(void));
  void *f = rt_loaded_function("__cxa_at_quick_exit");
  if (!f) /* a static link */
    f = (void *)XPROF_QUICK_REGISTER;
  if (f) {
    ((cxa_fn)f)(at_quick_exit_cxa, __dso_handle);
    return;
  }
  f = rt_loaded_function("at_quick_exit");
  if (f)
    ((plain_fn)f)(at_exit);
}

static void first_registration(void) {
  rt_sigprof_start();
  rt_read_settings();
  atexit(at_exit);
  /* One of the two handlers runs, never both. */
  register_quick_exit();
  pthread_atfork(fork_prepare, fork_parent, fork_child);
  if (rt_settings.async_interval)
    rt_async_start();
  rt_signals_start();
  rt_sample_start();
}

RT_EXPORT void XPROF_REGISTER(struct xprof_abi_object *obj) {
  if (!obj)
    return;
  if (obj->abi_version != XPROF_ABI_VERSION) {
    rt_message("%s: compiled for xprof runtime ABI version %u, but this "
               "runtime speaks version %d; its profile data will not be "
               "collected (rebuild it with this xprof)",
               obj->path ? obj->path : "an object file", obj->abi_version,
               XPROF_ABI_VERSION);
    return;
  }
  rt_enter();
  if (!rt_settings.initialized)
    first_registration();
  forget_mapping();
  /* Appended, so that profiles list object files in registration order. */
  struct xprof_abi_object **pp = &rt_objects;
  for (; *pp; pp = &(*pp)->next)
    if (*pp == obj) {
      rt_leave();
      return;
    }
  obj->next = NULL;
  *pp = obj;
  rt_threads_register_locked(obj);
  rt_sample_check_locked(); /* a library dlopen'ed: sample its text too */
  rt_leave();
  /* The module's path is worked out at the first write (rt_object_module),
   * while it is still loaded: registration does no I/O, which a program
   * that interposes open or read would see. */
}

RT_EXPORT void XPROF_UNREGISTER(struct xprof_abi_object *obj) {
  if (!obj || obj->abi_version != XPROF_ABI_VERSION)
    return;
  if (!rt_enter_unless_inside("an object's destructor (exit or dlclose)"))
    return;
  forget_mapping();
  struct xprof_abi_object **pp = &rt_objects;
  while (*pp && *pp != obj)
    pp = &(*pp)->next;
  if (*pp) {
    /* Write what it counted since the last write, while still listed (its
     * functions may be targets of other objects' indirect calls). */
    rt_dump_locked(obj, RT_AT_UNLOAD);
    *pp = obj->next;
    obj->next = NULL;
    rt_threads_unregister_locked(obj);
    /* Its module may be unmapped now, and loaded elsewhere again. */
    xprof_free((void *)(uintptr_t)obj->runtime_reserved[0]);
    obj->runtime_reserved[0] = 0;
  }
  if (!rt_objects)
    rt_async_stop();
  rt_leave();
}

RT_EXPORT int xprof_dump(void) {
  if (!rt_enter_unless_inside("xprof_dump"))
    return -1;
  int rc = rt_dump_locked(NULL, RT_ON_REQUEST);
  rt_leave();
  return rc;
}

RT_EXPORT void xprof_reset(void) {
  if (!rt_enter_unless_inside("a reset"))
    return;
  rt_zero_locked(NULL);
  rt_threads_reset_locked();
  rt_drop_pending_locked();
  rt_dumped = 0;
  rt_leave();
}

/* A copy of the runtime inside a shared library stops its thread before
 * the library's code goes away. */
__attribute__((destructor)) static void runtime_unload(void) {
  rt_signals_stop();
  rt_async_join();
  rt_threads_unload();
}
