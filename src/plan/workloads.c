/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The workloads of `run --workload` (workloads.h). */
#include "config.h"
#include "plan/workloads.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>

#include "common/util.h"
#include "guest-agent/ctldisk.h"
#include "guest-agent/jobfile.h"

#ifndef VDC_DATADIR
#define VDC_DATADIR "/usr/local/share/vmdiskcmp"
#endif

#define MIB (1ULL << 20)

const char *
vdc_workload_profile_dir(void)
{
    const char *d = g_getenv("VDC_WORKLOAD_DIR");

    return d && *d ? d : VDC_DATADIR "/workloads";
}

/* The file of --workload entry @entry: a path when it holds a '/', else
 * the profile @profile_dir/@entry.fio (g_free). */
static char *
entry_path(const char *entry, const char *profile_dir)
{
    g_autofree char *f = NULL;

    if (strchr(entry, '/'))
        return g_canonicalize_filename(entry, NULL);
    f = g_strdup_printf("%s/%s.fio", profile_dir, entry);
    return g_canonicalize_filename(f, NULL);
}

/* The kind of file @mode is, for a message */
static const char *
file_kind(mode_t mode)
{
    return S_ISDIR(mode) ? "a directory" : S_ISFIFO(mode) ? "a FIFO" : S_ISCHR(mode) ? "a character device"
           : S_ISBLK(mode) ? "a block device" : S_ISSOCK(mode) ? "a socket" : "not a regular file";
}

/* Read job file @path of --workload @entry into @text (NUL-terminated,
 * g_free) and @len: a regular file of at most VDC_CTL_MAX_JOBFILE bytes,
 * opened without blocking (a FIFO) and never read past that size
 * (/dev/zero).  0, or -1: after one message, or silently with errno
 * ENOENT for a missing profile (the caller names the profile directory). */
static int
read_job_file(const char *entry, const char *path, char **text, gsize *len)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st = { 0 };
    ssize_t n;

    *text = NULL;
    if (fd < 0) {
        int e = errno;

        if (e == ENOENT && !strchr(entry, '/'))
            return -1;
        vdc_input_error("--workload %s: %s: expected a readable fio job file", entry,
                        e == ENOENT ? "no such job file" : g_strerror(e));
        errno = e;
        return -1;
    }
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        vdc_input_error("--workload %s: %s: expected a readable fio job file (a regular file)", entry,
                        file_kind(st.st_mode));
        goto fail;
    }
    if (st.st_size > VDC_CTL_MAX_JOBFILE) {
        vdc_input_error("--workload %s: %lld bytes: expected a job file of at most %u bytes "
                        "(what the control disk carries)", path, (long long)st.st_size, VDC_CTL_MAX_JOBFILE);
        goto fail;
    }
    *text = g_malloc(VDC_CTL_MAX_JOBFILE + 2);
    *len = 0;
    while ((n = read(fd, *text + *len, VDC_CTL_MAX_JOBFILE + 1 - *len)) > 0)
        *len += (gsize)n;
    if (n < 0) {
        vdc_input_error("--workload %s: %s: expected a readable fio job file", entry, g_strerror(errno));
        goto fail;
    }
    (*text)[*len] = '\0';
    if (*len > VDC_CTL_MAX_JOBFILE) {
        vdc_input_error("--workload %s: more than %u bytes: expected a job file of at most %u bytes "
                        "(what the control disk carries)", path, VDC_CTL_MAX_JOBFILE, VDC_CTL_MAX_JOBFILE);
        goto fail;
    }
    close(fd);
    return 0;
 fail:
    close(fd);
    g_clear_pointer(text, g_free);
    errno = 0;
    return -1;
}

/* Read, parse and check one entry into @w; @on_file: the jobs run on a
 * file too (size= required).  0 or -1 after one line. */
static int
load_one(const char *entry, const char *profile_dir, int on_file, vdc_plan_workload *w)
{
    g_autofree char *path = entry_path(entry, profile_dir);
    g_autofree char *text = NULL;
    struct agent_job job;
    char err[512];
    gsize len = 0;

    if (!strchr(entry, '/') && (entry[0] == '.' || strspn(entry, "abcdefghijklmnopqrstuvwxyz"
                                                                 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") != strlen(entry))) {
        vdc_input_error("--workload %s: expected a profile name of [A-Za-z0-9._-] (e.g. randread-4k-qd32) "
                        "or a job file path with a '/' (e.g. ./my.fio)", entry);
        return -1;
    }
    if (read_job_file(entry, path, &text, &len) < 0) {
        if (!text && !strchr(entry, '/') && errno == ENOENT)
            vdc_input_error("--workload %s: no profile %s: expected a shipped profile name "
                            "(the .fio files in %s; $VDC_WORKLOAD_DIR names another directory, "
                            "e.g. SRCDIR/templates/workloads from a build tree) or a job file path "
                            "with a '/'", entry, path, profile_dir);
        return -1;
    }
    if (strlen(text) != len) {
        vdc_input_error("--workload %s: holds a NUL byte: expected a text job file", path);
        return -1;
    }
    if (agent_jobfile_parse(text, path, &job, err, sizeof(err)) < 0) {
        vdc_input_error("--workload: %s", err);
        return -1;
    }
    if (!job.size && on_file) {
        vdc_input_error("--workload: %s: [%s]: no size=: expected size= (--workload-on file runs each job "
                        "on a file in every target's filesystem)", path, job.name);
        return -1;
    }
    w->name = g_strdup(job.name);
    w->source = g_steal_pointer(&path);
    w->text = g_steal_pointer(&text);
    w->rw = g_strdup(agent_rw_name(job.rw));
    w->reads = agent_rw_reads(job.rw);
    w->writes = agent_rw_writes(job.rw);
    /* the clones' files (each its own, or one shared filename=) */
    w->bytes = agent_job_file_bytes(&job);
    /* the last clone's end; without size= the job takes the rest of the
     * device: at least one block past its offset (the agent refuses a
     * device that ends there) */
    w->region = agent_job_region_end(&job);
    return 0;
}

/* workloads.h */
int
vdc_plan_load_workloads(vdc_plan *p, const vdc_run_opts *o, const char *profile_dir)
{
    GArray *ws = g_array_new(FALSE, TRUE, sizeof(vdc_plan_workload));
    uint64_t need = 0, need_raw = 0;
    size_t i, k, m;
    int rc = -1;

    for (i = 0; o->workloads && o->workloads[i]; i++) {
        g_auto(GStrv) items = g_strsplit(o->workloads[i], ",", -1);

        for (k = 0; items[k]; k++) {
            vdc_plan_workload w = { 0 };

            if (ws->len == VDC_CTL_MAX_WORKLOADS) {
                vdc_input_error("--workload %s: expected at most %u workloads", items[k],
                                VDC_CTL_MAX_WORKLOADS);
                goto out;
            }
            if (load_one(items[k], profile_dir, p->workload_file, &w) < 0)
                goto out;
            for (m = 0; m < ws->len; m++) {
                const vdc_plan_workload *e = &g_array_index(ws, vdc_plan_workload, m);

                if (!strcmp(e->name, w.name)) {
                    vdc_input_error("--workload %s: job [%s] given twice (also in %s): expected each job "
                                    "once (its name keys its results)", items[k], w.name, e->source);
                    vdc_plan_workload_dispose(&w);
                    goto out;
                }
            }
            if (p->workload_file)
                need = MAX(need, w.bytes);
            if (p->workload_raw)
                need_raw = MAX(need_raw, w.region);
            g_array_append_val(ws, w);
        }
    }
    /* room for the largest job in every filesystem the plan makes, and
     * for the furthest region on the raw device */
    if (need || need_raw) {
        uint64_t disk = need ? need + need / 8 + 64 * MIB : 0;

        disk = MAX(disk, need_raw);
        disk = (disk + MIB - 1) & ~(MIB - 1);
        for (i = 0; i < p->n_targets; i++) {
            vdc_plan_target *t = &p->targets[i];

            if (!t->disk_bytes)
                continue;       /* an existing device: the agent checks its room */
            if (o->lv_size && t->spec.where == VDC_WHERE_DOMU) {
                if (o->lv_size < disk) {
                    vdc_input_error("--lv-size %" G_GUINT64_FORMAT " MiB: expected at least %" G_GUINT64_FORMAT
                                    " MiB for the workloads (the largest lays out %" G_GUINT64_FORMAT
                                    " MiB on a file, reaches %" G_GUINT64_FORMAT " MiB on the raw device)",
                                    (guint64)(o->lv_size / MIB), (guint64)(disk / MIB), (guint64)(need / MIB),
                                    (guint64)(need_raw / MIB));
                    goto out;
                }
                continue;
            }
            t->disk_bytes = p->bonnie ? MAX(t->disk_bytes, disk) : disk;
        }
    }
    p->n_workloads = ws->len;
    p->workloads = (vdc_plan_workload *)(void *)g_array_free(g_steal_pointer(&ws), FALSE);
    rc = 0;
out:
    if (ws) {
        for (m = 0; m < ws->len; m++)
            vdc_plan_workload_dispose(&g_array_index(ws, vdc_plan_workload, m));
        g_array_free(ws, TRUE);
    }
    return rc;
}
