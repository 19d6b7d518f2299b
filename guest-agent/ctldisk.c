/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp control disk codec (format version 2, doc/control-disk.md):
 * the records (init, dispose, field validation, builders) and CRC-32C.
 * The frames are ctldisk_codec.c, the disk ctldisk_disk.c.  libc only:
 * built into the static runner and into libvdc-agentcore.a. */
#include "config.h"
#include "ctldisk_codec.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int
vdc_ctl_seterr(struct vdc_ctl_error *err, const char *fmt, ...)
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

/* ---- init / dispose -------------------------------------------------------- */
void
vdc_ctl_job_init(struct vdc_ctl_job *job)
{
    memset(job, 0, sizeof(*job));
}

/* free every heap member of @rec by its schema (lists recursively) and zero it */
void
vdc_ctl_dispose_record(void *rec, const struct tlv_schema *s)
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
                    vdc_ctl_dispose_record(arr + j * f->sub->size, f->sub);
            }
            free(arr);
        }
    }
    memset(rec, 0, s->size);
}

static void
target_dispose(struct vdc_ctl_target *t)
{
    vdc_ctl_dispose_record(t, &vdc_ctl_target_schema);
}

void
vdc_ctl_job_dispose(struct vdc_ctl_job *job)
{
    if (job)
        vdc_ctl_dispose_record(job, &vdc_ctl_job_schema);
}

void
vdc_ctl_result_init(struct vdc_ctl_result *res)
{
    memset(res, 0, sizeof(*res));
}

static void
tresult_dispose(struct vdc_ctl_target_result *t)
{
    vdc_ctl_dispose_record(t, &vdc_ctl_tresult_schema);
}

void
vdc_ctl_result_dispose(struct vdc_ctl_result *res)
{
    if (res) {
        free(res->lost_slots);
        vdc_ctl_dispose_record(res, &vdc_ctl_result_schema);
    }
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

/* @s: words of [A-Za-z0-9=,.:_-] separated by single spaces, at most
 * 256 bytes */
static int
is_args(const char *s)
{
    size_t n = strlen(s);

    if (!n || n > 256 || s[0] == ' ' || s[n - 1] == ' ' || strstr(s, "  "))
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              strchr("=,.:_- ", *s)))
            return 0;
    return 1;
}

/* target names: letters, digits, . _ - ; vdev: lowercase letters and digits;
 * mkfs type: lowercase letters and digits (mkfs.TYPE is exec'd) */
int
vdc_ctl_check_target(const struct vdc_ctl_target *t, size_t i, struct vdc_ctl_error *err)
{
    if (!is_word(t->name, 64, 1, "._-"))
        return vdc_ctl_seterr(err, "job target %zu: name: expected 1-64 of [A-Za-z0-9._-]", i);
    if (!is_word(t->vdev, 32, 0, ""))
        return vdc_ctl_seterr(err, "job target %zu (%s): vdev: expected 1-32 of [a-z0-9], e.g. xvdb",
                      i, t->name);
    if (!is_word(t->mkfs_type, 16, 0, ""))
        return vdc_ctl_seterr(err, "job target %zu (%s): mkfs type: expected 1-16 of [a-z0-9], e.g. ext4",
                      i, t->name);
    /* agent options, words of [A-Za-z0-9=,.:_-] between single spaces: no
     * quoting, nothing a shell or the runner could read otherwise */
    if ((t->fs_args && !is_args(t->fs_args)) || (t->pass_args && !is_args(t->pass_args)) ||
        (t->raw_args && !is_args(t->raw_args)))
        return vdc_ctl_seterr(err, "job target %zu (%s): agent args: expected options of "
                      "[A-Za-z0-9=,.:_-] separated by single spaces", i, t->name);
    return 0;
}

/* workload names: as target names (the runner makes WORKDIR/jobs/NAME.fio) */
int
vdc_ctl_check_workload(const struct vdc_ctl_workload *w, size_t i, struct vdc_ctl_error *err)
{
    if (!is_word(w->name, 64, 1, "._-"))
        return vdc_ctl_seterr(err, "job workload %zu: name: expected 1-64 of [A-Za-z0-9._-]", i);
    if (!w->text || strlen(w->text) > VDC_CTL_MAX_JOBFILE)
        return vdc_ctl_seterr(err, "job workload %zu (%s): text: expected a job file of at most %u bytes",
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
        vdc_ctl_seterr(err, "%s: longer than %u bytes", what, VDC_CTL_MAX_STRING);
        return NULL;
    }
    d = strdup(s);
    if (!d)
        vdc_ctl_seterr(err, "%s: out of memory", what);
    return d;
}

int
vdc_ctl_job_add_target(struct vdc_ctl_job *job, const char *name, const char *vdev,
                       const char *mkfs_type, const char *mkfs_options,
                       const char *mount_options, struct vdc_ctl_error *err)
{
    struct vdc_ctl_target t = { 0 }, *n;

    if (job->n_targets >= VDC_CTL_MAX_TARGETS)
        return vdc_ctl_seterr(err, "job: more than %u targets", VDC_CTL_MAX_TARGETS);
    if (!(t.name = dup_checked(name, "target name", err)) ||
        !(t.vdev = dup_checked(vdev, "target vdev", err)) ||
        !(t.mkfs_type = dup_checked(mkfs_type ? mkfs_type : "ext4", "mkfs type", err)))
        goto fail;
    if (mkfs_options && !(t.mkfs_options = dup_checked(mkfs_options, "mkfs options", err)))
        goto fail;
    if (mount_options && !(t.mount_options = dup_checked(mount_options, "mount options", err)))
        goto fail;
    if (vdc_ctl_check_target(&t, job->n_targets, err) < 0)
        goto fail;
    n = realloc(job->targets, (job->n_targets + 1) * sizeof(*n));
    if (!n) {
        vdc_ctl_seterr(err, "job: out of memory");
        goto fail;
    }
    job->targets = n;
    job->targets[job->n_targets++] = t;
    return 0;
 fail:
    if (!name || !vdev)
        vdc_ctl_seterr(err, "job target: name and vdev are required");
    target_dispose(&t);
    return -1;
}

int
vdc_ctl_job_target_args(struct vdc_ctl_job *job, const char *fs_args, const char *pass_args,
                        const char *raw_args, struct vdc_ctl_error *err)
{
    struct vdc_ctl_target *t;
    char *f = NULL, *p = NULL, *r = NULL;

    if (!job->n_targets)
        return vdc_ctl_seterr(err, "job: target args before any target");
    t = &job->targets[job->n_targets - 1];
    if ((fs_args && !(f = dup_checked(fs_args, "target fs args", err))) ||
        (pass_args && !(p = dup_checked(pass_args, "target pass args", err))) ||
        (raw_args && !(r = dup_checked(raw_args, "target raw args", err)))) {
        free(f);
        free(p);
        return -1;
    }
    free(t->fs_args);
    free(t->pass_args);
    free(t->raw_args);
    t->fs_args = f;
    t->pass_args = p;
    t->raw_args = r;
    return vdc_ctl_check_target(t, job->n_targets - 1, err);
}

int
vdc_ctl_job_add_arg(struct vdc_ctl_job *job, const char *arg, struct vdc_ctl_error *err)
{
    char **n, *d;

    if (!arg)
        return vdc_ctl_seterr(err, "agent argument: NULL");
    if (job->n_agent_args >= VDC_CTL_MAX_ARGS)
        return vdc_ctl_seterr(err, "job: more than %u agent arguments", VDC_CTL_MAX_ARGS);
    if (!(d = dup_checked(arg, "agent argument", err)))
        return -1;
    n = realloc(job->agent_args, (job->n_agent_args + 1) * sizeof(*n));
    if (!n) {
        free(d);
        return vdc_ctl_seterr(err, "job: out of memory");
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
        return vdc_ctl_seterr(err, "job: more than %u workloads", VDC_CTL_MAX_WORKLOADS);
    w.name = (char *)name;
    w.text = (char *)text;
    if (vdc_ctl_check_workload(&w, job->n_workloads, err) < 0)
        return -1;
    for (i = 0; i < job->n_workloads; i++)
        if (!strcmp(job->workloads[i].name, name))
            return vdc_ctl_seterr(err, "job workload %s: given twice: expected each workload name once", name);
    n = realloc(job->workloads, (job->n_workloads + 1) * sizeof(*n));
    if (!n)
        return vdc_ctl_seterr(err, "job: out of memory");
    job->workloads = n;
    w.name = strdup(name);
    w.text = strdup(text);
    if (!w.name || !w.text) {
        free(w.name);
        free(w.text);
        return vdc_ctl_seterr(err, "job: out of memory");
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
        return vdc_ctl_seterr(err, "%s: NULL", what);
    if (*n >= VDC_CTL_MAX_ARGS)
        return vdc_ctl_seterr(err, "job: more than %u %ss", VDC_CTL_MAX_ARGS, what);
    if (!(d = dup_checked(arg, what, err)))
        return -1;
    nv = realloc(*v, (*n + 1) * sizeof(*nv));
    if (!nv) {
        free(d);
        return vdc_ctl_seterr(err, "job: out of memory");
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

/* the flags that need workloads or each other, and the gate's bound
 * (encoder and decoder) */
int
vdc_ctl_check_flags(const struct vdc_ctl_job *job, struct vdc_ctl_error *err)
{
    if ((job->flags & VDC_CTL_JOB_NO_BONNIE) && job->n_workloads == 0)
        return vdc_ctl_seterr(err, "job: flag no-bonnie without workloads: nothing to run");
    if ((job->flags & VDC_CTL_JOB_RAW_WORKLOADS) && job->n_workloads == 0)
        return vdc_ctl_seterr(err, "job: flag raw-workloads without workloads: nothing to run");
    if ((job->flags & VDC_CTL_JOB_NO_FILE_WORKLOADS) && !(job->flags & VDC_CTL_JOB_RAW_WORKLOADS))
        return vdc_ctl_seterr(err, "job: flag no-file-workloads without raw-workloads: no workload pass");
    if (job->gate_timeout_s > VDC_CTL_GATE_MAX_S)
        return vdc_ctl_seterr(err, "job: start gate timeout %u s: expected at most %u s",
                              job->gate_timeout_s, VDC_CTL_GATE_MAX_S);
    return 0;
}

struct vdc_ctl_target_result *
vdc_ctl_result_add_target(struct vdc_ctl_result *res, const char *name, const char *vdev,
                          struct vdc_ctl_error *err)
{
    struct vdc_ctl_target_result *n, *t;

    if (res->n_targets >= VDC_CTL_MAX_TARGETS) {
        vdc_ctl_seterr(err, "result: more than %u targets", VDC_CTL_MAX_TARGETS);
        return NULL;
    }
    n = realloc(res->targets, (res->n_targets + 1) * sizeof(*n));
    if (!n) {
        vdc_ctl_seterr(err, "result: out of memory");
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
