/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Samplers of dom0's /proc accounting: parsers and thin readers (procfs.h). */
#include "config.h"
#include "host/procfs.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "common/util.h"
#include "host/text.h"

/* ---- /proc/meminfo --------------------------------------------------------- */

int
vdc_meminfo_parse(const char *text, const char *source, vdc_meminfo *out)
{
    static const char *const names[] = { "MemTotal", "Cached", "Dirty", "Writeback", "MemAvailable" };
    uint64_t *dst[] = { &out->mem_total, &out->cached, &out->dirty, &out->writeback,
                        &out->mem_available };
    int seen[G_N_ELEMENTS(names)] = { 0 };
    g_auto(GStrv) lines = g_strsplit(text ? text : "", "\n", -1);
    size_t i, k;

    memset(out, 0, sizeof(*out));
    for (i = 0; lines[i]; i++) {
        char *colon = strchr(lines[i], ':');
        const char *p;
        uint64_t kib;

        if (!colon)
            continue;
        for (k = 0; k < G_N_ELEMENTS(names); k++)
            if ((size_t)(colon - lines[i]) == strlen(names[k]) &&
                !strncmp(lines[i], names[k], strlen(names[k])))
                break;
        if (k == G_N_ELEMENTS(names))
            continue;
        if (seen[k]) {
            vdc_error("%s: line %zu: %s given twice: expected each field once", source, i + 1, names[k]);
            return -1;
        }
        p = vdc_skip_blanks(colon + 1);
        if (vdc_parse_u64_word(&p, &kib) < 0 || strcmp(vdc_skip_blanks(p), "kB") ||
            kib > UINT64_MAX / 1024) {
            vdc_error("%s: line %zu: %s: expected a number of kB, got '%s'", source, i + 1,
                      names[k], vdc_skip_blanks(colon + 1));
            return -1;
        }
        *dst[k] = kib * 1024;
        seen[k] = 1;
    }
    for (k = 0; k < G_N_ELEMENTS(names) - 1; k++)   /* MemAvailable optional */
        if (!seen[k]) {
            vdc_error("%s: no %s line", source, names[k]);
            return -1;
        }
    return 0;
}

int
vdc_meminfo_read(vdc_meminfo *out)
{
    g_autofree char *text = vdc_read_proc_file("/proc/meminfo", NULL);

    return text ? vdc_meminfo_parse(text, "/proc/meminfo", out) : -1;
}

/* ---- /proc/stat -------------------------------------------------------------- */

uint64_t
vdc_cpu_times_busy(const vdc_cpu_times *t)
{
    return t->t[VDC_CPU_USER] + t->t[VDC_CPU_NICE] + t->t[VDC_CPU_SYSTEM] +
           t->t[VDC_CPU_IRQ] + t->t[VDC_CPU_SOFTIRQ];
}

uint64_t
vdc_cpu_times_all(const vdc_cpu_times *t)
{
    uint64_t s = 0;
    size_t i;

    for (i = 0; i < VDC_CPU_NFIELDS; i++)
        s += t->t[i];
    return s;
}

void
vdc_proc_stat_dispose(vdc_proc_stat *st)
{
    if (!st)
        return;
    g_clear_pointer(&st->cpus, g_free);
    st->n_cpus = 0;
}

/* "cpu" / "cpuN" then at least eight numbers (more are ignored). */
static int
cpu_line(const char *line, const char *source, size_t lineno, vdc_cpu_times *t)
{
    const char *p = line + 3;
    size_t i;

    t->cpu = -1;
    if (*p != ' ') {
        uint64_t n;

        if (vdc_parse_u64_word(&p, &n) < 0 || *p != ' ' || n > INT_MAX) {
            vdc_error("%s: line %zu: expected 'cpu' or 'cpuN' then the columns, got '%.40s'",
                      source, lineno, line);
            return -1;
        }
        t->cpu = (int)n;
    }
    for (i = 0; i < VDC_CPU_NFIELDS; i++) {
        p = vdc_skip_blanks(p);
        if (vdc_parse_u64_word(&p, &t->t[i]) < 0) {
            vdc_error("%s: line %zu: column %zu: expected a number of clock ticks (8 columns "
                      "user..steal), got '%.40s'", source, lineno, i + 1, line);
            return -1;
        }
    }
    return 0;
}

int
vdc_proc_stat_parse(const char *text, const char *source, vdc_proc_stat *out)
{
    g_auto(GStrv) lines = g_strsplit(text ? text : "", "\n", -1);
    g_autoptr(GArray) cpus = g_array_new(FALSE, TRUE, sizeof(vdc_cpu_times));
    int have_total = 0;
    size_t i;

    memset(out, 0, sizeof(*out));
    for (i = 0; lines[i]; i++) {
        vdc_cpu_times t;

        if (strncmp(lines[i], "cpu", 3))
            continue;
        if (cpu_line(lines[i], source, i + 1, &t) < 0)
            return -1;
        if (t.cpu < 0) {
            if (have_total || cpus->len) {
                vdc_error("%s: line %zu: expected one 'cpu' total line before the cpuN lines",
                          source, i + 1);
                return -1;
            }
            out->total = t;
            have_total = 1;
        } else {
            if (!have_total) {
                vdc_error("%s: line %zu: cpu%d before the 'cpu' total line", source, i + 1, t.cpu);
                return -1;
            }
            g_array_append_val(cpus, t);
        }
    }
    if (!have_total) {
        vdc_error("%s: no 'cpu' line", source);
        return -1;
    }
    out->n_cpus = cpus->len;
    out->cpus = (vdc_cpu_times *)(void *)g_array_free(g_steal_pointer(&cpus), FALSE);
    return 0;
}

int
vdc_proc_stat_read(vdc_proc_stat *out)
{
    g_autofree char *text = vdc_read_proc_file("/proc/stat", NULL);

    memset(out, 0, sizeof(*out));
    return text ? vdc_proc_stat_parse(text, "/proc/stat", out) : -1;
}

/* ---- /proc/PID/stat ------------------------------------------------------------ */

int
vdc_task_stat_parse(const char *text, const char *source, vdc_task_stat *out)
{
    const char *open, *close, *p;
    uint64_t v, pid;
    int field;

    memset(out, 0, sizeof(*out));
    p = text ? text : "";
    open = strchr(p, '(');
    close = strrchr(p, ')');
    if (!open || !close || close < open || vdc_parse_u64_word(&p, &pid) < 0 || p + 1 != open ||
        *p != ' ' || pid == 0 || pid > INT_MAX) {
        vdc_error("%s: expected 'PID (COMM) STATE ...', got '%.*s'", source,
                  vdc_line_len(text, 60), text ? text : "");
        return -1;
    }
    out->pid = (int)pid;
    g_strlcpy(out->comm, open + 1, MIN(sizeof(out->comm), (size_t)(close - open)));
    p = close + 1;
    if (p[0] != ' ' || !p[1] || p[2] != ' ') {
        vdc_error("%s: expected a one-letter state after the comm, got '%.*s'", source,
                  vdc_line_len(p, 20), p);
        return -1;
    }
    out->state = p[1];
    p += 3;
    /* fields 4..22; the state was field 3 */
    for (field = 4; field <= 22; field++) {
        const char *start = p;
        int negative = (*p == '-');

        if (negative)
            p++;
        if (vdc_parse_u64_word(&p, &v) < 0 || (*p != ' ' && *p != '\n' && *p)) {
            vdc_error("%s: field %d: expected a number, got '%.*s'", source, field,
                      vdc_line_len(start, 20), start);
            return -1;
        }
        switch (field) {
        case 4:
            if (negative || v > INT_MAX)
                goto range;
            out->ppid = (int)v;
            break;
        case 5:
            if (negative || v > INT_MAX)
                goto range;
            out->pgrp = (int)v;
            break;
        case 9:
            if (negative || v > UINT32_MAX)
                goto range;
            out->flags = (uint32_t)v;
            break;
        case 14:
        case 15:
        case 22:
            if (negative)
                goto range;
            *(field == 14 ? &out->utime : field == 15 ? &out->stime : &out->starttime) = v;
            break;
        default:
            break;
        }
        if (field < 22) {
            if (*p != ' ') {
                vdc_error("%s: expected at least 22 fields, the line ends at field %d", source, field);
                return -1;
            }
            p++;
        }
        continue;
    range:
        vdc_error("%s: field %d: value out of range", source, field);
        return -1;
    }
    return 0;
}

int
vdc_task_stat_read(int pid, int tid, vdc_task_stat *out)
{
    g_autofree char *path = tid ? g_strdup_printf("/proc/%d/task/%d/stat", pid, tid)
                                : g_strdup_printf("/proc/%d/stat", pid);
    int gone = 0;
    g_autofree char *text = vdc_read_proc_file(path, &gone);

    if (!text)
        return gone ? 1 : -1;
    return vdc_task_stat_parse(text, path, out);
}

/* ---- /proc/PID/fdinfo ---------------------------------------------------------- */

int
vdc_fdinfo_flags_parse(const char *text, const char *source, unsigned *flags)
{
    g_auto(GStrv) lines = g_strsplit(text ? text : "", "\n", -1);
    size_t i;

    for (i = 0; lines[i]; i++) {
        const char *p;
        char *end;
        guint64 v;

        if (!g_str_has_prefix(lines[i], "flags:"))
            continue;
        p = vdc_skip_blanks(lines[i] + 6);
        errno = 0;
        v = g_ascii_strtoull(p, &end, 8);
        if (end == p || *vdc_skip_blanks(end) || errno || v > UINT_MAX) {
            vdc_error("%s: line %zu: flags: expected an octal number, got '%s'", source, i + 1, p);
            return -1;
        }
        *flags = (unsigned)v;
        return 0;
    }
    vdc_error("%s: no 'flags:' line", source);
    return -1;
}

int
vdc_proc_file_flags(int pid, const char *path, unsigned **flags, size_t *n)
{
    g_autofree char *fddir = g_strdup_printf("/proc/%d/fd", pid);
    g_autoptr(GArray) got = g_array_new(FALSE, FALSE, sizeof(unsigned));
    char want[PATH_MAX];
    DIR *d;
    struct dirent *e;
    int rc = 0;

    *flags = NULL;
    *n = 0;
    if (!realpath(path, want))
        g_strlcpy(want, path, sizeof(want));
    d = opendir(fddir);
    if (!d) {
        vdc_error("process %d: %s: %s", pid, fddir, g_strerror(errno));
        return -1;
    }
    while ((e = readdir(d))) {
        g_autofree char *link = NULL, *target = NULL, *info = NULL, *text = NULL;
        unsigned f;

        if (e->d_name[0] == '.')
            continue;
        link = g_strdup_printf("%s/%s", fddir, e->d_name);
        target = g_file_read_link(link, NULL);
        if (!target || strcmp(target, want))
            continue;   /* closed meanwhile, or another file */
        info = g_strdup_printf("/proc/%d/fdinfo/%s", pid, e->d_name);
        text = vdc_read_proc_file(info, NULL);
        if (!text || vdc_fdinfo_flags_parse(text, info, &f) < 0) {
            rc = -1;
            break;
        }
        g_array_append_val(got, f);
    }
    closedir(d);
    if (rc < 0)
        return -1;
    *n = got->len;
    *flags = (unsigned *)(void *)g_array_free(g_steal_pointer(&got), FALSE);
    return 0;
}

/* ---- this boot of the kernel ------------------------------------------------- */

char *
vdc_boot_id(void)
{
    char *id = NULL;

    if (!g_file_get_contents("/proc/sys/kernel/random/boot_id", &id, NULL, NULL))
        return NULL;
    return g_strstrip(id);
}

int64_t
vdc_boot_time(void)
{
    g_autofree char *stat = NULL;
    const char *p;

    if (!g_file_get_contents("/proc/stat", &stat, NULL, NULL) ||
        !(p = strstr(stat, "\nbtime ")))
        return -1;
    return g_ascii_strtoll(p + 7, NULL, 10);
}
