/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test helper for the guest integration tests: make a control disk holding
 * a job, and read a control disk's result back, through the same host code
 * the controller uses (src/guest/control.c).
 *
 *   guest-ctltool make PATH --nonce N [--seed N] [--repetition N]
 *                 [--step-timeout S] [--agent-timeout S] [--drop-caches]
 *                 --target NAME:VDEV[:MKFS] ... [-- AGENT_ARGS...]
 *   guest-ctltool read PATH --nonce N --out-dir DIR
 *       prints status=..., one "target NAME status=... exit=... json_bytes=...
 *       json=valid|invalid|none runs=N samples=N seed=S" line per target (the
 *       agent JSON parsed with json-glib: format "vmdiskcmp-result", runs[]
 *       whose target is NAME); writes DIR/NAME.json, DIR/NAME.stderr,
 *       DIR/runner.log; then "progress events=N newest_seq=N beats=N" (the
 *       progress block: the runner's events and heartbeats; all 0 when blank).
 *   guest-ctltool make ... [--gate S] [--flags N] [--workload NAME:FILE]
 *       the same with a start gate of S seconds, job flags N (VDC_CTL_JOB_*)
 *       and a workload (a fio job file) for the workload passes.
 *   guest-ctltool gate --timeout S PATH:NONCE...
 *       the controller's start gate (src/guest/startgate.c) over these
 *       control disks: waits until each runner is ready, releases all,
 *       then waits (at most S s) until each reports the start of its
 *       first agent pass; prints "guest I ready_s=.. released_s=..
 *       started_s=.." per disk (the controller's monotonic seconds) and
 *       "skew_s=..".
 *   guest-ctltool logs IMAGE DIR
 *       vdc_collect_logs: the guest's logs copied out read-only.
 * Exit: 0 ok, 1 failure (message on stderr), 2 bad arguments. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>
#include <json-glib/json-glib.h>

#include "common/util.h"
#include "guest/control.h"
#include "guest/prepare.h"
#include "guest/startgate.h"

static int
usage(void)
{
    fprintf(stderr, "usage: guest-ctltool make PATH --nonce N --target NAME:VDEV[:MKFS]... [-- ARGS]\n"
                    "       guest-ctltool read PATH --nonce N --out-dir DIR\n"
                    "       guest-ctltool gate --timeout S PATH:NONCE...\n"
                    "       guest-ctltool logs IMAGE DIR\n");
    return 2;
}

static int
num(const char *s, uint64_t *out)
{
    char *end = NULL;

    *out = g_ascii_strtoull(s, &end, 0);
    return (!*s || *end) ? -1 : 0;
}

static int
cmd_make(int argc, char **argv)
{
    struct vdc_ctl_job job;
    struct vdc_ctl_error err = { { 0 } };
    uint64_t v;
    int i, rc = 1;

    vdc_ctl_job_init(&job);
    job.step_timeout_s = 120;
    job.agent_timeout_s = 600;
    for (i = 3; i < argc; i++) {
        if (!strcmp(argv[i], "--") ) {
            for (i++; i < argc; i++)
                if (vdc_ctl_job_add_arg(&job, argv[i], &err) < 0)
                    goto bad;
            break;
        } else if (i + 1 < argc && !strcmp(argv[i], "--workload")) {
            char **f = g_strsplit(argv[++i], ":", 2);
            g_autofree char *text = NULL;
            int r = -1;

            if (f[0] && f[1] && g_file_get_contents(f[1], &text, NULL, NULL))
                r = vdc_ctl_job_add_workload(&job, f[0], text, &err);
            g_strfreev(f);
            if (r < 0)
                goto bad;
        } else if (!strcmp(argv[i], "--drop-caches")) {
            job.flags |= VDC_CTL_JOB_DROP_CACHES;
        } else if (i + 1 < argc && !strcmp(argv[i], "--target")) {
            char **f = g_strsplit(argv[++i], ":", 3);
            int r = (f[0] && f[1]) ? vdc_ctl_job_add_target(&job, f[0], f[1], f[2], NULL, NULL, &err) : -1;

            g_strfreev(f);
            if (r < 0)
                goto bad;
        } else if (i + 1 < argc && num(argv[i + 1], &v) == 0) {
            if (!strcmp(argv[i], "--nonce")) job.nonce = v;
            else if (!strcmp(argv[i], "--seed")) job.seed = v;
            else if (!strcmp(argv[i], "--repetition")) job.repetition = (uint32_t)v;
            else if (!strcmp(argv[i], "--step-timeout")) job.step_timeout_s = (uint32_t)v;
            else if (!strcmp(argv[i], "--agent-timeout")) job.agent_timeout_s = (uint32_t)v;
            else if (!strcmp(argv[i], "--gate")) job.gate_timeout_s = (uint32_t)v;
            else if (!strcmp(argv[i], "--flags")) job.flags |= (uint32_t)v;
            else goto bad;
            i++;
        } else {
            goto bad;
        }
    }
    rc = vdc_control_disk_create(argv[2], 0, &job) < 0 ? 1 : 0;
    vdc_ctl_job_dispose(&job);
    return rc;
 bad:
    fprintf(stderr, "guest-ctltool make: bad argument near '%s' %s\n", argv[i < argc ? i : argc - 1],
            err.msg);
    vdc_ctl_job_dispose(&job);
    return 2;
}

static int
write_blob(const char *dir, const char *name, const char *ext, const char *p, size_t len)
{
    char *path = g_strdup_printf("%s/%s%s", dir, name, ext);
    int r = vdc_write_file_atomic(path, p, len);

    g_free(path);
    return r;
}

/* parse the agent JSON: format, runs[] of this target, their samples */
static void
check_json(const struct vdc_ctl_target_result *t, unsigned *runs, unsigned *samples,
           char **seed, const char **verdict)
{
    JsonParser *p;
    JsonNode *root;
    JsonObject *o, *run, *md;
    JsonArray *a;
    guint i;

    *runs = *samples = 0;
    *verdict = "none";
    if (!t->agent_json)
        return;
    *verdict = "invalid";
    p = json_parser_new();
    if (!json_parser_load_from_data(p, t->agent_json, (gssize)t->agent_json_len, NULL))
        goto out;
    root = json_parser_get_root(p);
    if (!root || !JSON_NODE_HOLDS_OBJECT(root))
        goto out;
    o = json_node_get_object(root);
    if (g_strcmp0(json_object_get_string_member_with_default(o, "format", ""), "vmdiskcmp-result") ||
        !json_object_has_member(o, "runs") ||
        !JSON_NODE_HOLDS_ARRAY(json_object_get_member(o, "runs")))
        goto out;
    a = json_object_get_array_member(o, "runs");
    for (i = 0; i < json_array_get_length(a); i++) {
        JsonNode *n = json_array_get_element(a, i);

        if (!JSON_NODE_HOLDS_OBJECT(n))
            goto out;
        run = json_node_get_object(n);
        if (g_strcmp0(json_object_get_string_member_with_default(run, "target", ""), t->name))
            goto out;
        if (json_object_has_member(run, "samples") &&
            JSON_NODE_HOLDS_ARRAY(json_object_get_member(run, "samples")))
            *samples += json_array_get_length(json_object_get_array_member(run, "samples"));
        if (!*seed && json_object_has_member(run, "metadata") &&
            JSON_NODE_HOLDS_OBJECT(json_object_get_member(run, "metadata"))) {
            md = json_object_get_object_member(run, "metadata");
            *seed = g_strdup(json_object_get_string_member_with_default(md, "seed", ""));
        }
        (*runs)++;
    }
    *verdict = "valid";
 out:
    g_object_unref(p);
}

static int
cmd_read(int argc, char **argv)
{
    struct vdc_ctl_result res;
    struct vdc_ctl_progress pg;
    struct vdc_ctl_error err = { { 0 } };
    uint64_t nonce = 0;
    const char *dir = NULL, *verdict;
    unsigned runs, samples;
    char *seed = NULL;
    size_t k;
    int i, fd, r;

    for (i = 3; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--nonce") && num(argv[i + 1], &nonce) == 0)
            continue;
        if (!strcmp(argv[i], "--out-dir")) {
            dir = argv[i + 1];
            continue;
        }
        return usage();
    }
    if (i != argc || !dir)
        return usage();
    g_mkdir_with_parents(dir, 0755);
    vdc_ctl_result_init(&res);
    if (vdc_control_disk_read_result(argv[2], nonce, &res) < 0)
        return 1;
    printf("status=%s\nkernel=%s\nrunner_version=%s\n", vdc_ctl_status_name(res.status),
           res.kernel ? res.kernel : "", res.runner_version ? res.runner_version : "");
    if (res.log)
        write_blob(dir, "runner", ".log", res.log, res.log_len);
    for (k = 0; k < res.n_targets; k++) {
        struct vdc_ctl_target_result *t = &res.targets[k];

        check_json(t, &runs, &samples, &seed, &verdict);
        printf("target %s status=%s exit=%d json_bytes=%zu elapsed_ms=%u json=%s runs=%u samples=%u seed=%s error=%s\n",
               t->name, vdc_ctl_status_name(t->status), t->agent_exit, t->agent_json_len,
               t->elapsed_ms, verdict, runs, samples, seed ? seed : "", t->error ? t->error : "");
        g_free(seed);
        seed = NULL;
        if (t->agent_json)
            write_blob(dir, t->name, ".json", t->agent_json, t->agent_json_len);
        if (t->stderr_tail)
            write_blob(dir, t->name, ".stderr", t->stderr_tail, t->stderr_tail_len);
    }
    vdc_ctl_result_dispose(&res);
    fd = open(argv[2], O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        fprintf(stderr, "%s: %s\n", argv[2], g_strerror(errno));
        return 1;
    }
    vdc_ctl_progress_init(&pg, nonce);
    r = vdc_ctl_disk_read_progress(fd, nonce, &pg, &err);
    close(fd);
    if (r < 0) {
        fprintf(stderr, "%s: %s\n", argv[2], err.msg);
        return 1;
    }
    printf("progress events=%u newest_seq=%llu beats=%llu\n", pg.n_events,
           (unsigned long long)pg.newest_seq, (unsigned long long)pg.beats);
    return 0;
}

/* guest-ctltool gate --timeout S PATH:NONCE... */
static int
cmd_gate(int argc, char **argv)
{
    g_autofree vdc_gate_guest *g = NULL;
    g_auto(GStrv) names = NULL;
    uint64_t timeout = 0;
    size_t n = 0, i;
    int k, rc = 1;
    gint64 deadline;

    if (argc < 5 || strcmp(argv[2], "--timeout") || num(argv[3], &timeout) < 0)
        return usage();
    g = g_new0(vdc_gate_guest, (size_t)argc);
    names = g_new0(char *, (size_t)argc);
    for (k = 4; k < argc; k++, n++) {
        char *colon = strrchr(argv[k], ':');

        if (!colon || num(colon + 1, &g[n].nonce) < 0)
            return usage();
        *colon = 0;
        g[n].ctl_path = argv[k];
        names[n] = g_strdup_printf("guest %zu", n);
        g[n].name = names[n];
    }
    if (vdc_start_gate(g, n, (unsigned)timeout, NULL, NULL, NULL, NULL) < 0)
        return 1;
    deadline = g_get_monotonic_time() + (gint64)timeout * G_USEC_PER_SEC;
    for (i = 0; i < n; i++) {
        /* each runner's start: poll its progress block (quietly) until it
         * reports one, at most the timeout */
        for (;;) {
            int fd, r;
            struct vdc_ctl_progress p;
            struct vdc_ctl_error err = { { 0 } };

            fd = open(g[i].ctl_path, O_RDONLY);
            r = fd < 0 ? -1 : vdc_ctl_disk_read_progress(fd, g[i].nonce, &p, &err);
            if (fd >= 0)
                close(fd);
            if ((r == 0 && p.started_ns) || g_get_monotonic_time() > deadline)
                break;
            g_usleep(20000);
        }
        if (vdc_start_gate_started(&g[i]) < 0)
            goto out;
        printf("guest %zu ready_s=%.6f released_s=%.6f started_s=%.6f\n", i, g[i].ready_s,
               g[i].released_s, g[i].started_s);
    }
    printf("skew_s=%.6f\n", vdc_start_gate_skew(g, n));
    rc = 0;
 out:
    return rc;
}

int
main(int argc, char **argv)
{
    if (argc < 3)
        return usage();
    if (!strcmp(argv[1], "make"))
        return cmd_make(argc, argv);
    if (!strcmp(argv[1], "read"))
        return cmd_read(argc, argv);
    if (!strcmp(argv[1], "gate"))
        return cmd_gate(argc, argv);
    if (!strcmp(argv[1], "logs") && argc == 4)
        return vdc_collect_logs(argv[2], argv[3], 600) < 0 ? 1 : 0;
    return usage();
}
