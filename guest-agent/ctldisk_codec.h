/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp control disk codec, shared by its three files (not a public
 * header: guest-agent/ctldisk.h is the API).  ctldisk.c: records (init,
 * dispose, validation, builders); ctldisk_codec.c: the TLV frames (encoder,
 * decoder, the record schemas); ctldisk_disk.c: the superblock, whole-disk
 * I/O and the progress block.  libc only. */
#ifndef VDC_CTLDISK_CODEC_H
#define VDC_CTLDISK_CODEC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ctldisk.h"

/* ---- record schemas ------------------------------------------------------------
 * Every record type (job, job target, result, result target) is a table of
 * its tags (ctldisk_codec.c); one walk (decode_record there) reads any of
 * them and one function (vdc_ctl_dispose_record, ctldisk.c) frees what a
 * table owns: every heap member of the four structs is in its table.  The walk skips a tag
 * not in the table.  Checks and messages per kind:
 *   F_U32, F_I32, F_U64  get_num: exact length, once (bit in the seen mask)
 *   F_STR                get_str: once, at most max bytes, no NUL
 *   F_BLOB               get_blob: once, at most VDC_CTL_MAX_BLOB bytes;
 *                        the length goes to the size_t member at off_n
 *   F_STRS               repeated string appended to a char ** array (count
 *                        member at off_n, at most max entries)
 *   F_LIST               repeated nested record of schema sub appended to an
 *                        array of sub->size-byte elements (count at off_n,
 *                        at most max entries)
 * Members are addressed by offsetof; an array member is read and written
 * with memcpy (its type is a pointer to the element, not void *). */
enum { F_U32, F_I32, F_U64, F_STR, F_BLOB, F_STRS, F_LIST };

struct tlv_schema;

struct tlv_field {
    uint16_t tag;
    uint8_t kind;                   /* F_* */
    unsigned bit;                   /* numbers: bit in the seen mask */
    size_t max;                     /* F_STR bytes; F_STRS, F_LIST entries */
    size_t off;                     /* offsetof the member */
    size_t off_n;                   /* F_BLOB length, F_STRS/F_LIST count member */
    const char *what;               /* message prefix (F_STRS: of one entry) */
    const char *many;               /* F_STRS, F_LIST: plural noun in "more than N ..." */
    const struct tlv_schema *sub;   /* F_LIST: one element */
};

struct tlv_schema {
    const char *where;              /* record name in messages ("job target") */
    size_t size;                    /* sizeof the struct (list element; dispose zeroes it) */
    const struct tlv_field *fields;
    size_t n_fields;
    void (*start)(void *rec);       /* defaults before the walk, or NULL */
    /* required tags and value checks after the walk: 0 or -1 */
    int (*finish)(void *rec, unsigned seen, size_t idx, struct vdc_ctl_error *err);
};

/* the record schemas (ctldisk_codec.c) */
extern const struct tlv_schema vdc_ctl_target_schema, vdc_ctl_workload_schema,
    vdc_ctl_job_schema, vdc_ctl_tresult_schema, vdc_ctl_result_schema;

/* One line into @err (when not NULL); returns -1 (ctldisk.c). */
int vdc_ctl_seterr(struct vdc_ctl_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* free every heap member of @rec by its schema @s (lists recursively) and
 * zero it (ctldisk.c) */
void vdc_ctl_dispose_record(void *rec, const struct tlv_schema *s);
/* field checks shared by the builders and the decoder (ctldisk.c): 0 or -1
 * with @err naming the record (@i its index) */
int vdc_ctl_check_target(const struct vdc_ctl_target *t, size_t i, struct vdc_ctl_error *err);
int vdc_ctl_check_workload(const struct vdc_ctl_workload *w, size_t i,
                           struct vdc_ctl_error *err);
int vdc_ctl_check_flags(const struct vdc_ctl_job *job, struct vdc_ctl_error *err);

/* All of @len bytes at @off, retrying short transfers and EINTR
 * (ctldisk_disk.c): 0, or -1 with errno (0 after a short read: the disk
 * ended; EIO for a write that made no progress). */
int vdc_ctl_pwrite_all(int fd, const void *buf, size_t len, off_t off);
int vdc_ctl_pread_all(int fd, void *buf, size_t len, off_t off);

/* ---- little-endian helpers ------------------------------------------------- */
static inline void
put_u16(uint8_t *p, uint16_t v)
{
    p[0] = v & 0xFF;
    p[1] = v >> 8;
}

static inline void
put_u32(uint8_t *p, uint32_t v)
{
    int i;

    for (i = 0; i < 4; i++)
        p[i] = (v >> (8 * i)) & 0xFF;
}

static inline void
put_u64(uint8_t *p, uint64_t v)
{
    int i;

    for (i = 0; i < 8; i++)
        p[i] = (v >> (8 * i)) & 0xFF;
}

static inline uint16_t
get_u16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}

static inline uint32_t
get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
           ((uint32_t)p[3] << 24);
}

static inline uint64_t
get_u64(const uint8_t *p)
{
    return (uint64_t)get_u32(p) | ((uint64_t)get_u32(p + 4) << 32);
}

#endif
