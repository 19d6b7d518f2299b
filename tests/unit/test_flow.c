/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run flow (src/run/run.c) with the mock hypervisor and a mock
 * environment: a failure injected at each step (provision fails, create
 * fails, guest times out, results malformed, interrupted), and teardown
 * verified each time: every journaled object removed, newest first, no
 * domain left running, scratch images gone.  The control disk is the real
 * codec (guest/control.h); the mock domU plays the in-guest runner on it. */
#include "config.h"

#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "common/util.h"
#include "guest/control.h"
#include "host/blkback.h"
#include "host/procfs.h"
#include "hv/hv.h"
#include "model/knobs.h"
#include "model/result.h"
#include "plan/build.h"
#include "plan/options.h"
#include "plan/workloads.h"
#include "run/journal.h"
#include "run/dom0.h"
#include "run/preflight.h"
#include "run/run.h"
#include "plan/step.h"
#include "run/undo.h"
#include "test_stderr.h"

static const char agent_json_fmt[] =
    "{\"format\":\"vmdiskcmp-result\",\"format_version\":1,"
    "\"producer\":{\"name\":\"vmdiskcmp-agent\",\"version\":\"0.1.0\"},"
    "\"runs\":[{\"target\":\"%s\",\"repetition\":%u,\"status\":\"ok\",\"error\":null,"
    "\"metadata\":{\"seed\":\"%s\"},"
    "\"samples\":[{\"test\":\"put_block\",\"value\":%.3f,\"unit\":\"K/sec\","
    "\"cpu_percent\":10.0,\"latency_us\":null,\"elapsed_s\":1.0,\"too_fast\":false,"
    "\"failed\":false,\"error\":null}]}]}";

/* The workload pass's result: one workload_read and one workload_write
 * sample (the test's jobs are rw=randrw) per job, of the jobs named, each
 * saying it ran on @on ("file", "raw"). */
static char *
workload_json(const char *target, unsigned rep, const char *status, const char *const *jobs,
              size_t n, const char *on)
{
    GString *j = g_string_new(NULL);
    size_t i;

    g_string_printf(j, "{\"format\":\"vmdiskcmp-result\",\"format_version\":2,"
                    "\"producer\":{\"name\":\"vmdiskcmp-agent\",\"version\":\"0.1.0\"},"
                    "\"runs\":[{\"target\":\"%s\",\"repetition\":%u,\"status\":\"%s\","
                    "\"error\":%s,\"metadata\":{},\"samples\":[", target, rep, status,
                    strcmp(status, "ok") ? "\"interrupted\"" : "null");
    for (i = 0; i < n; i++)
        g_string_append_printf(j, "%s{\"test\":\"workload_read\",\"value\":%u,\"unit\":\"IO/sec\","
                               "\"workload\":{\"name\":\"%s\",\"on\":\"%s\",\"clat_us\":{\"p99\":250.0}}},"
                               "{\"test\":\"workload_write\",\"value\":%u,\"unit\":\"IO/sec\","
                               "\"workload\":{\"name\":\"%s\",\"on\":\"%s\"}}", i ? "," : "",
                               (unsigned)(5000 + i), jobs[i], on, (unsigned)(2000 + i), jobs[i], on);
    g_string_append(j, "]}]}");
    return g_string_free(j, FALSE);
}

/* What to break, and what happened. */
static struct {
    char *dir;
    int keep;                       /* --keep */
    const char *extra;              /* more options for the standard plan */
    int report;                     /* render the report (else --no-report) */
    int prepared;                   /* --prepared-image instead of --guest-image */
    int n_loaded;
    int n_inspected;
    const char *fail_provision;     /* target name whose storage create fails */
    int malformed_json;             /* runner returns garbage agent JSON */
    int fs_full;                    /* the image directory's filesystem has 0 bytes free */
    int guest_host;                 /* the agent JSON claims host figures of its own */
    int corrupt_frame;              /* runner's result frame is damaged */
    int corrupt_slot;               /* the first target's result slot is damaged */
    int interrupt_on_create;        /* SIGINT arrives while the domU runs */
    double jitter;                  /* put_block = 1000 (1 + jitter u), u in [-1, 1)
                                     * from the target and the seed; 0: 1000 */
    const char *wl_lie;             /* the workload pass answers for this job too */
    int wl_partial;                 /* the workload pass stopped after its first job */
    int wl_raw_lie;                 /* the raw workload pass says its jobs ran on a file */
    int wl_flags;                   /* the control disk job's flags, as read */
    int hostile;                    /* rep 0: image answers with 50 runs; rep 1: block
                                     * with a 5000-byte hostname; a stray frame entry
                                     * (which has no slot to go to) */
    int cache_facts;                /* the env reads QEMU's open flags (m_file_flags) */
    int qemu_direct;                /* ... and the image with none has O_DIRECT */
    int n_storage_created, n_images_created, n_storage_destroyed, n_prepare;
    uint64_t nonce;
    /* the runner's heartbeat (play_heartbeat): the domU runs (the mock's
     * wait says "still running") and beats at each of its first
     * beat_waits waits; with shutoff_at it powers off at that wait */
    int heartbeat;
    int beat_waits, shutoff_at;
    int n_wait;                     /* waits of the current boot */
    int max_waits;                  /* the most waits a boot had */
    char *ctl;                      /* the current boot's control disk */
    uint64_t ctl_nonce;             /* ... and its job's nonce */
    /* density levels: a job with a start gate gets ready, go and start
     * times in its progress block (guest k: go at 1 s, started k ms later),
     * except the domain whose name ends with silent_guest (never ready, no
     * answer), and fail_guest's create fails */
    const char *silent_guest, *fail_guest;
    int n_gated;                    /* gated jobs seen */
    /* Xen VBD backends (m_backends): the frontend is read Connected from
     * the fe_connect_at-th read of the backends on (0: never) */
    int fe_connect_at;
    int n_backends;                 /* reads of the backends */
    int n_copy_flags;               /* QEMU's open flags asked for a guest's copy */
    const char *blkback_path;       /* a blkback parameter read at each create ... */
    int64_t blkback_at_create;      /* ... as it was then */
} F;

static volatile sig_atomic_t stop_flag;

/* The mock agent's put_block value for @target at @seed. */
static double
mock_value(const char *target, uint64_t seed)
{
    uint64_t h = seed * 0x9e3779b97f4a7c15ull ^ g_str_hash(target);

    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 29;
    return 1000.0 * (1.0 + F.jitter * ((double)(h >> 11) / 9007199254740992.0 * 2.0 - 1.0));
}

static int
m_storage_create(const struct vdc_storage_spec *spec, struct vdc_storage *out)
{
    if (F.fail_provision && !strcmp(F.fail_provision, spec->name)) {
        vdc_error("storage %s: injected failure", spec->name);
        return -1;
    }
    out->target = spec->target;
    out->name = g_strdup(spec->name);
    out->path = g_strdup(spec->path);
    out->size_bytes = spec->size_bytes;
    if (spec->target.backing == VDC_BACKING_IMAGE) {
        assert_true(g_file_set_contents(spec->path, "", 0, NULL));
        out->created = 1;
        F.n_images_created++;
    } else {
        out->device = g_strdup(spec->path);
    }
    F.n_storage_created++;
    return 0;
}

static int
m_storage_destroy(vdc_backing backing, const char *path, const char *vg, const char *lv,
                  const char *run_tag)
{
    assert_int_equal(backing, VDC_BACKING_IMAGE);
    F.n_storage_destroyed++;
    if (g_unlink(path) < 0 && errno != ENOENT)
        return -1;
    return 0;
}

static JsonObject *
m_describe(const struct vdc_storage *st)
{
    JsonObject *o = json_object_new();
    json_object_set_string_member(o, "path", st->path ? st->path : "");
    json_object_set_int_member(o, "size_bytes", (gint64)st->size_bytes);
    return o;
}

static int
m_prepare(const struct vdc_prepare_opts *o, struct vdc_prepared *out)
{
    F.n_prepare++;
    out->image = g_strdup_printf("%s/prepared.img", F.dir);
    out->kernel = g_strdup("/boot/vmlinuz-test");
    out->initrd = g_strdup("/boot/initrd-test");
    out->cmdline_kvm = g_strdup("root=/dev/vda ro");
    out->cmdline_xen = g_strdup("root=/dev/xvda ro");
    out->template_sha256 = g_strdup("00");
    out->agent_sha256 = g_strdup("11");
    return 0;
}

static int
m_prepared_load(const char *image, struct vdc_prepared *out)
{
    F.n_loaded++;
    assert_string_equal(image, "/p.img");
    return m_prepare(NULL, out) == 0 ? (F.n_prepare--, 0) : -1;
}

static int
m_collect_logs(const char *image, const char *out_dir, int launch_timeout_s)
{
    assert_non_null(strstr(out_dir, "/logs/inspect-"));
    F.n_inspected++;
    return 0;
}

static uint64_t
m_nonce(void)
{
    return ++F.nonce;
}

static int
m_dom0_step(const vdc_dom0_job *job)
{
    unsigned rep = job->rep;
    uint64_t seed = job->seed;
    const char *mnt = job->mnt, *json_out = job->json_out, *workloads_json = job->workloads_json,
               *raw_json = job->raw_json;
    g_autofree char *s = g_strdup_printf("%" G_GUINT64_FORMAT, (guint64)seed);
    g_autofree char *json = g_strdup_printf(agent_json_fmt, "dom0", rep, s, mock_value("dom0", seed));
    const vdc_plan *p = job->plan;
    unsigned seq = vdc_journal_add(job->journal,
                                   &(vdc_journal_entry){ .kind = VDC_JOURNAL_DIR, .path = mnt });

    assert_string_equal(job->target->name, "dom0");
    assert_true(seq > 0);
    assert_int_equal(vdc_journal_mkdir(job->journal, seq, mnt, 0755), 0);
    if (workloads_json) {
        g_autofree const char **jobs = g_new0(const char *, p->n_workloads + 1);
        g_autofree char *wj = NULL;
        size_t i;

        /* dom0's agent gets the job files the run wrote beside the results */
        for (i = 0; i < p->n_workloads; i++) {
            g_autofree char *f = vdc_run_workload_file(p, i);

            assert_true(g_file_test(f, G_FILE_TEST_IS_REGULAR));
            jobs[i] = p->workloads[i].name;
        }
        wj = workload_json("dom0", rep, "ok", jobs, p->n_workloads, "file");
        assert_true(g_file_set_contents(workloads_json, wj, -1, NULL));
    }
    if (raw_json) {
        g_autofree const char **jobs = g_new0(const char *, p->n_workloads + 1);
        g_autofree char *rj = NULL;
        size_t i;

        for (i = 0; i < p->n_workloads; i++)
            jobs[i] = p->workloads[i].name;
        rj = workload_json("dom0", rep, "ok", jobs, p->n_workloads, "raw");
        assert_true(g_file_set_contents(raw_json, rj, -1, NULL));
    }
    return !json_out || g_file_set_contents(json_out, json, -1, NULL) ? 0 : -1;
}

static int
m_fs_free(const char *dir, uint64_t *bytes)
{
    *bytes = F.fs_full ? 0 : 1ull << 40;
    return 0;
}

static char *
m_loop_attach(const char *file)
{
    return g_strdup("/dev/loop-mock");
}

static int
m_loop_detach(const char *file, const char *ino)
{
    return 0;
}

/* F.hostile: what a guest that lies writes for (target @t, repetition @rep) */
static void
hostile_answer(struct vdc_ctl_target_result *t, unsigned rep)
{
    GString *j;
    unsigned i;

    if (rep == 0 && !strcmp(t->name, "image")) {
        /* 50 well-formed runs for one target: each alone would load */
        j = g_string_new("{\"format\":\"vmdiskcmp-result\",\"format_version\":1,"
                         "\"producer\":{\"name\":\"x\",\"version\":\"1\"},\"runs\":[");
        for (i = 0; i < 50; i++)
            g_string_append_printf(j, "%s{\"target\":\"image\",\"repetition\":%u,\"error\":"
                                   "\"\\u001b[2J\\nvmdiskcmp: [progress] done\",\"metadata\":{},"
                                   "\"samples\":[]}", i ? "," : "", i);
        g_string_append(j, "]}");
    } else if (rep == 1 && !strcmp(t->name, "block")) {
        g_autofree char *big = g_strnfill(5000, 'A');
        j = g_string_new(NULL);
        g_string_printf(j, "{\"format\":\"vmdiskcmp-result\",\"format_version\":1,"
                        "\"producer\":{\"name\":\"x\",\"version\":\"1\"},\"runs\":["
                        "{\"target\":\"block\",\"repetition\":1,\"metadata\":{\"hostname\":\"%s\"},"
                        "\"samples\":[]}]}", big);
    } else {
        return;
    }
    free(t->agent_json);
    t->agent_json_len = j->len;
    t->agent_json = strdup(g_string_free(j, FALSE));
}

/* The mock domU: read the job from the control disk (last disk) and write
 * the runner's result, as guest-agent/runner.c does. */
static int
play_runner(const vdc_hv_domain *dom, void *opaque)
{
    const char *ctl = dom->disks[dom->n_disks - 1].path;
    struct vdc_ctl_job job;
    struct vdc_ctl_result res;
    struct vdc_ctl_error err;
    size_t i;
    int fd;

    assert_string_equal(dom->disks[dom->n_disks - 1].target, "control");
    assert_string_equal(dom->disks[0].target, "root");
    assert_true(dom->disks[0].readonly);
    if (F.blkback_path)
        assert_int_equal(vdc_blkback_read(F.blkback_path, &F.blkback_at_create), 0);
    if (F.interrupt_on_create)
        stop_flag = SIGINT;
    if (F.fail_guest && g_str_has_suffix(dom->name, F.fail_guest))
        return -1;
    if (F.silent_guest && g_str_has_suffix(dom->name, F.silent_guest))
        return 0;
    if (F.heartbeat) {
        g_free(F.ctl);
        F.ctl = g_strdup(ctl);
        F.n_wait = 0;
        vdc_hv_mock()->wait_result = VDC_HV_WAIT_TIMEOUT;
    }
    fd = open(ctl, O_RDWR);
    assert_true(fd >= 0);
    vdc_ctl_job_init(&job);
    vdc_ctl_result_init(&res);
    assert_int_equal(vdc_ctl_disk_read_job(fd, &job, &err), 0);
    F.ctl_nonce = job.nonce;
    res.nonce = job.nonce;
    res.status = VDC_CTL_STATUS_OK;
    for (i = 0; i < job.n_targets; i++) {
        struct vdc_ctl_target_result *t =
            vdc_ctl_result_add_target(&res, job.targets[i].name, job.targets[i].vdev, &err);
        g_autofree char *seed = g_strdup_printf("%" G_GUINT64_FORMAT, (guint64)job.seed);
        g_autofree char *json = g_strdup_printf(agent_json_fmt, job.targets[i].name, job.repetition,
                                                seed, mock_value(job.targets[i].name, job.seed));
        assert_non_null(t);
        /* the runner runs the mkfs the controller chose (and records) */
        assert_string_equal(job.targets[i].mkfs_options, vdc_mkfs_options("ext4"));
        t->status = VDC_CTL_STATUS_OK;
        t->agent_exit = 0;
        t->elapsed_ms = 1500;
        if (F.guest_host) {
            /* what only the host may say: host CPU per GiB */
            g_autofree char *claim = g_strdup_printf("%.*s\"host\":{\"poll_interval_s\":9},"
                                                     "\"samples\":[{\"host\":{\"sliced\":true,"
                                                     "\"cpu_s_per_gib\":{\"qemu\":0.001}},%s",
                                                     (int)(strstr(json, "\"samples\":[{") - json), json,
                                                     strstr(json, "\"samples\":[{") + 12);

            g_free(json);
            /* and an importer's mark, which would let import -o replace the result */
            {
                char **parts = g_strsplit(claim, "\"metadata\":{", 2);

                assert_non_null(parts[1]);     /* the mock's JSON has its metadata */
                json = g_strjoinv("\"metadata\":{\"source\":{\"file\":\"forged.csv\",\"line\":1,"
                                  "\"format\":\"bonnie++-csv-1.98\"},", parts);
                g_strfreev(parts);
            }
        }
        F.wl_flags = (int)job.flags;
        if (!(job.flags & VDC_CTL_JOB_NO_BONNIE)) {
            t->agent_json = strdup(F.malformed_json ? "{\"format\": 12, garbage" : json);
            t->agent_json_len = strlen(t->agent_json);
        }
        if (job.flags & VDC_CTL_JOB_RAW_WORKLOADS) {
            g_autofree const char **jobs = g_new0(const char *, job.n_workloads + 1);
            g_autofree char *rj = NULL;
            size_t w;

            /* the raw pass's arguments carry the run's consent */
            assert_true(job.n_raw_workload_args >= 3);
            assert_string_equal(job.raw_workload_args[job.n_raw_workload_args - 1], "--destroy-data");
            for (w = 0; w < job.n_workloads; w++)
                jobs[w] = job.workloads[w].name;
            rj = workload_json(job.targets[i].name, job.repetition, "ok", jobs, job.n_workloads,
                               F.wl_raw_lie ? "file" : "raw");
            t->raw_workload_exit = 0;
            t->raw_workload_elapsed_ms = 2000;
            t->raw_workload_json = strdup(rj);
            t->raw_workload_json_len = strlen(rj);
        }
        if (job.n_workloads && !(job.flags & VDC_CTL_JOB_NO_FILE_WORKLOADS)) {
            g_autofree const char **jobs = g_new0(const char *, job.n_workloads + 2);
            size_t n = F.wl_partial ? 1 : job.n_workloads, w;
            g_autofree char *wj = NULL;

            /* the runner passes the job's workload arguments */
            assert_true(job.n_workload_args >= 2);
            assert_string_equal(job.workload_args[0], "-r");
            for (w = 0; w < n; w++)
                jobs[w] = job.workloads[w].name;
            if (F.wl_lie)
                jobs[n++] = F.wl_lie;
            wj = workload_json(job.targets[i].name, job.repetition, F.wl_partial ? "failed" : "ok",
                               jobs, n, "file");
            t->workload_exit = F.wl_partial ? 128 + 15 : 0;
            t->workload_elapsed_ms = 3000;
            t->workload_json = strdup(wj);
            t->workload_json_len = strlen(wj);
            if (F.wl_partial) {
                t->status = VDC_CTL_STATUS_TIMEOUT;
                t->error = strdup("agent (workload) ran past 3600 s: stopped");
            }
        }
        if (F.hostile)
            hostile_answer(t, job.repetition);
    }
    assert_int_equal(vdc_ctl_disk_write_result(fd, &res, &err), 0);
    if (job.gate_timeout_s) {
        /* the runner was ready, saw the go and started: the host maps the
         * start through the go (guest k starts k ms after it) */
        struct vdc_ctl_progress pg;
        uint64_t off = 0;
        unsigned k = (unsigned)atoi(strrchr(dom->name, 'g') + 1);

        assert_int_equal(vdc_ctl_disk_progress_area(fd, &off, &err), 0);
        vdc_ctl_progress_init(&pg, job.nonce);
        pg.ready_ns = 500000000ull;
        pg.go_ns = 1000000000ull;
        pg.started_ns = pg.go_ns + k * 1000000ull;
        assert_int_equal(vdc_ctl_disk_write_progress(fd, off, &pg, &err), 0);
        assert_int_equal(job.n_targets, 1);
        assert_int_equal(dom->n_disks, 3);      /* root, its copy of the target, control */
        F.n_gated++;
    }
    if (F.hostile) {
        /* a stray entry has no slot of its own (one slot per job target) */
        struct vdc_ctl_target_result *g = vdc_ctl_result_add_target(&res, "ghost\x1b[2J", "xvdz", &err);

        assert_non_null(g);
        assert_int_equal(vdc_ctl_disk_write_target(fd, res.n_targets - 1, job.nonce, g, &err), -1);
        assert_non_null(strstr(err.msg, "slots"));
    }
    if (F.corrupt_slot) {
        static const char junk[64] = "this is not a target result frame";
        assert_int_equal(pwrite(fd, junk, sizeof(junk), VDC_CTL_SLOT_OFF + 40), (ssize_t)sizeof(junk));
    }
    if (F.corrupt_frame) {
        static const char junk[64] = "this is not a result frame";
        assert_int_equal(pwrite(fd, junk, sizeof(junk), VDC_CTL_RES_OFF + 40), (ssize_t)sizeof(junk));
    }
    close(fd);
    vdc_ctl_job_dispose(&job);
    vdc_ctl_result_dispose(&res);
    return 0;
}

static int m_file_flags(int pid, const char *path, unsigned **flags, size_t *n);
static int m_disk_facts(const char *name, vdc_hv_disk_facts *out, void *opaque);

static void
make_env(vdc_run_env *env)
{
    memset(env, 0, sizeof(*env));
    env->hv = &vdc_hv_mock_ops;
    env->storage_create = m_storage_create;
    env->storage_destroy_journaled = m_storage_destroy;
    env->storage_describe = m_describe;
    env->prepare = m_prepare;
    env->prepared_load = m_prepared_load;
    env->collect_logs = m_collect_logs;
    env->ctl_create = vdc_control_disk_create;
    env->ctl_read = vdc_control_disk_read_result;
    env->nonce = m_nonce;
    env->dom0_step = m_dom0_step;
    env->loop_attach = m_loop_attach;
    env->loop_detach = m_loop_detach;
    env->fs_free = m_fs_free;
    env->stop = &stop_flag;
    if (F.cache_facts)
        env->cache.file_flags = m_file_flags;
}

/* The runner's heartbeat, one wait (one WATCH_S period) at a time: at
 * its first wait the runner begins target 0 and its rewrite test, then it
 * beats at each wait up to beat_waits (in the same test), and at
 * shutoff_at it powers off. */
static void
play_heartbeat(const char *name, void *opaque)
{
    struct vdc_ctl_progress p;
    struct vdc_ctl_error err;
    uint64_t off = 0;
    int fd, i;

    if (!F.heartbeat || !F.ctl)
        return;
    F.n_wait++;
    F.max_waits = MAX(F.max_waits, F.n_wait);
    if (F.shutoff_at && F.n_wait >= F.shutoff_at)
        vdc_hv_mock()->wait_result = VDC_HV_WAIT_SHUTOFF;
    if (F.n_wait > F.beat_waits)
        return;
    fd = open(F.ctl, O_RDWR);
    assert_true(fd >= 0);
    assert_int_equal(vdc_ctl_disk_progress_area(fd, &off, &err), 0);
    assert_int_equal(off, VDC_CTL_PROGRESS_OFF);
    vdc_ctl_progress_init(&p, F.ctl_nonce);
    vdc_ctl_progress_add(&p, 1000, 0, VDC_CTL_EV_TARGET_BEGIN, 0);
    vdc_ctl_progress_add(&p, 2000, 0, VDC_CTL_EV_TEST_BEGIN, 2);   /* rewrite */
    for (i = 0; i < F.n_wait; i++)
        vdc_ctl_progress_beat(&p, 5000000000ull * (uint64_t)(i + 1));
    assert_int_equal(vdc_ctl_disk_write_progress(fd, off, &p, &err), 0);
    close(fd);
}

static int
setup(void **state)
{
    char tmpl[] = "/tmp/vdc-test-flow-XXXXXX";

    memset(&F, 0, sizeof(F));
    F.dir = g_strdup(g_mkdtemp(tmpl));
    if (F.dir) {
        g_autofree char *state = g_build_filename(F.dir, "state", NULL);

        g_setenv("VDC_STATE_DIR", state, TRUE);     /* the run records of this test only */
    }
    stop_flag = 0;
    vdc_hv_mock_reset();
    vdc_hv_mock()->on_create = play_runner;
    vdc_hv_mock()->on_wait = play_heartbeat;
    return F.dir ? 0 : -1;
}

static int
teardown(void **state)
{
    g_autofree char *cmd = getenv("VDC_KEEP_TMP") ? g_strdup("true") : g_strdup_printf("rm -rf '%s'", F.dir);
    assert_int_equal(system(cmd), 0);
    g_free(F.dir);
    g_free(F.ctl);
    vdc_hv_mock_reset();
    return 0;
}

/* Build and run the standard plan: image + block in the domU, dom0, 2 runs. */
static int
run_flow(vdc_result_set *rs)
{
    g_autofree char *line = g_strdup_printf(
        "run --hypervisor mock --image --block /dev/mockblk --destroy-data --dom0 %s"
        "--seed 10 --size 16M --dom0-size 16M %s --image-dir %s/imgs/a --out %s/out%s %s",
        F.extra && strstr(F.extra, "--runs ") ? "" : "--runs 2 ",  /* an option is given once */
        F.prepared ? "--prepared-image /p.img" : "--guest-image /g.img", F.dir, F.dir,
        F.keep ? " --keep" : "", F.extra ? F.extra : "");
    g_auto(GStrv) argv = NULL;
    g_autofree char *result = g_strdup_printf("%s/out/result.json", F.dir);
    const vdc_host_defaults h = { .hostname = "h", .ram_mib = 64, .date_id = "D" };
    vdc_run_settings s = { .agent = "/agent", .runner = "/runner", .consent = 1,
                           .no_report = !F.report,
                           .inspect = 1 };
    vdc_run_opts o;
    vdc_plan p;
    vdc_run_env env;
    int argc, rc;

    assert_true(g_shell_parse_argv(line, &argc, &argv, NULL));
    vdc_run_opts_init(&o);
    vdc_plan_init(&p);
    assert_int_equal(vdc_run_opts_parse(&o, argc, argv), 0);
    assert_int_equal(vdc_plan_build(&o, &h, line, &p), 0);
    assert_int_equal(vdc_plan_load_workloads(&p, &o, "/nonexistent"), 0);
    make_env(&env);
    rc = vdc_run_plan(&p, &s, &env);
    vdc_plan_dispose(&p);
    vdc_run_opts_dispose(&o);
    vdc_result_set_init(rs);
    assert_int_equal(vdc_result_set_load_file(rs, result), 0);
    return rc;
}

/* A density run: image and dom0, --guests 1,2, one repetition. */
static int
run_level_flow(vdc_result_set *rs)
{
    g_autofree char *line = g_strdup_printf(
        "run --hypervisor mock --image --dom0 --runs 1 --seed 10 --size 16M --dom0-size 16M "
        "--guest-image /g.img --image-dir %s/imgs/a --out %s/out --guests 1,2 %s", F.dir, F.dir,
        F.extra ? F.extra : "");
    g_auto(GStrv) argv = NULL;
    g_autofree char *result = g_strdup_printf("%s/out/result.json", F.dir);
    const vdc_host_defaults h = { .hostname = "h", .ram_mib = 64, .date_id = "D" };
    vdc_run_settings s = { .agent = "/agent", .runner = "/runner", .consent = 1, .no_report = 1 };
    vdc_run_opts o;
    vdc_plan p;
    vdc_run_env env;
    int argc, rc;

    assert_true(g_shell_parse_argv(line, &argc, &argv, NULL));
    vdc_run_opts_init(&o);
    vdc_plan_init(&p);
    assert_int_equal(vdc_run_opts_parse(&o, argc, argv), 0);
    assert_int_equal(vdc_plan_build(&o, &h, line, &p), 0);
    make_env(&env);
    rc = vdc_run_plan(&p, &s, &env);
    vdc_plan_dispose(&p);
    vdc_run_opts_dispose(&o);
    vdc_result_set_init(rs);
    assert_int_equal(vdc_result_set_load_file(rs, result), 0);
    return rc;
}

/* Every journaled object is gone; the final teardown undid them newest
 * first; no domain runs; no scratch image is left. */
static void
check_torn_down(void)
{
    g_autofree char *jpath = g_strdup_printf("%s/out/journal", F.dir);
    g_autofree char *data = NULL;
    g_autofree char *img = g_strdup_printf("%s/imgs/a/vmdiskcmp-D-h-image.raw", F.dir);
    g_autofree char *imgs = g_strdup_printf("%s/imgs", F.dir);
    g_auto(GStrv) lines = NULL;
    vdc_journal j;
    size_t i, last_add = 0;
    unsigned prev = G_MAXUINT;

    vdc_journal_init(&j);
    assert_int_equal(vdc_journal_load(&j, jpath), 0);
    assert_int_equal(vdc_journal_pending(&j), 0);
    vdc_journal_dispose(&j);
    vdc_journal_dispose(&j);

    assert_true(g_file_get_contents(jpath, &data, NULL, NULL));
    lines = g_strsplit(data, "\n", -1);
    for (i = 0; lines[i]; i++)
        if (g_str_has_prefix(lines[i], "add "))
            last_add = i;
    for (i = last_add + 1; lines[i]; i++) {
        unsigned seq;
        if (!g_str_has_prefix(lines[i], "undone "))
            continue;
        seq = (unsigned)atoi(lines[i] + 7);
        assert_true(seq < prev);     /* reverse order */
        prev = seq;
    }
    assert_int_equal(vdc_hv_mock()->n_running, 0);
    assert_false(g_file_test(img, G_FILE_TEST_EXISTS));
    assert_false(g_file_test(imgs, G_FILE_TEST_EXISTS));      /* --image-dir we made */
    assert_int_equal(F.n_storage_destroyed, F.n_images_created);
}

static size_t
count_runs(const vdc_result_set *rs, const char *target, const char *status)
{
    size_t i, n = 0;

    for (i = 0; i < rs->n_runs; i++)
        if (!strcmp(rs->runs[i]->target, target) && !strcmp(rs->runs[i]->status, status))
            n++;
    return n;
}

static void
test_all_ok(void **state)
{
    vdc_result_set rs;
    size_t i;

    assert_int_equal(run_flow(&rs), VDC_EXIT_OK);
    assert_int_equal(count_runs(&rs, "image", "ok"), 2);
    assert_int_equal(count_runs(&rs, "block", "ok"), 2);
    assert_int_equal(count_runs(&rs, "dom0", "ok"), 2);
    /* two boots (one per repetition), each destroyed */
    assert_int_equal(vdc_hv_mock()->n_create, 2);
    assert_int_equal(F.n_prepare, 1);
    /* repetition r ran with seed 10 + r, on every target */
    for (i = 0; i < rs.n_runs; i++) {
        assert_string_equal(rs.runs[i]->meta.seed, rs.runs[i]->repetition ? "11" : "10");
    }
    assert_non_null(vdc_result_set_find_target(&rs, "image"));
    assert_string_equal(vdc_result_set_find_target(&rs, "dom0")->where, "dom0");
    assert_string_equal(vdc_result_set_find_target(&rs, "image")->filesystem.mkfs_options,
                        vdc_mkfs_options("ext4"));
    check_torn_down();
    vdc_result_set_dispose(&rs);
}

/* The run of a level's run of @guest at level @level, or NULL. */
static const vdc_run *
level_run(const vdc_result_set *rs, int64_t level, int64_t guest)
{
    size_t i;

    for (i = 0; i < rs->n_runs; i++)
        if (!strcmp(rs->runs[i]->target, "image") && vdc_run_level(rs->runs[i]) == level &&
            vdc_run_guest(rs->runs[i]) == guest)
            return rs->runs[i];
    return NULL;
}

/* The record of the level of @guests in experiment.levels[], or NULL. */
static const vdc_level_record *
level_record(const vdc_result_set *rs, int64_t guests)
{
    size_t i;

    for (i = 0; i < rs->experiment.n_levels; i++)
        if (rs->experiment.levels[i].guests == guests)
            return &rs->experiment.levels[i];
    return NULL;
}

/* --guests 1,2: level 1 one domU, level 2 two together, each guest its
 * own copy, control disk and seed; released through the gate; the runs
 * carry level, guest and release times; each level recorded with its
 * skew; everything torn down (the copy included). */
static void
test_levels_ok(void **state)
{
    vdc_result_set rs;
    const vdc_run *r20, *r21, *r10;
    size_t i;

    assert_int_equal(run_level_flow(&rs), VDC_EXIT_OK);
    assert_int_equal(vdc_hv_mock()->n_create, 3);
    assert_int_equal(F.n_gated, 3);
    assert_int_equal(F.n_images_created, 3);        /* the image, guest 1's copy, dom0's */
    r10 = level_run(&rs, 1, 0);
    r20 = level_run(&rs, 2, 0);
    r21 = level_run(&rs, 2, 1);
    assert_non_null(r10);
    assert_non_null(r20);
    assert_non_null(r21);
    assert_string_equal(r20->status, "ok");
    assert_string_equal(r21->status, "ok");
    assert_int_equal(count_runs(&rs, "dom0", "ok"), 1);
    /* guest 1's own seed: the repetition's + the stride */
    assert_string_equal(r20->meta.seed, "10");
    assert_string_not_equal(r21->meta.seed, "10");
    /* released after both were ready; each started after its release */
    for (i = 0; i < 2; i++) {
        const vdc_run *r = i ? r21 : r20;

        assert_false(isnan(r->release.ready_s));
        assert_true(r->release.released_s >= MAX(r20->release.ready_s, r21->release.ready_s));
        assert_true(r->release.started_s >= r->release.released_s);
    }
    assert_int_equal(rs.experiment.n_levels, 2);
    for (i = 0; i < rs.experiment.n_levels; i++) {
        const vdc_level_record *l = &rs.experiment.levels[i];

        assert_string_equal(l->status, "ok");
        assert_string_equal(l->target, "image");
        assert_null(l->error);
        if (l->guests == 2)
            assert_true(fabs(l->start_skew_s - fabs(r21->release.started_s - r20->release.started_s)) < 1e-9);
    }
    check_torn_down();
    vdc_result_set_dispose(&rs);
}

/* The mock's wait: a level's domains run (still running) for the first
 * shutoff_at waits after the last create, then power off. */
static void
play_level_running(const char *name, void *opaque)
{
    static int creates;

    if (creates != vdc_hv_mock()->n_create) {
        creates = vdc_hv_mock()->n_create;
        F.n_wait = 0;
    }
    F.n_wait++;
    vdc_hv_mock()->wait_result = F.n_wait > F.shutoff_at ? VDC_HV_WAIT_SHUTOFF
                                                         : VDC_HV_WAIT_TIMEOUT;
}

/* Each level's host cost over its window (levels[].host), read back from
 * result.json: the mock's QEMU is this process (real CPU time), its
 * counters one 4 KiB read and write per look. */
static void
test_levels_host(void **state)
{
    vdc_result_set rs;
    const vdc_level_record *l2;
    JsonObject *h, *c;
    double qemu, ios;

    vdc_hv_mock()->stats_pid = getpid();
    vdc_hv_mock()->on_wait = play_level_running;
    F.shutoff_at = 6;
    assert_int_equal(run_level_flow(&rs), VDC_EXIT_OK);
    assert_non_null(level_record(&rs, 1)->host);
    assert_int_equal(json_object_get_int_member(level_record(&rs, 1)->host, "guests"), 1);
    l2 = level_record(&rs, 2);
    assert_non_null(l2->host);
    h = l2->host;
    assert_int_equal(json_object_get_int_member(h, "guests"), 2);
    assert_true(json_object_get_double_member(h, "interval_s") >= 0);
    c = json_object_get_object_member(h, "cpu_s");
    /* both guests' QEMU (this process, summed twice), dom0's busy time */
    qemu = json_object_get_double_member(c, "qemu");
    assert_true(qemu >= 0);
    assert_true(json_object_get_double_member(c, "dom0_busy") >= 0);
    /* two looks while both ran, and the end: what the counters moved */
    ios = (double)json_object_get_int_member(h, "ios");
    assert_true(ios > 0);
    assert_int_equal(json_object_get_int_member(h, "bytes"), (gint64)ios * 4096);
    assert_string_equal(json_object_get_string_member(h, "source"), "mock");
    assert_true(fabs(json_object_get_double_member(
                         json_object_get_object_member(h, "cpu_s_per_1000_ios"), "qemu") -
                     qemu / (ios / 1000.0)) < 1e-9 * (1 + qemu));
    assert_true(json_object_has_member(h, "dom0_cached_bytes"));
    assert_true(json_object_has_member(h, "dom0_dirty_bytes"));
    check_torn_down();
    vdc_result_set_dispose(&rs);
}

/* A guest whose runner beat and then stopped fails its level after
 * --heartbeat-timeout (each round of the level's wait counts a second per
 * running guest), named with the cause and destroyed at once; the other
 * guest runs to its end and its answer is kept; everything torn down. */
static void
test_levels_heartbeat(void **state)
{
    vdc_result_set rs;
    const vdc_level_record *l2;

    F.heartbeat = 1;            /* the last created guest's runner beats */
    F.beat_waits = 3;
    F.shutoff_at = 400;
    assert_int_equal(run_level_flow(&rs), VDC_EXIT_FAILURE);
    l2 = level_record(&rs, 2);
    assert_non_null(l2);
    assert_string_equal(l2->status, "failed");
    assert_non_null(strstr(l2->error, "guest 1 (vmdiskcmp-"));
    assert_non_null(strstr(l2->error, "the runner's heartbeat stopped 120 s ago (last event: test "
                                      "rewrite of target image began), "));
    assert_non_null(strstr(l2->error, " after the release: destroyed"));
    assert_string_equal(level_run(&rs, 2, 0)->status, "ok");
    assert_string_equal(level_run(&rs, 2, 1)->status, "failed");
    assert_non_null(strstr(level_run(&rs, 2, 1)->error, "heartbeat stopped"));
    /* level 1's one guest beat too: the same watch */
    assert_string_equal(level_run(&rs, 1, 0)->status, "failed");
    assert_non_null(strstr(level_record(&rs, 1)->error, "guest 0 (vmdiskcmp-"));
    /* far from --timeout: guest 0 ran on to its power-off at wait 400 */
    assert_true(F.max_waits <= 401);
    check_torn_down();
    vdc_result_set_dispose(&rs);
}

/* --image-cache none at a level: each guest's cache read back and
 * verified on its own copy (QEMU's open flags of guest 1's copy asked),
 * targets[].cache recorded; a copy QEMU opened without O_DIRECT fails the
 * level before its release, named. */
static void
test_levels_image_cache_none(void **state)
{
    vdc_result_set rs;
    const vdc_level_record *l;
    size_t i;

    F.extra = "--image-cache host,none";
    F.qemu_direct = 1;
    F.cache_facts = 1;
    vdc_hv_mock()->on_disk_facts = m_disk_facts;
    assert_int_equal(run_level_flow(&rs), VDC_EXIT_OK);
    assert_true(F.n_copy_flags > 0);
    assert_int_equal(vdc_result_set_find_target(&rs, "image-nocache")->cache.bypasses_dom0_page_cache, 1);
    for (i = 0; i < rs.n_runs; i++)
        assert_string_equal(rs.runs[i]->status, "ok");
    check_torn_down();
    vdc_result_set_dispose(&rs);
    teardown(state);
    setup(state);

    F.extra = "--image-cache host,none";
    F.qemu_direct = 0;
    F.cache_facts = 1;
    vdc_hv_mock()->on_disk_facts = m_disk_facts;
    assert_int_equal(run_level_flow(&rs), VDC_EXIT_FAILURE);
    for (i = 0; i < rs.experiment.n_levels; i++) {
        l = &rs.experiment.levels[i];
        if (strcmp(l->target, "image-nocache"))
            continue;
        assert_string_equal(l->status, "failed");
        assert_non_null(strstr(l->error, "guest 0 (vmdiskcmp-"));
        assert_non_null(strstr(l->error, "--image-cache none refused: "));
    }
    assert_int_equal(count_runs(&rs, "image", "ok"), 3);
    check_torn_down();
    vdc_result_set_dispose(&rs);
}

/* A guest that never gets ready fails its level, named; the other guest
 * is torn down too; level 1 and dom0 go on. */
static void
test_levels_guest_silent(void **state)
{
    vdc_result_set rs;
    char *err;
    const vdc_level_record *l2;

    F.silent_guest = "-g1";
    capture_stderr_begin();
    assert_int_equal(run_level_flow(&rs), VDC_EXIT_FAILURE);
    err = capture_stderr_end();
    assert_non_null(strstr(err, "start gate: guest 1 (vmdiskcmp-D-h-g1) is gone before it was ready"));
    free(err);
    l2 = level_record(&rs, 2);
    assert_non_null(l2);
    assert_string_equal(l2->status, "failed");
    assert_string_equal(l2->error, "start gate: guest 1 (vmdiskcmp-D-h-g1) is gone before it was ready");
    assert_non_null(strstr(level_run(&rs, 2, 0)->error, "start gate: guest 1 "));
    assert_string_equal(level_run(&rs, 2, 1)->status, "failed");
    assert_string_equal(level_run(&rs, 1, 0)->status, "ok");
    assert_int_equal(count_runs(&rs, "dom0", "ok"), 1);
    check_torn_down();
    vdc_result_set_dispose(&rs);
}

/* A guest whose domain cannot be created fails its level, named; guest 0,
 * created before it, is destroyed. */
static void
test_levels_create_fails(void **state)
{
    vdc_result_set rs;
    char *err;
    const vdc_level_record *l2;

    F.fail_guest = "-g1";
    capture_stderr_begin();
    assert_int_equal(run_level_flow(&rs), VDC_EXIT_FAILURE);
    err = capture_stderr_end();
    free(err);
    l2 = level_record(&rs, 2);
    assert_non_null(l2);
    assert_non_null(strstr(l2->error, "guest 1 (vmdiskcmp-D-h-g1): the domU could not be created"));
    assert_string_equal(level_run(&rs, 2, 0)->status, "failed");
    assert_string_equal(level_run(&rs, 2, 0)->error,
                        "not started: another guest of the level failed first");
    assert_string_equal(level_run(&rs, 1, 0)->status, "ok");
    check_torn_down();
    vdc_result_set_dispose(&rs);
}

/* SIGINT while a level's guests are created: every domain destroyed,
 * everything journaled torn down, exit 3. */
static void
test_levels_interrupted(void **state)
{
    vdc_result_set rs;
    char *err;

    F.interrupt_on_create = 1;
    capture_stderr_begin();
    assert_int_equal(run_level_flow(&rs), VDC_EXIT_INTERRUPTED);
    err = capture_stderr_end();
    free(err);
    assert_int_equal(vdc_hv_mock()->n_running, 0);
    check_torn_down();
    vdc_result_set_dispose(&rs);
}

/* --runs auto: with a 0.2 % spread the image/block ratio is within 3 %
 * after the minimum of 3 repetitions: 3 boots, the stop reason recorded. */
static void
test_runs_auto_precise(void **state)
{
    vdc_result_set rs;
    const vdc_runs_policy *rp;

    F.jitter = 0.002;
    F.extra = "--runs auto --max-runs 6";
    assert_int_equal(run_flow(&rs), VDC_EXIT_OK);
    assert_int_equal(count_runs(&rs, "image", "ok"), 3);
    assert_int_equal(count_runs(&rs, "block", "ok"), 3);
    assert_int_equal(count_runs(&rs, "dom0", "ok"), 3);
    assert_int_equal(vdc_hv_mock()->n_create, 3);
    assert_int_equal(rs.experiment.runs_per_target, 3);
    rp = &rs.experiment.runs_policy;
    assert_string_equal(rp->mode, "auto");
    assert_int_equal(rp->min_runs, 3);
    assert_int_equal(rp->max_runs, 6);
    assert_true(rp->precision_percent == 3.0);
    assert_int_equal(rp->n_stop, 1);     /* image against block, put_block */
    assert_string_equal(rp->stop[0].test, "put_block");
    assert_string_equal(rp->stop[0].target, "image");
    assert_string_equal(rp->stop[0].reference, "block");
    assert_string_equal(rp->stop[0].reason, "precision reached");
    assert_int_equal(rp->stop[0].runs, 3);
    assert_true(rp->stop[0].half_width_percent <= 3.0);
    check_torn_down();
    vdc_result_set_dispose(&rs);
}

/* --runs auto with a 30 % spread never gets within 3 %: it stops at
 * --max-runs and says so. */
static void
test_runs_auto_max_runs(void **state)
{
    vdc_result_set rs;
    const vdc_runs_policy *rp;

    F.jitter = 0.3;
    F.extra = "--runs auto --max-runs 4 --precision 1";
    assert_int_equal(run_flow(&rs), VDC_EXIT_OK);
    assert_int_equal(count_runs(&rs, "image", "ok"), 4);
    assert_int_equal(vdc_hv_mock()->n_create, 4);
    rp = &rs.experiment.runs_policy;
    assert_true(rp->precision_percent == 1.0);
    assert_int_equal(rp->n_stop, 1);
    assert_true(!strcmp(rp->stop[0].reason, "max runs") || !strcmp(rp->stop[0].reason, "not measurable"));
    assert_int_equal(rp->stop[0].runs, 4);
    check_torn_down();
    vdc_result_set_dispose(&rs);
}

/* A fixed --runs N is recorded as such, with no stop records. */
static void
test_runs_fixed_policy(void **state)
{
    vdc_result_set rs;

    assert_int_equal(run_flow(&rs), VDC_EXIT_OK);
    assert_string_equal(rs.experiment.runs_policy.mode, "fixed");
    assert_int_equal(rs.experiment.runs_policy.n_stop, 0);
    /* the time accounting: 2 boots x 2 domU targets x the runner's 1.5 s */
    assert_true(rs.experiment.time.domu_agent_s == 6.0);
    assert_true(rs.experiment.time.total_s >= rs.experiment.time.domu_s + rs.experiment.time.dom0_s);
    assert_true(rs.experiment.time.domu_s >= 0 && rs.experiment.time.dom0_s >= 0);
    assert_true(vdc_has(rs.experiment.time.provision_s) && vdc_has(rs.experiment.time.prepare_s));
    assert_true(vdc_has(rs.experiment.time.teardown_s));
    vdc_result_set_dispose(&rs);
}

static void
test_provision_fails(void **state)
{
    vdc_result_set rs;

    F.fail_provision = "block";
    assert_int_equal(run_flow(&rs), VDC_EXIT_FAILURE);
    assert_int_equal(rs.n_runs, 0);
    assert_int_equal(vdc_hv_mock()->n_create, 0);
    assert_int_equal(F.n_storage_created, 1);    /* the image, then removed */
    check_torn_down();
    vdc_result_set_dispose(&rs);
}

/* A create that fails for a reason that may pass: every boot is tried,
 * and the progress count does not take a failed boot for a done one. */
static void
test_create_fails(void **state)
{
    vdc_result_set rs;
    char *err;

    vdc_hv_mock()->fail_create = 1;
    vdc_set_quiet(0);                           /* the progress lines */
    capture_stderr_begin();
    assert_int_equal(run_flow(&rs), VDC_EXIT_FAILURE);
    err = capture_stderr_end();
    vdc_set_quiet(1);
    assert_int_equal(vdc_hv_mock()->n_create, 2);
    assert_int_equal(count_runs(&rs, "image", "failed"), 2);
    assert_int_equal(count_runs(&rs, "block", "failed"), 2);
    assert_int_equal(count_runs(&rs, "dom0", "ok"), 2);     /* the others go on */
    /* 4 boots: dom0, domU | dom0, domU */
    assert_non_null(strstr(err, "1 of 4 boot(s) done in "));
    assert_non_null(strstr(err, "1 of 4 boot(s) done, 1 failed in "));
    assert_non_null(strstr(err, "2 of 4 boot(s) done, 1 failed in "));
    assert_null(strstr(err, "stopped after boot"));
    free(err);
    check_torn_down();
    vdc_result_set_dispose(&rs);
}

/* A create that fails for a reason every boot would repeat (QEMU cannot
 * open the image): the run stops after the first, naming the cause; the
 * boots after it are not tried. */
static void
test_create_fails_repeats(void **state)
{
    static const char cause[] = "internal error: process exited while connecting to monitor: "
                                "Could not open '/p.img': Permission denied";
    vdc_result_set rs;
    char *err;
    size_t i;

    vdc_hv_mock()->fail_create_repeats = cause;
    capture_stderr_begin();
    assert_int_equal(run_flow(&rs), VDC_EXIT_FAILURE);
    err = capture_stderr_end();
    assert_int_equal(vdc_hv_mock()->n_create, 1);
    /* boot 1: dom0; boot 2: the domU's image and block; then the stop */
    assert_int_equal(rs.n_runs, 3);
    assert_int_equal(count_runs(&rs, "dom0", "ok"), 1);
    for (i = 0; i < rs.n_runs; i++) {
        if (!strcmp(rs.runs[i]->target, "dom0"))
            continue;
        assert_string_equal(rs.runs[i]->status, "failed");
        assert_non_null(strstr(rs.runs[i]->error, "every boot would fail the same way: "));
        assert_non_null(strstr(rs.runs[i]->error, cause));
    }
    assert_non_null(strstr(err, "vmdiskcmp: run D-h stopped after boot 2 of 4: the domU could not be "
                                "created, and every boot would fail the same way: internal error"));
    assert_non_null(strstr(err, "Permission denied; 2 boot(s) not run\n"));
    free(err);
    check_torn_down();
    vdc_result_set_dispose(&rs);
}

static void
test_guest_timeout(void **state)
{
    vdc_result_set rs;

    vdc_hv_mock()->wait_result = VDC_HV_WAIT_TIMEOUT;
    assert_int_equal(run_flow(&rs), VDC_EXIT_FAILURE);
    assert_int_equal(count_runs(&rs, "image", "timeout"), 2);
    assert_int_equal(count_runs(&rs, "block", "timeout"), 2);
    assert_int_equal(count_runs(&rs, "dom0", "ok"), 2);
    assert_true(vdc_hv_mock()->n_destroy >= 2);              /* hung domU destroyed */
    assert_int_equal(F.n_inspected, 2);                      /* --inspect-on-failure */
    check_torn_down();
    vdc_result_set_dispose(&rs);
}

/* A domU that stops making progress: the image directory's filesystem
 * full (two looks in a row), or the domU paused on an I/O error, ends its
 * boot naming the cause, without waiting for --timeout (the mock's wait
 * says "still running" at once). */
static void
test_guest_stalled(void **state)
{
    vdc_result_set rs;
    size_t i, n_named = 0;

    vdc_hv_mock()->wait_result = VDC_HV_WAIT_TIMEOUT;
    F.fs_full = 1;
    assert_int_equal(run_flow(&rs), VDC_EXIT_FAILURE);
    assert_int_equal(count_runs(&rs, "image", "failed"), 2);
    assert_int_equal(count_runs(&rs, "block", "failed"), 2);
    assert_int_equal(count_runs(&rs, "dom0", "ok"), 2);
    for (i = 0; i < rs.n_runs; i++)
        n_named += rs.runs[i]->error && strstr(rs.runs[i]->error, "image directory FS full (") != NULL;
    assert_int_equal(n_named, 4);
    /* each boot: two periods and two looks, not the 720 periods of
     * --timeout 3600 */
    for (i = 0, n_named = 0; i < vdc_hv_mock()->calls->len; i++)
        n_named += g_str_has_prefix(g_ptr_array_index(vdc_hv_mock()->calls, i), "wait ");
    assert_int_equal(n_named, 4);
    check_torn_down();
    vdc_result_set_dispose(&rs);
    teardown(state);
    setup(state);

    vdc_hv_mock()->wait_result = VDC_HV_WAIT_TIMEOUT;
    vdc_hv_mock()->stalled = 1;
    assert_int_equal(run_flow(&rs), VDC_EXIT_FAILURE);
    for (i = 0, n_named = 0; i < rs.n_runs; i++)
        n_named += rs.runs[i]->error &&
                   strstr(rs.runs[i]->error, "the domU stalled: paused on an I/O error (mock)") != NULL;
    assert_int_equal(n_named, 4);
    check_torn_down();
    vdc_result_set_dispose(&rs);
}

/* A runner that beat and then stopped: the boot fails after
 * --heartbeat-timeout (120 s by default: 24 periods of 5 s without a beat)
 * naming the cause and the last event, not after --timeout (720 periods);
 * the runs failed, exit 1.  With --heartbeat-timeout 0 the watch is off:
 * only --timeout ends the boot. */
static void
test_heartbeat_stops(void **state)
{
    vdc_result_set rs;
    size_t i, n_named = 0;

    F.heartbeat = 1;
    F.beat_waits = 3;
    assert_int_equal(run_flow(&rs), VDC_EXIT_FAILURE);
    assert_int_equal(count_runs(&rs, "image", "failed"), 2);
    assert_int_equal(count_runs(&rs, "block", "failed"), 2);
    assert_int_equal(count_runs(&rs, "dom0", "ok"), 2);
    for (i = 0; i < rs.n_runs; i++) {
        const char *e = rs.runs[i]->error;

        if (e && strstr(e, "the runner's heartbeat stopped 120 s ago (last event: test rewrite of target ") &&
            (strstr(e, "of target image began)") || strstr(e, "of target block began)")) &&
            strstr(e, ": destroyed"))
            n_named++;
    }
    assert_int_equal(n_named, 4);
    /* three beats, then 120 s of looks: within the bound, far from --timeout */
    assert_int_equal(F.max_waits, 3 + 120 / 5);
    assert_true(vdc_hv_mock()->n_destroy >= 2);
    check_torn_down();
    vdc_result_set_dispose(&rs);
    teardown(state);
    setup(state);

    F.heartbeat = 1;
    F.beat_waits = 3;
    F.extra = "--heartbeat-timeout 0";
    assert_int_equal(run_flow(&rs), VDC_EXIT_FAILURE);
    assert_int_equal(count_runs(&rs, "image", "timeout"), 2);
    assert_int_equal(count_runs(&rs, "block", "timeout"), 2);
    assert_int_equal(F.max_waits, 3600 / 5);
    check_torn_down();
    vdc_result_set_dispose(&rs);
}

/* A runner that beats steadily through a test far longer than
 * --heartbeat-timeout (300 s of one test, beats every 5 s) is not
 * stopped: its boot ends when it powers off, its runs ok. */
static void
test_heartbeat_steady(void **state)
{
    vdc_result_set rs;

    F.heartbeat = 1;
    F.beat_waits = 60;
    F.shutoff_at = 60;
    assert_int_equal(run_flow(&rs), VDC_EXIT_OK);
    assert_int_equal(count_runs(&rs, "image", "ok"), 2);
    assert_int_equal(count_runs(&rs, "block", "ok"), 2);
    assert_int_equal(count_runs(&rs, "dom0", "ok"), 2);
    assert_int_equal(F.max_waits, 60);
    check_torn_down();
    vdc_result_set_dispose(&rs);
}

/* The domU's disks as Xen VBDs the way xl_backends reads them from
 * xenstore: blkback offers order 4 and 2 queues; the frontend is
 * Initialising until the fe_connect_at-th read, then Connected with ring
 * order 2 and 2 queues. */
static int
m_backends(const char *name, JsonObject *out, void *opaque)
{
    static const char *const vdevs[] = { "vdb", "vdc" };
    int connected;
    size_t i;

    F.n_backends++;
    connected = F.fe_connect_at && F.n_backends >= F.fe_connect_at;
    for (i = 0; i < G_N_ELEMENTS(vdevs); i++) {
        JsonObject *o = json_object_new();
        g_autofree char *path = g_strdup_printf("/local/domain/0/backend/vbd/1/%zu", 51728 + 16 * i);

        json_object_set_string_member(o, "type", "phy");
        json_object_set_string_member(o, "source", "xenstore");
        json_object_set_string_member(o, "xenstore_path", path);
        json_object_set_string_member(o, "vdev", vdevs[i]);
        json_object_set_string_member(o, "bus", "xen");
        json_object_set_int_member(o, "max_ring_page_order", 4);
        json_object_set_int_member(o, "max_queues", 2);
        json_object_set_int_member(o, "frontend_state", connected ? 4 : 1);
        if (connected) {
            json_object_set_int_member(o, "ring_page_order", 2);
            json_object_set_int_member(o, "queues", 2);
        }
        json_object_set_object_member(out, vdevs[i], o);
    }
    return 0;
}

/* Each VBD's negotiated ring is read again while the domU runs, until its
 * frontend is Connected: the read after create (Initialising) records no
 * ring; the second look's read records order 2, 2 queues, with blkback's
 * offer; then no more reads (the second boot asks nothing).  The report's
 * disk line says what was negotiated and what blkback offered. */
static void
test_xen_rings_negotiated(void **state)
{
    vdc_result_set rs;
    const char *const names[] = { "image", "block" };
    size_t i;

    vdc_hv_mock()->on_backends = m_backends;
    F.heartbeat = 1;
    F.beat_waits = 4;
    F.shutoff_at = 4;
    F.fe_connect_at = 3;
    assert_int_equal(run_flow(&rs), VDC_EXIT_OK);
    assert_int_equal(count_runs(&rs, "image", "ok"), 2);
    assert_int_equal(F.n_backends, 3);      /* create, look 1, look 2 (Connected) */
    for (i = 0; i < G_N_ELEMENTS(names); i++) {
        const vdc_target *t = vdc_result_set_find_target(&rs, names[i]);
        g_autofree char *knobs = vdc_knobs_text(t);

        assert_int_equal(t->backend.frontend_state, 4);
        assert_int_equal(t->backend.ring_page_order, 2);
        assert_int_equal(t->backend.queues, 2);
        assert_int_equal(t->backend.max_ring_page_order, 4);
        assert_int_equal(t->backend.max_queues, 2);
        assert_string_equal(knobs, "negotiated ring order 2 (4 pages, 128 requests in flight), "
                                   "2 queues; blkback offers order 4, 2 queues");
    }
    check_torn_down();
    vdc_result_set_dispose(&rs);
}

/* A frontend never read Connected while the domU ran: no ring is recorded
 * (none assumed), its last state is, and the disk line says so; every
 * look of every boot asks again. */
static void
test_xen_rings_never_connected(void **state)
{
    vdc_result_set rs;
    const vdc_target *t;
    g_autofree char *knobs = NULL;

    vdc_hv_mock()->on_backends = m_backends;
    F.heartbeat = 1;
    F.beat_waits = 3;
    F.shutoff_at = 3;
    assert_int_equal(run_flow(&rs), VDC_EXIT_OK);
    /* boot 1: create and 2 looks; boot 2: 2 looks (the shutoff wait reads none) */
    assert_int_equal(F.n_backends, 1 + 2 + 2);
    t = vdc_result_set_find_target(&rs, "image");
    assert_int_equal(t->backend.frontend_state, 1);
    assert_int_equal(t->backend.ring_page_order, VDC_INT_ABSENT);
    assert_int_equal(t->backend.queues, VDC_INT_ABSENT);
    knobs = vdc_knobs_text(t);
    assert_string_equal(knobs, "ring not negotiated: the frontend was never seen Connected "
                               "(XenbusState 1 Initialising when last read); blkback offers "
                               "order 4, 2 queues");
    check_torn_down();
    vdc_result_set_dispose(&rs);
}

/* A density level's target, with no backend read before, takes guest 0's
 * backends once the gate released the level (every runner up): its ring
 * as negotiated. */
static void
test_levels_rings(void **state)
{
    vdc_result_set rs;
    const vdc_target *t;

    vdc_hv_mock()->on_backends = m_backends;
    F.fe_connect_at = 1;
    assert_int_equal(run_level_flow(&rs), VDC_EXIT_OK);
    t = vdc_result_set_find_target(&rs, "image");
    assert_string_equal(t->backend.type, "phy");
    assert_int_equal(t->backend.ring_page_order, 2);
    assert_int_equal(t->backend.queues, 2);
    assert_int_equal(t->backend.frontend_state, 4);
    vdc_result_set_dispose(&rs);
}

/* A scratch sysfs for blkback (never the real /sys): ROOT/hypervisor/type
 * @hv, ROOT/module/xen_blkback/parameters/max_queues "2" (0644) and
 * max_ring_page_order "4" (0444, as Linux makes it), VDC_TEST_SYSFS_ROOT
 * set to ROOT.  Returns max_queues' path (g_free). */
static char *
scratch_sysfs(const char *hv)
{
    g_autofree char *root = g_strdup_printf("%s/sys", F.dir);
    g_autofree char *params = g_strdup_printf("%s/module/xen_blkback/parameters", root);
    g_autofree char *hyp = g_strdup_printf("%s/hypervisor", root);
    g_autofree char *type = g_strdup_printf("%s/type", hyp);
    g_autofree char *order = g_strdup_printf("%s/max_ring_page_order", params);
    char *queues = g_strdup_printf("%s/max_queues", params);

    assert_int_equal(g_mkdir_with_parents(params, 0755), 0);
    assert_int_equal(g_mkdir_with_parents(hyp, 0755), 0);
    assert_true(g_file_set_contents(type, hv, -1, NULL));
    assert_true(g_file_set_contents(queues, "2\n", -1, NULL));
    assert_true(g_file_set_contents(order, "4\n", -1, NULL));
    assert_int_equal(chmod(order, 0444), 0);
    g_setenv("VDC_TEST_SYSFS_ROOT", root, TRUE);
    return queues;
}

static int64_t
param_now(const char *path)
{
    int64_t v = -1;

    assert_int_equal(vdc_blkback_read(path, &v), 0);
    return v;
}

/* --blkback-max-queues 1: the old value read and journaled, 1 written
 * before the first domU is created (seen so at its create), the old value
 * written back at teardown; the result's host facts say was, set, read
 * back and restored; the report's metadata names them. */
static void
test_blkback_set_restore(void **state)
{
    g_autofree char *queues = scratch_sysfs("xen\n");
    g_autofree char *jpath = g_strdup_printf("%s/out/journal", F.dir);
    g_autofree char *journal = NULL, *report = NULL;
    g_autofree char *rpath = g_strdup_printf("%s/out/report.txt", F.dir);
    const vdc_blkback_param_info *pi;
    vdc_result_set rs;

    F.blkback_path = queues;
    F.extra = "--blkback-max-queues 1";
    F.report = 1;
    assert_int_equal(run_flow(&rs), VDC_EXIT_OK);
    assert_int_equal(F.blkback_at_create, 1);
    assert_int_equal(param_now(queues), 2);
    pi = &rs.experiment.host.blkback.max_queues;
    assert_int_equal(pi->was, 2);
    assert_int_equal(pi->set, 1);
    assert_int_equal(pi->read_back, 1);
    assert_int_equal(pi->restored, 2);
    assert_int_equal(rs.experiment.host.blkback.max_ring_page_order.set, VDC_INT_ABSENT);
    assert_non_null(rs.experiment.host.blkback.source);
    assert_true(g_file_get_contents(jpath, &journal, NULL, NULL));
    assert_non_null(strstr(journal, " param path="));
    assert_non_null(strstr(journal, " value=2"));
    assert_true(g_file_get_contents(rpath, &report, NULL, NULL));
    assert_non_null(strstr(report, "  dom0: blkback max_queues set 1 (was 2, read back 1), restored 2\n"));
    check_torn_down();
    vdc_result_set_dispose(&rs);
    g_unsetenv("VDC_TEST_SYSFS_ROOT");
}

/* SIGINT while the domU runs: the parameter is written back all the same. */
static void
test_blkback_interrupted(void **state)
{
    g_autofree char *queues = scratch_sysfs("xen\n");
    vdc_result_set rs;

    F.blkback_path = queues;
    F.extra = "--blkback-max-queues 1";
    F.interrupt_on_create = 1;
    assert_int_equal(run_flow(&rs), VDC_EXIT_INTERRUPTED);
    assert_int_equal(F.blkback_at_create, 1);
    assert_int_equal(param_now(queues), 2);
    assert_int_equal(rs.experiment.host.blkback.max_queues.restored, 2);
    vdc_result_set_dispose(&rs);
    g_unsetenv("VDC_TEST_SYSFS_ROOT");
}

/* The plan of @line (a mock run) checked as `vmdiskcmp run` checks it
 * before anything is created: its return, and the one line it printed
 * in *@err (g_free). */
static int
check_line(const char *line, char **err)
{
    g_auto(GStrv) argv = NULL;
    const vdc_host_defaults h = { .hostname = "h", .ram_mib = 64, .date_id = "D" };
    vdc_run_opts o;
    vdc_plan p;
    int argc, rc;

    assert_true(g_shell_parse_argv(line, &argc, &argv, NULL));
    vdc_run_opts_init(&o);
    vdc_plan_init(&p);
    capture_stderr_begin();
    rc = vdc_run_opts_parse(&o, argc, argv);
    if (rc == 0) {
        assert_int_equal(vdc_plan_build(&o, &h, line, &p), 0);
        rc = vdc_run_check_inputs(&p, 1);
    }
    *err = capture_stderr_end();
    vdc_plan_dispose(&p);
    vdc_run_opts_dispose(&o);
    return rc;
}

/* The refusals, each one line before anything is created: not under Xen,
 * no module, a parameter the running module does not let be written
 * (0444), out of range, not a number, a libvirt QEMU run; and a value
 * that is fine passes. */
static void
test_blkback_refusals(void **state)
{
    static const struct { const char *opt, *hv, *want; int mod; } cases[] = {
        { "--blkback-max-queues 1", "kvm\n", "expected a Xen dom0", 1 },
        { "--blkback-max-queues 1", "xen\n", "expected the xen_blkback module loaded", 0 },
        { "--blkback-max-ring-page-order 2", "xen\n", "its mode is 0444", 1 },
        { "--blkback-max-queues 0", "xen\n", "expected 1 to ", 1 },
        { "--blkback-max-queues 65535", "xen\n", "(dom0's online CPUs)", 1 },
        { "--blkback-max-queues two", "xen\n", "expected a decimal number", 1 },
        { "--blkback-max-queues 1 --hypervisor libvirt --connect qemu:///system", "xen\n",
          "expected a Xen run", 1 },
    };
    g_autofree char *out = g_strdup_printf("%s/out", F.dir);
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *queues = scratch_sysfs(cases[i].hv);
        g_autofree char *mod = g_strdup_printf("%s/sys/module/xen_blkback", F.dir);
        g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", mod);
        g_autofree char *line = NULL;
        char *err = NULL;

        if (!cases[i].mod)
            assert_int_equal(system(cmd), 0);
        line = g_strdup_printf("run %s%s --image --size 16M --guest-image /g.img --image-dir %s/imgs "
                               "--out %s", strstr(cases[i].opt, "--hypervisor") ? "" : "--hypervisor mock ",
                               cases[i].opt, F.dir, out);
        assert_int_equal(check_line(line, &err), -1);
        if (!strstr(err, cases[i].want))
            fail_msg("case %zu: expected '%s' in: %s", i, cases[i].want, err);
        assert_int_equal(strchr(err, '\n') - err + 1, (long)strlen(err));     /* one line */
        assert_false(g_file_test(out, G_FILE_TEST_EXISTS));
        if (cases[i].mod)
            assert_int_equal(param_now(queues), 2);
        free(err);
    }
    g_unsetenv("VDC_TEST_SYSFS_ROOT");
}

/* A run that died after writing the parameter: `vmdiskcmp cleanup DIR`
 * writes the journaled value back.  A journal naming another file as a
 * parameter is refused whole, the file untouched: one of another name, and
 * one whose path ends as a parameter's does, its directory a symlink to
 * another (only the parameter's own path is restored). */
static void
test_blkback_cleanup(void **state)
{
    g_autofree char *queues = scratch_sysfs("xen\n");
    g_autofree char *out = g_strdup_printf("%s/out", F.dir);
    g_autofree char *jpath = g_strdup_printf("%s/journal", out);
    g_autofree char *other = g_strdup_printf("%s/not-a-param", F.dir);
    g_autofree char *etc = g_strdup_printf("%s/etcdir", F.dir);
    g_autofree char *vdir = g_strdup_printf("%s/victim/module/xen_blkback", F.dir);
    g_autofree char *vlink = g_strdup_printf("%s/parameters", vdir);
    g_autofree char *victim = g_strdup_printf("%s/max_queues", vlink);
    g_autofree char *etcfile = g_strdup_printf("%s/max_queues", etc);
    vdc_run_env env;
    int status, k;
    pid_t pid;

    assert_true(g_file_set_contents(other, "7\n", -1, NULL));
    assert_int_equal(g_mkdir_with_parents(etc, 0755), 0);
    assert_int_equal(g_mkdir_with_parents(vdir, 0755), 0);
    assert_int_equal(symlink(etc, vlink), 0);
    assert_true(g_file_set_contents(etcfile, "7\n", -1, NULL));
    for (k = 0; k < 3; k++) {
        const char *target = k == 0 ? queues : k == 1 ? other : victim;
        g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", out);

        assert_int_equal(system(cmd), 0);
        assert_int_equal(g_mkdir(out, 0755), 0);
        pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
            vdc_journal j;
            unsigned seq;
            int64_t now;

            vdc_journal_init(&j);
            /* a run id of its own each time: a refused journal's run
             * record stays */
            if (vdc_journal_create(&j, jpath, k == 2 ? "R-h2" : "R-h") < 0 ||
                !(seq = vdc_journal_add(&j, &(vdc_journal_entry){
                      .kind = VDC_JOURNAL_PARAM, .path = target, .value = "2" })) ||
                vdc_blkback_write(target, 1, &now) < 0 ||
                vdc_journal_done(&j, seq) < 0)
                _exit(1);
            _exit(0);       /* dies holding the journal: nobody tore it down */
        }
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        make_env(&env);
        if (!k) {
            assert_int_equal(param_now(queues), 1);
            assert_int_equal(vdc_run_cleanup_dir(out, &env, 0, NULL), 0);
            assert_int_equal(param_now(queues), 2);
        } else {
            assert_int_equal(vdc_run_cleanup_dir(out, &env, 0, NULL), -1);
            assert_int_equal(param_now(target), 1);    /* untouched by cleanup */
        }
    }
    g_unsetenv("VDC_TEST_SYSFS_ROOT");
}

static void
test_results_malformed(void **state)
{
    vdc_result_set rs;

    F.malformed_json = 1;
    assert_int_equal(run_flow(&rs), VDC_EXIT_FAILURE);
    assert_int_equal(count_runs(&rs, "image", "failed"), 2);
    assert_int_equal(count_runs(&rs, "dom0", "ok"), 2);
    check_torn_down();
    vdc_result_set_dispose(&rs);
}

static void
test_frame_corrupt(void **state)
{
    vdc_result_set rs;

    F.corrupt_frame = 1;
    assert_int_equal(run_flow(&rs), VDC_EXIT_FAILURE);
    assert_int_equal(count_runs(&rs, "image", "failed"), 2);
    assert_int_equal(count_runs(&rs, "block", "failed"), 2);
    check_torn_down();
    vdc_result_set_dispose(&rs);
}

/* a damaged slot costs its own target only: the others of the boot keep
 * their results */
static void
test_slot_corrupt(void **state)
{
    vdc_result_set rs;
    size_t i;

    F.corrupt_slot = 1;
    assert_int_equal(run_flow(&rs), VDC_EXIT_FAILURE);
    /* the rotated order puts either target first in the job: one run of
     * each boot lost, the other kept */
    assert_int_equal(count_runs(&rs, "image", "failed") + count_runs(&rs, "block", "failed"), 2);
    assert_int_equal(count_runs(&rs, "image", "ok") + count_runs(&rs, "block", "ok"), 2);
    assert_int_equal(count_runs(&rs, "dom0", "ok"), 2);
    for (i = 0; i < rs.n_runs; i++)
        if (!strcmp(rs.runs[i]->status, "failed"))
            assert_string_equal(rs.runs[i]->error, "target missing from the control disk's result");
    check_torn_down();
    vdc_result_set_dispose(&rs);
}

/* A guest that claims host figures: they are dropped at merge (the host
 * measures them; the mock hypervisor gives none) */
static void
test_guest_host_dropped(void **state)
{
    vdc_result_set rs;
    size_t i, j;

    F.guest_host = 1;
    assert_int_equal(run_flow(&rs), VDC_EXIT_OK);
    assert_int_equal(count_runs(&rs, "image", "ok"), 2);
    for (i = 0; i < rs.n_runs; i++) {
        assert_null(rs.runs[i]->host);
        for (j = 0; j < rs.runs[i]->n_samples; j++)
            assert_null(rs.runs[i]->samples[j]->host);
        /* nor an importer's mark on the run (import -o would replace it) */
        assert_null(rs.runs[i]->meta.source.file);
        assert_null(rs.runs[i]->meta.source.format);
        assert_true(rs.runs[i]->meta.source.line == VDC_INT_ABSENT);
    }
    check_torn_down();
    vdc_result_set_dispose(&rs);
}

/* A guest that lies: its answers are refused one by one (that run fails,
 * naming the cause), the others are kept, the result loads, exit 1 */
static void
test_hostile_frame(void **state)
{
    vdc_result_set rs;
    size_t i;

    F.hostile = 1;
    assert_int_equal(run_flow(&rs), VDC_EXIT_FAILURE);
    assert_int_equal(rs.n_runs, 6);                         /* exactly the steps of the plan */
    assert_int_equal(count_runs(&rs, "image", "ok"), 1);
    assert_int_equal(count_runs(&rs, "image", "failed"), 1);
    assert_int_equal(count_runs(&rs, "block", "ok"), 1);
    assert_int_equal(count_runs(&rs, "block", "failed"), 1);
    assert_int_equal(count_runs(&rs, "dom0", "ok"), 2);
    for (i = 0; i < rs.n_runs; i++) {
        const vdc_run *r = rs.runs[i];

        assert_string_not_equal(r->target, "ghost\x1b[2J");
        if (!strcmp(r->status, "failed") && !strcmp(r->target, "image"))
            assert_non_null(strstr(r->error, "agent result refused: 50 runs, expected exactly 1"));
        if (!strcmp(r->status, "failed") && !strcmp(r->target, "block"))
            assert_non_null(strstr(r->error, "runs[0].metadata.hostname: expected a string of at "
                                              "most 4096 bytes, found 5000 bytes"));
    }
    check_torn_down();
    vdc_result_set_dispose(&rs);
}

static void
test_interrupted(void **state)
{
    vdc_result_set rs;

    F.interrupt_on_create = 1;
    F.extra = "--order interleaved";     /* the domU boot comes first */
    assert_int_equal(run_flow(&rs), VDC_EXIT_INTERRUPTED);
    assert_int_equal(vdc_hv_mock()->n_create, 1);            /* nothing after the signal */
    assert_int_equal(count_runs(&rs, "dom0", "ok"), 0);
    check_torn_down();
    vdc_result_set_dispose(&rs);
}

/* --keep: images stay (journaled "kept"), domains and control disks go */
static void
test_keep(void **state)
{
    vdc_result_set rs;
    g_autofree char *img = g_strdup_printf("%s/imgs/a/vmdiskcmp-D-h-image.raw", F.dir);
    g_autofree char *jpath = g_strdup_printf("%s/out/journal", F.dir);
    g_autofree char *data = NULL;

    F.keep = 1;
    assert_int_equal(run_flow(&rs), VDC_EXIT_OK);
    assert_true(g_file_test(img, G_FILE_TEST_EXISTS));
    assert_int_equal(F.n_storage_destroyed, 0);
    assert_int_equal(vdc_hv_mock()->n_running, 0);
    assert_true(g_file_get_contents(jpath, &data, NULL, NULL));
    assert_non_null(strstr(data, "\nkept 1\n"));
    assert_null(strstr(data, "\nundone 1\n"));
    vdc_result_set_dispose(&rs);
}

/* --prepared-image: the manifest is read, nothing is prepared */
static void
test_prepared_image(void **state)
{
    vdc_result_set rs;

    struct stat sb;

    F.prepared = 1;
    assert_int_equal(chmod(F.dir, 0700), 0);
    assert_int_equal(run_flow(&rs), VDC_EXIT_OK);
    assert_int_equal(F.n_prepare, 0);
    assert_int_equal(F.n_loaded, 1);
    /* the user's image directory is never opened up (it was chmod 0755:
     * think --prepared-image /root/guest.img) */
    assert_int_equal(stat(F.dir, &sb), 0);
    assert_int_equal(sb.st_mode & 07777, 0700);
    assert_int_equal(count_runs(&rs, "image", "ok"), 2);
    check_torn_down();
    vdc_result_set_dispose(&rs);
}

/* --image-cache host,none: two image targets, each run, each journaled
 * with its cache mode, recorded in result.json targets[] (golden:
 * tests/golden/run/image-cache.targets.txt, VDC_REGENERATE=1 rewrites) and
 * shown in the report's metadata */
static void
test_image_cache(void **state)
{
    const char *top = getenv("top_srcdir");
    g_autofree char *golden = g_strdup_printf("%s/tests/golden/run/image-cache.targets.txt",
                                              top ? top : ".");
    g_autofree char *jpath = g_strdup_printf("%s/out/journal", F.dir);
    g_autofree char *journal = NULL, *want = NULL;
    GString *got = g_string_new(NULL);
    vdc_result_set rs;
    size_t i;

    F.extra = "--image-cache host,none";
    F.report = 1;
    F.qemu_direct = 1;
    F.cache_facts = 1;
    vdc_hv_mock()->on_disk_facts = m_disk_facts;
    assert_int_equal(run_flow(&rs), VDC_EXIT_OK);
    assert_int_equal(count_runs(&rs, "image", "ok"), 2);
    assert_int_equal(count_runs(&rs, "image-nocache", "ok"), 2);
    for (i = 0; i < rs.n_targets; i++) {
        const vdc_target *t = rs.targets[i];

        g_string_append_printf(got, "%s kind=%s where=%s image_backend=%s image_cache=%s\n",
                               t->name, t->kind, t->where,
                               t->requested.image_backend ? t->requested.image_backend : "-",
                               t->requested.image_cache ? t->requested.image_cache : "-");
    }
    if (getenv("VDC_REGENERATE") && !strcmp(getenv("VDC_REGENERATE"), "1"))
        assert_true(g_file_set_contents(golden, got->str, -1, NULL));
    assert_true(g_file_get_contents(golden, &want, NULL, NULL));
    assert_string_equal(got->str, want);
    assert_true(g_file_get_contents(jpath, &journal, NULL, NULL));
    assert_non_null(strstr(journal, "-image-nocache.raw where=domU format=raw alloc=sparse "
                                    "image_backend=auto image_cache=none\n"));
    /* the report's metadata shows what was asked */
    {
        g_autofree char *md = g_strdup_printf("%s/out/report.md", F.dir);
        g_autofree char *html = g_strdup_printf("%s/out/report.html", F.dir);
        g_autofree char *report = NULL, *page = NULL;

        assert_true(g_file_get_contents(md, &report, NULL, NULL));
        assert_non_null(strstr(report, "- Target image-nocache: requested image cache: none\n"));
        assert_non_null(strstr(report, "- Target image: requested image cache: host\n"));
        assert_true(g_file_get_contents(html, &page, NULL, NULL));
        assert_non_null(strstr(page, "Target image-nocache: requested image cache</td><td>none<"));
    }
    check_torn_down();
    g_string_free(got, TRUE);
    vdc_result_set_dispose(&rs);
}

/* The mock's disk facts: the live XML of a libvirt qemu domain (vdb the
 * host image, QEMU's default; vdc the image with none, cache='none') and
 * its QEMU's pid; QEMU's open flags from F.qemu_direct. */
static int
m_disk_facts(const char *name, vdc_hv_disk_facts *out, void *opaque)
{
    static const char *const vdevs[] = { "vdb", "vdc" };
    size_t i;

    out->disks = g_ptr_array_new_with_free_func((GDestroyNotify)vdc_lv_disk_free);
    for (i = 0; i < G_N_ELEMENTS(vdevs); i++) {
        vdc_lv_disk *d = g_new0(vdc_lv_disk, 1);

        d->vdev = g_strdup(vdevs[i]);
        d->cache = i ? g_strdup("none") : NULL;
        d->io = i ? g_strdup("native") : NULL;
        g_ptr_array_add(out->disks, d);
    }
    out->qemu_pid = 4242;
    return 0;
}

static int
m_file_flags(int pid, const char *path, unsigned **flags, size_t *n)
{
    assert_int_equal(pid, 4242);
    *flags = g_new(unsigned, 1);
    (*flags)[0] = O_RDWR | (strstr(path, "-nocache") && g_str_has_suffix(path, ".raw") && F.qemu_direct
                            ? O_DIRECT : 0);
    if (strstr(path, "-nocache-g1.raw"))
        F.n_copy_flags++;
    *n = 1;
    return 0;
}

/* --image-cache host,none verified from the driver's facts and QEMU's open
 * flags: targets[].cache of each, both run */
static void
test_image_cache_verified(void **state)
{
    vdc_result_set rs;
    const vdc_target *h, *n;

    F.extra = "--image-cache host,none";
    F.qemu_direct = 1;
    F.cache_facts = 1;
    vdc_hv_mock()->on_disk_facts = m_disk_facts;
    assert_int_equal(run_flow(&rs), VDC_EXIT_OK);
    assert_int_equal(count_runs(&rs, "image", "ok"), 2);
    assert_int_equal(count_runs(&rs, "image-nocache", "ok"), 2);
    h = vdc_result_set_find_target(&rs, "image");
    n = vdc_result_set_find_target(&rs, "image-nocache");
    assert_string_equal(h->cache.requested, "host");
    assert_int_equal(h->cache.bypasses_dom0_page_cache, 0);
    assert_null(h->cache.libvirt_cache);
    assert_int_equal(h->cache.qemu_o_direct, 0);
    assert_string_equal(n->cache.requested, "none");
    assert_int_equal(n->cache.bypasses_dom0_page_cache, 1);
    assert_string_equal(n->cache.libvirt_cache, "none");
    assert_int_equal(n->cache.qemu_pid, 4242);
    assert_int_equal(n->cache.qemu_o_direct, 1);
    assert_string_equal(n->cache.source, "libvirt-live-xml,fdinfo");
    check_torn_down();
    vdc_result_set_dispose(&rs);
}

/* none that QEMU does not honour: that target fails with the fact named,
 * no numbers; the host image runs */
static void
test_image_cache_refused(void **state)
{
    vdc_result_set rs;
    size_t i;

    F.extra = "--image-cache host,none";
    F.qemu_direct = 0;
    F.cache_facts = 1;
    vdc_hv_mock()->on_disk_facts = m_disk_facts;
    assert_int_equal(run_flow(&rs), VDC_EXIT_FAILURE);
    assert_int_equal(count_runs(&rs, "image", "ok"), 2);
    assert_int_equal(count_runs(&rs, "image-nocache", "failed"), 2);
    for (i = 0; i < rs.n_runs; i++)
        if (!strcmp(rs.runs[i]->target, "image-nocache")) {
            assert_int_equal(rs.runs[i]->n_samples, 0);
            assert_non_null(strstr(rs.runs[i]->error, "--image-cache none refused: QEMU (pid 4242) "
                                                      "holds "));
            assert_non_null(strstr(rs.runs[i]->error, "-nocache.raw without O_DIRECT"));
        }
    assert_int_equal(vdc_result_set_find_target(&rs, "image-nocache")->cache.qemu_o_direct, 0);
    check_torn_down();
    vdc_error_reset();
    vdc_result_set_dispose(&rs);
}

/* none with a driver that reads back nothing: refused, not assumed */
static void
test_image_cache_no_facts(void **state)
{
    vdc_result_set rs;

    F.extra = "--image-cache none";
    assert_int_equal(run_flow(&rs), VDC_EXIT_FAILURE);
    assert_int_equal(count_runs(&rs, "image-nocache", "failed"), 2);
    assert_int_equal(count_runs(&rs, "block", "ok"), 2);
    assert_int_equal(vdc_result_set_find_target(&rs, "image-nocache")->cache.bypasses_dom0_page_cache,
                     VDC_BOOL_ABSENT);
    check_torn_down();
    vdc_error_reset();
    vdc_result_set_dispose(&rs);
}

/* The journal alone (as `vmdiskcmp cleanup` sees it): teardown twice is
 * harmless, failures are retried by the next call. */
static int undo_fail_once;
static GString *undo_log;

static int
undo_record(const vdc_journal_entry *e, void *opaque)
{
    if (undo_fail_once && e->seq == 2) {
        undo_fail_once = 0;
        return -1;
    }
    g_string_append_printf(undo_log, "%u ", e->seq);
    return 0;
}

static void
test_journal_idempotent(void **state)
{
    g_autofree char *path = g_strdup_printf("%s/journal", F.dir);
    const unsigned keep = VDC_JOURNAL_KIND_BIT(VDC_JOURNAL_IMAGE);
    vdc_journal j, k;

    vdc_journal_init(&k);

    undo_log = g_string_new(NULL);
    vdc_journal_init(&j);
    assert_int_equal(vdc_journal_create(&j, path, NULL), 0);
    assert_int_equal(vdc_journal_create(&k, path, NULL), -1);          /* never reused */
    vdc_journal_dispose(&k);
    assert_int_equal(vdc_journal_add(&j, &(vdc_journal_entry){ .kind = VDC_JOURNAL_IMAGE,
                                                               .path = "/a b,c=d" }), 1);
    assert_int_equal(vdc_journal_done(&j, 1), 0);
    assert_int_equal(vdc_journal_add(&j, &(vdc_journal_entry){ .kind = VDC_JOURNAL_DOMAIN,
                                                               .driver = "mock",
                                                               .name = "vmdiskcmp-x" }), 2);
    assert_int_equal(vdc_journal_add(&j, &(vdc_journal_entry){ .kind = VDC_JOURNAL_FILE,
                                                               .path = "/c" }), 3);
    vdc_journal_dispose(&j);

    vdc_journal_init(&j);
    assert_int_equal(vdc_journal_load(&j, path), 0);
    assert_string_equal(vdc_journal_find(&j, 1)->path, "/a b,c=d");
    undo_fail_once = 1;
    assert_int_equal(vdc_journal_teardown(&j, undo_record, NULL, keep), -1);
    assert_string_equal(undo_log->str, "3 ");                    /* 2 failed, 1 kept */
    assert_int_equal(vdc_journal_pending(&j), 1);
    assert_int_equal(vdc_journal_teardown(&j, undo_record, NULL, keep), 0);
    assert_string_equal(undo_log->str, "3 2 ");
    assert_int_equal(vdc_journal_teardown(&j, undo_record, NULL, keep), 0);
    assert_string_equal(undo_log->str, "3 2 ");
    vdc_journal_dispose(&j);
    g_string_free(undo_log, TRUE);
}

static void
test_journal_malformed(void **state)
{
    g_autofree char *path = g_strdup_printf("%s/bad-journal", F.dir);
    vdc_journal j;

    assert_true(g_file_set_contents(path, "vmdiskcmp-journal 1\nadd 1 image path=/x\ndone 7\n", -1, NULL));
    vdc_journal_init(&j);
    assert_int_equal(vdc_journal_load(&j, path), -1);
    vdc_journal_dispose(&j);
    assert_true(g_file_set_contents(path, "not a journal\n", -1, NULL));
    vdc_journal_init(&j);
    assert_int_equal(vdc_journal_load(&j, path), -1);
    vdc_journal_dispose(&j);
}

/* Typed entries round-trip through the text file: every kind with every
 * member, an image with a description that is not the default; the lines
 * are the version 1 format. */
static void
test_journal_typed_round_trip(void **state)
{
    g_autofree char *path = g_strdup_printf("%s/journal", F.dir);
    g_autofree char *text = NULL;
    const vdc_journal_entry in[] = {
        { .kind = VDC_JOURNAL_DOMAIN, .driver = "libxl", .uri = "", .name = "vmdiskcmp-x" },
        { .kind = VDC_JOURNAL_IMAGE, .path = "/i/vmdiskcmp-x-image-qdisk.qcow2",
          .image = { .where = VDC_WHERE_DOMU, .format = VDC_IMAGE_QCOW2, .alloc = VDC_IMAGE_SPARSE,
                     .backend = VDC_BACKEND_QDISK, .cache = VDC_IMAGE_CACHE_NONE } },
        { .kind = VDC_JOURNAL_IMAGE, .path = "/i/vmdiskcmp-x-dom0.raw",
          .image = { .where = VDC_WHERE_DOM0, .alloc = VDC_IMAGE_FULL } },
        { .kind = VDC_JOURNAL_LV, .vg = "vg0", .lv = "vmdiskcmp-x-lvm" },
        { .kind = VDC_JOURNAL_LOOP, .file = "/i/vmdiskcmp-x-dom0.raw" },
        { .kind = VDC_JOURNAL_MOUNT, .dir = "/o/mnt dom0", .source = "/dev/loop7" },
        { .kind = VDC_JOURNAL_DIR, .path = "/o/mnt dom0" },
        { .kind = VDC_JOURNAL_FILE, .path = "/o/control-0.img" },
    };
    vdc_journal j;
    size_t i;

    vdc_journal_init(&j);
    assert_int_equal(vdc_journal_create(&j, path, NULL), 0);
    for (i = 0; i < G_N_ELEMENTS(in); i++)
        assert_int_equal(vdc_journal_add(&j, &in[i]), i + 1);
    assert_int_equal(vdc_journal_done(&j, 2), 0);
    assert_int_equal(vdc_journal_kept(&j, 2), 0);
    assert_int_equal(vdc_journal_undone(&j, 8), 0);
    vdc_journal_dispose(&j);

    assert_true(g_file_get_contents(path, &text, NULL, NULL));
    assert_string_equal(text,
        "vmdiskcmp-journal 2\n"
        "add 1 domain driver=libxl uri= name=vmdiskcmp-x\n"
        "add 2 image path=%2Fi%2Fvmdiskcmp-x-image-qdisk.qcow2 where=domU format=qcow2 alloc=sparse image_backend=qdisk image_cache=none\n"
        "add 3 image path=%2Fi%2Fvmdiskcmp-x-dom0.raw where=dom0 format=raw alloc=full image_backend=auto image_cache=host\n"
        "add 4 lv vg=vg0 lv=vmdiskcmp-x-lvm\n"
        "add 5 loop file=%2Fi%2Fvmdiskcmp-x-dom0.raw\n"
        "add 6 mount dir=%2Fo%2Fmnt%20dom0 source=%2Fdev%2Floop7\n"
        "add 7 dir path=%2Fo%2Fmnt%20dom0\n"
        "add 8 file path=%2Fo%2Fcontrol-0.img\n"
        "done 2\nkept 2\nundone 8\n");

    vdc_journal_init(&j);
    assert_int_equal(vdc_journal_load(&j, path), 0);
    assert_int_equal(j.entries->len, G_N_ELEMENTS(in));
    for (i = 0; i < G_N_ELEMENTS(in); i++) {
        const vdc_journal_entry *e = vdc_journal_find(&j, (unsigned)i + 1), *w = &in[i];

        assert_int_equal(e->seq, i + 1);
        assert_int_equal(e->kind, w->kind);
        assert_string_equal(e->driver ? e->driver : "-", w->driver ? w->driver : "-");
        assert_string_equal(e->uri ? e->uri : "-", w->uri ? w->uri : "-");
        assert_string_equal(e->name ? e->name : "-", w->name ? w->name : "-");
        assert_string_equal(e->path ? e->path : "-", w->path ? w->path : "-");
        assert_string_equal(e->vg ? e->vg : "-", w->vg ? w->vg : "-");
        assert_string_equal(e->lv ? e->lv : "-", w->lv ? w->lv : "-");
        assert_string_equal(e->file ? e->file : "-", w->file ? w->file : "-");
        assert_null(e->dev);
        assert_string_equal(e->dir ? e->dir : "-", w->dir ? w->dir : "-");
        assert_string_equal(e->source ? e->source : "-", w->source ? w->source : "-");
        if (e->kind == VDC_JOURNAL_IMAGE) {
            assert_int_equal(e->image.backing, VDC_BACKING_IMAGE);
            assert_int_equal(e->image.where, w->image.where);
            assert_int_equal(e->image.format, w->image.format);
            assert_int_equal(e->image.alloc, w->image.alloc);
            assert_int_equal(e->image.backend, w->image.backend);
            assert_int_equal(e->image.cache, w->image.cache);
        }
    }
    assert_true(vdc_journal_find(&j, 2)->done && vdc_journal_find(&j, 2)->kept);
    assert_true(vdc_journal_find(&j, 8)->undone);
    assert_int_equal(vdc_journal_pending(&j), G_N_ELEMENTS(in) - 2);
    vdc_journal_dispose(&j);
}

/* Version 2: the run line (id, this pid, the start time) and the
 * identities (a domain's UUID at add, an inode and a UUID learnt at done,
 * an LV's run tag) round-trip; the text is as documented. */
static void
test_journal_identity_round_trip(void **state)
{
    g_autofree char *path = g_strdup_printf("%s/journal", F.dir);
    g_autofree char *tmp = g_strdup_printf("%s/journal.new", F.dir);
    g_autofree char *text = NULL;
    g_autofree char *want = NULL;
    vdc_journal j;

    vdc_journal_init(&j);
    assert_int_equal(vdc_journal_create(&j, path, "D.1Z-h-0a0b0c"), 0);
    assert_false(g_file_test(tmp, G_FILE_TEST_EXISTS));
    assert_int_equal(vdc_journal_add(&j, &(vdc_journal_entry){ .kind = VDC_JOURNAL_DOMAIN,
        .driver = "libvirt", .uri = "qemu:///system", .name = "vmdiskcmp-x",
        .uuid = "6b1c0d52-7a4e-4d43-9a50-1f7f3c2b9e01" }), 1);
    assert_int_equal(vdc_journal_done_ident(&j, 1, "uuid", "00000000-0000-0000-0000-00000000000a"), 0);
    assert_int_equal(vdc_journal_add(&j, &(vdc_journal_entry){ .kind = VDC_JOURNAL_DIR, .path = "/i" }), 2);
    assert_int_equal(vdc_journal_done_ident(&j, 2, "ino", "2049:77"), 0);
    assert_int_equal(vdc_journal_add(&j, &(vdc_journal_entry){ .kind = VDC_JOURNAL_LV, .vg = "vg0",
        .lv = "vmdiskcmp-x-lvm", .tag = "vmdiskcmp-run-x" }), 3);
    assert_int_equal(vdc_journal_done_ident(&j, 3, "uuid", "u"), -1);     /* not an LV's key */
    vdc_journal_dispose(&j);

    assert_true(g_file_get_contents(path, &text, NULL, NULL));
    want = g_strdup_printf(
        "vmdiskcmp-journal 2\n"
        "run id=D.1Z-h-0a0b0c pid=%ld started=",
        (long)getpid());
    assert_true(g_str_has_prefix(text, want));
    assert_non_null(strstr(text, "Z\n"
        "add 1 domain driver=libvirt uri=qemu%3A%2F%2F%2Fsystem name=vmdiskcmp-x uuid=6b1c0d52-7a4e-4d43-9a50-1f7f3c2b9e01\n"
        "done 1 uuid=00000000-0000-0000-0000-00000000000a\n"
        "add 2 dir path=%2Fi\n"
        "done 2 ino=2049%3A77\n"
        "add 3 lv vg=vg0 lv=vmdiskcmp-x-lvm tag=vmdiskcmp-run-x\n"));

    vdc_journal_init(&j);
    assert_int_equal(vdc_journal_load(&j, path), 0);
    assert_string_equal(j.run_id, "D.1Z-h-0a0b0c");
    assert_int_equal(atol(j.owner_pid), (long)getpid());
    assert_true(g_str_has_suffix(j.owner_started, "Z"));
    assert_string_equal(vdc_journal_find(&j, 1)->uuid, "00000000-0000-0000-0000-00000000000a");
    assert_true(vdc_journal_find(&j, 1)->done);
    assert_string_equal(vdc_journal_find(&j, 2)->ino, "2049:77");
    assert_string_equal(vdc_journal_find(&j, 3)->tag, "vmdiskcmp-run-x");
    assert_false(vdc_journal_find(&j, 3)->done);
    vdc_journal_dispose(&j);
}

/* A version 1 journal as older builds wrote it (image entries with a path
 * only, a loop entry with its file only) loads: the image's description
 * is the default; keys this build does not know are ignored; a value that
 * is not a name of model/target.h, or an unknown kind, is refused with its
 * line. */
static void
test_journal_old_format(void **state)
{
    g_autofree char *path = g_strdup_printf("%s/old-journal", F.dir);
    const vdc_journal_entry *e;
    vdc_journal j;

    assert_true(g_file_set_contents(path,
        "vmdiskcmp-journal 1\n"
        "add 1 dir path=%2Fvar%2Flib%2Fvmdiskcmp\n"
        "done 1\n"
        "add 2 image path=%2Fvar%2Flib%2Fvmdiskcmp%2Fvmdiskcmp-R-h-image.raw\n"
        "done 2\n"
        "add 3 lv vg=vg0 lv=vmdiskcmp-R-lvm\n"
        "done 3\n"
        "add 4 loop file=%2Fvar%2Flib%2Fvmdiskcmp%2Fvmdiskcmp-R-h-image.raw\n"
        "add 5 domain driver=libxl uri= name=vmdiskcmp-R-h later=key\n"
        "done 5\nundone 5\n", -1, NULL));
    vdc_journal_init(&j);
    assert_int_equal(vdc_journal_load(&j, path), 0);
    assert_int_equal(j.entries->len, 5);
    e = vdc_journal_find(&j, 2);
    assert_int_equal(e->kind, VDC_JOURNAL_IMAGE);
    assert_string_equal(e->path, "/var/lib/vmdiskcmp/vmdiskcmp-R-h-image.raw");
    assert_int_equal(e->image.backing, VDC_BACKING_IMAGE);
    assert_int_equal(e->image.where, VDC_WHERE_DOMU);
    assert_int_equal(e->image.format, VDC_IMAGE_RAW);
    assert_int_equal(e->image.alloc, VDC_IMAGE_SPARSE);
    assert_int_equal(e->image.cache, VDC_IMAGE_CACHE_HOST);
    e = vdc_journal_find(&j, 3);
    assert_int_equal(e->kind, VDC_JOURNAL_LV);
    assert_string_equal(e->vg, "vg0");
    assert_string_equal(e->lv, "vmdiskcmp-R-lvm");
    e = vdc_journal_find(&j, 4);
    assert_int_equal(e->kind, VDC_JOURNAL_LOOP);
    assert_null(e->dev);
    assert_false(e->done);
    e = vdc_journal_find(&j, 5);
    assert_string_equal(e->uri, "");
    assert_string_equal(e->name, "vmdiskcmp-R-h");
    assert_true(e->undone);
    assert_int_equal(vdc_journal_pending(&j), 4);
    vdc_journal_dispose(&j);

    /* an identity of another shape than the run writes is refused, not
     * taken as "not ours" */
    static const char *const bad[][2] = {
        { "add 1 image path=%2Fx.raw format=vmdk", ":2: image format 'vmdk': expected one of raw|qcow2\n" },
        { "add 1 disk path=%2Fx", ":2: kind 'disk': expected domain, image, lv, loop, mount, dir, file or proc\n" },
        /* the numbers as lstat's are printed: another spelling of the same
         * inode, or a number past 64 bits, would match nothing */
        { "add 1 file path=%2Fx ino=02049%3A77", ":2: file ino '02049:77': expected DEV:INO" },
        { "add 1 file path=%2Fx ino=2049%3A077", ":2: file ino '2049:077': expected DEV:INO" },
        { "add 1 dir path=%2Fx\ndone 1 ino=2049%3A18446744073709551616", ":3: dir ino '2049:18446744073709551616': expected DEV:INO" },
        { "add 1 dir path=%2Fx\ndone 1 ino=2049%3A77%3A1", ":3: dir ino '2049:77:1': expected DEV:INO" },
        /* empty lines count: the line named is the one in the file */
        { "add 1 dir path=%2Fx\n\n\nbogus", ":5: malformed line" },
        { "add 1 dir path=%2Fx\ndone 1 ino=garbage",
          ":3: dir ino 'garbage': expected DEV:INO (two decimal numbers without leading zeros, as lstat gives st_dev and st_ino)\n" },
        { "add 1 file path=%2Fx ino=2049%3A", ":2: file ino '2049:': expected DEV:INO" },
        { "add 1 image path=%2Fx.raw\ndone 1 ino=-1%3A5", ":3: image ino '-1:5': expected DEV:INO" },
        { "add 1 domain driver=mock uri= name=vmdiskcmp-x uuid=not-a-uuid",
          ":2: domain uuid 'not-a-uuid': expected a UUID (8-4-4-4-12 hex digits)\n" },
        { "add 1 domain driver=mock uri= name=vmdiskcmp-x uuid=6b1c0d52-7a4e-4d43-9a50-1f7f3c2b9e01\n"
          "done 1 uuid=6b1c0d52", ":3: domain uuid '6b1c0d52': expected a UUID" },
    };
    for (size_t k = 0; k < G_N_ELEMENTS(bad); k++) {
        g_autofree char *data = g_strdup_printf("vmdiskcmp-journal 1\n%s\n", bad[k][0]);
        char *err;

        assert_true(g_file_set_contents(path, data, -1, NULL));
        vdc_journal_init(&j);
        capture_stderr_begin();
        assert_int_equal(vdc_journal_load(&j, path), -1);
        err = capture_stderr_end();
        vdc_journal_dispose(&j);
        assert_non_null(strstr(err, bad[k][1]));
        assert_true(g_str_has_prefix(err, "vmdiskcmp: journal "));
        assert_ptr_equal(strchr(err, '\n'), err + strlen(err) - 1);    /* one line */
        free(err);
    }
    /* a last line cut short (no newline) is refused, not replayed: its
     * path may name something else; a NUL byte is named */
    static const char *const cut[][2] = {
        { "vmdiskcmp-journal 2\nrun id=R\nadd 1 file path=%2Fx%2Fvic", ":3: a last line without its newline (cut short)" },
        { "vmdiskcmp-journal 2\nrun id=R\nadd 1 file path=%2Fx\ndone 1", ":4: a last line without its newline" },
        { "vmdiskcmp-journal 2\nrun id=R\nadd 1 file path=%2Fx\0\n", ": a NUL byte at offset 49: expected a text file" },
    };
    for (size_t k = 0; k < G_N_ELEMENTS(cut); k++) {
        char *err;

        assert_true(g_file_set_contents(path, cut[k][0], (gssize)(strlen(cut[k][0]) + (k == 2 ? 2 : 0)), NULL));
        vdc_journal_init(&j);
        capture_stderr_begin();
        assert_int_equal(vdc_journal_load(&j, path), -1);
        err = capture_stderr_end();
        vdc_journal_dispose(&j);
        if (!strstr(err, cut[k][1]))
            fprintf(stderr, "case %zu: %s", k, err);
        assert_non_null(strstr(err, cut[k][1]));
        assert_ptr_equal(strchr(err, '\n'), err + strlen(err) - 1);    /* one line */
        free(err);
    }
    /* and the canonical numbers load: 0 and UINT64_MAX */
    assert_true(g_file_set_contents(path, "vmdiskcmp-journal 2\nrun id=R\nadd 1 dir path=%2Fx\n"
                                    "done 1 ino=0%3A18446744073709551615\n", -1, NULL));
    vdc_journal_init(&j);
    assert_int_equal(vdc_journal_load(&j, path), 0);
    assert_string_equal(vdc_journal_find(&j, 1)->ino, "0:18446744073709551615");
    vdc_journal_dispose(&j);
}

/* A domain of the run's name but another UUID exists (another run's, say):
 * the run's create fails, and neither the boot nor the teardown destroys
 * it; one line per journaled domain says it was left alone. */
static void
test_same_name_other_uuid_not_destroyed(void **state)
{
    static const char theirs[] = "0f0e0d0c-0b0a-4908-8706-050403020100";
    char uuid[VDC_HV_UUID_LEN];
    vdc_result_set rs;
    char *err;

    vdc_hv_mock_add_foreign("vmdiskcmp-D-h", theirs);
    capture_stderr_begin();
    assert_int_equal(run_flow(&rs), VDC_EXIT_FAILURE);
    err = capture_stderr_end();
    assert_int_equal(vdc_hv_mock_ops.uuid(NULL, "vmdiskcmp-D-h", uuid), 1);
    assert_string_equal(uuid, theirs);
    assert_non_null(strstr(err, "vmdiskcmp: domain vmdiskcmp-D-h: UUID 0f0e0d0c-0b0a-4908-8706-050403020100 "
                                "is not this run's ("));
    assert_non_null(strstr(err, "): left alone\n"));
    assert_int_equal(count_runs(&rs, "image", "failed"), 2);
    check_torn_down();          /* everything of ours is gone all the same */
    free(err);
    vdc_result_set_dispose(&rs);
}

/* Before anything is made: the run id is taken when a domain of its name
 * exists (through the driver), or one of its images, or (default --out)
 * its result directory; else free.  Nothing is created by asking. */
static void
test_run_id_taken_by_domain_image_or_directory(void **state)
{
    g_autofree char *line = g_strdup_printf("run --hypervisor mock --image --guest-image /g.img "
                                            "--image-dir %s/imgs --out %s/out", F.dir, F.dir);
    g_autofree char *img = g_strdup_printf("%s/imgs/vmdiskcmp-D-h-image.raw", F.dir);
    g_autofree char *imgs = g_strdup_printf("%s/imgs", F.dir);
    g_auto(GStrv) argv = NULL;
    const vdc_host_defaults h = { .hostname = "h", .ram_mib = 64, .date_id = "D" };
    vdc_run_env env;
    vdc_run_opts o;
    vdc_plan p;
    int argc;

    assert_true(g_shell_parse_argv(line, &argc, &argv, NULL));
    vdc_run_opts_init(&o);
    vdc_plan_init(&p);
    assert_int_equal(vdc_run_opts_parse(&o, argc, argv), 0);
    assert_int_equal(vdc_plan_build(&o, &h, line, &p), 0);
    make_env(&env);
    assert_int_equal(vdc_run_id_taken(&p, &env, 1), 0);
    assert_false(g_file_test(p.out_dir, G_FILE_TEST_EXISTS));
    vdc_hv_mock_add_foreign("vmdiskcmp-D-h", "0f0e0d0c-0b0a-4908-8706-050403020100");
    assert_int_equal(vdc_run_id_taken(&p, &env, 1), 1);
    vdc_hv_mock_reset();
    assert_int_equal(g_mkdir(imgs, 0755), 0);
    assert_true(g_file_set_contents(img, "", 0, NULL));
    assert_int_equal(vdc_run_id_taken(&p, &env, 1), 1);
    assert_int_equal(g_unlink(img), 0);
    assert_int_equal(g_mkdir(p.out_dir, 0755), 0);
    assert_int_equal(vdc_run_id_taken(&p, &env, 1), 1);
    assert_int_equal(vdc_run_id_taken(&p, &env, 0), 0);     /* --out given: preflight's to refuse */
    vdc_plan_dispose(&p);
    vdc_run_opts_dispose(&o);
}

/* A run that made an image and holds its journal: a child process that
 * journals F.dir/imgs/vmdiskcmp-R-h-image.raw (made, inode recorded) under
 * F.dir/out, then waits until @go is written to, or is killed.  Returns
 * its pid once the journal exists. */
static pid_t
start_owner(int go[2])
{
    g_autofree char *out = g_strdup_printf("%s/out", F.dir);
    g_autofree char *imgs = g_strdup_printf("%s/imgs", F.dir);
    int ready[2];
    char c;
    pid_t pid;

    assert_int_equal(pipe(ready), 0);
    assert_int_equal(pipe(go), 0);
    assert_int_equal(g_mkdir(out, 0755), 0);
    assert_int_equal(g_mkdir(imgs, 0755), 0);
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        g_autofree char *jpath = g_strdup_printf("%s/journal", out);
        g_autofree char *img = g_strdup_printf("%s/vmdiskcmp-R-h-image.raw", imgs);
        g_autofree char *ino = NULL;
        vdc_journal j;
        unsigned seq;

        vdc_journal_init(&j);
        if (vdc_journal_create(&j, jpath, "R-h") < 0 ||
            !(seq = vdc_journal_add(&j, &(vdc_journal_entry){ .kind = VDC_JOURNAL_IMAGE, .path = img })) ||
            !g_file_set_contents(img, "", 0, NULL) || !(ino = vdc_journal_ino_of(img)) ||
            vdc_journal_done_ident(&j, seq, "ino", ino) < 0)
            _exit(1);
        if (write(ready[1], "r", 1) != 1 || read(go[0], &c, 1) != 1)
            _exit(1);
        _exit(0);       /* ends holding the journal: torn down by nobody */
    }
    close(ready[1]);
    assert_int_equal(read(ready[0], &c, 1), 1);
    close(ready[0]);
    return pid;
}

/* While the run lives (its journal locked), `cleanup DIR` touches nothing
 * and fails naming the run; `cleanup --all` skips it, naming it too. */
static void
test_cleanup_lock_held_refuses(void **state)
{
    g_autofree char *out = g_strdup_printf("%s/out", F.dir);
    g_autofree char *img = g_strdup_printf("%s/imgs/vmdiskcmp-R-h-image.raw", F.dir);
    g_autoptr(GPtrArray) live = g_ptr_array_new_with_free_func(g_free);
    int go[2], status;
    vdc_run_env env;
    pid_t pid = start_owner(go);
    g_autofree char *who = g_strdup_printf("run R-h (pid %ld, started ", (long)pid);
    char *err;

    make_env(&env);
    capture_stderr_begin();
    assert_int_equal(vdc_run_cleanup_dir(out, &env, 0, live), -1);
    err = capture_stderr_end();
    assert_non_null(strstr(err, who));
    assert_non_null(strstr(err, "is still running (its journal is locked): nothing touched\n"));
    assert_ptr_equal(strchr(err, '\n'), err + strlen(err) - 1);    /* one line */
    free(err);
    assert_true(g_file_test(img, G_FILE_TEST_EXISTS));
    assert_int_equal(vdc_run_cleanup_dir(out, &env, 1, live), 0);
    assert_true(g_file_test(img, G_FILE_TEST_EXISTS));
    assert_int_equal(live->len, 2);
    assert_string_equal(g_ptr_array_index(live, 1), "R-h");
    assert_int_equal(F.n_storage_destroyed, 0);
    assert_int_equal(write(go[1], "g", 1), 1);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* A run killed hard leaves its journal with a lock nobody holds: cleanup
 * takes it and removes what the run made. */
static void
test_cleanup_stale_lock_cleaned(void **state)
{
    g_autofree char *out = g_strdup_printf("%s/out", F.dir);
    g_autofree char *img = g_strdup_printf("%s/imgs/vmdiskcmp-R-h-image.raw", F.dir);
    int go[2], status;
    vdc_run_env env;
    pid_t pid = start_owner(go);

    assert_int_equal(kill(pid, SIGKILL), 0);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status));
    make_env(&env);
    assert_int_equal(vdc_run_cleanup_dir(out, &env, 0, NULL), 0);
    assert_false(g_file_test(img, G_FILE_TEST_EXISTS));
    assert_int_equal(F.n_storage_destroyed, 1);
    /* and a second cleanup finds nothing left */
    assert_int_equal(vdc_run_cleanup_dir(out, &env, 0, NULL), 0);
    assert_int_equal(F.n_storage_destroyed, 1);
}

/* The record a run leaves for the journal at @jpath (run @id), as a run
 * that crashed leaves it: written, its lock released (runrec.h). */
static void
record_for(const char *jpath, const char *id)
{
    vdc_runrec r;

    assert_int_equal(vdc_runrec_create(&r, id, jpath), 0);
    vdc_runrec_dispose(&r);
}

/* A journal naming an existing directory beside an image: a version 1
 * journal (no run, no record) and a version 2 one without its run's
 * record are refused whole (bad input, nothing touched); the same version
 * 2 journal with its record, whose recorded inode is not the directory's:
 * cleanup leaves the directory alone, saying so; the image, long gone,
 * counts as removed.  Bug cleanup-removes-image-dir: an image entry
 * (DIR/vmdiskcmp-x-image.raw, no such file) with a dir entry recording
 * DIR's inode as it is now made cleanup remove DIR, never made by
 * vmdiskcmp: without the run's record nothing is touched. */
static void
test_cleanup_foreign_directory_left_alone(void **state)
{
    g_autofree char *out = g_strdup_printf("%s/out", F.dir);
    g_autofree char *dir = g_strdup_printf("%s/operator-dir", F.dir);
    g_autofree char *jpath = g_strdup_printf("%s/journal", out);
    g_autofree char *edir = g_uri_escape_string(dir, NULL, FALSE);
    g_autofree char *dino = NULL;
    vdc_run_env env;
    int v;

    assert_int_equal(g_mkdir(out, 0755), 0);
    assert_int_equal(g_mkdir(dir, 0755), 0);
    dino = vdc_journal_ino_of(dir);
    make_env(&env);
    for (v = 1; v <= 4; v++) {
        g_autofree char *text = g_strdup_printf(
            "vmdiskcmp-journal %d\n%s"
            "add 1 dir path=%s\ndone 1%s%s\n"
            "add 2 image path=%s%%2Fvmdiskcmp-R-h-image.raw\ndone 2\n",
            v == 1 ? 1 : 2, v > 1 ? "run id=R-h pid=1 started=2026-01-01T00:00:00Z\n" : "", edir,
            v > 1 ? " ino=" : "", v == 2 ? dino : v > 1 ? "1:1" : "", edir);
        char *err;

        (void)g_unlink(jpath);
        assert_true(g_file_set_contents(jpath, text, -1, NULL));
        if (v == 4)
            record_for(jpath, "R-h");
        vdc_error_reset();
        capture_stderr_begin();
        assert_int_equal(vdc_run_cleanup_dir(out, &env, 0, NULL), v == 4 ? 0 : -1);
        err = capture_stderr_end();
        assert_true(g_file_test(dir, G_FILE_TEST_IS_DIR));
        assert_non_null(strstr(err, v == 4 ? "not the one this run made (inode 1:1): left alone"
                                    : v == 1 ? "its run line names no run id"
                                             : "/R-h): no record of that run"));
        assert_int_equal(vdc_error_last_kind(), v == 4 ? VDC_ERR_NONE : VDC_ERR_INPUT);
        free(err);
    }
    assert_int_equal(F.n_storage_destroyed, 1);
    /* everything undone: the record went with it */
    {
        g_autofree char *rec = g_build_filename(g_getenv("VDC_STATE_DIR"), "R-h", NULL);

        assert_false(g_file_test(rec, G_FILE_TEST_EXISTS));
    }
}

/* A journal is acted on only where its run wrote it: a copy elsewhere, the
 * journal replaced by another file of the same text, a record of another
 * run id, a record others may write: each refused whole, nothing touched;
 * the journal as the run made it, with its record: cleaned. */
static void
test_cleanup_journal_proven(void **state)
{
    g_autofree char *out = g_strdup_printf("%s/out", F.dir);
    g_autofree char *copy = g_strdup_printf("%s/copy", F.dir);
    g_autofree char *jpath = g_strdup_printf("%s/journal", out);
    g_autofree char *jcopy = g_strdup_printf("%s/journal", copy);
    g_autofree char *img = g_strdup_printf("%s/imgs/vmdiskcmp-R-h-image.raw", F.dir);
    g_autofree char *rec = g_build_filename(g_getenv("VDC_STATE_DIR"), "R-h", NULL);
    g_autofree char *text = NULL;
    int go[2], status;
    vdc_run_env env;
    pid_t pid = start_owner(go);
    char *err;

    assert_int_equal(kill(pid, SIGKILL), 0);
    assert_int_equal(waitpid(pid, &status, 0), pid);
    make_env(&env);
    assert_true(g_file_get_contents(jpath, &text, NULL, NULL));
    /* a copy in another directory */
    assert_int_equal(g_mkdir(copy, 0755), 0);
    assert_true(g_file_set_contents(jcopy, text, -1, NULL));
    capture_stderr_begin();
    assert_int_equal(vdc_run_cleanup_dir(copy, &env, 0, NULL), -1);
    err = capture_stderr_end();
    assert_non_null(strstr(err, "the run wrote its journal elsewhere (moved or copied?); nothing touched"));
    free(err);
    /* the journal replaced by a file of the same text */
    assert_int_equal(g_rename(jpath, g_strdup_printf("%s.orig", jpath)), 0);
    assert_true(g_file_set_contents(jpath, text, -1, NULL));
    capture_stderr_begin();
    assert_int_equal(vdc_run_cleanup_dir(out, &env, 0, NULL), -1);
    err = capture_stderr_end();
    assert_non_null(strstr(err, "the file is not the one the run created (replaced?)"));
    free(err);
    assert_int_equal(g_rename(g_strdup_printf("%s.orig", jpath), jpath), 0);
    /* a record others may write */
    assert_int_equal(chmod(rec, 0666), 0);
    capture_stderr_begin();
    assert_int_equal(vdc_run_cleanup_dir(out, &env, 0, NULL), -1);
    err = capture_stderr_end();
    assert_non_null(strstr(err, "the record is not a file of mode 0600 that only root writes"));
    free(err);
    assert_int_equal(chmod(rec, 0600), 0);
    assert_true(g_file_test(img, G_FILE_TEST_EXISTS));
    assert_int_equal(F.n_storage_destroyed, 0);
    /* as the run left it */
    assert_int_equal(vdc_run_cleanup_dir(out, &env, 0, NULL), 0);
    assert_false(g_file_test(img, G_FILE_TEST_EXISTS));
    assert_false(g_file_test(rec, G_FILE_TEST_EXISTS));      /* nothing left: the record goes */
}

/* A proven journal's domain entry destroys the domain of that UUID only
 * when the domain carries the journal's run id (its metadata): one that
 * carries another run's id, or none, is left alone. */
static void
test_cleanup_domain_of_other_run_left_alone(void **state)
{
    static const char uuid[] = "6b1c0d52-7a4e-4d43-9a50-1f7f3c2b9e01";
    g_autofree char *out = g_strdup_printf("%s/out", F.dir);
    g_autofree char *jpath = g_strdup_printf("%s/journal", out);
    char have[VDC_HV_UUID_LEN];
    const char *runs[] = { "L-h", NULL, "R-h" };
    vdc_run_env env;
    size_t i;

    assert_int_equal(g_mkdir(out, 0755), 0);
    make_env(&env);
    for (i = 0; i < G_N_ELEMENTS(runs); i++) {
        vdc_journal j;
        char *err;

        vdc_journal_init(&j);
        (void)g_unlink(jpath);
        assert_int_equal(vdc_journal_create(&j, jpath, "R-h"), 0);
        assert_int_not_equal(vdc_journal_add(&j, &(vdc_journal_entry){
            .kind = VDC_JOURNAL_DOMAIN, .driver = "mock", .uri = "", .name = "vmdiskcmp-L-h",
            .uuid = uuid }), 0);
        vdc_runrec_dispose(&j.rec);     /* the run dies: its record stays, unlocked */
        vdc_journal_dispose(&j);
        vdc_hv_mock_add_foreign_run("vmdiskcmp-L-h", uuid, runs[i]);
        capture_stderr_begin();
        assert_int_equal(vdc_run_cleanup_dir(out, &env, 0, NULL), 0);
        err = capture_stderr_end();
        if (i < 2) {
            assert_int_equal(vdc_hv_mock_ops.uuid(NULL, "vmdiskcmp-L-h", have), 1);
            assert_non_null(strstr(err, runs[i] ? "its metadata names run L-h, not run R-h: not made by that run, left alone"
                                                : "its metadata names no run, not run R-h"));
        } else {
            assert_int_equal(vdc_hv_mock_ops.uuid(NULL, "vmdiskcmp-L-h", have), 0);
        }
        free(err);
    }
}

/* A proven journal's proc entry naming a process of a live run (a child of
 * another run's controller, which holds its run record) is not touched,
 * however well its pid, start time, executable and boot match. */
static void
test_cleanup_proc_of_live_run_left_alone(void **state)
{
    g_autofree char *out = g_strdup_printf("%s/out", F.dir);
    g_autofree char *other = g_strdup_printf("%s/other", F.dir);
    g_autofree char *jpath = g_strdup_printf("%s/journal", out);
    g_autofree char *exe = g_strdup_printf("%s/vmdiskcmp-sleep", F.dir);
    g_autofree char *sleep_bin = g_find_program_in_path("sleep");
    g_autofree char *boot = vdc_boot_id();
    g_autofree char *pid_s = NULL, *start_s = NULL, *err = NULL;
    g_autofree char *cmd = NULL;
    vdc_task_stat ts;
    int ready[2], go[2], status;
    pid_t ctl, victim = 0;
    vdc_run_env env;
    vdc_journal j;

    assert_non_null(sleep_bin);
    cmd = g_strdup_printf("cp %s %s", sleep_bin, exe);
    assert_int_equal(system(cmd), 0);
    assert_int_equal(g_mkdir(out, 0755), 0);
    assert_int_equal(g_mkdir(other, 0755), 0);
    vdc_journal_init(&j);
    assert_int_equal(vdc_journal_create(&j, jpath, "R-h"), 0);
    /* the other run: a controller holding its journal and record, whose
     * child runs vmdiskcmp-sleep */
    assert_int_equal(pipe(ready), 0);
    assert_int_equal(pipe(go), 0);
    ctl = fork();
    assert_true(ctl >= 0);
    if (ctl == 0) {
        g_autofree char *ojpath = g_strdup_printf("%s/journal", other);
        vdc_journal oj;
        pid_t kid;
        char c;

        close(j.fd);                    /* the locks are this run's, not the other's */
        close(j.rec.fd);
        vdc_journal_init(&oj);
        if (vdc_journal_create(&oj, ojpath, "L-h") < 0)
            _exit(1);
        kid = fork();
        if (kid == 0) {
            setpgid(0, 0);
            execl(exe, exe, "600", (char *)NULL);
            _exit(127);
        }
        if (write(ready[1], &kid, sizeof(kid)) != sizeof(kid) || read(go[0], &c, 1) != 1)
            _exit(1);
        kill(kid, SIGKILL);
        waitpid(kid, NULL, 0);
        vdc_journal_dispose(&oj);
        _exit(0);
    }
    close(ready[1]);
    assert_int_equal(read(ready[0], &victim, sizeof(victim)), sizeof(victim));
    /* until the child has exec'd */
    for (int n = 0; n < 500; n++) {
        g_autofree char *link = g_strdup_printf("/proc/%d/exe", (int)victim);
        g_autofree char *now = g_file_read_link(link, NULL);

        if (now && !strcmp(now, exe))
            break;
        g_usleep(10000);
    }
    assert_int_equal(vdc_task_stat_read(victim, 0, &ts), 0);
    pid_s = g_strdup_printf("%d", (int)victim);
    start_s = g_strdup_printf("%" G_GUINT64_FORMAT, ts.starttime);
    assert_int_not_equal(vdc_journal_add(&j, &(vdc_journal_entry){
        .kind = VDC_JOURNAL_PROC, .pid = pid_s, .start = start_s, .exe = exe, .boot = boot }), 0);
    vdc_runrec_dispose(&j.rec);         /* this run dies, its record stays */
    vdc_journal_dispose(&j);
    make_env(&env);
    capture_stderr_begin();
    assert_int_equal(vdc_run_cleanup_dir(out, &env, 0, NULL), -1);
    err = capture_stderr_end();
    assert_int_equal(kill(victim, 0), 0);                   /* alive */
    assert_non_null(strstr(err, "belongs to run L-h (controller pid "));
    assert_non_null(strstr(err, "): not touched"));
    assert_int_equal(write(go[1], "g", 1), 1);
    assert_int_equal(waitpid(ctl, &status, 0), ctl);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* Two job files (rw=randrw) in F.dir/wl: "--workload A,B" for F.extra. */
static char *
workload_files(void)
{
    g_autofree char *dir = g_strdup_printf("%s/wl", F.dir);
    g_autofree char *a = g_strdup_printf("%s/a.fio", dir);
    g_autofree char *b = g_strdup_printf("%s/b.fio", dir);

    assert_int_equal(g_mkdir(dir, 0755), 0);
    assert_true(g_file_set_contents(a, "[rand-a]\nrw=randrw\nbs=4k\nsize=8m\n", -1, NULL));
    assert_true(g_file_set_contents(b, "[global]\nsize=4m\n[rand-b]\nrw=randrw\n", -1, NULL));
    return g_strdup_printf("--workload %s,%s", a, b);
}

static int
has_sample(const vdc_run *r, const char *key)
{
    size_t i;

    for (i = 0; i < r->n_samples; i++) {
        g_autofree char *k = vdc_sample_key(r->samples[i]);

        if (!strcmp(k, key))
            return 1;
    }
    return 0;
}

/* --workload: every step runs the bonnie++ pass and the workload pass; the
 * run of each step holds both, in the domU and in dom0; the raw answers
 * and the job files are kept beside the results */
static void
test_workloads(void **state)
{
    g_autofree char *extra = workload_files();
    g_autofree char *raw = g_strdup_printf("%s/out/runs/image-1.workloads.json", F.dir);
    g_autofree char *jobfile = g_strdup_printf("%s/out/workloads/rand-b.fio", F.dir);
    g_autofree char *planfile = g_strdup_printf("%s/out/plan.json", F.dir);
    g_autofree char *plan = NULL;
    vdc_result_set rs;
    size_t i;

    F.extra = extra;
    assert_int_equal(run_flow(&rs), VDC_EXIT_OK);
    assert_int_equal(F.wl_flags & VDC_CTL_JOB_NO_BONNIE, 0);
    assert_int_equal(rs.n_runs, 6);
    for (i = 0; i < rs.n_runs; i++) {
        const vdc_run *r = rs.runs[i];

        assert_string_equal(r->status, "ok");
        assert_true(has_sample(r, "put_block"));
        assert_true(has_sample(r, "workload_read@rand-a"));
        assert_true(has_sample(r, "workload_write@rand-a"));
        assert_true(has_sample(r, "workload_read@rand-b"));
        assert_int_equal(r->n_samples, 5);
    }
    assert_true(g_file_test(raw, G_FILE_TEST_IS_REGULAR));
    assert_true(g_file_test(jobfile, G_FILE_TEST_IS_REGULAR));
    assert_true(g_file_get_contents(planfile, &plan, NULL, NULL));
    assert_non_null(strstr(plan, "\"name\" : \"rand-b\""));
    assert_non_null(strstr(plan, "\"workloads\"\n  ]"));
    check_torn_down();
    vdc_result_set_dispose(&rs);
}

/* --workload-on raw,file: each step runs the jobs on the raw device (the
 * raw pass, with the run's consent) and on a file; the run of each step
 * holds both, keyed apart, in the domU and in dom0 */
static void
test_workloads_raw(void **state)
{
    g_autofree char *wl = workload_files();
    g_autofree char *extra = g_strdup_printf("%s --workload-on raw,file", wl);
    g_autofree char *raw = g_strdup_printf("%s/out/runs/image-1.raw-workloads.json", F.dir);
    g_autofree char *dom0raw = g_strdup_printf("%s/out/runs/dom0-0.raw-workloads.json", F.dir);
    g_autofree char *planfile = g_strdup_printf("%s/out/plan.json", F.dir);
    g_autofree char *plan = NULL;
    vdc_result_set rs;
    size_t i;

    F.extra = extra;
    assert_int_equal(run_flow(&rs), VDC_EXIT_OK);
    assert_int_equal(F.wl_flags & (VDC_CTL_JOB_RAW_WORKLOADS | VDC_CTL_JOB_NO_FILE_WORKLOADS),
                     VDC_CTL_JOB_RAW_WORKLOADS);
    assert_int_equal(rs.n_runs, 6);
    for (i = 0; i < rs.n_runs; i++) {
        const vdc_run *r = rs.runs[i];

        assert_string_equal(r->status, "ok");
        assert_true(has_sample(r, "put_block"));
        assert_true(has_sample(r, "workload_read@rand-a"));
        assert_true(has_sample(r, "workload_read@rand-a@raw"));
        assert_true(has_sample(r, "workload_write@rand-b@raw"));
        assert_int_equal(r->n_samples, 9);
    }
    assert_true(g_file_test(raw, G_FILE_TEST_IS_REGULAR));
    assert_true(g_file_test(dom0raw, G_FILE_TEST_IS_REGULAR));
    assert_true(g_file_get_contents(planfile, &plan, NULL, NULL));
    assert_non_null(strstr(plan, "\"workload_on\" : [\n    \"raw\",\n    \"file\"\n  ]"));
    check_torn_down();
    vdc_result_set_dispose(&rs);
}

/* --tests workloads --workload-on raw: no filesystem pass at all; a raw
 * pass whose samples claim a file is refused */
static void
test_workloads_raw_only(void **state)
{
    g_autofree char *wl = workload_files();
    g_autofree char *extra = g_strdup_printf("%s --tests workloads --workload-on raw", wl);
    vdc_result_set rs;
    size_t i;

    F.extra = extra;
    assert_int_equal(run_flow(&rs), VDC_EXIT_OK);
    assert_int_equal(F.wl_flags & (VDC_CTL_JOB_RAW_WORKLOADS | VDC_CTL_JOB_NO_FILE_WORKLOADS |
                                   VDC_CTL_JOB_NO_BONNIE),
                     VDC_CTL_JOB_RAW_WORKLOADS | VDC_CTL_JOB_NO_FILE_WORKLOADS | VDC_CTL_JOB_NO_BONNIE);
    for (i = 0; i < rs.n_runs; i++) {
        assert_false(has_sample(rs.runs[i], "put_block"));
        assert_false(has_sample(rs.runs[i], "workload_read@rand-a"));
        assert_true(has_sample(rs.runs[i], "workload_read@rand-a@raw"));
    }
    vdc_result_set_dispose(&rs);
    teardown(state);
    setup(state);

    g_free(wl);
    wl = workload_files();
    g_free(extra);
    extra = g_strdup_printf("%s --tests workloads --workload-on raw", wl);
    F.extra = extra;
    F.wl_raw_lie = 1;
    assert_int_equal(run_flow(&rs), VDC_EXIT_FAILURE);
    for (i = 0; i < rs.n_runs; i++) {
        const vdc_run *r = rs.runs[i];

        if (strcmp(r->target, "image"))
            continue;
        assert_string_equal(r->status, "failed");
        assert_non_null(strstr(r->error, "says it ran on file, expected raw (the raw pass)"));
    }
    vdc_result_set_dispose(&rs);
}

/* --tests workloads: the jobs instead of the bonnie++ tests */
static void
test_workloads_only(void **state)
{
    g_autofree char *wl = workload_files();
    g_autofree char *extra = g_strdup_printf("%s --tests workloads", wl);
    vdc_result_set rs;
    size_t i;

    F.extra = extra;
    assert_int_equal(run_flow(&rs), VDC_EXIT_OK);
    assert_int_equal(F.wl_flags & VDC_CTL_JOB_NO_BONNIE, VDC_CTL_JOB_NO_BONNIE);
    assert_int_equal(rs.n_runs, 6);
    for (i = 0; i < rs.n_runs; i++) {
        assert_string_equal(rs.runs[i]->status, "ok");
        assert_false(has_sample(rs.runs[i], "put_block"));
        assert_int_equal(rs.runs[i]->n_samples, 4);
    }
    check_torn_down();
    vdc_result_set_dispose(&rs);
}

/* a workload pass that answers for a job the plan did not run: refused,
 * the run failed with the cause, the bonnie++ pass's samples kept */
static void
test_workloads_lying(void **state)
{
    g_autofree char *extra = workload_files();
    vdc_result_set rs;
    size_t i, n_domu = 0;

    F.extra = extra;
    F.wl_lie = "ghost";
    assert_int_equal(run_flow(&rs), VDC_EXIT_FAILURE);
    for (i = 0; i < rs.n_runs; i++) {
        const vdc_run *r = rs.runs[i];

        if (!strcmp(r->target, "dom0"))
            continue;
        n_domu++;
        assert_string_equal(r->status, "failed");
        assert_non_null(strstr(r->error, "a workload_read sample of job ghost, which the job did not ask for"));
        assert_true(has_sample(r, "put_block"));
        assert_false(has_sample(r, "workload_read@rand-a"));
    }
    assert_int_equal(n_domu, 4);
    check_torn_down();
    vdc_result_set_dispose(&rs);
}

/* a workload pass stopped in its second job: the first job's samples are
 * kept in a run marked timeout with the runner's account */
static void
test_workloads_interrupted(void **state)
{
    g_autofree char *extra = workload_files();
    vdc_result_set rs;
    size_t i;

    F.extra = extra;
    F.wl_partial = 1;
    assert_int_equal(run_flow(&rs), VDC_EXIT_FAILURE);
    assert_int_equal(count_runs(&rs, "image", "timeout"), 2);
    for (i = 0; i < rs.n_runs; i++) {
        const vdc_run *r = rs.runs[i];

        if (!strcmp(r->target, "dom0"))
            continue;
        assert_string_equal(r->error, "agent (workload) ran past 3600 s: stopped");
        assert_true(has_sample(r, "put_block"));
        assert_true(has_sample(r, "workload_read@rand-a"));
        assert_false(has_sample(r, "workload_read@rand-b"));
    }
    check_torn_down();
    vdc_result_set_dispose(&rs);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_all_ok, setup, teardown),
        cmocka_unit_test_setup_teardown(test_levels_ok, setup, teardown),
        cmocka_unit_test_setup_teardown(test_levels_host, setup, teardown),
        cmocka_unit_test_setup_teardown(test_levels_heartbeat, setup, teardown),
        cmocka_unit_test_setup_teardown(test_levels_image_cache_none, setup, teardown),
        cmocka_unit_test_setup_teardown(test_levels_guest_silent, setup, teardown),
        cmocka_unit_test_setup_teardown(test_levels_create_fails, setup, teardown),
        cmocka_unit_test_setup_teardown(test_levels_interrupted, setup, teardown),
        cmocka_unit_test_setup_teardown(test_runs_auto_precise, setup, teardown),
        cmocka_unit_test_setup_teardown(test_runs_auto_max_runs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_runs_fixed_policy, setup, teardown),
        cmocka_unit_test_setup_teardown(test_provision_fails, setup, teardown),
        cmocka_unit_test_setup_teardown(test_create_fails, setup, teardown),
        cmocka_unit_test_setup_teardown(test_create_fails_repeats, setup, teardown),
        cmocka_unit_test_setup_teardown(test_guest_timeout, setup, teardown),
        cmocka_unit_test_setup_teardown(test_guest_stalled, setup, teardown),
        cmocka_unit_test_setup_teardown(test_heartbeat_stops, setup, teardown),
        cmocka_unit_test_setup_teardown(test_heartbeat_steady, setup, teardown),
        cmocka_unit_test_setup_teardown(test_xen_rings_negotiated, setup, teardown),
        cmocka_unit_test_setup_teardown(test_xen_rings_never_connected, setup, teardown),
        cmocka_unit_test_setup_teardown(test_levels_rings, setup, teardown),
        cmocka_unit_test_setup_teardown(test_blkback_set_restore, setup, teardown),
        cmocka_unit_test_setup_teardown(test_blkback_interrupted, setup, teardown),
        cmocka_unit_test_setup_teardown(test_blkback_refusals, setup, teardown),
        cmocka_unit_test_setup_teardown(test_blkback_cleanup, setup, teardown),
        cmocka_unit_test_setup_teardown(test_results_malformed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_frame_corrupt, setup, teardown),
        cmocka_unit_test_setup_teardown(test_guest_host_dropped, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hostile_frame, setup, teardown),
        cmocka_unit_test_setup_teardown(test_slot_corrupt, setup, teardown),
        cmocka_unit_test_setup_teardown(test_interrupted, setup, teardown),
        cmocka_unit_test_setup_teardown(test_keep, setup, teardown),
        cmocka_unit_test_setup_teardown(test_prepared_image, setup, teardown),
        cmocka_unit_test_setup_teardown(test_image_cache, setup, teardown),
        cmocka_unit_test_setup_teardown(test_workloads, setup, teardown),
        cmocka_unit_test_setup_teardown(test_workloads_only, setup, teardown),
        cmocka_unit_test_setup_teardown(test_workloads_raw, setup, teardown),
        cmocka_unit_test_setup_teardown(test_workloads_raw_only, setup, teardown),
        cmocka_unit_test_setup_teardown(test_workloads_lying, setup, teardown),
        cmocka_unit_test_setup_teardown(test_workloads_interrupted, setup, teardown),
        cmocka_unit_test_setup_teardown(test_journal_idempotent, setup, teardown),
        cmocka_unit_test_setup_teardown(test_image_cache_verified, setup, teardown),
        cmocka_unit_test_setup_teardown(test_image_cache_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_image_cache_no_facts, setup, teardown),
        cmocka_unit_test_setup_teardown(test_journal_malformed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_journal_typed_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_journal_old_format, setup, teardown),
        cmocka_unit_test_setup_teardown(test_journal_identity_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_same_name_other_uuid_not_destroyed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_run_id_taken_by_domain_image_or_directory, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cleanup_lock_held_refuses, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cleanup_stale_lock_cleaned, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cleanup_foreign_directory_left_alone, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cleanup_journal_proven, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cleanup_domain_of_other_run_left_alone, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cleanup_proc_of_live_run_left_alone, setup, teardown),
    };

    vdc_set_quiet(1);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
