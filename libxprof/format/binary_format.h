/*
 * binary_format.h - layout of xprof binary data (docs/xprof_binary.5).
 *
 * All integers are little-endian.  A file is a 64-byte header followed by
 * records; every record starts 8-byte aligned with a 24-byte record
 * header, and every counter array lies 8-byte aligned in the file, so a
 * reader can use counters in place.
 *
 * File header (64 bytes):
 *    0 char[24] "xprof binary data 4.8\n" then NUL padding (for head -1)
 *   24 u32 magic 0x46525058 (bytes "XPRF")
 *   28 u32 byte-order mark 0x01020304 (reads 0x04030201 if swapped)
 *   32 u16 major, u16 minor (4.8)
 *   36 u32 header size (64)
 *   40 u64 file size
 *   48 u64 offset of the index record (0: no index)
 *   56 u32 number of records
 *   60 u32 CRC-32C of bytes 0..59
 *
 * Record header (24 bytes):
 *    0 u32 tag, 4 u32 flags (bit 0: a reader that does not know the tag
 *      must refuse the file), 8 u64 payload size (without padding),
 *   16 u32 CRC-32C of the payload, 20 u32 CRC-32C of bytes 0..19.
 * The payload follows and is padded with zeros to a multiple of 8.
 */
#ifndef XPROF_BINARY_FORMAT_H
#define XPROF_BINARY_FORMAT_H

#define XB_HEADER_SIZE 64
#define XB_TEXT_LINE "xprof binary data 4.8\n"
#define XB_MAGIC 0x46525058u
#define XB_BOM 0x01020304u
#define XB_RECORD_HEADER 24

#define XB_TAG(a, b, c, d)                                                   \
  ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 |                \
   (uint32_t)(d) << 24)
#define XB_TAG_OBJF XB_TAG('O', 'B', 'J', 'F')
#define XB_TAG_PROG XB_TAG('P', 'R', 'O', 'G')
#define XB_TAG_INDX XB_TAG('I', 'N', 'D', 'X')
#define XB_TAG_TIME XB_TAG('T', 'I', 'M', 'E')
#define XB_TAG_SHAP XB_TAG('S', 'H', 'A', 'P')
#define XB_TAG_SMPL XB_TAG('S', 'M', 'P', 'L')
#define XB_TAG_RUNS XB_TAG('R', 'U', 'N', 'S')
#define XB_FLAG_CRITICAL 1u

/* Statistics flags, shared by OBJF, procedures and PROG. */
#define XB_HAS_MAX 1u
#define XB_HAS_SUM 2u
#define XB_SPARSE_IDS 4u /* procedures: a u32 id array precedes counters */

/*
 * OBJF payload:
 *    0 u64 signature, 8 u64 tv_sec, 16 u32 tv_usec, 20 u32 n_values_per_vp,
 *   24 u32 n_procs, 28 u32 flags, 32 u64 max, 40 u64 sum,
 *   48 u32 path length, 52 u32 number of strings, 56 path, NUL, pad to 8;
 *   strings: each u32 length, bytes, NUL; the table padded to 8 (VP_PROC
 *   values, referred to by 1-based index; 0 means no value);
 *   then n_procs procedures.
 * Procedure (since 4.8):
 *    0 u64 signature, 8 u32 id, 12 u32 flags, 16 u32 name length,
 *   20 u32 n_counters, 24 u32 n_vp_sites, 28 u32 n_vp_records,
 *   32 u64 max if flags has XB_HAS_MAX, then u64 sum if XB_HAS_SUM;
 *   name, NUL, pad to 8;
 *   if XB_SPARSE_IDS: u32 ids[n_counters], pad to 8;
 *   u64 counters[n_counters];
 *   n_vp_records times: u32 type, u32 expr id, then n_values_per_vp times
 *   u64 count, u64 value (numeric bits, or string index for VP_PROC).
 */
#define XB_OBJF_FIXED 56
#define XB_PROC_FIXED 32
/* Before 4.8 a procedure's fixed part was 48 bytes, max and sum always
 * there: 0 u64 signature, 8 u32 id, 12 u32 flags, 16 u64 max, 24 u64
 * sum, 32 u32 name length, 36 n_counters, 40 n_vp_sites, 44
 * n_vp_records. */
#define XB_PROC_FIXED_4_7 48

/*
 * PROG payload:
 *    0 u32 flags, 4 u32 path length, 8 u64 max, 16 u64 sum,
 *   24 u32 n_objrefs, 28 u32 zero, 32 path, NUL, pad to 8;
 *   u32 objref[n_objrefs] (ordinal of the OBJF record in the file).
 */
#define XB_PROG_FIXED 32

/*
 * TIME payload (since 4.4; not critical): when the procedures of the OBJF
 * record just before it first ran.
 *    0 u64 the object file's signature (as in its OBJF record),
 *    8 u32 n_entries, 12 u32 zero;
 *    n_entries times: u32 procedure ordinal in that OBJF record (strictly
 *    increasing), u32 zero, u64 first-run rank (nonzero).
 * A TIME record that does not directly follow the OBJF record of an
 * object file with its signature (a tool older than 4.4 kept it as an
 * unknown record and moved it) is ignored.
 */
#define XB_TIME_FIXED 16
#define XB_TIME_ENTRY 16

/*
 * SHAP payload (since 4.5; not critical): the shapes of the procedures of
 * the OBJF record before it (directly, or with only its TIME record
 * between), as xprof_shape_encode makes them.
 *    0 u64 the object file's signature, 8 u32 n_entries, 12 u32 zero;
 *    n_entries times: u32 procedure ordinal in that OBJF record (strictly
 *    increasing), u32 size, the shape's bytes, zeros to a multiple of 8.
 * A SHAP record elsewhere, or of another signature, is ignored.
 */
#define XB_SHAP_FIXED 16
#define XB_SHAP_ENTRY 8

/*
 * SMPL payload (since 4.6; not critical): the time samples of one text
 * segment of one image (xprof_image), anywhere before the index.
 *    0 u64 text offset, 8 u64 text size, 16 u64 samples, 24 u64 time_ns,
 *   32 u32 bin width, 36 u32 flags (1: the overflow bin), 40 u32 path
 *   length, 44 u32 id length, 48 u32 n_bins, 52 u32 zero,
 *   56 path, NUL, pad to 8; id bytes, pad to 8;
 *   n_bins times: u64 bin index (increasing), u64 count (not 0).
 */
#define XB_SMPL_FIXED 56
#define XB_SMPL_BIN 16

/*
 * RUNS payload (since 4.7; not critical): the training runs merged into
 * the profile (xprof_profile.runs, run_max_sum).
 *    0 u64 runs, 8 u64 sum of each run's largest counter.
 * At most one; written directly before the index, where a reader that
 * looks up one object file through the index finds it.
 */
#define XB_RUNS_SIZE 16

/*
 * INDX payload:
 *    0 u64 n_slots (a power of two)
 *    8 u64 largest counter of the whole profile, 16 u64 sum of all
 *      counters (saturating), 24 u64 number of nonzero counters,
 *   32 u64 number of procedures,
 *   40 16 summary entries of u32 cutoff (parts per million), u32 zero,
 *      u64 smallest count, u64 number of counts (see xprof_summary),
 *  424 n_slots slots of u64 FNV-1a hash of the object file pathname, u64
 *      file offset of its OBJF record (0: empty).
 * Open addressing with linear probing from hash & (n_slots - 1).  It is
 * the last record of the file.  Everything but the slots is derived from
 * the counters, so that a compiler reading one object file knows the
 * whole profile's hot and cold thresholds.
 */
#define XB_INDX_SUMMARY 40
#define XB_INDX_FIXED (XB_INDX_SUMMARY + 16 * 24)

#endif
