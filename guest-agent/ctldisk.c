/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp control disk codec (format version 1, doc/control-disk.md).
 * libc only: built into the static runner and into libvdc-agentcore.a. */
#include "config.h"
#include "ctldisk.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- TLV tags (doc/control-disk.md lists them) ---------------------------- */
enum {
    T_NONCE = 0x0001,          /* u64, job and result */
    T_RUN_INDEX = 0x0002,      /* u32 */
    T_REPETITION = 0x0003,     /* u32 */
    T_SEED = 0x0004,           /* u64 */
    T_FLAGS = 0x0005,          /* u32 */
    T_STEP_TIMEOUT = 0x0006,   /* u32 seconds */
    T_AGENT_TIMEOUT = 0x0007,  /* u32 seconds */
    T_AGENT_ARG = 0x0008,      /* string, repeated, in order */
    T_TARGET = 0x0010,         /* nested TLV: one job target */
    T_NAME = 0x0011,           /* string (in T_TARGET and T_TRESULT) */
    T_VDEV = 0x0012,           /* string */
    T_MKFS_TYPE = 0x0013,      /* string */
    T_MKFS_OPTIONS = 0x0014,   /* string */
    T_MOUNT_OPTIONS = 0x0015,  /* string */
    T_STATUS = 0x0020,         /* u32 */
    T_RUNNER_VERSION = 0x0021, /* string */
    T_KERNEL = 0x0022,         /* string */
    T_ERROR = 0x0023,          /* string */
    T_LOG = 0x0024,            /* blob */
    T_TRESULT = 0x0030,        /* nested TLV: one target result */
    T_TSTATUS = 0x0031,        /* u32 */
    T_AGENT_EXIT = 0x0032,     /* i32 */
    T_ELAPSED_MS = 0x0033,     /* u32 */
    T_TERROR = 0x0034,         /* string */
    T_AGENT_JSON = 0x0035,     /* blob */
    T_STDERR_TAIL = 0x0036,    /* blob */
    T_WORKLOAD_EXIT = 0x0037,  /* i32: the workload pass's agent exit */
    T_WORKLOAD_MS = 0x0038,    /* u32: its wall time */
    T_WORKLOAD_JSON = 0x0039,  /* blob: its --json output */
    T_WORKLOAD = 0x0040,       /* nested TLV: one job file */
    T_WL_NAME = 0x0041,        /* string (in T_WORKLOAD) */
    T_WL_TEXT = 0x0042,        /* string (in T_WORKLOAD) */
    T_WORKLOAD_ARG = 0x0043,   /* string, repeated, in order */
    T_RAW_WORKLOAD_ARG = 0x0044,   /* string, repeated: the raw pass's arguments */
    T_RAW_WORKLOAD_EXIT = 0x003A,  /* i32: the raw workload pass's agent exit */
    T_RAW_WORKLOAD_MS = 0x003B,    /* u32: its wall time */
    T_RAW_WORKLOAD_JSON = 0x003C,  /* blob: its --json output */
};

enum { KIND_JOB = 1, KIND_RESULT = 2 };
#define TLV_HDR 8u

/* ---- record schemas ------------------------------------------------------------
 * Every record type (job, job target, result, result target) is a table of
 * its tags (below the decoder's helpers); one walk (decode_record) reads any
 * of them and one function (dispose_record) frees what a table owns: every
 * heap member of the four structs is in its table.  The walk skips a tag
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

static const struct tlv_schema target_schema, workload_schema, job_schema, tresult_schema,
    result_schema;

static int
seterr(struct vdc_ctl_error *err, const char *fmt, ...)
{
    va_list ap;

    if (err) {
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* ---- CRC-32C -------------------------------------------------------------- */
static uint32_t crc_table[256];
static int crc_ready;

static void
crc_init(void)
{
    uint32_t i, j, c;

    for (i = 0; i < 256; i++) {
        c = i;
        for (j = 0; j < 8; j++)
            c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        crc_table[i] = c;
    }
    crc_ready = 1;
}

uint32_t
vdc_ctl_crc32c(const void *buf, size_t len)
{
    const uint8_t *p = buf;
    uint32_t c = 0xFFFFFFFFu;

    if (!crc_ready)
        crc_init();
    while (len--)
        c = crc_table[(c ^ *p++) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

/* ---- little-endian helpers ------------------------------------------------- */
static void
put_u16(uint8_t *p, uint16_t v)
{
    p[0] = v & 0xFF;
    p[1] = v >> 8;
}

static void
put_u32(uint8_t *p, uint32_t v)
{
    int i;

    for (i = 0; i < 4; i++)
        p[i] = (v >> (8 * i)) & 0xFF;
}

static void
put_u64(uint8_t *p, uint64_t v)
{
    int i;

    for (i = 0; i < 8; i++)
        p[i] = (v >> (8 * i)) & 0xFF;
}

static uint16_t
get_u16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}

static uint32_t
get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
           ((uint32_t)p[3] << 24);
}

static uint64_t
get_u64(const uint8_t *p)
{
    return (uint64_t)get_u32(p) | ((uint64_t)get_u32(p + 4) << 32);
}

/* ---- init / dispose -------------------------------------------------------- */
void
vdc_ctl_job_init(struct vdc_ctl_job *job)
{
    memset(job, 0, sizeof(*job));
}

/* free every heap member of @rec by its schema (lists recursively) and zero it */
static void
dispose_record(void *rec, const struct tlv_schema *s)
{
    char *base = rec, *arr;
    size_t i, j, n;

    for (i = 0; i < s->n_fields; i++) {
        const struct tlv_field *f = &s->fields[i];

        if (f->kind == F_STR || f->kind == F_BLOB) {
            free(*(char **)(void *)(base + f->off));
        } else if (f->kind == F_STRS || f->kind == F_LIST) {
            memcpy(&arr, base + f->off, sizeof(arr));
            n = *(size_t *)(void *)(base + f->off_n);
            for (j = 0; arr && j < n; j++) {
                if (f->kind == F_STRS)
                    free(((char **)(void *)arr)[j]);
                else
                    dispose_record(arr + j * f->sub->size, f->sub);
            }
            free(arr);
        }
    }
    memset(rec, 0, s->size);
}

static void
target_dispose(struct vdc_ctl_target *t)
{
    dispose_record(t, &target_schema);
}

void
vdc_ctl_job_dispose(struct vdc_ctl_job *job)
{
    if (job)
        dispose_record(job, &job_schema);
}

void
vdc_ctl_result_init(struct vdc_ctl_result *res)
{
    memset(res, 0, sizeof(*res));
}

static void
tresult_dispose(struct vdc_ctl_target_result *t)
{
    dispose_record(t, &tresult_schema);
}

void
vdc_ctl_result_dispose(struct vdc_ctl_result *res)
{
    if (res)
        dispose_record(res, &result_schema);
}

const char *
vdc_ctl_status_name(uint32_t status)
{
    switch (status) {
    case VDC_CTL_STATUS_OK: return "ok";
    case VDC_CTL_STATUS_FAILED: return "failed";
    case VDC_CTL_STATUS_TIMEOUT: return "timeout";
    case VDC_CTL_STATUS_SKIPPED: return "skipped";
    default: return "unknown";
    }
}

/* ---- field validation (shared by builders and decoders) ------------------- */
static int
is_word(const char *s, size_t max, int upper, const char *extra)
{
    size_t n = 0;

    if (!s || !*s)
        return 0;
    for (; *s; s++, n++) {
        if (n >= max)
            return 0;
        if ((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
            (upper && *s >= 'A' && *s <= 'Z') || strchr(extra, *s))
            continue;
        return 0;
    }
    return 1;
}

/* target names: letters, digits, . _ - ; vdev: lowercase letters and digits;
 * mkfs type: lowercase letters and digits (mkfs.TYPE is exec'd) */
static int
check_target(const struct vdc_ctl_target *t, size_t i, struct vdc_ctl_error *err)
{
    if (!is_word(t->name, 64, 1, "._-"))
        return seterr(err, "job target %zu: name: expected 1-64 of [A-Za-z0-9._-]", i);
    if (!is_word(t->vdev, 32, 0, ""))
        return seterr(err, "job target %zu (%s): vdev: expected 1-32 of [a-z0-9], e.g. xvdb",
                      i, t->name);
    if (!is_word(t->mkfs_type, 16, 0, ""))
        return seterr(err, "job target %zu (%s): mkfs type: expected 1-16 of [a-z0-9], e.g. ext4",
                      i, t->name);
    return 0;
}

/* workload names: as target names (the runner makes WORKDIR/jobs/NAME.fio) */
static int
check_workload(const struct vdc_ctl_workload *w, size_t i, struct vdc_ctl_error *err)
{
    if (!is_word(w->name, 64, 1, "._-"))
        return seterr(err, "job workload %zu: name: expected 1-64 of [A-Za-z0-9._-]", i);
    if (!w->text || strlen(w->text) > VDC_CTL_MAX_JOBFILE)
        return seterr(err, "job workload %zu (%s): text: expected a job file of at most %u bytes",
                      i, w->name, VDC_CTL_MAX_JOBFILE);
    return 0;
}

static char *
dup_checked(const char *s, const char *what, struct vdc_ctl_error *err)
{
    char *d;

    if (!s)
        return NULL;
    if (strlen(s) > VDC_CTL_MAX_STRING) {
        seterr(err, "%s: longer than %u bytes", what, VDC_CTL_MAX_STRING);
        return NULL;
    }
    d = strdup(s);
    if (!d)
        seterr(err, "%s: out of memory", what);
    return d;
}

int
vdc_ctl_job_add_target(struct vdc_ctl_job *job, const char *name, const char *vdev,
                       const char *mkfs_type, const char *mkfs_options,
                       const char *mount_options, struct vdc_ctl_error *err)
{
    struct vdc_ctl_target t = { 0 }, *n;

    if (job->n_targets >= VDC_CTL_MAX_TARGETS)
        return seterr(err, "job: more than %u targets", VDC_CTL_MAX_TARGETS);
    if (!(t.name = dup_checked(name, "target name", err)) ||
        !(t.vdev = dup_checked(vdev, "target vdev", err)) ||
        !(t.mkfs_type = dup_checked(mkfs_type ? mkfs_type : "ext4", "mkfs type", err)))
        goto fail;
    if (mkfs_options && !(t.mkfs_options = dup_checked(mkfs_options, "mkfs options", err)))
        goto fail;
    if (mount_options && !(t.mount_options = dup_checked(mount_options, "mount options", err)))
        goto fail;
    if (check_target(&t, job->n_targets, err) < 0)
        goto fail;
    n = realloc(job->targets, (job->n_targets + 1) * sizeof(*n));
    if (!n) {
        seterr(err, "job: out of memory");
        goto fail;
    }
    job->targets = n;
    job->targets[job->n_targets++] = t;
    return 0;
 fail:
    if (!name || !vdev)
        seterr(err, "job target: name and vdev are required");
    target_dispose(&t);
    return -1;
}

int
vdc_ctl_job_add_arg(struct vdc_ctl_job *job, const char *arg, struct vdc_ctl_error *err)
{
    char **n, *d;

    if (!arg)
        return seterr(err, "agent argument: NULL");
    if (job->n_agent_args >= VDC_CTL_MAX_ARGS)
        return seterr(err, "job: more than %u agent arguments", VDC_CTL_MAX_ARGS);
    if (!(d = dup_checked(arg, "agent argument", err)))
        return -1;
    n = realloc(job->agent_args, (job->n_agent_args + 1) * sizeof(*n));
    if (!n) {
        free(d);
        return seterr(err, "job: out of memory");
    }
    job->agent_args = n;
    job->agent_args[job->n_agent_args++] = d;
    return 0;
}

int
vdc_ctl_job_add_workload(struct vdc_ctl_job *job, const char *name, const char *text,
                         struct vdc_ctl_error *err)
{
    struct vdc_ctl_workload w = { 0 }, *n;
    size_t i;

    if (job->n_workloads >= VDC_CTL_MAX_WORKLOADS)
        return seterr(err, "job: more than %u workloads", VDC_CTL_MAX_WORKLOADS);
    w.name = (char *)name;
    w.text = (char *)text;
    if (check_workload(&w, job->n_workloads, err) < 0)
        return -1;
    for (i = 0; i < job->n_workloads; i++)
        if (!strcmp(job->workloads[i].name, name))
            return seterr(err, "job workload %s: given twice: expected each workload name once", name);
    n = realloc(job->workloads, (job->n_workloads + 1) * sizeof(*n));
    if (!n)
        return seterr(err, "job: out of memory");
    job->workloads = n;
    w.name = strdup(name);
    w.text = strdup(text);
    if (!w.name || !w.text) {
        free(w.name);
        free(w.text);
        return seterr(err, "job: out of memory");
    }
    job->workloads[job->n_workloads++] = w;
    return 0;
}

/* append @arg (named @what in messages) to the list *@v of *@n */
static int
add_str(char ***v, size_t *n, const char *arg, const char *what, struct vdc_ctl_error *err)
{
    char **nv, *d;

    if (!arg)
        return seterr(err, "%s: NULL", what);
    if (*n >= VDC_CTL_MAX_ARGS)
        return seterr(err, "job: more than %u %ss", VDC_CTL_MAX_ARGS, what);
    if (!(d = dup_checked(arg, what, err)))
        return -1;
    nv = realloc(*v, (*n + 1) * sizeof(*nv));
    if (!nv) {
        free(d);
        return seterr(err, "job: out of memory");
    }
    *v = nv;
    (*v)[(*n)++] = d;
    return 0;
}

int
vdc_ctl_job_add_workload_arg(struct vdc_ctl_job *job, const char *arg, struct vdc_ctl_error *err)
{
    return add_str(&job->workload_args, &job->n_workload_args, arg, "workload argument", err);
}

int
vdc_ctl_job_add_raw_workload_arg(struct vdc_ctl_job *job, const char *arg,
                                 struct vdc_ctl_error *err)
{
    return add_str(&job->raw_workload_args, &job->n_raw_workload_args, arg,
                   "raw workload argument", err);
}

/* the flags that need workloads or each other (encoder and decoder) */
static int
check_flags(const struct vdc_ctl_job *job, struct vdc_ctl_error *err)
{
    if ((job->flags & VDC_CTL_JOB_NO_BONNIE) && job->n_workloads == 0)
        return seterr(err, "job: flag no-bonnie without workloads: nothing to run");
    if ((job->flags & VDC_CTL_JOB_RAW_WORKLOADS) && job->n_workloads == 0)
        return seterr(err, "job: flag raw-workloads without workloads: nothing to run");
    if ((job->flags & VDC_CTL_JOB_NO_FILE_WORKLOADS) && !(job->flags & VDC_CTL_JOB_RAW_WORKLOADS))
        return seterr(err, "job: flag no-file-workloads without raw-workloads: no workload pass");
    return 0;
}

struct vdc_ctl_target_result *
vdc_ctl_result_add_target(struct vdc_ctl_result *res, const char *name, const char *vdev,
                          struct vdc_ctl_error *err)
{
    struct vdc_ctl_target_result *n, *t;

    if (res->n_targets >= VDC_CTL_MAX_TARGETS) {
        seterr(err, "result: more than %u targets", VDC_CTL_MAX_TARGETS);
        return NULL;
    }
    n = realloc(res->targets, (res->n_targets + 1) * sizeof(*n));
    if (!n) {
        seterr(err, "result: out of memory");
        return NULL;
    }
    res->targets = n;
    t = &res->targets[res->n_targets];
    memset(t, 0, sizeof(*t));
    t->agent_exit = -1;
    t->workload_exit = -1;
    t->raw_workload_exit = -1;
    t->status = VDC_CTL_STATUS_SKIPPED;
    if (!(t->name = dup_checked(name ? name : "", "target name", err)) ||
        (vdev && !(t->vdev = dup_checked(vdev, "target vdev", err)))) {
        tresult_dispose(t);
        return NULL;
    }
    res->n_targets++;
    return t;
}

/* ---- encoder ---------------------------------------------------------------- */
struct buf {
    uint8_t *p;
    size_t len, cap;
    int oom;
};

static uint8_t *
buf_reserve(struct buf *b, size_t n)
{
    uint8_t *np;
    size_t cap;

    if (b->oom)
        return NULL;
    if (b->len + n > b->cap) {
        cap = b->cap ? b->cap : 256;
        while (cap < b->len + n)
            cap *= 2;
        np = realloc(b->p, cap);
        if (!np) {
            b->oom = 1;
            return NULL;
        }
        b->p = np;
        b->cap = cap;
    }
    b->len += n;
    return b->p + b->len - n;
}

static void
tlv_bytes(struct buf *b, uint16_t tag, const void *v, size_t len)
{
    uint8_t *p = buf_reserve(b, TLV_HDR + len);

    if (!p)
        return;
    put_u16(p, tag);
    put_u16(p + 2, 0);
    put_u32(p + 4, (uint32_t)len);
    if (len)
        memcpy(p + TLV_HDR, v, len);
}

static void
tlv_str(struct buf *b, uint16_t tag, const char *s)
{
    if (s)
        tlv_bytes(b, tag, s, strlen(s));
}

static void
tlv_u32(struct buf *b, uint16_t tag, uint32_t v)
{
    uint8_t x[4];

    put_u32(x, v);
    tlv_bytes(b, tag, x, 4);
}

static void
tlv_u64(struct buf *b, uint16_t tag, uint64_t v)
{
    uint8_t x[8];

    put_u64(x, v);
    tlv_bytes(b, tag, x, 8);
}

/* open a nested TLV; returns the offset of its header for tlv_end */
static size_t
tlv_begin(struct buf *b, uint16_t tag)
{
    size_t off = b->len;

    tlv_bytes(b, tag, NULL, 0);
    return off;
}

static void
tlv_end(struct buf *b, size_t off)
{
    if (!b->oom)
        put_u32(b->p + off + 4, (uint32_t)(b->len - off - TLV_HDR));
}

/* wrap payload @b (which starts with VDC_CTL_FRAME_HDR reserved bytes) */
static void
frame_seal(struct buf *b, const char *magic, uint32_t kind)
{
    uint8_t *h = b->p;
    uint64_t plen = b->len - VDC_CTL_FRAME_HDR;

    memcpy(h, magic, 8);
    put_u32(h + 8, VDC_CTL_FORMAT_VERSION);
    put_u32(h + 12, kind);
    put_u64(h + 16, plen);
    put_u32(h + 24, vdc_ctl_crc32c(h + VDC_CTL_FRAME_HDR, plen));
    put_u32(h + 28, vdc_ctl_crc32c(h, 28));
}

int
vdc_ctl_job_encode(const struct vdc_ctl_job *job, uint8_t **out, size_t *out_len,
                   struct vdc_ctl_error *err)
{
    struct buf b = { 0 };
    size_t i, off;

    *out = NULL;
    *out_len = 0;
    if (job->n_targets == 0)
        return seterr(err, "job: no targets");
    if (job->n_targets > VDC_CTL_MAX_TARGETS || job->n_agent_args > VDC_CTL_MAX_ARGS)
        return seterr(err, "job: too many targets or agent arguments");
    if (job->n_workloads > VDC_CTL_MAX_WORKLOADS || job->n_workload_args > VDC_CTL_MAX_ARGS ||
        job->n_raw_workload_args > VDC_CTL_MAX_ARGS)
        return seterr(err, "job: too many workloads or workload arguments");
    if (check_flags(job, err) < 0)
        return -1;
    for (i = 0; i < job->n_targets; i++)
        if (check_target(&job->targets[i], i, err) < 0)
            return -1;
    for (i = 0; i < job->n_workloads; i++)
        if (check_workload(&job->workloads[i], i, err) < 0)
            return -1;
    buf_reserve(&b, VDC_CTL_FRAME_HDR);
    tlv_u64(&b, T_NONCE, job->nonce);
    tlv_u32(&b, T_RUN_INDEX, job->run_index);
    tlv_u32(&b, T_REPETITION, job->repetition);
    tlv_u64(&b, T_SEED, job->seed);
    tlv_u32(&b, T_FLAGS, job->flags);
    tlv_u32(&b, T_STEP_TIMEOUT, job->step_timeout_s);
    tlv_u32(&b, T_AGENT_TIMEOUT, job->agent_timeout_s);
    for (i = 0; i < job->n_agent_args; i++)
        tlv_str(&b, T_AGENT_ARG, job->agent_args[i]);
    for (i = 0; i < job->n_targets; i++) {
        const struct vdc_ctl_target *t = &job->targets[i];

        off = tlv_begin(&b, T_TARGET);
        tlv_str(&b, T_NAME, t->name);
        tlv_str(&b, T_VDEV, t->vdev);
        tlv_str(&b, T_MKFS_TYPE, t->mkfs_type);
        tlv_str(&b, T_MKFS_OPTIONS, t->mkfs_options);
        tlv_str(&b, T_MOUNT_OPTIONS, t->mount_options);
        tlv_end(&b, off);
    }
    /* the workload records only when there are workloads: a job without
     * them encodes as before they existed */
    for (i = 0; i < job->n_workloads; i++) {
        off = tlv_begin(&b, T_WORKLOAD);
        tlv_str(&b, T_WL_NAME, job->workloads[i].name);
        tlv_str(&b, T_WL_TEXT, job->workloads[i].text);
        tlv_end(&b, off);
    }
    for (i = 0; i < job->n_workload_args; i++)
        tlv_str(&b, T_WORKLOAD_ARG, job->workload_args[i]);
    for (i = 0; i < job->n_raw_workload_args; i++)
        tlv_str(&b, T_RAW_WORKLOAD_ARG, job->raw_workload_args[i]);
    if (b.oom) {
        free(b.p);
        return seterr(err, "job: out of memory");
    }
    if (b.len > VDC_CTL_JOB_MAX) {
        free(b.p);
        return seterr(err, "job: %zu bytes, more than the %u-byte job area", b.len,
                      VDC_CTL_JOB_MAX);
    }
    frame_seal(&b, VDC_CTL_JOB_MAGIC, KIND_JOB);
    *out = b.p;
    *out_len = b.len;
    return 0;
}

int
vdc_ctl_result_encode(const struct vdc_ctl_result *res, size_t max, uint8_t **out,
                      size_t *out_len, struct vdc_ctl_error *err)
{
    struct buf b = { 0 };
    size_t i, off;

    *out = NULL;
    *out_len = 0;
    if (res->n_targets > VDC_CTL_MAX_TARGETS)
        return seterr(err, "result: more than %u targets", VDC_CTL_MAX_TARGETS);
    buf_reserve(&b, VDC_CTL_FRAME_HDR);
    tlv_u64(&b, T_NONCE, res->nonce);
    tlv_u32(&b, T_STATUS, res->status);
    tlv_str(&b, T_RUNNER_VERSION, res->runner_version);
    tlv_str(&b, T_KERNEL, res->kernel);
    tlv_str(&b, T_ERROR, res->error);
    for (i = 0; i < res->n_targets; i++) {
        const struct vdc_ctl_target_result *t = &res->targets[i];

        off = tlv_begin(&b, T_TRESULT);
        tlv_str(&b, T_NAME, t->name);
        tlv_str(&b, T_VDEV, t->vdev);
        tlv_u32(&b, T_TSTATUS, t->status);
        tlv_u32(&b, T_AGENT_EXIT, (uint32_t)t->agent_exit);
        tlv_u32(&b, T_ELAPSED_MS, t->elapsed_ms);
        tlv_str(&b, T_TERROR, t->error);
        if (t->agent_json)
            tlv_bytes(&b, T_AGENT_JSON, t->agent_json, t->agent_json_len);
        if (t->stderr_tail)
            tlv_bytes(&b, T_STDERR_TAIL, t->stderr_tail, t->stderr_tail_len);
        if (t->workload_exit != -1 || t->workload_elapsed_ms) {
            tlv_u32(&b, T_WORKLOAD_EXIT, (uint32_t)t->workload_exit);
            tlv_u32(&b, T_WORKLOAD_MS, t->workload_elapsed_ms);
        }
        if (t->workload_json)
            tlv_bytes(&b, T_WORKLOAD_JSON, t->workload_json, t->workload_json_len);
        if (t->raw_workload_exit != -1 || t->raw_workload_elapsed_ms) {
            tlv_u32(&b, T_RAW_WORKLOAD_EXIT, (uint32_t)t->raw_workload_exit);
            tlv_u32(&b, T_RAW_WORKLOAD_MS, t->raw_workload_elapsed_ms);
        }
        if (t->raw_workload_json)
            tlv_bytes(&b, T_RAW_WORKLOAD_JSON, t->raw_workload_json, t->raw_workload_json_len);
        tlv_end(&b, off);
    }
    if (res->log)
        tlv_bytes(&b, T_LOG, res->log, res->log_len);
    if (b.oom) {
        free(b.p);
        return seterr(err, "result: out of memory");
    }
    if (b.len > max) {
        free(b.p);
        return seterr(err, "result: %zu bytes, more than the %zu-byte result area", b.len, max);
    }
    frame_seal(&b, VDC_CTL_RES_MAGIC, KIND_RESULT);
    *out = b.p;
    *out_len = b.len;
    return 0;
}

/* ---- decoder ---------------------------------------------------------------- */
/* iterate TLV records in [p, p+len): *tag, *val, *vlen; returns 1 while
 * records remain, 0 at the end, -1 on a malformed record */
struct tlv_iter {
    const uint8_t *p;
    size_t len, pos;
};

static int
tlv_next(struct tlv_iter *it, uint16_t *tag, const uint8_t **val, uint32_t *vlen,
         const char *where, struct vdc_ctl_error *err)
{
    uint32_t l;

    if (it->pos == it->len)
        return 0;
    if (it->len - it->pos < TLV_HDR)
        return seterr(err, "%s: truncated record header at byte %zu", where, it->pos);
    *tag = get_u16(it->p + it->pos);
    if (get_u16(it->p + it->pos + 2) != 0)
        return seterr(err, "%s: record 0x%04x at byte %zu: reserved field not zero", where,
                      *tag, it->pos);
    l = get_u32(it->p + it->pos + 4);
    if (l > it->len - it->pos - TLV_HDR)
        return seterr(err, "%s: record 0x%04x at byte %zu: length %u runs past the frame",
                      where, *tag, it->pos, l);
    *val = it->p + it->pos + TLV_HDR;
    *vlen = l;
    it->pos += TLV_HDR + l;
    return 1;
}

static int
get_str(const uint8_t *v, uint32_t len, size_t max, char **dst, const char *what,
        struct vdc_ctl_error *err)
{
    if (*dst)
        return seterr(err, "%s: given twice: expected one", what);
    if (len > max)
        return seterr(err, "%s: %u bytes, more than the limit of %zu", what, len, max);
    if (memchr(v, 0, len))
        return seterr(err, "%s: contains a NUL byte", what);
    *dst = malloc(len + 1);
    if (!*dst)
        return seterr(err, "%s: out of memory", what);
    memcpy(*dst, v, len);
    (*dst)[len] = 0;
    return 0;
}

/* blobs may hold any byte but are NUL-terminated for convenience */
static int
get_blob(const uint8_t *v, uint32_t len, char **dst, size_t *dlen, const char *what,
         struct vdc_ctl_error *err)
{
    if (*dst)
        return seterr(err, "%s: given twice: expected one", what);
    if (len > VDC_CTL_MAX_BLOB)
        return seterr(err, "%s: %u bytes, more than the limit of %u", what, len,
                      VDC_CTL_MAX_BLOB);
    *dst = malloc(len + 1);
    if (!*dst)
        return seterr(err, "%s: out of memory", what);
    memcpy(*dst, v, len);
    (*dst)[len] = 0;
    *dlen = len;
    return 0;
}

static int
get_num(const uint8_t *v, uint32_t len, uint32_t want, unsigned *seen, unsigned bit,
        uint64_t *out, const char *what, struct vdc_ctl_error *err)
{
    if (len != want)
        return seterr(err, "%s: %u bytes, expected %u", what, len, want);
    if (*seen & bit)
        return seterr(err, "%s: given twice: expected one", what);
    *seen |= bit;
    *out = want == 8 ? get_u64(v) : get_u32(v);
    return 0;
}

/* validate the frame header at @buf; on success *payload, *plen */
static int
frame_open(const uint8_t *buf, size_t len, const char *magic, uint32_t kind, size_t max,
           const char *what, const uint8_t **payload, size_t *plen, struct vdc_ctl_error *err)
{
    uint32_t v, k;
    uint64_t l;

    if (len < VDC_CTL_FRAME_HDR)
        return seterr(err, "%s frame: truncated: %zu bytes, header needs %u", what, len,
                      VDC_CTL_FRAME_HDR);
    if (memcmp(buf, magic, 8) != 0) {
        static const uint8_t zero[8];

        if (!memcmp(buf, zero, 8))
            return seterr(err, "no %s frame (area is blank)", what);
        return seterr(err, "%s frame: bad magic (expected %.8s)", what, magic);
    }
    if (get_u32(buf + 28) != vdc_ctl_crc32c(buf, 28))
        return seterr(err, "%s frame: header checksum mismatch", what);
    v = get_u32(buf + 8);
    if (v != VDC_CTL_FORMAT_VERSION)
        return seterr(err, "%s frame: format version %u, expected %u", what, v,
                      VDC_CTL_FORMAT_VERSION);
    k = get_u32(buf + 12);
    if (k != kind)
        return seterr(err, "%s frame: kind %u, expected %u", what, k, kind);
    l = get_u64(buf + 16);
    if (l > max - VDC_CTL_FRAME_HDR)
        return seterr(err, "%s frame: payload length %llu over the limit of %zu", what,
                      (unsigned long long)l, max - VDC_CTL_FRAME_HDR);
    if (l > len - VDC_CTL_FRAME_HDR)
        return seterr(err, "%s frame: truncated: payload length %llu, %zu bytes present",
                      what, (unsigned long long)l, len - VDC_CTL_FRAME_HDR);
    if (get_u32(buf + 24) != vdc_ctl_crc32c(buf + VDC_CTL_FRAME_HDR, l))
        return seterr(err, "%s frame: payload checksum mismatch", what);
    *payload = buf + VDC_CTL_FRAME_HDR;
    *plen = (size_t)l;
    return 0;
}

static int decode_record(const uint8_t *p, size_t len, void *rec, const struct tlv_schema *s,
                         size_t idx, const char *where, struct vdc_ctl_error *err);

/* append one zeroed element of @size bytes to the array member at @arr_off
 * (count at @n_off); NULL on ENOMEM */
static void *
array_grow(char *base, size_t arr_off, size_t n_off, size_t size)
{
    char *arr;
    size_t *n = (size_t *)(void *)(base + n_off);

    memcpy(&arr, base + arr_off, sizeof(arr));
    arr = realloc(arr, (*n + 1) * size);
    if (!arr)
        return NULL;
    memcpy(base + arr_off, &arr, sizeof(arr));
    memset(arr + *n * size, 0, size);
    return arr + (*n)++ * size;
}

/* one record of field @f with value @v (@vl bytes) into @rec */
static int
decode_field(const struct tlv_field *f, const uint8_t *v, uint32_t vl, char *rec,
             unsigned *seen, const char *where, struct vdc_ctl_error *err)
{
    size_t *n = (size_t *)(void *)(rec + f->off_n);
    char **s;
    void *elem;
    uint64_t x = 0;

    switch (f->kind) {
    case F_U32:
    case F_I32:
    case F_U64:
        if (get_num(v, vl, f->kind == F_U64 ? 8 : 4, seen, f->bit, &x, f->what, err) < 0)
            return -1;
        if (f->kind == F_U64)
            *(uint64_t *)(void *)(rec + f->off) = x;
        else if (f->kind == F_I32)
            *(int32_t *)(void *)(rec + f->off) = (int32_t)(uint32_t)x;
        else
            *(uint32_t *)(void *)(rec + f->off) = (uint32_t)x;
        return 0;
    case F_STR:
        return get_str(v, vl, f->max, (char **)(void *)(rec + f->off), f->what, err);
    case F_BLOB:
        return get_blob(v, vl, (char **)(void *)(rec + f->off), n, f->what, err);
    case F_STRS: {
        char *str = NULL;

        if (*n >= f->max)
            return seterr(err, "%s: more than %zu %s", where, f->max, f->many);
        if (get_str(v, vl, VDC_CTL_MAX_STRING, &str, f->what, err) < 0)
            return -1;
        if (!(s = array_grow(rec, f->off, f->off_n, sizeof(*s)))) {
            free(str);
            return seterr(err, "%s: out of memory", where);
        }
        *s = str;
        return 0;
    }
    case F_LIST:
        if (*n >= f->max)
            return seterr(err, "%s: more than %zu %s", where, f->max, f->many);
        if (!(elem = array_grow(rec, f->off, f->off_n, f->sub->size)))
            return seterr(err, "%s: out of memory", where);
        return decode_record(v, vl, elem, f->sub, *n - 1, NULL, err);
    }
    return 0;
}

/* walk the TLV records in [p, p+len) into @rec by schema @s: @where names
 * the record in messages, NULL for "<s->where> <idx>" (list elements) */
static int
decode_record(const uint8_t *p, size_t len, void *rec, const struct tlv_schema *s,
              size_t idx, const char *where, struct vdc_ctl_error *err)
{
    struct tlv_iter it = { p, len, 0 };
    const uint8_t *v = NULL;
    uint32_t vl = 0;
    uint16_t tag = 0;
    unsigned seen = 0;
    size_t i;
    int r;
    char name[40];

    if (!where) {
        snprintf(name, sizeof(name), "%s %zu", s->where, idx);
        where = name;
    }
    if (s->start)
        s->start(rec);
    while ((r = tlv_next(&it, &tag, &v, &vl, where, err)) > 0) {
        for (i = 0; i < s->n_fields; i++)
            if (s->fields[i].tag == tag)
                break;
        if (i < s->n_fields && decode_field(&s->fields[i], v, vl, rec, &seen, where, err) < 0)
            return -1;
    }
    if (r < 0)
        return -1;
    return s->finish(rec, seen, idx, err);
}

#define FIELD_NUM(tag, kind, bit, type, member, what) \
    { tag, kind, bit, 0, offsetof(type, member), 0, what, NULL, NULL }
#define FIELD_STR(tag, max, type, member, what) \
    { tag, F_STR, 0, max, offsetof(type, member), 0, what, NULL, NULL }
#define FIELD_BLOB(tag, type, member, what) \
    { tag, F_BLOB, 0, VDC_CTL_MAX_BLOB, offsetof(type, member), offsetof(type, member##_len), \
      what, NULL, NULL }

static int
target_finish(void *rec, unsigned seen, size_t idx, struct vdc_ctl_error *err)
{
    struct vdc_ctl_target *t = rec;

    if (!t->name || !t->vdev || !t->mkfs_type)
        return seterr(err, "job target %zu: missing %s", idx,
                      !t->name ? "name" : !t->vdev ? "vdev" : "mkfs type");
    return check_target(t, idx, err);
}

static const struct tlv_field target_fields[] = {
    FIELD_STR(T_NAME, 64, struct vdc_ctl_target, name, "job target name"),
    FIELD_STR(T_VDEV, 32, struct vdc_ctl_target, vdev, "job target vdev"),
    FIELD_STR(T_MKFS_TYPE, 16, struct vdc_ctl_target, mkfs_type, "job target mkfs type"),
    FIELD_STR(T_MKFS_OPTIONS, VDC_CTL_MAX_STRING, struct vdc_ctl_target, mkfs_options,
              "job target mkfs options"),
    FIELD_STR(T_MOUNT_OPTIONS, VDC_CTL_MAX_STRING, struct vdc_ctl_target, mount_options,
              "job target mount options"),
};

static const struct tlv_schema target_schema = {
    "job target", sizeof(struct vdc_ctl_target), target_fields,
    sizeof(target_fields) / sizeof(target_fields[0]), NULL, target_finish,
};

static int
workload_finish(void *rec, unsigned seen, size_t idx, struct vdc_ctl_error *err)
{
    const struct vdc_ctl_workload *w = rec;

    if (!w->name || !w->text)
        return seterr(err, "job workload %zu: missing %s", idx, !w->name ? "name" : "text");
    return check_workload(w, idx, err);
}

static const struct tlv_field workload_fields[] = {
    FIELD_STR(T_WL_NAME, 64, struct vdc_ctl_workload, name, "job workload name"),
    FIELD_STR(T_WL_TEXT, VDC_CTL_MAX_JOBFILE, struct vdc_ctl_workload, text, "job workload text"),
};

static const struct tlv_schema workload_schema = {
    "job workload", sizeof(struct vdc_ctl_workload), workload_fields,
    sizeof(workload_fields) / sizeof(workload_fields[0]), NULL, workload_finish,
};

static int
job_finish(void *rec, unsigned seen, size_t idx, struct vdc_ctl_error *err)
{
    const struct vdc_ctl_job *job = rec;
    size_t i, k;

    if (!(seen & 1))
        return seterr(err, "job: missing nonce");
    if (job->n_targets == 0)
        return seterr(err, "job: no targets");
    for (i = 0; i < job->n_workloads; i++)
        for (k = 0; k < i; k++)
            if (!strcmp(job->workloads[i].name, job->workloads[k].name))
                return seterr(err, "job workload %zu (%s): name given twice: expected each workload name once", i,
                              job->workloads[i].name);
    return check_flags(job, err);
}

static const struct tlv_field job_fields[] = {
    FIELD_NUM(T_NONCE, F_U64, 1, struct vdc_ctl_job, nonce, "job nonce"),
    FIELD_NUM(T_RUN_INDEX, F_U32, 2, struct vdc_ctl_job, run_index, "job run index"),
    FIELD_NUM(T_REPETITION, F_U32, 4, struct vdc_ctl_job, repetition, "job repetition"),
    FIELD_NUM(T_SEED, F_U64, 8, struct vdc_ctl_job, seed, "job seed"),
    FIELD_NUM(T_FLAGS, F_U32, 16, struct vdc_ctl_job, flags, "job flags"),
    FIELD_NUM(T_STEP_TIMEOUT, F_U32, 32, struct vdc_ctl_job, step_timeout_s, "job step timeout"),
    FIELD_NUM(T_AGENT_TIMEOUT, F_U32, 64, struct vdc_ctl_job, agent_timeout_s,
              "job agent timeout"),
    { T_AGENT_ARG, F_STRS, 0, VDC_CTL_MAX_ARGS, offsetof(struct vdc_ctl_job, agent_args),
      offsetof(struct vdc_ctl_job, n_agent_args), "job agent argument", "agent arguments",
      NULL },
    { T_TARGET, F_LIST, 0, VDC_CTL_MAX_TARGETS, offsetof(struct vdc_ctl_job, targets),
      offsetof(struct vdc_ctl_job, n_targets), NULL, "targets", &target_schema },
    { T_WORKLOAD, F_LIST, 0, VDC_CTL_MAX_WORKLOADS, offsetof(struct vdc_ctl_job, workloads),
      offsetof(struct vdc_ctl_job, n_workloads), NULL, "workloads", &workload_schema },
    { T_WORKLOAD_ARG, F_STRS, 0, VDC_CTL_MAX_ARGS, offsetof(struct vdc_ctl_job, workload_args),
      offsetof(struct vdc_ctl_job, n_workload_args), "job workload argument",
      "workload arguments", NULL },
    { T_RAW_WORKLOAD_ARG, F_STRS, 0, VDC_CTL_MAX_ARGS,
      offsetof(struct vdc_ctl_job, raw_workload_args),
      offsetof(struct vdc_ctl_job, n_raw_workload_args), "job raw workload argument",
      "raw workload arguments", NULL },
};

static const struct tlv_schema job_schema = {
    "job", sizeof(struct vdc_ctl_job), job_fields, sizeof(job_fields) / sizeof(job_fields[0]),
    NULL, job_finish,
};

static void
tresult_start(void *rec)
{
    ((struct vdc_ctl_target_result *)rec)->agent_exit = -1;
    ((struct vdc_ctl_target_result *)rec)->workload_exit = -1;
    ((struct vdc_ctl_target_result *)rec)->raw_workload_exit = -1;
}

static int
tresult_finish(void *rec, unsigned seen, size_t idx, struct vdc_ctl_error *err)
{
    const struct vdc_ctl_target_result *t = rec;

    if (!t->name || !(seen & 1))
        return seterr(err, "result target %zu: missing %s", idx, !t->name ? "name" : "status");
    if (t->status > VDC_CTL_STATUS_SKIPPED)
        return seterr(err, "result target %zu: status %u, expected 0-3", idx, t->status);
    return 0;
}

static const struct tlv_field tresult_fields[] = {
    FIELD_STR(T_NAME, 64, struct vdc_ctl_target_result, name, "result target name"),
    FIELD_STR(T_VDEV, 32, struct vdc_ctl_target_result, vdev, "result target vdev"),
    FIELD_NUM(T_TSTATUS, F_U32, 1, struct vdc_ctl_target_result, status,
              "result target status"),
    FIELD_NUM(T_AGENT_EXIT, F_I32, 2, struct vdc_ctl_target_result, agent_exit,
              "result target agent exit"),
    FIELD_NUM(T_ELAPSED_MS, F_U32, 4, struct vdc_ctl_target_result, elapsed_ms,
              "result target elapsed"),
    FIELD_STR(T_TERROR, VDC_CTL_MAX_STRING, struct vdc_ctl_target_result, error,
              "result target error"),
    FIELD_BLOB(T_AGENT_JSON, struct vdc_ctl_target_result, agent_json, "result agent JSON"),
    FIELD_BLOB(T_STDERR_TAIL, struct vdc_ctl_target_result, stderr_tail, "result stderr tail"),
    FIELD_NUM(T_WORKLOAD_EXIT, F_I32, 8, struct vdc_ctl_target_result, workload_exit,
              "result target workload exit"),
    FIELD_NUM(T_WORKLOAD_MS, F_U32, 16, struct vdc_ctl_target_result, workload_elapsed_ms,
              "result target workload elapsed"),
    FIELD_BLOB(T_WORKLOAD_JSON, struct vdc_ctl_target_result, workload_json,
               "result workload JSON"),
    FIELD_NUM(T_RAW_WORKLOAD_EXIT, F_I32, 32, struct vdc_ctl_target_result, raw_workload_exit,
              "result target raw workload exit"),
    FIELD_NUM(T_RAW_WORKLOAD_MS, F_U32, 64, struct vdc_ctl_target_result,
              raw_workload_elapsed_ms, "result target raw workload elapsed"),
    FIELD_BLOB(T_RAW_WORKLOAD_JSON, struct vdc_ctl_target_result, raw_workload_json,
               "result raw workload JSON"),
};

static const struct tlv_schema tresult_schema = {
    "result target", sizeof(struct vdc_ctl_target_result), tresult_fields,
    sizeof(tresult_fields) / sizeof(tresult_fields[0]), tresult_start, tresult_finish,
};

static int
result_finish(void *rec, unsigned seen, size_t idx, struct vdc_ctl_error *err)
{
    const struct vdc_ctl_result *res = rec;

    if ((seen & 3) != 3)
        return seterr(err, "result: missing %s", !(seen & 1) ? "nonce" : "status");
    if (res->status > VDC_CTL_STATUS_SKIPPED)
        return seterr(err, "result: status %u, expected 0-3", res->status);
    return 0;
}

static const struct tlv_field result_fields[] = {
    FIELD_NUM(T_NONCE, F_U64, 1, struct vdc_ctl_result, nonce, "result nonce"),
    FIELD_NUM(T_STATUS, F_U32, 2, struct vdc_ctl_result, status, "result status"),
    FIELD_STR(T_RUNNER_VERSION, 64, struct vdc_ctl_result, runner_version,
              "result runner version"),
    FIELD_STR(T_KERNEL, 256, struct vdc_ctl_result, kernel, "result kernel"),
    FIELD_STR(T_ERROR, VDC_CTL_MAX_STRING, struct vdc_ctl_result, error, "result error"),
    FIELD_BLOB(T_LOG, struct vdc_ctl_result, log, "result log"),
    { T_TRESULT, F_LIST, 0, VDC_CTL_MAX_TARGETS, offsetof(struct vdc_ctl_result, targets),
      offsetof(struct vdc_ctl_result, n_targets), NULL, "targets", &tresult_schema },
};

static const struct tlv_schema result_schema = {
    "result", sizeof(struct vdc_ctl_result), result_fields,
    sizeof(result_fields) / sizeof(result_fields[0]), NULL, result_finish,
};

/* open the frame at @buf and decode its payload into @rec by @s (the
 * frame's name in messages is s->where); @rec is disposed first and on
 * failure */
static int
decode_frame(const uint8_t *buf, size_t len, void *rec, const struct tlv_schema *s,
             const char *magic, uint32_t kind, size_t max, struct vdc_ctl_error *err)
{
    const uint8_t *payload = NULL;
    size_t plen = 0;

    dispose_record(rec, s);
    if (frame_open(buf, len, magic, kind, max, s->where, &payload, &plen, err) < 0)
        return -1;
    if (decode_record(payload, plen, rec, s, 0, s->where, err) < 0) {
        dispose_record(rec, s);
        return -1;
    }
    return 0;
}

int
vdc_ctl_job_decode(const uint8_t *buf, size_t len, struct vdc_ctl_job *job,
                   struct vdc_ctl_error *err)
{
    return decode_frame(buf, len, job, &job_schema, VDC_CTL_JOB_MAGIC, KIND_JOB,
                        VDC_CTL_JOB_MAX, err);
}

int
vdc_ctl_result_decode(const uint8_t *buf, size_t len, struct vdc_ctl_result *res,
                      struct vdc_ctl_error *err)
{
    return decode_frame(buf, len, res, &result_schema, VDC_CTL_RES_MAGIC, KIND_RESULT,
                        VDC_CTL_DISK_MAX, err);
}

/* ---- superblock -------------------------------------------------------------- */
struct sb {
    uint64_t disk_size, job_off, job_max, res_off, res_max, nonce;
    uint64_t progress_off, progress_max;    /* 0, 0: no progress block */
};

static void
sb_encode(uint8_t *p, const struct sb *s)
{
    memset(p, 0, VDC_CTL_SB_SIZE);
    memcpy(p, VDC_CTL_SB_MAGIC, 8);
    put_u32(p + 8, VDC_CTL_FORMAT_VERSION);
    put_u32(p + 12, VDC_CTL_SB_SIZE);
    put_u64(p + 16, s->disk_size);
    put_u64(p + 24, s->job_off);
    put_u64(p + 32, s->job_max);
    put_u64(p + 40, s->res_off);
    put_u64(p + 48, s->res_max);
    put_u64(p + 56, s->nonce);
    put_u64(p + 64, s->progress_off);
    put_u64(p + 72, s->progress_max);
    put_u32(p + VDC_CTL_SB_SIZE - 4, vdc_ctl_crc32c(p, VDC_CTL_SB_SIZE - 4));
}

/* validate a superblock against the real size @len of the disk */
static int
sb_decode(const uint8_t *p, size_t len, uint64_t real_size, struct sb *s,
          struct vdc_ctl_error *err)
{
    uint32_t v;

    if (len < VDC_CTL_SB_SIZE)
        return seterr(err, "control disk: truncated: %zu bytes, superblock needs %u", len,
                      VDC_CTL_SB_SIZE);
    if (memcmp(p, VDC_CTL_SB_MAGIC, 8) != 0)
        return seterr(err, "control disk: bad magic (expected %s)", VDC_CTL_SB_MAGIC);
    if (get_u32(p + VDC_CTL_SB_SIZE - 4) != vdc_ctl_crc32c(p, VDC_CTL_SB_SIZE - 4))
        return seterr(err, "control disk: superblock checksum mismatch");
    v = get_u32(p + 8);
    if (v != VDC_CTL_FORMAT_VERSION)
        return seterr(err, "control disk: format version %u, expected %u", v,
                      VDC_CTL_FORMAT_VERSION);
    if (get_u32(p + 12) != VDC_CTL_SB_SIZE)
        return seterr(err, "control disk: superblock size %u, expected %u", get_u32(p + 12),
                      VDC_CTL_SB_SIZE);
    s->disk_size = get_u64(p + 16);
    s->job_off = get_u64(p + 24);
    s->job_max = get_u64(p + 32);
    s->res_off = get_u64(p + 40);
    s->res_max = get_u64(p + 48);
    s->nonce = get_u64(p + 56);
    s->progress_off = get_u64(p + 64);
    s->progress_max = get_u64(p + 72);
    if (s->disk_size < VDC_CTL_DISK_MIN || s->disk_size > VDC_CTL_DISK_MAX)
        return seterr(err, "control disk: recorded size %llu outside %u-%u bytes",
                      (unsigned long long)s->disk_size, VDC_CTL_DISK_MIN, VDC_CTL_DISK_MAX);
    if (s->disk_size > real_size)
        return seterr(err, "control disk: truncated: %llu bytes recorded, %llu present",
                      (unsigned long long)s->disk_size, (unsigned long long)real_size);
    if (s->job_off < VDC_CTL_SB_SIZE || s->job_max < VDC_CTL_FRAME_HDR ||
        s->job_max > VDC_CTL_JOB_MAX || s->job_off > s->res_off ||
        s->job_max > s->res_off - s->job_off ||     /* no wrap: job_off may be 2^64-1 */
        s->res_max < VDC_CTL_FRAME_HDR || s->res_off > s->disk_size ||
        s->res_max > s->disk_size - s->res_off)
        return seterr(err, "control disk: frame areas out of bounds (job %llu+%llu, result %llu+%llu, disk %llu)",
                      (unsigned long long)s->job_off, (unsigned long long)s->job_max,
                      (unsigned long long)s->res_off, (unsigned long long)s->res_max,
                      (unsigned long long)s->disk_size);
    /* the progress block: 4 KiB-aligned (O_DIRECT), after the superblock,
     * before the job frame (an older disk has none: 0) */
    if (s->progress_off &&
        (s->progress_off % VDC_CTL_PROGRESS_SIZE || s->progress_max != VDC_CTL_PROGRESS_SIZE ||
         s->progress_off > s->job_off || s->progress_max > s->job_off - s->progress_off))
        return seterr(err, "control disk: progress block out of bounds (%llu+%llu, job at %llu)",
                      (unsigned long long)s->progress_off, (unsigned long long)s->progress_max,
                      (unsigned long long)s->job_off);
    return 0;
}

int
vdc_ctl_image_read_job(const uint8_t *img, size_t len, struct vdc_ctl_job *job,
                       struct vdc_ctl_error *err)
{
    struct sb s;

    if (sb_decode(img, len, len, &s, err) < 0)
        return -1;
    if (vdc_ctl_job_decode(img + s.job_off, (size_t)s.job_max, job, err) < 0)
        return -1;
    if (job->nonce != s.nonce) {
        vdc_ctl_job_dispose(job);
        return seterr(err, "control disk: job nonce does not match the superblock");
    }
    return 0;
}

int
vdc_ctl_image_read_result(const uint8_t *img, size_t len, uint64_t nonce,
                          struct vdc_ctl_result *res, struct vdc_ctl_error *err)
{
    struct sb s;

    if (sb_decode(img, len, len, &s, err) < 0)
        return -1;
    if (s.nonce != nonce)
        return seterr(err, "control disk: superblock nonce %016llx, expected %016llx",
                      (unsigned long long)s.nonce, (unsigned long long)nonce);
    if (vdc_ctl_result_decode(img + s.res_off, (size_t)s.res_max, res, err) < 0)
        return -1;
    if (res->nonce != nonce) {
        vdc_ctl_result_dispose(res);
        return seterr(err, "control disk: result nonce %016llx, expected %016llx (stale result)",
                      (unsigned long long)res->nonce, (unsigned long long)nonce);
    }
    return 0;
}

/* ---- whole-disk I/O ------------------------------------------------------------ */
static int
pwrite_all(int fd, const void *buf, size_t len, off_t off)
{
    const uint8_t *p = buf;
    ssize_t r;

    while (len) {
        r = pwrite(fd, p, len, off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0)
            errno = EIO;        /* no progress: not an error the kernel named */
        if (r <= 0)
            return -1;
        p += r;
        len -= (size_t)r;
        off += r;
    }
    return 0;
}

static int
pread_all(int fd, void *buf, size_t len, off_t off)
{
    uint8_t *p = buf;
    ssize_t r;

    while (len) {
        r = pread(fd, p, len, off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0) {
            errno = 0;
            return -1;   /* short */
        }
        p += r;
        len -= (size_t)r;
        off += r;
    }
    return 0;
}

static int
disk_size(int fd, uint64_t *out, struct vdc_ctl_error *err)
{
    off_t end = lseek(fd, 0, SEEK_END);

    if (end < 0)
        return seterr(err, "control disk: cannot find its size: %s", strerror(errno));
    *out = (uint64_t)end;
    return 0;
}

int
vdc_ctl_disk_format(int fd, uint64_t size, const struct vdc_ctl_job *job,
                    struct vdc_ctl_error *err)
{
    uint8_t sbuf[VDC_CTL_SB_SIZE], zero[VDC_CTL_FRAME_HDR] = { 0 };
    uint8_t *frame = NULL;
    size_t flen;
    struct sb s;

    if (size < VDC_CTL_DISK_MIN || size > VDC_CTL_DISK_MAX)
        return seterr(err, "control disk: size %llu outside %u-%u bytes",
                      (unsigned long long)size, VDC_CTL_DISK_MIN, VDC_CTL_DISK_MAX);
    if (vdc_ctl_job_encode(job, &frame, &flen, err) < 0)
        return -1;
    s.disk_size = size;
    s.progress_off = VDC_CTL_PROGRESS_OFF;
    s.progress_max = VDC_CTL_PROGRESS_SIZE;
    s.job_off = VDC_CTL_JOB_OFF;
    s.job_max = VDC_CTL_RES_OFF - VDC_CTL_JOB_OFF;
    if (s.job_max > VDC_CTL_JOB_MAX)
        s.job_max = VDC_CTL_JOB_MAX;
    s.res_off = VDC_CTL_RES_OFF;
    s.res_max = size - VDC_CTL_RES_OFF;
    s.nonce = job->nonce;
    if (flen > s.job_max) {
        free(frame);
        return seterr(err, "job: %zu bytes, more than the %llu the control disk reserves", flen,
                      (unsigned long long)s.job_max);
    }
    sb_encode(sbuf, &s);
    if (pwrite_all(fd, zero, sizeof(zero), (off_t)s.res_off) < 0 ||
        pwrite_all(fd, zero, sizeof(zero), (off_t)s.progress_off) < 0 ||
        pwrite_all(fd, frame, flen, (off_t)s.job_off) < 0 ||
        pwrite_all(fd, sbuf, sizeof(sbuf), 0) < 0) {
        free(frame);
        return seterr(err, "control disk: write: %s", strerror(errno));
    }
    free(frame);
    return 0;
}

static int
read_sb(int fd, struct sb *s, struct vdc_ctl_error *err)
{
    uint8_t sbuf[VDC_CTL_SB_SIZE];
    uint64_t size = 0;

    if (disk_size(fd, &size, err) < 0)
        return -1;
    if (size < VDC_CTL_SB_SIZE)
        return seterr(err, "control disk: truncated: %llu bytes", (unsigned long long)size);
    if (pread_all(fd, sbuf, sizeof(sbuf), 0) < 0)
        return seterr(err, "control disk: read superblock: %s",
                      errno ? strerror(errno) : "short read");
    return sb_decode(sbuf, sizeof(sbuf), size, s, err);
}

/* read a frame of at most @max bytes at @off: the header first, then only
 * the payload it announces (bounded by @max) */
static int
read_frame(int fd, uint64_t off, uint64_t max, uint8_t **out, size_t *out_len,
           const char *what, struct vdc_ctl_error *err)
{
    uint8_t hdr[VDC_CTL_FRAME_HDR];
    uint64_t plen;
    uint8_t *buf;

    if (pread_all(fd, hdr, sizeof(hdr), (off_t)off) < 0)
        return seterr(err, "control disk: read %s frame: %s", what,
                      errno ? strerror(errno) : "short read");
    plen = get_u64(hdr + 16);
    if (plen > max - VDC_CTL_FRAME_HDR)
        plen = max - VDC_CTL_FRAME_HDR;  /* the decoder reports the oversize */
    buf = malloc(VDC_CTL_FRAME_HDR + plen);
    if (!buf)
        return seterr(err, "control disk: %s frame: out of memory", what);
    memcpy(buf, hdr, sizeof(hdr));
    if (plen && pread_all(fd, buf + VDC_CTL_FRAME_HDR, plen, (off_t)(off + VDC_CTL_FRAME_HDR)) < 0) {
        free(buf);
        return seterr(err, "control disk: read %s frame: %s", what,
                      errno ? strerror(errno) : "short read");
    }
    *out = buf;
    *out_len = VDC_CTL_FRAME_HDR + plen;
    return 0;
}

int
vdc_ctl_disk_read_job(int fd, struct vdc_ctl_job *job, struct vdc_ctl_error *err)
{
    struct sb s;
    uint8_t *buf;
    size_t len;
    int r;

    if (read_sb(fd, &s, err) < 0)
        return -1;
    if (read_frame(fd, s.job_off, s.job_max, &buf, &len, "job", err) < 0)
        return -1;
    r = vdc_ctl_job_decode(buf, len, job, err);
    free(buf);
    if (r == 0 && job->nonce != s.nonce) {
        vdc_ctl_job_dispose(job);
        return seterr(err, "control disk: job nonce does not match the superblock");
    }
    return r;
}

int
vdc_ctl_disk_write_result(int fd, const struct vdc_ctl_result *res, struct vdc_ctl_error *err)
{
    struct sb s;
    uint8_t *frame;
    size_t flen;

    if (read_sb(fd, &s, err) < 0)
        return -1;
    if (vdc_ctl_result_encode(res, (size_t)s.res_max, &frame, &flen, err) < 0)
        return -1;
    /* payload first, header last: a crash leaves no valid frame */
    if (pwrite_all(fd, frame + VDC_CTL_FRAME_HDR, flen - VDC_CTL_FRAME_HDR,
                   (off_t)(s.res_off + VDC_CTL_FRAME_HDR)) < 0 || fsync(fd) < 0 ||
        pwrite_all(fd, frame, VDC_CTL_FRAME_HDR, (off_t)s.res_off) < 0 || fsync(fd) < 0) {
        free(frame);
        return seterr(err, "control disk: write result: %s", strerror(errno));
    }
    free(frame);
    return 0;
}

int
vdc_ctl_disk_read_result(int fd, uint64_t nonce, struct vdc_ctl_result *res,
                         struct vdc_ctl_error *err)
{
    struct sb s;
    uint8_t *buf;
    size_t len;
    int r;

    if (read_sb(fd, &s, err) < 0)
        return -1;
    if (s.nonce != nonce)
        return seterr(err, "control disk: superblock nonce %016llx, expected %016llx",
                      (unsigned long long)s.nonce, (unsigned long long)nonce);
    if (read_frame(fd, s.res_off, s.res_max, &buf, &len, "result", err) < 0)
        return -1;
    r = vdc_ctl_result_decode(buf, len, res, err);
    free(buf);
    if (r == 0 && res->nonce != nonce) {
        vdc_ctl_result_dispose(res);
        return seterr(err, "control disk: result nonce %016llx, expected %016llx (stale result)",
                      (unsigned long long)res->nonce, (unsigned long long)nonce);
    }
    return r;
}

int
vdc_ctl_disk_probe(int fd)
{
    uint8_t m[8];

    if (pread_all(fd, m, sizeof(m), 0) < 0)
        return errno ? -1 : 0;
    return memcmp(m, VDC_CTL_SB_MAGIC, 8) == 0;
}

/* ---- progress block ---------------------------------------------------------- */
#define PG_HDR 32u
#define PG_EV 20u
#define PG_BEAT (PG_HDR + VDC_CTL_PROGRESS_RING * PG_EV)   /* 1312: u64 beats, u64 ns */
_Static_assert(PG_BEAT + 16 <= VDC_CTL_PROGRESS_SIZE - 4, "the heartbeat fits before the CRC");

void
vdc_ctl_progress_init(struct vdc_ctl_progress *p, uint64_t nonce)
{
    memset(p, 0, sizeof(*p));
    p->nonce = nonce;
}

uint64_t
vdc_ctl_progress_add(struct vdc_ctl_progress *p, uint64_t guest_ns, uint16_t target,
                     uint8_t kind, uint8_t test)
{
    struct vdc_ctl_event *e;

    if (p->n_events == VDC_CTL_PROGRESS_RING) {
        memmove(p->ev, p->ev + 1, (VDC_CTL_PROGRESS_RING - 1) * sizeof(p->ev[0]));
        p->n_events--;
    }
    e = &p->ev[p->n_events++];
    e->seq = ++p->newest_seq;
    e->guest_ns = guest_ns;
    e->target = target;
    e->kind = kind;
    e->test = test;
    return e->seq;
}

uint64_t
vdc_ctl_progress_beat(struct vdc_ctl_progress *p, uint64_t guest_ns)
{
    p->beat_ns = guest_ns;
    return ++p->beats;
}

void
vdc_ctl_progress_encode(const struct vdc_ctl_progress *p, uint8_t *out)
{
    uint32_t i, n = p->n_events > VDC_CTL_PROGRESS_RING ? VDC_CTL_PROGRESS_RING : p->n_events;

    memset(out, 0, VDC_CTL_PROGRESS_SIZE);
    memcpy(out, VDC_CTL_PROGRESS_MAGIC, 8);
    put_u32(out + 8, VDC_CTL_FORMAT_VERSION);
    put_u32(out + 12, n);
    put_u64(out + 16, p->nonce);
    put_u64(out + 24, p->newest_seq);
    for (i = 0; i < n; i++) {
        uint8_t *e = out + PG_HDR + i * PG_EV;

        put_u64(e, p->ev[i].seq);
        put_u64(e + 8, p->ev[i].guest_ns);
        put_u16(e + 16, p->ev[i].target);
        e[18] = p->ev[i].kind;
        e[19] = p->ev[i].test;
    }
    put_u64(out + PG_BEAT, p->beats);
    put_u64(out + PG_BEAT + 8, p->beat_ns);
    put_u32(out + VDC_CTL_PROGRESS_SIZE - 4, vdc_ctl_crc32c(out, VDC_CTL_PROGRESS_SIZE - 4));
}

int
vdc_ctl_progress_decode(const uint8_t *buf, size_t len, struct vdc_ctl_progress *p,
                        struct vdc_ctl_error *err)
{
    static const uint8_t blank[8];
    uint32_t i, n, v;

    if (len < VDC_CTL_PROGRESS_SIZE)
        return seterr(err, "progress block: truncated: %zu bytes, expected %u", len,
                      VDC_CTL_PROGRESS_SIZE);
    if (memcmp(buf, blank, 8) == 0)
        return 1;
    if (memcmp(buf, VDC_CTL_PROGRESS_MAGIC, 8) != 0)
        return seterr(err, "progress block: bad magic (expected %s)", VDC_CTL_PROGRESS_MAGIC);
    if (get_u32(buf + VDC_CTL_PROGRESS_SIZE - 4) != vdc_ctl_crc32c(buf, VDC_CTL_PROGRESS_SIZE - 4))
        return seterr(err, "progress block: checksum mismatch");
    v = get_u32(buf + 8);
    if (v != VDC_CTL_FORMAT_VERSION)
        return seterr(err, "progress block: version %u, expected %u", v, VDC_CTL_FORMAT_VERSION);
    n = get_u32(buf + 12);
    if (n > VDC_CTL_PROGRESS_RING)
        return seterr(err, "progress block: %u events, at most %u", n, VDC_CTL_PROGRESS_RING);
    memset(p, 0, sizeof(*p));
    p->n_events = n;
    p->nonce = get_u64(buf + 16);
    p->newest_seq = get_u64(buf + 24);
    p->beats = get_u64(buf + PG_BEAT);
    p->beat_ns = get_u64(buf + PG_BEAT + 8);
    if (n > p->newest_seq)
        return seterr(err, "progress block: %u events but newest seq %llu", n,
                      (unsigned long long)p->newest_seq);
    for (i = 0; i < n; i++) {
        const uint8_t *e = buf + PG_HDR + i * PG_EV;

        p->ev[i].seq = get_u64(e);
        p->ev[i].guest_ns = get_u64(e + 8);
        p->ev[i].target = get_u16(e + 16);
        p->ev[i].kind = e[18];
        p->ev[i].test = e[19];
        if (p->ev[i].seq != p->newest_seq - n + 1 + i)
            return seterr(err, "progress block: event %u has seq %llu, expected %llu", i,
                          (unsigned long long)p->ev[i].seq,
                          (unsigned long long)(p->newest_seq - n + 1 + i));
        if (p->ev[i].kind < VDC_CTL_EV_TEST_BEGIN || p->ev[i].kind > VDC_CTL_EV_TARGET_END)
            return seterr(err, "progress block: event %u: kind %u, expected 1-4", i,
                          p->ev[i].kind);
    }
    return 0;
}

int
vdc_ctl_disk_progress_area(int fd, uint64_t *off, struct vdc_ctl_error *err)
{
    struct sb s;

    if (read_sb(fd, &s, err) < 0)
        return -1;
    *off = s.progress_off;
    return 0;
}

int
vdc_ctl_disk_write_progress(int fd, uint64_t off, const struct vdc_ctl_progress *p,
                            struct vdc_ctl_error *err)
{
    void *buf = NULL;
    int r;

    if (posix_memalign(&buf, VDC_CTL_PROGRESS_SIZE, VDC_CTL_PROGRESS_SIZE) != 0)
        return seterr(err, "progress block: out of memory");
    vdc_ctl_progress_encode(p, buf);
    r = pwrite_all(fd, buf, VDC_CTL_PROGRESS_SIZE, (off_t)off);
    free(buf);
    if (r < 0)
        return seterr(err, "control disk: write progress block: %s", strerror(errno));
    return 0;
}

static int
progress_check(const uint8_t *buf, size_t len, uint64_t nonce, struct vdc_ctl_progress *p,
               struct vdc_ctl_error *err)
{
    int r = vdc_ctl_progress_decode(buf, len, p, err);

    if (r == 0 && p->nonce != nonce)
        return seterr(err, "progress block: nonce %016llx, expected %016llx",
                      (unsigned long long)p->nonce, (unsigned long long)nonce);
    return r;
}

int
vdc_ctl_disk_read_progress(int fd, uint64_t nonce, struct vdc_ctl_progress *p,
                           struct vdc_ctl_error *err)
{
    uint8_t buf[VDC_CTL_PROGRESS_SIZE];
    struct sb s;

    if (read_sb(fd, &s, err) < 0)
        return -1;
    if (!s.progress_off)
        return 1;
    if (pread_all(fd, buf, sizeof(buf), (off_t)s.progress_off) < 0)
        return seterr(err, "control disk: read progress block: %s",
                      errno ? strerror(errno) : "short read");
    return progress_check(buf, sizeof(buf), nonce, p, err);
}

int
vdc_ctl_image_read_progress(const uint8_t *img, size_t len, uint64_t nonce,
                            struct vdc_ctl_progress *p, struct vdc_ctl_error *err)
{
    struct sb s;

    if (sb_decode(img, len, len, &s, err) < 0)
        return -1;
    if (!s.progress_off)
        return 1;
    return progress_check(img + s.progress_off, VDC_CTL_PROGRESS_SIZE, nonce, p, err);
}
