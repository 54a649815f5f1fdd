/*
 * registry.c - registration of instrumented object files, process-wide
 * hooks (exit, fork) and the public API.
 *
 * Every object file's constructor calls __xprof_register; its destructor
 * calls __xprof_unregister, which writes that object's remaining counts
 * (dlclose, or code that ran in destructors after the exit-time write).
 * Data is written at exit by an atexit handler installed at the first
 * registration, so C++ static destructors registered later are counted.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <unistd.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_internal.h"

pthread_mutex_t rt_lock = PTHREAD_MUTEX_INITIALIZER;
struct xprof_rt_object *rt_objects;
struct rt_settings rt_settings;

void rt_message(const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  fprintf(stderr, "xprof: %s\n", buf);
}

void rt_read_settings(void) {
  const char *r = getenv("SUN_PROFDATA_REPLACE");
  rt_settings.replace = XPROF_REPLACE_OBJFILE;
  if (r && *r && xprof_replace_parse(r, &rt_settings.replace) < 0)
    rt_message("SUN_PROFDATA_REPLACE=%s is not objfile, program or all; "
               "using objfile",
               r);
  const char *a = getenv("SUN_PROFDATA_ASYNC_INTERVAL");
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
  const char *v = getenv("SUN_PROFDATA_ASYNC_VERBOSE");
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

/* The module's resolved pathname, computed once and kept in the object. */
const char *rt_object_module(const struct xprof_rt_object *obj) {
  struct xprof_rt_object *o = (struct xprof_rt_object *)obj;
  if (o->runtime_reserved[0])
    return (const char *)(uintptr_t)o->runtime_reserved[0];
  struct module_search m = {(uintptr_t)obj, NULL, 0};
  char buf[PATH_MAX];
  char *resolved = NULL;
  dl_iterate_phdr(module_cb, &m);
  if (m.found && m.name[0]) {
    resolved = realpath(m.name, buf) ? strdup(buf) : strdup(m.name);
  } else {
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n > 0) {
      buf[n] = 0;
      resolved = strdup(buf);
    }
  }
  if (!resolved)
    resolved = strdup(program_invocation_name);
  o->runtime_reserved[0] = (uintptr_t)resolved;
  return resolved ? resolved : "unknown";
}

static void at_exit(void) {
  pthread_mutex_lock(&rt_lock);
  rt_threads_exiting_locked();
  rt_async_stop();
  rt_dump_locked(NULL, "at exit");
  /* What could not be written now never will be: no second message from
   * the destructors' writes. */
  rt_drop_pending_locked();
  pthread_mutex_unlock(&rt_lock);
}

static void fork_prepare(void) { pthread_mutex_lock(&rt_lock); }
static void fork_parent(void) { pthread_mutex_unlock(&rt_lock); }
static void fork_child(void) {
  /* The child counts from zero so that parent and child add up to the
   * truth; data the parent could not write yet stays the parent's. */
  rt_threads_fork_child_locked();
  rt_zero_locked(NULL);
  rt_drop_pending_locked();
  pthread_mutex_unlock(&rt_lock);
  if (rt_settings.async_interval)
    rt_async_start();
}

static void first_registration(void) {
  rt_read_settings();
  atexit(at_exit);
  pthread_atfork(fork_prepare, fork_parent, fork_child);
  if (rt_settings.async_interval)
    rt_async_start();
}

RT_EXPORT void __xprof_register(struct xprof_rt_object *obj) {
  if (!obj)
    return;
  if (obj->abi_version != XPROF_RT_ABI_VERSION) {
    rt_message("%s: compiled for xprof runtime ABI version %u, but this "
               "runtime speaks version %d; its profile data will not be "
               "collected (rebuild it with this xprof)",
               obj->path ? obj->path : "an object file", obj->abi_version,
               XPROF_RT_ABI_VERSION);
    return;
  }
  pthread_mutex_lock(&rt_lock);
  if (!rt_settings.initialized)
    first_registration();
  /* Appended, so that profiles list object files in registration order. */
  struct xprof_rt_object **pp = &rt_objects;
  for (; *pp; pp = &(*pp)->next)
    if (*pp == obj) {
      pthread_mutex_unlock(&rt_lock);
      return;
    }
  obj->next = NULL;
  *pp = obj;
  rt_threads_register_locked(obj);
  pthread_mutex_unlock(&rt_lock);
  rt_object_module(obj); /* resolve while the module is surely loaded */
}

RT_EXPORT void __xprof_unregister(struct xprof_rt_object *obj) {
  if (!obj || obj->abi_version != XPROF_RT_ABI_VERSION)
    return;
  pthread_mutex_lock(&rt_lock);
  struct xprof_rt_object **pp = &rt_objects;
  while (*pp && *pp != obj)
    pp = &(*pp)->next;
  if (*pp) {
    /* Write what it counted since the last write, while still listed (its
     * functions may be targets of other objects' indirect calls). */
    rt_dump_locked(obj, "at unload");
    *pp = obj->next;
    obj->next = NULL;
    rt_threads_unregister_locked(obj);
  }
  if (!rt_objects)
    rt_async_stop();
  pthread_mutex_unlock(&rt_lock);
}

RT_EXPORT int xprof_dump(void) {
  pthread_mutex_lock(&rt_lock);
  int rc = rt_dump_locked(NULL, "on request");
  pthread_mutex_unlock(&rt_lock);
  return rc;
}

RT_EXPORT void xprof_reset(void) {
  pthread_mutex_lock(&rt_lock);
  rt_zero_locked(NULL);
  rt_threads_reset_locked();
  rt_drop_pending_locked();
  pthread_mutex_unlock(&rt_lock);
}

/* A copy of the runtime inside a shared library stops its thread before
 * the library's code goes away. */
__attribute__((destructor)) static void runtime_unload(void) {
  rt_async_join();
  rt_threads_unload();
}
