/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A density level recorded: each guest's job (its one target, its own seed,
 * the start gate), its files' stem, its run with level and guest, the
 * release times on the runs, the level in experiment.levels[] with its
 * start skew (plan/step.c, collect/recorder.c), written and read back;
 * and a thin pool's use read after the last boot, recorded the same way. */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>

#include "collect/recorder.h"
#include "common/util.h"
#include "model/result.h"
#include "plan/build.h"
#include "plan/options.h"
#include "plan/step.h"

static const vdc_host_defaults host = {
    .hostname = "host1", .ram_mib = 4096, .xen_control_d = 0, .date_id = "2026-12-06T070000Z",
};

static void
build(const char *line, vdc_plan *p)
{
    g_auto(GStrv) argv = NULL;
    int argc = 0;
    vdc_run_opts o;

    assert_true(g_shell_parse_argv(line, &argc, &argv, NULL));
    vdc_run_opts_init(&o);
    assert_int_equal(vdc_run_opts_parse(&o, argc, argv), 0);
    assert_int_equal(vdc_plan_build(&o, &host, line, p), 0);
    vdc_run_opts_dispose(&o);
}

static void
test_guest_jobs(void **state)
{
    vdc_plan p;
    struct vdc_ctl_job job;
    g_autofree char *s0 = NULL, *s1 = NULL, *s = NULL;

    (void)state;
    vdc_plan_init(&p);
    build("run --image --guest-image /g.img --guests 2 --runs 1 --seed 9 --image-dir /images", &p);
    assert_int_equal(p.n_boots, 1);
    assert_int_equal(p.boots[0].guests, 2);
    s0 = vdc_step_stem(&p, 0);
    s1 = vdc_step_stem(&p, 1);
    assert_string_equal(s0, "image-0-l2-g0");
    assert_string_equal(s1, "image-0-l2-g1");
    vdc_ctl_job_init(&job);
    assert_int_equal(vdc_step_guest_job(&p, &p.boots[0], 1, 77, 300, &job), 0);
    assert_int_equal(job.n_targets, 1);
    assert_string_equal(job.targets[0].name, "image");
    assert_true(job.seed == 9 + VDC_GUEST_SEED_STRIDE);
    assert_int_equal(job.gate_timeout_s, 300);
    assert_int_equal(job.run_index, 0);
    vdc_ctl_job_dispose(&job);
    vdc_plan_dispose(&p);

    /* without levels: the stem and the job as before, no gate */
    vdc_plan_init(&p);
    build("run --image --guest-image /g.img --runs 1 --seed 9 --image-dir /images", &p);
    s = vdc_step_stem(&p, 0);
    assert_string_equal(s, "image-0");
    vdc_ctl_job_init(&job);
    assert_int_equal(vdc_step_job(&p, &p.boots[0], 77, &job), 0);
    assert_int_equal(job.gate_timeout_s, 0);
    assert_true(job.seed == 9);
    vdc_ctl_job_dispose(&job);
    vdc_plan_dispose(&p);
}

static void
test_level_recorded(void **state)
{
    g_autofree char *dir = g_dir_make_tmp("test_level_record.XXXXXX", NULL);
    g_autofree char *line = g_strdup_printf("run --image --guest-image /g.img --guests 2,3 --runs 1 "
                                            "--seed 9 --image-dir /images --out %s/out", dir);
    g_autofree char *out = g_strdup_printf("%s/out", dir);
    g_autofree char *path = g_strdup_printf("%s/out/result.json", dir);
    vdc_run_release rel[3] = {
        { 10.0, 12.0, 12.5 }, { 11.0, 12.25, 12.75 }, { 11.5, 12.5, NAN },
    };
    const vdc_result_set *rs;
    vdc_result_set back;
    vdc_recorder *rec;
    vdc_plan p;
    size_t b2 = 0, b3 = 0, i;

    (void)state;
    vdc_plan_init(&p);
    build(line, &p);
    for (i = 0; i < p.n_boots; i++) {
        if (p.boots[i].guests == 2)
            b2 = i;
        if (p.boots[i].guests == 3)
            b3 = i;
    }
    rec = vdc_recorder_new(&p);
    /* level 2: both started; level 3: guest 2 never did */
    vdc_recorder_steps_failed(rec, p.boots[b2].first, 2, "failed", "no numbers here");
    vdc_recorder_level(rec, p.boots[b2].first, 2, rel, "ok", NULL);
    vdc_recorder_steps_failed(rec, p.boots[b3].first, 3, "timeout", "guest 2 hung");
    vdc_recorder_level(rec, p.boots[b3].first, 3, rel, "timeout",
                       "guest 2 (vmdiskcmp-x-g2): the domU did not power off within 60 s");
    rs = vdc_recorder_result(rec);
    assert_int_equal(rs->n_runs, 5);
    assert_int_equal(rs->runs[0]->level, 2);
    assert_int_equal(rs->runs[1]->guest, 1);
    assert_true(rs->runs[1]->release.ready_s == 11.0);
    assert_true(rs->runs[1]->release.released_s == 12.25);
    assert_true(rs->runs[1]->release.started_s == 12.75);
    assert_int_equal(rs->runs[4]->level, 3);
    assert_int_equal(rs->runs[4]->guest, 2);
    assert_true(isnan(rs->runs[4]->release.started_s));
    assert_int_equal(rs->experiment.n_levels, 2);
    assert_int_equal(rs->experiment.levels[0].guests, 2);
    assert_int_equal(rs->experiment.levels[0].repetition, 0);
    assert_string_equal(rs->experiment.levels[0].target, "image");
    assert_true(fabs(rs->experiment.levels[0].start_skew_s - 0.25) < 1e-12);
    assert_string_equal(rs->experiment.levels[0].status, "ok");
    assert_null(rs->experiment.levels[0].error);
    assert_true(isnan(rs->experiment.levels[1].start_skew_s));
    assert_string_equal(rs->experiment.levels[1].status, "timeout");

    /* written and read back: the loader's bounds hold */
    assert_int_equal(g_mkdir_with_parents(out, 0755), 0);
    vdc_recorder_experiment(rec);
    assert_int_equal(vdc_recorder_save(rec, path), 0);
    vdc_result_set_init(&back);
    assert_int_equal(vdc_result_set_load_file(&back, path), 0);
    assert_int_equal(back.n_runs, 5);
    assert_int_equal(back.runs[1]->level, 2);
    assert_int_equal(back.runs[1]->guest, 1);
    assert_true(back.runs[1]->release.started_s == 12.75);
    assert_int_equal(back.experiment.n_levels, 2);
    assert_true(fabs(back.experiment.levels[0].start_skew_s - 0.25) < 1e-12);
    vdc_result_set_dispose(&back);
    vdc_recorder_free(rec);
    vdc_plan_dispose(&p);
    unlink(path);
    rmdir(out);
    rmdir(dir);
}

/* A thin pool read again after the last boot (collect/recorder.c
 * vdc_recorder_thin_after): its use becomes the second member of
 * storage.thin's data_percent and metadata_percent, what lvm2 gave outside
 * 0-100 unknown, a pool not read unknown, a target without a pool left as
 * it is; written and read back, the loader's bounds hold, and a pool over
 * 90 % is the report's thin-pool-full. */
static void
test_thin_after_recorded(void **state)
{
    g_autofree char *dir = g_dir_make_tmp("test_level_record.XXXXXX", NULL);
    g_autofree char *line = g_strdup_printf("run --image --guest-image /g.img --guests 1,2 --runs 1 "
                                            "--seed 9 --image-dir /images --out %s/out", dir);
    g_autofree char *out = g_strdup_printf("%s/out", dir);
    g_autofree char *path = g_strdup_printf("%s/out/result.json", dir);
    static const char storage[] =
        "{\"vg\":\"lab\",\"lv\":\"t\",\"lv_type\":\"thin\",\"thin\":{\"pool\":\"t-pool\","
        "\"chunk_size\":65536,\"zeroing\":true,\"source\":\"lvs\",\"data_percent\":[0.0,null],"
        "\"metadata_percent\":[10.94,null]}}";
    g_autoptr(JsonParser) jp = json_parser_new();
    vdc_thin_facts f = { .zero = -1, .data_percent = 93.75, .metadata_percent = 100.5 };
    const vdc_target *t;
    const char *what = NULL;
    vdc_result_set back;
    vdc_recorder *rec;
    vdc_plan p;

    (void)state;
    vdc_plan_init(&p);
    build(line, &p);
    rec = vdc_recorder_new(&p);
    assert_true(json_parser_load_from_data(jp, storage, -1, NULL));
    vdc_recorder_target(rec, 0, json_node_get_object(json_parser_get_root(jp)), NULL);
    t = vdc_recorder_target_record(rec, 0);
    assert_true(t->storage.thin.metadata_percent[0] == 10.94 && isnan(t->storage.thin.data_percent[1]));
    vdc_recorder_thin_after(rec, 0, &f);
    t = vdc_recorder_target_record(rec, 0);
    assert_true(t->storage.thin.data_percent[0] == 0.0 && t->storage.thin.data_percent[1] == 93.75);
    assert_true(t->storage.thin.metadata_percent[0] == 10.94 && isnan(t->storage.thin.metadata_percent[1]));
    assert_true(vdc_target_thin_pool_full(t, &what) == 93.75);
    assert_string_equal(what, "data");

    assert_int_equal(g_mkdir_with_parents(out, 0755), 0);
    vdc_recorder_experiment(rec);
    assert_int_equal(vdc_recorder_save(rec, path), 0);
    vdc_result_set_init(&back);
    assert_int_equal(vdc_result_set_load_file(&back, path), 0);
    t = vdc_result_set_find_target(&back, "image");
    assert_true(t->storage.thin.data_percent[1] == 93.75);
    assert_true(t->storage.thin.metadata_percent[0] == 10.94 && isnan(t->storage.thin.metadata_percent[1]));
    vdc_result_set_dispose(&back);

    /* not read: unknown again, not kept from before */
    vdc_recorder_thin_after(rec, 0, NULL);
    t = vdc_recorder_target_record(rec, 0);
    assert_true(isnan(t->storage.thin.data_percent[1]) && isnan(t->storage.thin.metadata_percent[1]));
    assert_true(isnan(vdc_target_thin_pool_full(t, NULL)));
    vdc_recorder_free(rec);

    /* a target that is no thin LV gets nothing */
    rec = vdc_recorder_new(&p);
    vdc_recorder_target(rec, 0, NULL, NULL);
    vdc_recorder_thin_after(rec, 0, &f);
    t = vdc_recorder_target_record(rec, 0);
    assert_null(t->storage.thin.pool);
    assert_true(isnan(t->storage.thin.data_percent[1]));
    vdc_recorder_free(rec);
    vdc_plan_dispose(&p);
    unlink(path);
    rmdir(out);
    rmdir(dir);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_guest_jobs),
        cmocka_unit_test(test_level_recorded),
        cmocka_unit_test(test_thin_after_recorded),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
