/*
 * xprof_abi_records.h - for the compiler plugins: the descriptor records
 * of xprof_abi.h as data, each record's C name and its fields' kinds and
 * names in order, from which each plugin builds the records in its own
 * compiler's terms.  Include it in one source file of a plugin.
 */
#ifndef XPROF_ABI_RECORDS_H
#define XPROF_ABI_RECORDS_H

#include "xprof_abi.h"

struct xprof_abi_record_desc {
  const char *name; /* the struct's tag, for the compiler's dumps */
  const enum xprof_abi_kind *kinds;
  const char *const *names;
  unsigned n_fields;
};

static const enum xprof_abi_kind xprof_abi_site_kinds[] = {XPROF_ABI_VP_SITE_FIELDS(XPROF_ABI_KIND)};
static const char *const xprof_abi_site_names[] = {XPROF_ABI_VP_SITE_FIELDS(XPROF_ABI_NAME)};
static const enum xprof_abi_kind xprof_abi_proc_kinds[] = {XPROF_ABI_PROC_FIELDS(XPROF_ABI_KIND)};
static const char *const xprof_abi_proc_names[] = {XPROF_ABI_PROC_FIELDS(XPROF_ABI_NAME)};
static const enum xprof_abi_kind xprof_abi_object_kinds[] = {XPROF_ABI_OBJECT_FIELDS(XPROF_ABI_KIND)};
static const char *const xprof_abi_object_names[] = {XPROF_ABI_OBJECT_FIELDS(XPROF_ABI_NAME)};

static const struct xprof_abi_record_desc xprof_abi_site_record = {
    "xprof_abi_vp_site", xprof_abi_site_kinds, xprof_abi_site_names, XPROF_ABI_SITE_N_FIELDS};
static const struct xprof_abi_record_desc xprof_abi_proc_record = {
    "xprof_abi_proc", xprof_abi_proc_kinds, xprof_abi_proc_names, XPROF_ABI_PROC_N_FIELDS};
static const struct xprof_abi_record_desc xprof_abi_object_record = {
    "xprof_abi_object", xprof_abi_object_kinds, xprof_abi_object_names, XPROF_ABI_OBJECT_N_FIELDS};

/* The most fields of any record. */
#define XPROF_ABI_MAX_FIELDS (XPROF_ABI_OBJECT_N_FIELDS + XPROF_ABI_PROC_N_FIELDS)

#endif
