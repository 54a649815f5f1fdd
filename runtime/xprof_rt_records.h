/*
 * xprof_rt_records.h - for the compiler plugins: the descriptor records
 * of xprof_rt.h as data, each record's C name and its fields' kinds and
 * names in order, from which each plugin builds the records in its own
 * compiler's terms.  Include it in one source file of a plugin.
 */
#ifndef XPROF_RT_RECORDS_H
#define XPROF_RT_RECORDS_H

#include "xprof_rt.h"

struct xprof_rt_record_desc {
  const char *name; /* the struct's tag, for the compiler's dumps */
  const enum xprof_rt_kind *kinds;
  const char *const *names;
  unsigned n_fields;
};

static const enum xprof_rt_kind xprof_rt_site_kinds[] = {XPROF_RT_VP_SITE_FIELDS(XPROF_RT_KIND)};
static const char *const xprof_rt_site_names[] = {XPROF_RT_VP_SITE_FIELDS(XPROF_RT_NAME)};
static const enum xprof_rt_kind xprof_rt_proc_kinds[] = {XPROF_RT_PROC_FIELDS(XPROF_RT_KIND)};
static const char *const xprof_rt_proc_names[] = {XPROF_RT_PROC_FIELDS(XPROF_RT_NAME)};
static const enum xprof_rt_kind xprof_rt_object_kinds[] = {XPROF_RT_OBJECT_FIELDS(XPROF_RT_KIND)};
static const char *const xprof_rt_object_names[] = {XPROF_RT_OBJECT_FIELDS(XPROF_RT_NAME)};

static const struct xprof_rt_record_desc xprof_rt_site_record = {
    "xprof_rt_vp_site", xprof_rt_site_kinds, xprof_rt_site_names, XPROF_RT_SITE_N_FIELDS};
static const struct xprof_rt_record_desc xprof_rt_proc_record = {
    "xprof_rt_proc", xprof_rt_proc_kinds, xprof_rt_proc_names, XPROF_RT_PROC_N_FIELDS};
static const struct xprof_rt_record_desc xprof_rt_object_record = {
    "xprof_rt_object", xprof_rt_object_kinds, xprof_rt_object_names, XPROF_RT_OBJECT_N_FIELDS};

/* The most fields of any record. */
#define XPROF_RT_MAX_FIELDS (XPROF_RT_OBJECT_N_FIELDS + XPROF_RT_PROC_N_FIELDS)

#endif
