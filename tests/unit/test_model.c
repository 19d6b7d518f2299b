/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/model: the test table, construction, lookup, merge,
 * JSON round trip and the untrusted-input checks of the loader (each error
 * names its JSON path). */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <glib.h>

#include "common/util.h"
#include "model/result.h"
#include "guest-agent/format.h"
#include "guest-agent/options.h"
#include "test_stderr.h"

static void
test_table(void **state)
{
    int i;

    /* indexed by id, names unique, field numbers those of bonnie++ 2.00a
     * (checked in doc/result-format.md against a real CSV line) */
    for (i = 0; i < VDC_TEST_COUNT; i++) {
        assert_int_equal(vdc_tests[i].id, i);
        assert_ptr_equal(vdc_test_lookup(vdc_tests[i].name), &vdc_tests[i]);
    }
    assert_int_equal(vdc_test_lookup("putc")->csv_field, 10);
    assert_int_equal(vdc_test_lookup("putc")->csv_cpu_field, 11);
    assert_int_equal(vdc_test_lookup("putc")->csv_latency_field, 39);
    assert_int_equal(vdc_test_lookup("seeks")->csv_field, 20);
    assert_string_equal(vdc_test_lookup("seeks")->unit, "/sec");
    assert_int_equal(vdc_test_lookup("seq_create")->csv_field, 27);
    assert_int_equal(vdc_test_lookup("ran_del")->csv_field, 37);
    assert_int_equal(vdc_test_lookup("ran_del")->csv_latency_field, 50);
    assert_string_equal(vdc_test_lookup("get_block")->unit, "K/sec");
    assert_true(vdc_test_lookup("sweep_read")->sweep);
    assert_null(vdc_test_lookup("nope"));
    assert_null(vdc_test_lookup(NULL));
}

/* The agent (static, libc only, its own build) and the controller expand
 * the same test-id list (guest-agent/test_ids.h) into their own tables:
 * walk both, then check that a JSON document the agent writes with every
 * test loads into the controller with the ids and units of its table. */
static void
test_agent_table(void **state)
{
    struct agent_config cfg;
    struct agent_meta meta = { .target = "t", .hostname = "h", .kernel = "6.1", .cpu_model = "cpu",
                              .command_line = "vmdiskcmp-agent -d /mnt", .path = "/mnt", .fs_type = "ext4" };
    struct agent_run run;
    vdc_result_set rs;
    char *doc = NULL;
    size_t len = 0, i;
    FILE *fp;

    /* the controller's table: the agent's tests, then the dd transcripts'
     * (imported only), then the job engine's */
    assert_int_equal(AGENT_TEST_COUNT + AGENT_SWEEP_TEST_COUNT + 3 + AGENT_WORKLOAD_TEST_COUNT,
                     VDC_TEST_COUNT);
    assert_string_equal(vdc_tests[AGENT_TEST_COUNT + AGENT_SWEEP_TEST_COUNT].name, "dd_read");
    for (i = 0; i < AGENT_TEST_COUNT; i++) {
        assert_string_equal(agent_test_id[i], vdc_tests[i].name);
        assert_string_equal(agent_test_unit[i], vdc_tests[i].unit);
        assert_int_not_equal(vdc_tests[i].group, VDC_TEST_GROUP_SWEEP);
        assert_true(vdc_tests[i].csv_field > 0);
    }
    for (i = 0; i < AGENT_SWEEP_TEST_COUNT; i++) {
        const vdc_test_info *ti = &vdc_tests[AGENT_TEST_COUNT + i];

        assert_string_equal(agent_sweep_test_id[i], ti->name);
        assert_string_equal(agent_sweep_test_unit[i], ti->unit);
        assert_int_equal(ti->group, VDC_TEST_GROUP_SWEEP);
        assert_true(ti->sweep);
    }
    /* the job engine's ids (format_version 2): the same list, at the end
     * of the controller's table, keyed by job name */
    for (i = 0; i < AGENT_WORKLOAD_TEST_COUNT; i++) {
        const vdc_test_info *ti = &vdc_tests[VDC_TEST_COUNT - AGENT_WORKLOAD_TEST_COUNT + i];

        assert_string_equal(agent_workload_test_unit[i], "IO/sec");
        assert_string_equal(agent_workload_test_id[i], ti->name);
        assert_string_equal(agent_workload_test_unit[i], ti->unit);
        assert_int_equal(ti->group, VDC_TEST_GROUP_WORKLOAD);
        assert_true(ti->workload);
        assert_false(ti->sweep);
        assert_int_equal(ti->csv_field, 0);
    }
    assert_int_equal(VDC_TEST_WORKLOAD_READ + AGENT_WORKLOAD_READ,
                     VDC_TEST_COUNT - AGENT_WORKLOAD_TEST_COUNT);
    assert_string_equal(agent_workload_test_id[AGENT_WORKLOAD_WRITE], "workload_write");
    /* the enums name the same tests at the same place */
    assert_string_equal(agent_test_id[AGENT_SEEKS], vdc_tests[VDC_TEST_SEEKS].name);
    assert_string_equal(agent_test_id[AGENT_RAN_DEL], vdc_tests[VDC_TEST_RAN_DEL].name);
    assert_string_equal(agent_sweep_test_id[AGENT_SWEEP_WRITE], vdc_tests[VDC_TEST_SWEEP_WRITE].name);

    agent_config_init(&cfg);
    memset(&run, 0, sizeof(run));
    for (i = 0; i < AGENT_TEST_COUNT; i++)
        run.s[i] = (struct agent_sample){ .state = AGENT_DONE, .amount = 1000, .elapsed_s = 2,
                                          .cpu_s = 1, .latency_s = 0.001 };
    run.sweep[0] = (struct agent_sweep_sample){ .state = AGENT_DONE, .is_write = 1, .block_size = 4096,
                                                .bytes = 1 << 20, .ops = 256, .elapsed_s = 1 };
    run.sweep[1] = run.sweep[0];
    run.sweep[1].is_write = 0;
    run.n_sweep = 2;
    fp = open_memstream(&doc, &len);
    assert_non_null(fp);
    agent_format_json(fp, &cfg, &meta, &run, 1);
    assert_int_equal(fclose(fp), 0);
    vdc_result_set_init(&rs);
    assert_int_equal(vdc_result_set_load_data(&rs, doc, len, "agent.json"), 0);
    assert_int_equal(rs.n_runs, 1);
    assert_int_equal(rs.runs[0]->n_samples, AGENT_TEST_COUNT + AGENT_SWEEP_TEST_COUNT);
    for (i = 0; i < rs.runs[0]->n_samples; i++) {
        const vdc_sample *s = rs.runs[0]->samples[i];
        const vdc_test_info *ti = vdc_test_lookup(s->test);

        assert_non_null(ti);
        assert_string_equal(s->unit, ti->unit);
    }
    /* bonnie++ tests in table order, then the sweep (write, then read) */
    for (i = 0; i < AGENT_TEST_COUNT; i++)
        assert_string_equal(rs.runs[0]->samples[i]->test, vdc_tests[i].name);
    assert_string_equal(rs.runs[0]->samples[AGENT_TEST_COUNT]->test, "sweep_write");
    assert_string_equal(rs.runs[0]->samples[AGENT_TEST_COUNT + 1]->test, "sweep_read");
    vdc_result_set_dispose(&rs);
    free(doc);
}

static void
test_keys(void **state)
{
    int64_t bs = -1;
    char *k;

    k = vdc_test_key("putc", VDC_INT_ABSENT);
    assert_string_equal(k, "putc");
    g_free(k);
    k = vdc_test_key("sweep_read", 4096);
    assert_string_equal(k, "sweep_read@4096");
    g_free(k);
    assert_ptr_equal(vdc_test_key_parse("sweep_read@4096", &bs), vdc_test_lookup("sweep_read"));
    assert_int_equal(bs, 4096);
    assert_ptr_equal(vdc_test_key_parse("seeks", &bs), vdc_test_lookup("seeks"));
    assert_int_equal(bs, 0);
    assert_null(vdc_test_key_parse("putc@4096", &bs));
    assert_null(vdc_test_key_parse("sweep_read@", &bs));
    assert_null(vdc_test_key_parse("sweep_read@-1", &bs));
    assert_null(vdc_test_key_parse("sweep_read@12x", &bs));
    /* a pass's key: the test's, then ~PASS */
    assert_ptr_equal(vdc_test_key_parse("put_block~first-write", &bs), vdc_test_lookup("put_block"));
    assert_string_equal(vdc_test_key_pass("put_block~first-write"), "first-write");
    assert_null(vdc_test_key_pass("put_block"));
    assert_null(vdc_test_key_parse("put_block~", &bs));
    assert_ptr_equal(vdc_test_key_parse("sweep_read@512~overwrite", &bs), vdc_test_lookup("sweep_read"));
    assert_int_equal(bs, 512);
    assert_int_equal(vdc_test_key_raw("workload_write@rw@raw~overwrite"), 1);
    assert_int_equal(vdc_test_key_raw("workload_write@rw~overwrite"), 0);
    {
        char label[64];

        assert_string_equal(vdc_test_key_job_label("workload_write@rw@raw~overwrite", label,
                                                   sizeof(label)), "rw (raw) overwrite");
        assert_string_equal(vdc_test_key_job_label("workload_read@rw~first-write", label,
                                                   sizeof(label)), "rw first-write");
    }
}


/* a set with two targets, runs interleaved, one too-fast sample */
static void
build(vdc_result_set *rs)
{
    static const char *targets[] = { "image", "lvm" };
    int rep, t;

    vdc_result_set_init(rs);
    assert_non_null(vdc_result_set_add_target(rs, "image"));
    for (rep = 0; rep < 3; rep++) {
        for (t = 0; t < 2; t++) {
            vdc_run *r = vdc_result_set_add_run(rs, targets[t]);
            vdc_sample *s = vdc_run_add_sample(r, "putc");

            assert_int_equal(r->repetition, rep);
            s->value = 1000.0 * (t + 1) + rep;
            s->cpu_percent = 50;
            s = vdc_run_add_sample(r, "seeks");
            if (rep == 1) {
                s->too_fast = 1;
            } else {
                s->value = 135.8;
            }
            s = vdc_run_add_sample(r, "sweep_read");
            s->block_size = rep == 2 ? 512 : 4096;
            s->value = 10;
        }
    }
}

static void
test_build_lookup(void **state)
{
    vdc_result_set rs;
    vdc_sample_ref *refs;
    char **names, **keys;
    size_t n;

    build(&rs);
    assert_null(vdc_result_set_add_target(&rs, "image"));   /* duplicate */
    assert_null(vdc_result_set_add_target(&rs, ""));
    names = vdc_result_set_target_names(&rs);
    assert_int_equal(g_strv_length(names), 2);
    assert_string_equal(names[0], "image");
    assert_string_equal(names[1], "lvm");
    g_strfreev(names);

    keys = vdc_result_set_test_keys(&rs, "lvm");
    assert_int_equal(g_strv_length(keys), 4);
    assert_string_equal(keys[0], "putc");
    assert_string_equal(keys[1], "seeks");
    assert_string_equal(keys[2], "sweep_read@512");   /* increasing block size */
    assert_string_equal(keys[3], "sweep_read@4096");
    g_strfreev(keys);

    refs = vdc_result_set_lookup(&rs, "lvm", "putc", &n);
    assert_int_equal(n, 3);
    assert_true(refs[0].sample->value == 2000.0);
    assert_true(refs[2].sample->value == 2002.0);
    assert_int_equal(refs[2].run->repetition, 2);
    g_free(refs);
    refs = vdc_result_set_lookup(&rs, "image", "seeks", &n);
    assert_int_equal(n, 3);
    assert_true(refs[1].sample->too_fast);
    assert_false(vdc_has(refs[1].sample->value));   /* too fast: no value, never 0 */
    g_free(refs);
    refs = vdc_result_set_lookup(&rs, "image", "sweep_read@4096", &n);
    assert_int_equal(n, 2);
    g_free(refs);
    assert_null(vdc_result_set_lookup(&rs, "dom0", "putc", &n));
    assert_int_equal(n, 0);

    vdc_result_set_dispose(&rs);
    vdc_result_set_dispose(&rs);   /* twice is fine */
}

static void
test_roundtrip(void **state)
{
    vdc_result_set rs, back;
    char *a, *b;
    size_t la, lb;

    build(&rs);
    rs.has_experiment = 1;
    vdc_set_str(&rs.experiment.seed, "18446744073709551615");   /* > 2^53: a string */
    rs.experiment.emulated = 1;
    rs.experiment.host.ram_mib = 24576;
    vdc_set_str(&rs.targets[0]->backend.type, "phy");
    rs.targets[0]->backend.direct_io_safe = 0;
    rs.targets[0]->storage.size_bytes = 1LL << 40;
    vdc_set_str(&rs.runs[0]->meta.source.file, "a \"quoted\" name\n.txt");
    rs.runs[0]->meta.files.number = 16;
    rs.runs[0]->meta.drop_caches = 1;                  /* agent's additive members */
    rs.runs[0]->meta.file_size_bytes = 536870913;
    rs.runs[0]->samples[2]->bytes = 1LL << 33;
    rs.runs[0]->samples[2]->ops = 2097152;
    rs.runs[0]->samples[0]->value = 135.8;
    rs.runs[0]->samples[0]->latency_us = 12.5;
    a = vdc_result_set_to_string(&rs, &la);
    vdc_result_set_init(&back);
    assert_int_equal(vdc_result_set_load_data(&back, a, la, "a.json"), 0);
    b = vdc_result_set_to_string(&back, &lb);
    assert_string_equal(a, b);   /* load(save(x)) saves the same document */
    assert_true(back.has_experiment);
    assert_string_equal(back.experiment.seed, "18446744073709551615");
    assert_int_equal(back.targets[0]->storage.size_bytes, 1LL << 40);
    assert_int_equal(back.targets[0]->backend.direct_io_safe, 0);
    assert_int_equal(back.runs[0]->meta.files.number, 16);
    assert_int_equal(back.runs[0]->meta.files.dirs, VDC_INT_ABSENT);
    assert_int_equal(back.runs[0]->meta.direct_io, VDC_BOOL_ABSENT);
    assert_int_equal(back.runs[0]->meta.drop_caches, 1);
    assert_int_equal(back.runs[0]->meta.file_size_bytes, 536870913);
    assert_int_equal(back.runs[0]->samples[2]->bytes, 1LL << 33);
    assert_int_equal(back.runs[0]->samples[2]->ops, 2097152);
    assert_true(back.runs[0]->samples[0]->value == 135.8);
    assert_true(back.runs[2]->samples[1]->too_fast);
    assert_false(vdc_has(back.runs[2]->samples[1]->value));
    g_free(a);
    g_free(b);
    vdc_result_set_dispose(&back);
    vdc_result_set_dispose(&rs);
}

/* The reproduction facts (doc/result-format.md experiment.build, host.cmdline,
 * host.mkfs_version, host.image_dir, hypervisor.xen_commandline, guest
 * kernel/initrd digests and cmdline) survive save and load; an older
 * document without them loads with every one absent, and an empty
 * image_dir is not written at all. */
static void
test_roundtrip_facts(void **state)
{
    vdc_result_set rs, back, old;
    vdc_experiment *e;
    char *a, *b, *o;
    size_t la, lb, lo;

    build(&rs);
    rs.has_experiment = 1;
    e = &rs.experiment;
    vdc_set_str(&e->build, "e9bf247-dirty");
    vdc_set_str(&e->host.cmdline, "BOOT_IMAGE=/vmlinuz-6.1.0-26-amd64 root=UUID=x ro quiet");
    vdc_set_str(&e->host.mkfs_version, "mke2fs 1.47.0 (5-Feb-2023)");
    vdc_set_str(&e->host.image_dir.path, "/var/lib/vmdiskcmp");
    vdc_set_str(&e->host.image_dir.fs_type, "ext4");
    vdc_set_str(&e->host.image_dir.device, "/dev/nvme0n1p2");
    e->host.image_dir.rotational = 0;
    vdc_set_str(&e->host.image_dir.scheduler, "none");
    vdc_set_str(&e->host.image_dir.model, "Samsung SSD 980 PRO 1TB");
    e->host.image_dir.logical_block_size = 512;
    e->host.image_dir.physical_block_size = 4096;
    vdc_set_str(&e->hypervisor.xen_commandline, "dom0_mem=4096M,max:4096M dom0_max_vcpus=2");
    vdc_set_str(&e->guest.kernel_sha256, "ab01");
    vdc_set_str(&e->guest.initrd, "/var/cache/vmdiskcmp/K/initrd.img");
    vdc_set_str(&e->guest.initrd_sha256, "cd02");
    vdc_set_str(&e->guest.cmdline, "root=/dev/xvda ro console=hvc0");
    a = vdc_result_set_to_string(&rs, &la);
    assert_non_null(strstr(a, "\"physical_block_size\": 4096"));
    assert_non_null(strstr(a, "\"rotational\": false"));
    vdc_result_set_init(&back);
    assert_int_equal(vdc_result_set_load_data(&back, a, la, "a.json"), 0);
    b = vdc_result_set_to_string(&back, &lb);
    assert_string_equal(a, b);
    e = &back.experiment;
    assert_string_equal(e->build, "e9bf247-dirty");
    assert_string_equal(e->host.cmdline, "BOOT_IMAGE=/vmlinuz-6.1.0-26-amd64 root=UUID=x ro quiet");
    assert_string_equal(e->host.mkfs_version, "mke2fs 1.47.0 (5-Feb-2023)");
    assert_string_equal(e->host.image_dir.device, "/dev/nvme0n1p2");
    assert_int_equal(e->host.image_dir.rotational, 0);
    assert_string_equal(e->host.image_dir.scheduler, "none");
    assert_string_equal(e->host.image_dir.model, "Samsung SSD 980 PRO 1TB");
    assert_int_equal(e->host.image_dir.logical_block_size, 512);
    assert_int_equal(e->host.image_dir.physical_block_size, 4096);
    assert_string_equal(e->hypervisor.xen_commandline, "dom0_mem=4096M,max:4096M dom0_max_vcpus=2");
    assert_string_equal(e->guest.kernel_sha256, "ab01");
    assert_string_equal(e->guest.initrd_sha256, "cd02");
    assert_string_equal(e->guest.cmdline, "root=/dev/xvda ro console=hvc0");

    /* an older document: none of the members, all absent, none written */
    vdc_result_set_init(&old);
    o = g_strdup("{\"format\":\"vmdiskcmp-result\",\"format_version\":1,"
                 "\"producer\":{\"name\":\"vmdiskcmp\",\"version\":\"0.1.0\"},"
                 "\"experiment\":{\"host\":{\"kernel\":\"6.1.0\"}},\"runs\":[]}");
    assert_int_equal(vdc_result_set_load_data(&old, o, strlen(o), "old.json"), 0);
    assert_null(old.experiment.build);
    assert_null(old.experiment.host.cmdline);
    assert_null(old.experiment.host.image_dir.device);
    assert_int_equal(old.experiment.host.image_dir.rotational, VDC_BOOL_ABSENT);
    assert_int_equal(old.experiment.host.image_dir.logical_block_size, VDC_INT_ABSENT);
    assert_null(old.experiment.guest.kernel_sha256);
    g_free(o);
    o = vdc_result_set_to_string(&old, &lo);
    assert_null(strstr(o, "image_dir"));
    assert_null(strstr(o, "cmdline"));

    g_free(o);
    g_free(a);
    g_free(b);
    vdc_result_set_dispose(&old);
    vdc_result_set_dispose(&back);
    vdc_result_set_dispose(&rs);
}

static void
test_merge(void **state)
{
    vdc_result_set a, b;
    size_t n;
    vdc_sample_ref *refs;

    build(&a);
    build(&b);
    vdc_set_str(&b.targets[0]->kind, "lvm-kind-from-b");
    assert_int_equal(vdc_result_set_merge(&a, &b), 0);
    assert_int_equal(a.n_runs, 12);
    assert_int_equal(a.n_targets, 1);
    assert_null(a.targets[0]->kind);          /* dst keeps its description */
    refs = vdc_result_set_lookup(&a, "lvm", "putc", &n);
    assert_int_equal(n, 6);
    assert_int_equal(refs[5].run->repetition, 5);   /* renumbered: unique */
    g_free(refs);
    vdc_result_set_dispose(&a);
    vdc_result_set_dispose(&b);
}

/* load @json; expect failure with exactly @msg on stderr */
static void
expect_load_error(const char *json, const char *msg)
{
    vdc_result_set rs;
    char *err;
    int rc;

    vdc_result_set_init(&rs);
    capture_stderr_begin();
    rc = vdc_result_set_load_data(&rs, json, strlen(json), "t.json");
    err = capture_stderr_end();
    assert_int_equal(rc, -1);
    if (msg[strlen(msg) - 1] == '*')   /* library text after the prefix */
        assert_memory_equal(err, msg, strlen(msg) - 1);
    else
        assert_string_equal(err, msg);
    assert_non_null(strchr(err, '\n'));
    assert_ptr_equal(strchr(err, '\n'), err + strlen(err) - 1);   /* one line */
    assert_int_equal(rs.n_runs, 0);      /* left empty */
    assert_int_equal(rs.n_targets, 0);
    free(err);
    vdc_result_set_dispose(&rs);
}

#define HEAD "{\"format\":\"vmdiskcmp-result\",\"format_version\":1," \
             "\"producer\":{\"name\":\"vmdiskcmp-agent\",\"version\":\"0.1.0\"},"

/* targets[].cache and targets[].placement (ranges by hand): loaded,
 * written, loaded again the same; bad ranges refused with their path */
static void
test_cache_placement(void **state)
{
    static const char doc[] = HEAD
        "\"targets\":[{\"name\":\"image\",\"kind\":\"image\",\"where\":\"domU\","
        "\"cache\":{\"requested\":\"none\",\"bypasses_dom0_page_cache\":true,"
        "\"loop_device\":\"/dev/loop3\",\"loop_backing_file\":\"/i.raw\",\"loop_dio\":true,"
        "\"loop_offset\":0,\"direct_io_safe\":null,\"libvirt_cache\":null,\"source\":\"xenstore,sysfs\"},"
        "\"placement\":{\"disk\":\"vda\",\"rotational\":false,\"disk_bytes\":1073741824,"
        "\"extents\":2,\"mapped_bytes\":3145728,\"unmapped_bytes\":0,\"center_bytes\":2621440.5,"
        "\"source\":\"fiemap\",\"ranges\":[[1048576,1048576],[2097152,2097152]]}}],"
        "\"runs\":[]}";
    vdc_result_set rs, back;
    char *text;
    const vdc_target *t;
    int pass;

    vdc_result_set_init(&rs);
    assert_int_equal(vdc_result_set_load_data(&rs, doc, strlen(doc), "c.json"), 0);
    for (pass = 0; pass < 2; pass++) {
        t = rs.targets[0];
        assert_string_equal(t->cache.requested, "none");
        assert_int_equal(t->cache.bypasses_dom0_page_cache, 1);
        assert_string_equal(t->cache.loop_device, "/dev/loop3");
        assert_int_equal(t->cache.loop_dio, 1);
        assert_int_equal(t->cache.loop_offset, 0);
        assert_int_equal(t->cache.direct_io_safe, VDC_BOOL_ABSENT);
        assert_null(t->cache.libvirt_cache);
        assert_string_equal(t->placement.disk, "vda");
        assert_int_equal(t->placement.rotational, 0);
        assert_int_equal(t->placement.n_ranges, 2);
        assert_int_equal(t->placement.ranges[2], 2097152);
        assert_true(t->placement.center_bytes == 2621440.5);
        text = vdc_result_set_to_string(&rs, NULL);
        vdc_result_set_init(&back);
        assert_int_equal(vdc_result_set_load_data(&back, text, strlen(text), "back.json"), 0);
        g_free(text);
        vdc_result_set_dispose(&rs);
        rs = back;
    }
    vdc_result_set_dispose(&rs);

    expect_load_error(HEAD "\"targets\":[{\"name\":\"i\",\"placement\":{\"ranges\":{}}}],\"runs\":[]}",
                      "vmdiskcmp: t.json: targets[0].placement.ranges: expected an array of [start, length]\n");
    expect_load_error(HEAD "\"targets\":[{\"name\":\"i\",\"placement\":{\"ranges\":[[0,1],[2]]}}],\"runs\":[]}",
                      "vmdiskcmp: t.json: targets[0].placement.ranges[1]: expected [start, length]\n");
    expect_load_error(HEAD "\"targets\":[{\"name\":\"i\",\"placement\":{\"ranges\":[[0,-1]]}}],\"runs\":[]}",
                      "vmdiskcmp: t.json: targets[0].placement.ranges[0]: expected [start, length] as "
                      "integers >= 0 (bytes)\n");
    expect_load_error(HEAD "\"targets\":[{\"name\":\"i\",\"cache\":{\"loop_dio\":1}}],\"runs\":[]}",
                      "vmdiskcmp: t.json: targets[0].cache.loop_dio: expected a boolean\n");
    /* a ring's order, queues and XenbusState within what they can be */
    expect_load_error(HEAD "\"targets\":[{\"name\":\"i\",\"backend\":{\"ring_page_order\":31}}],\"runs\":[]}",
                      "vmdiskcmp: t.json: targets[0]: backend.ring_page_order: expected 0 to 16, found 31\n");
    expect_load_error(HEAD "\"targets\":[{\"name\":\"i\",\"backend\":{\"queues\":0}}],\"runs\":[]}",
                      "vmdiskcmp: t.json: targets[0]: backend.queues: expected 1 to 4096, found 0\n");
    expect_load_error(HEAD "\"targets\":[{\"name\":\"i\",\"backend\":{\"frontend_state\":99}}],\"runs\":[]}",
                      "vmdiskcmp: t.json: targets[0]: backend.frontend_state: expected 0 to 8, found 99\n");
    expect_load_error(HEAD "\"targets\":[{\"name\":\"i\",\"backend\":{\"max_ring_page_order\":17}}],\"runs\":[]}",
                      "vmdiskcmp: t.json: targets[0]: backend.max_ring_page_order: expected 0 to 16, found 17\n");
    expect_load_error(HEAD "\"targets\":[{\"name\":\"i\",\"backend\":{\"max_queues\":4097}}],\"runs\":[]}",
                      "vmdiskcmp: t.json: targets[0]: backend.max_queues: expected 1 to 4096, found 4097\n");
    /* each bound itself is within */
    {
        static const char edge[] = HEAD "\"targets\":[{\"name\":\"i\",\"backend\":{\"ring_page_order\":16,"
                                   "\"max_ring_page_order\":0,\"queues\":4096,\"max_queues\":1,"
                                   "\"frontend_state\":8}}],\"runs\":[]}";

        vdc_result_set_init(&rs);
        assert_int_equal(vdc_result_set_load_data(&rs, edge, strlen(edge), "e.json"), 0);
        assert_int_equal(rs.targets[0]->backend.queues, 4096);
        assert_int_equal(rs.targets[0]->backend.frontend_state, 8);
        vdc_result_set_dispose(&rs);
    }
}

static void
test_load_errors(void **state)
{
    expect_load_error("", "vmdiskcmp: t.json: empty: expected a JSON result document\n");
    expect_load_error("{\"format\":", "vmdiskcmp: t.json:1:*");
    expect_load_error("[1]", "vmdiskcmp: t.json: (top level): expected an object\n");
    expect_load_error("{\"format\":\"x\"}",
                      "vmdiskcmp: t.json: format: expected \"vmdiskcmp-result\"\n");
    expect_load_error("{\"format\":\"vmdiskcmp-result\",\"format_version\":3}",
                      "vmdiskcmp: t.json: format_version: expected 2 or lower, found 3 (written by a "
                      "newer vmdiskcmp)\n");
    expect_load_error("{\"format\":\"vmdiskcmp-result\",\"format_version\":\"1\"}",
                      "vmdiskcmp: t.json: format_version: expected an integer\n");
    expect_load_error(HEAD "\"x\":1}", "vmdiskcmp: t.json: runs: missing\n");
    expect_load_error(HEAD "\"runs\":{}}", "vmdiskcmp: t.json: runs: expected an array\n");
    expect_load_error(HEAD "\"runs\":[{\"samples\":[]}]}",
                      "vmdiskcmp: t.json: runs[0].target: missing\n");
    expect_load_error(HEAD "\"runs\":[{\"target\":\"a\",\"samples\":[]},"
                      "{\"target\":\"a\",\"samples\":[{\"test\":\"putc\",\"value\":\"3\"}]}]}",
                      "vmdiskcmp: t.json: runs[1].samples[0].value: expected a number or null\n");
    expect_load_error(HEAD "\"runs\":[{\"target\":\"a\",\"samples\":[{\"test\":\"putc\"}]}]}",
                      "vmdiskcmp: t.json: runs[0].samples[0].value: missing\n");
    expect_load_error(HEAD "\"runs\":[{\"target\":\"a\",\"samples\":[{\"test\":\"putc\",\"value\":-1}]}]}",
                      "vmdiskcmp: t.json: runs[0].samples[0].value: expected a finite number >= 0\n");
    expect_load_error(HEAD "\"runs\":[{\"target\":\"a\",\"samples\":[{\"test\":\"getchar\",\"value\":1}]}]}",
                      "vmdiskcmp: t.json: runs[0].samples[0].test: unknown test id \"getchar\": "
                      "expected putc, put_block, rewrite, getc, get_block, seeks, seq_create, "
                      "seq_stat, seq_del, ran_create, ran_stat, ran_del, sweep_read, sweep_write, dd_read, "
                      "dd_write, dd_copy, workload_read or workload_write\n");
    expect_load_error(HEAD "\"runs\":[{\"target\":\"a\",\"samples\":[{\"test\":\"sweep_read\",\"value\":1}]}]}",
                      "vmdiskcmp: t.json: runs[0].samples[0].block_size: expected an integer > 0 "
                      "(required for sweep_read)\n");
    expect_load_error(HEAD "\"runs\":[{\"target\":\"a\",\"samples\":[{\"test\":\"putc\",\"value\":1,"
                      "\"too_fast\":\"no\"}]}]}",
                      "vmdiskcmp: t.json: runs[0].samples[0].too_fast: expected a boolean\n");
    expect_load_error(HEAD "\"runs\":[{\"target\":\"a\",\"metadata\":{\"files\":{\"number\":1.5}},"
                      "\"samples\":[]}]}",
                      "vmdiskcmp: t.json: runs[0].metadata.files.number: expected an integer\n");
    expect_load_error(HEAD "\"runs\":[{\"target\":\"a\",\"metadata\":{\"seed\":42},\"samples\":[]}]}",
                      "vmdiskcmp: t.json: runs[0].metadata.seed: expected a string\n");
    expect_load_error(HEAD "\"runs\":[{\"target\":\"a\",\"status\":\"weird\",\"samples\":[]}]}",
                      "vmdiskcmp: t.json: runs[0].status: expected \"ok\", \"failed\" or \"timeout\"\n");
    expect_load_error(HEAD "\"runs\":[{\"target\":\"a\",\"repetition\":0,\"samples\":[]},"
                      "{\"target\":\"a\",\"repetition\":0,\"samples\":[]}]}",
                      "vmdiskcmp: t.json: runs[1]: duplicate run: target \"a\" repetition 0 "
                      "already seen in runs[0]\n");
    expect_load_error(HEAD "\"targets\":[{\"name\":\"a\"},{\"name\":\"a\"}],\"runs\":[]}",
                      "vmdiskcmp: t.json: targets[1]: name: duplicate target \"a\"\n");
    expect_load_error(HEAD "\"experiment\":{\"host\":{\"ram_mib\":true}},\"runs\":[]}",
                      "vmdiskcmp: t.json: experiment.host.ram_mib: expected an integer\n");
    expect_load_error(HEAD "\"experiment\":{\"host\":{\"image_dir\":{\"rotational\":\"yes\"}}},\"runs\":[]}",
                      "vmdiskcmp: t.json: experiment.host.image_dir.rotational: expected a boolean\n");
    expect_load_error("{\"format\":\"vmdiskcmp-result\",\"format_version\":1,\"producer\":"
                      "{\"name\":\"x\"},\"runs\":[]}",
                      "vmdiskcmp: t.json: producer.version: missing\n");
    expect_load_error("{\"a\":\"\\u0000\"}\0", "vmdiskcmp: t.json:1: a JSON string holding \\u0000: expected text without NUL\n");
    /* one sample per test (and sweep block size) per run */
    expect_load_error(HEAD "\"runs\":[{\"target\":\"a\",\"samples\":[{\"test\":\"putc\",\"value\":1},"
                      "{\"test\":\"putc\",\"value\":1}]}]}",
                      "vmdiskcmp: t.json: runs[0].samples[1]: duplicate sample: test putc already "
                      "measured in this run\n");
    expect_load_error(HEAD "\"runs\":[{\"target\":\"a\",\"samples\":[{\"test\":\"sweep_read\","
                      "\"value\":1,\"block_size\":512},{\"test\":\"sweep_read\",\"value\":1,"
                      "\"block_size\":4096},{\"test\":\"sweep_read\",\"value\":2,\"block_size\":512}]}]}",
                      "vmdiskcmp: t.json: runs[0].samples[2]: duplicate sample: test sweep_read (block "
                      "size 512) already measured in this run\n");
}

/* samples of two passes of one test (a thin LV's): one run, keys apart;
 * a test twice in one pass refused; a malformed pass refused; kept on save */
static void
test_passes(void **state)
{
    static const char doc[] =
        "{\"format\":\"vmdiskcmp-result\",\"format_version\":1,\"producer\":"
        "{\"name\":\"vmdiskcmp-agent\",\"version\":\"0.1.0\"},\"runs\":[{\"target\":\"lvm-thin\","
        "\"samples\":[{\"test\":\"put_block\",\"pass\":\"first-write\",\"value\":100},"
        "{\"test\":\"put_block\",\"pass\":\"overwrite\",\"value\":300}]}]}";
    vdc_result_set rs;
    g_autofree char *k0 = NULL, *k1 = NULL, *saved = NULL;

    vdc_result_set_init(&rs);
    assert_int_equal(vdc_result_set_load_data(&rs, doc, strlen(doc), "t.json"), 0);
    assert_int_equal(rs.n_runs, 1);
    assert_int_equal(rs.runs[0]->n_samples, 2);
    k0 = vdc_sample_key(rs.runs[0]->samples[0]);
    k1 = vdc_sample_key(rs.runs[0]->samples[1]);
    assert_string_equal(k0, "put_block~first-write");
    assert_string_equal(k1, "put_block~overwrite");
    saved = vdc_result_set_to_string(&rs, NULL);
    assert_non_null(strstr(saved, "\"pass\": \"overwrite\""));
    vdc_result_set_dispose(&rs);
    expect_load_error(HEAD "\"runs\":[{\"target\":\"a\",\"samples\":[{\"test\":\"putc\",\"pass\":\"x\","
                      "\"value\":1},{\"test\":\"putc\",\"pass\":\"x\",\"value\":1}]}]}",
                      "vmdiskcmp: t.json: runs[0].samples[1]: duplicate sample: test putc pass x already "
                      "measured in this run\n");
    expect_load_error(HEAD "\"runs\":[{\"target\":\"a\",\"samples\":[{\"test\":\"putc\",\"pass\":\"X~1\","
                      "\"value\":1}]}]}",
                      "vmdiskcmp: t.json: runs[0].samples[0].pass: expected 1-31 of [a-z0-9-] (e.g. first-write)\n");
}

/* targets[].storage's lv_type, thin and qcow2 and targets[].alignment:
 * loaded, kept on save, read back the same; a bad layer refused */
static void
test_storage_alignment(void **state)
{
    static const char doc[] =
        "{\"format\":\"vmdiskcmp-result\",\"format_version\":2,\"producer\":{\"name\":\"t\",\"version\":\"1\"},"
        "\"targets\":[{\"name\":\"lvm-thin\",\"kind\":\"lvm\",\"storage\":{\"vg\":\"lab\",\"lv_type\":\"thin\","
        "\"thin\":{\"pool\":\"p\",\"chunk_size\":65536,\"zeroing\":true,\"discards\":\"passdown\","
        "\"data_percent\":[0,12.5],\"metadata_percent\":[10.94,null],\"source\":\"lvs\"}},\"alignment\":{\"disk\":\"vda\",\"physical_block_size\":4096,"
        "\"layers\":[{\"layer\":\"pv_data\",\"offset\":1536,\"size\":512,\"why\":\"pv_data at 1536\"},"
        "{\"layer\":\"fs_block\",\"size\":4096}],\"misaligned\":[\"pv_data\"]}},"
        "{\"name\":\"image-qcow2\",\"kind\":\"image\",\"storage\":{\"format\":\"qcow2\",\"alloc\":\"metadata\","
        "\"qcow2\":{\"cluster_size\":131072,\"l2_cache_size\":null,\"preallocation\":\"metadata\","
        "\"source\":\"qemu-img info\"}}}],\"runs\":[]}";
    vdc_result_set rs, back;
    g_autofree char *saved = NULL;
    const vdc_target *t;
    int pass;

    vdc_result_set_init(&rs);
    assert_int_equal(vdc_result_set_load_data(&rs, doc, strlen(doc), "t.json"), 0);
    saved = vdc_result_set_to_string(&rs, NULL);
    vdc_result_set_init(&back);
    assert_int_equal(vdc_result_set_load_data(&back, saved, strlen(saved), "saved.json"), 0);
    for (pass = 0; pass < 2; pass++) {
        const vdc_result_set *r = pass ? &back : &rs;

        t = vdc_result_set_find_target(r, "lvm-thin");
        assert_string_equal(t->storage.lv_type, "thin");
        assert_string_equal(t->storage.thin.pool, "p");
        assert_int_equal(t->storage.thin.chunk_size, 65536);
        assert_int_equal(t->storage.thin.zeroing, 1);
        assert_true(t->storage.thin.data_percent[0] == 0 && t->storage.thin.data_percent[1] == 12.5);
        assert_true(t->storage.thin.metadata_percent[0] == 10.94 && isnan(t->storage.thin.metadata_percent[1]));
        assert_true(isnan(vdc_target_thin_pool_full(t, NULL)));     /* 12.5 % is not full */
        assert_int_equal(t->alignment.n_layers, 2);
        assert_string_equal(t->alignment.layers[0].why, "pv_data at 1536");
        assert_null(t->alignment.layers[1].why);
        assert_int_equal(t->alignment.layers[1].offset, VDC_INT_ABSENT);
        assert_int_equal(vdc_target_misaligned(t), 1);
        t = vdc_result_set_find_target(r, "image-qcow2");
        assert_int_equal(t->storage.qcow2.cluster_size, 131072);
        assert_int_equal(t->storage.qcow2.l2_cache_size, VDC_INT_ABSENT);
        assert_string_equal(t->storage.qcow2.preallocation, "metadata");
        assert_true(isnan(t->storage.thin.data_percent[0]));
        assert_true(isnan(t->storage.thin.metadata_percent[1]));
    }
    assert_non_null(strstr(saved, "\"misaligned\": [\n"));
    /* the metadata's [before, after] kept as read, its unknown after null */
    assert_non_null(strstr(saved, "\"metadata_percent\": [\n"));
    vdc_result_set_dispose(&back);
    vdc_result_set_dispose(&rs);
    expect_load_error(HEAD "\"targets\":[{\"name\":\"a\",\"alignment\":{\"layers\":[{\"layer\":\"bogus\"}]}}],\"runs\":[]}",
                      "vmdiskcmp: t.json: targets[0].alignment.layers[0]: layer: expected one of "
                      "partition|pv_data|lv_extent|image_cluster|fs_block|fs_stripe\n");
    expect_load_error(HEAD "\"targets\":[{\"name\":\"a\",\"storage\":{\"thin\":{\"data_percent\":[0,101]}}}],\"runs\":[]}",
                      "vmdiskcmp: t.json: targets[0].storage.thin.data_percent: expected [before, after] as "
                      "numbers from 0 to 100 (%) or null\n");
    /* the pool's and the LV's sizes: bytes, at most 1e18 like every byte count */
    expect_load_error(HEAD "\"targets\":[{\"name\":\"a\",\"storage\":{\"thin\":{\"pool\":\"p\","
                      "\"pool_size\":9223372036854775807}}}],\"runs\":[]}",
                      "vmdiskcmp: t.json: targets[0].storage.thin.pool_size: expected an integer of magnitude "
                      "at most 1e+18\n");
    expect_load_error(HEAD "\"targets\":[{\"name\":\"a\",\"storage\":{\"size_bytes\":2000000000000000000}}],"
                      "\"runs\":[]}",
                      "vmdiskcmp: t.json: targets[0].storage.size_bytes: expected an integer of magnitude "
                      "at most 1e+18\n");
    /* the metadata's use: the same bounds, 0 and 100 themselves taken */
    expect_load_error(HEAD "\"targets\":[{\"name\":\"a\",\"storage\":{\"thin\":{\"pool\":\"p\","
                      "\"metadata_percent\":[0,100.5]}}}],\"runs\":[]}",
                      "vmdiskcmp: t.json: targets[0].storage.thin.metadata_percent: expected [before, after] as "
                      "numbers from 0 to 100 (%) or null\n");
    expect_load_error(HEAD "\"targets\":[{\"name\":\"a\",\"storage\":{\"thin\":{\"pool\":\"p\","
                      "\"metadata_percent\":[-0.5,1]}}}],\"runs\":[]}",
                      "vmdiskcmp: t.json: targets[0].storage.thin.metadata_percent: expected [before, after] as "
                      "numbers from 0 to 100 (%) or null\n");
    expect_load_error(HEAD "\"targets\":[{\"name\":\"a\",\"storage\":{\"thin\":{\"pool\":\"p\","
                      "\"metadata_percent\":[1]}}}],\"runs\":[]}",
                      "vmdiskcmp: t.json: targets[0].storage.thin.metadata_percent: expected [before, after]\n");
    expect_load_error(HEAD "\"targets\":[{\"name\":\"a\",\"storage\":{\"thin\":{\"pool\":\"p\","
                      "\"metadata_percent\":[1,\"95\"]}}}],\"runs\":[]}",
                      "vmdiskcmp: t.json: targets[0].storage.thin.metadata_percent: expected [before, after] as "
                      "numbers from 0 to 100 (%) or null\n");
}

/* A thin pool more than 90 % full after the runs, by its data or its
 * metadata: the higher use over the bound and which; 90 % itself, a use
 * before the runs, an unknown use and a target without a pool are not */
static void
test_thin_pool_full(void **state)
{
    static const char doc[] =
        "{\"format\":\"vmdiskcmp-result\",\"format_version\":2,\"producer\":{\"name\":\"t\",\"version\":\"1\"},"
        "\"targets\":["
        "{\"name\":\"at90\",\"storage\":{\"thin\":{\"pool\":\"p\",\"data_percent\":[0,90],\"metadata_percent\":[0,90]}}},"
        "{\"name\":\"data\",\"storage\":{\"thin\":{\"pool\":\"p\",\"data_percent\":[0,93.75],\"metadata_percent\":[1,12]}}},"
        "{\"name\":\"meta\",\"storage\":{\"thin\":{\"pool\":\"p\",\"data_percent\":[0,91],\"metadata_percent\":[1,99.5]}}},"
        "{\"name\":\"before\",\"storage\":{\"thin\":{\"pool\":\"p\",\"data_percent\":[100,null],\"metadata_percent\":[95,null]}}},"
        "{\"name\":\"nopool\",\"storage\":{\"thin\":{\"data_percent\":[0,100]}}},"
        "{\"name\":\"linear\",\"storage\":{\"lv_type\":\"linear\"}},"
        /* data full in a pool that holds the whole LV: not flagged; its metadata still is */
        "{\"name\":\"holds\",\"storage\":{\"size_bytes\":1073741824,\"thin\":{\"pool\":\"p\",\"pool_size\":1073741824,"
        "\"data_percent\":[0,100],\"metadata_percent\":[1,12]}}},"
        "{\"name\":\"holdsmeta\",\"storage\":{\"size_bytes\":1073741824,\"thin\":{\"pool\":\"p\",\"pool_size\":2147483648,"
        "\"data_percent\":[0,100],\"metadata_percent\":[1,95]}}},"
        /* a pool smaller than its LV (over-provisioned) can run out: flagged */
        "{\"name\":\"over\",\"storage\":{\"size_bytes\":2147483648,\"thin\":{\"pool\":\"p\",\"pool_size\":1073741824,"
        "\"data_percent\":[0,97],\"metadata_percent\":[1,12]}}}],\"runs\":[]}";
    vdc_result_set rs;
    const char *what = NULL;

    vdc_result_set_init(&rs);
    assert_int_equal(vdc_result_set_load_data(&rs, doc, strlen(doc), "t.json"), 0);
    assert_true(isnan(vdc_target_thin_pool_full(vdc_result_set_find_target(&rs, "at90"), &what)));
    assert_null(what);
    assert_true(vdc_target_thin_pool_full(vdc_result_set_find_target(&rs, "data"), &what) == 93.75);
    assert_string_equal(what, "data");
    assert_true(vdc_target_thin_pool_full(vdc_result_set_find_target(&rs, "meta"), &what) == 99.5);
    assert_string_equal(what, "metadata");
    assert_true(isnan(vdc_target_thin_pool_full(vdc_result_set_find_target(&rs, "before"), NULL)));
    assert_true(isnan(vdc_target_thin_pool_full(vdc_result_set_find_target(&rs, "nopool"), NULL)));
    assert_true(isnan(vdc_target_thin_pool_full(vdc_result_set_find_target(&rs, "linear"), NULL)));
    assert_true(isnan(vdc_target_thin_pool_full(vdc_result_set_find_target(&rs, "holds"), NULL)));
    assert_true(vdc_target_thin_pool_full(vdc_result_set_find_target(&rs, "holdsmeta"), &what) == 95);
    assert_string_equal(what, "metadata");
    assert_true(vdc_target_thin_pool_full(vdc_result_set_find_target(&rs, "over"), &what) == 97);
    assert_string_equal(what, "data");
    vdc_result_set_dispose(&rs);
}

/* targets[].variant: loaded, copied, kept on save, read back the same, in
 * one line for the report; a value of the wrong type refused */
static void
test_variant(void **state)
{
    static const char doc[] =
        "{\"format\":\"vmdiskcmp-result\",\"format_version\":2,\"producer\":{\"name\":\"t\",\"version\":\"1\"},"
        "\"targets\":[{\"name\":\"image-qcow2-full-wb\",\"kind\":\"image\",\"variant\":{\"image_format\":\"qcow2\","
        "\"image_alloc\":\"full\",\"disk_cache\":\"writeback\",\"iothreads\":0,\"disk_bus\":\"virtio-scsi\","
        "\"fill_percent\":50,\"precondition\":false,\"a_later_dimension\":\"x\"}},"
        "{\"name\":\"dom0\",\"kind\":\"dom0\"}],\"runs\":[]}";
    vdc_result_set rs, back;
    g_autofree char *saved = NULL, *text = NULL;
    vdc_target copy;
    const vdc_target *t;
    int pass;

    vdc_result_set_init(&rs);
    assert_int_equal(vdc_result_set_load_data(&rs, doc, strlen(doc), "t.json"), 0);
    saved = vdc_result_set_to_string(&rs, NULL);
    vdc_result_set_init(&back);
    assert_int_equal(vdc_result_set_load_data(&back, saved, strlen(saved), "saved.json"), 0);
    vdc_target_init(&copy);
    vdc_target_copy(&copy, vdc_result_set_find_target(&rs, "image-qcow2-full-wb"));
    for (pass = 0; pass < 3; pass++) {
        t = pass == 2 ? &copy : vdc_result_set_find_target(pass ? &back : &rs, "image-qcow2-full-wb");
        assert_string_equal(t->variant.image_format, "qcow2");
        assert_string_equal(t->variant.image_alloc, "full");
        assert_string_equal(t->variant.disk_cache, "writeback");
        assert_string_equal(t->variant.disk_bus, "virtio-scsi");
        assert_int_equal(t->variant.iothreads, 0);
        assert_int_equal(t->variant.fill_percent, 50);
        assert_int_equal(t->variant.precondition, 0);
        assert_null(t->variant.disk_io);
        assert_null(t->variant.lv_type);
    }
    text = vdc_target_variant_text(&copy);
    assert_string_equal(text, "image_format qcow2, image_alloc full, disk_cache writeback, iothreads 0, "
                              "disk_bus virtio-scsi, fill_percent 50, precondition off");
    assert_null(vdc_result_set_find_target(&back, "dom0")->variant.disk_cache);
    assert_null(vdc_target_variant_text(vdc_result_set_find_target(&back, "dom0")));
    /* a member this version does not know is not kept; no empty object for dom0 */
    assert_null(strstr(saved, "a_later_dimension"));
    assert_non_null(strstr(saved, "\"variant\": {"));
    assert_null(strstr(saved, "\"variant\": {}"));
    vdc_target_dispose(&copy);
    vdc_result_set_dispose(&back);
    vdc_result_set_dispose(&rs);
    expect_load_error(HEAD "\"targets\":[{\"name\":\"a\",\"variant\":{\"iothreads\":\"one\"}}],\"runs\":[]}",
                      "vmdiskcmp: t.json: targets[0].variant.iothreads: expected an integer\n");
    expect_load_error(HEAD "\"targets\":[{\"name\":\"a\",\"variant\":{\"fill_percent\":-1}}],\"runs\":[]}",
                      "vmdiskcmp: t.json: targets[0].variant.fill_percent: expected an integer >= 0\n");
}

static JsonObject *
obj_of(const char *json)
{
    JsonParser *p = json_parser_new();
    JsonObject *o;

    assert_true(json_parser_load_from_data(p, json, -1, NULL));
    o = json_object_ref(json_node_get_object(json_parser_get_root(p)));
    g_object_unref(p);
    return o;
}

/* The controller's drivers report backend/storage/hypervisor facts as JSON:
 * the model fills its structs by the loader's member tables. */
static void
test_from_json(void **state)
{
    vdc_target_backend b = { 0 };
    vdc_target_storage st = { 0 };
    vdc_hypervisor_info h = { 0 };
    JsonObject *o;
    char *err;

    (void)state;
    /* members copied by name; unknown ones ignored; booleans */
    o = obj_of("{\"type\":\"phy\",\"source\":\"xenstore\",\"params\":\"/dev/lab/x\","
               "\"mode\":\"w\",\"backend_kind\":\"vbd\",\"direct_io_safe\":true}");
    assert_int_equal(vdc_target_backend_from_json(&b, o, "xvdb backend"), 0);
    assert_string_equal(b.type, "phy");
    assert_string_equal(b.params, "/dev/lab/x");
    assert_string_equal(b.mode, "w");
    assert_null(b.cache);
    assert_int_equal(b.direct_io_safe, 1);
    json_object_unref(o);

    /* a wrong type is named with WHAT and the member */
    o = obj_of("{\"mode\":1}");
    capture_stderr_begin();
    assert_int_equal(vdc_target_backend_from_json(&b, o, "xvdb backend"), -1);
    err = capture_stderr_end();
    assert_string_equal(err, "vmdiskcmp: xvdb backend: mode: expected a string\n");
    free(err);
    json_object_unref(o);

    /* storage: pe_start null = not known; the members after it still read */
    st.pe_start = VDC_INT_ABSENT;
    o = obj_of("{\"size_bytes\":1073741824,\"vg\":\"lab\",\"lv\":\"vdc-lvm\",\"stripes\":1,"
               "\"stripe_size\":0,\"pe_start\":null,\"device\":\"/dev/lab/vdc-lvm\"}");
    assert_int_equal(vdc_target_storage_from_json(&st, o, "lvm storage"), 0);
    assert_true(st.size_bytes == 1073741824);
    assert_true(st.pe_start == VDC_INT_ABSENT);
    assert_string_equal(st.device, "/dev/lab/vdc-lvm");
    json_object_unref(o);
    o = obj_of("{\"size_bytes\":-1}");
    capture_stderr_begin();
    assert_int_equal(vdc_target_storage_from_json(&st, o, "lvm storage"), -1);
    err = capture_stderr_end();
    assert_string_equal(err, "vmdiskcmp: lvm storage: size_bytes: expected an integer >= 0\n");
    free(err);
    json_object_unref(o);

    o = obj_of("{\"uri\":\"xen:///system\",\"xen_version\":\"4.17.7\",\"hypervisor_version\":\"x\"}");
    assert_int_equal(vdc_hypervisor_info_from_json(&h, o, "hypervisor versions"), 0);
    assert_string_equal(h.uri, "xen:///system");
    assert_string_equal(h.xen_version, "4.17.7");
    json_object_unref(o);

    g_free(b.type); g_free(b.source); g_free(b.params); g_free(b.mode);
    g_free(st.vg); g_free(st.lv); g_free(st.device);
    g_free(h.uri); g_free(h.xen_version);
}

static void
test_load_minimal_and_unknown(void **state)
{
    /* only runs; unknown members ignored; missing repetition numbered */
    const char *doc = HEAD "\"future\":{\"x\":1},\"runs\":["
        "{\"target\":\"xvdb\",\"samples\":[{\"test\":\"putc\",\"value\":null,\"too_fast\":true,\"new\":1}]},"
        "{\"target\":\"xvdb\",\"metadata\":{\"device\":null},"   /* the agent on tmpfs */
        "\"samples\":[{\"test\":\"putc\",\"value\":512.0}]}]}";
    vdc_result_set rs;

    vdc_result_set_init(&rs);
    assert_int_equal(vdc_result_set_load_data(&rs, doc, strlen(doc), "m.json"), 0);
    assert_int_equal(rs.n_runs, 2);
    assert_int_equal(rs.runs[1]->repetition, 1);
    assert_string_equal(rs.runs[0]->status, "ok");
    assert_string_equal(rs.runs[0]->samples[0]->unit, "K/sec");   /* from the table */
    assert_true(rs.runs[0]->samples[0]->too_fast);
    assert_true(rs.runs[1]->samples[0]->value == 512.0);
    assert_string_equal(rs.producer_name, "vmdiskcmp-agent");
    vdc_result_set_dispose(&rs);
}

/* runs[].host and samples[].host: kept as loaded, written back, copied;
 * the members the analysis reads are checked */
static void
test_host_members(void **state)
{
    const char *doc = HEAD "\"runs\":[{\"target\":\"image\",\"host\":{\"poll_interval_s\":0.1,"
        "\"servers\":[{\"role\":\"qemu\",\"pid\":7}]},\"samples\":[{\"test\":\"put_block\","
        "\"value\":100,\"host\":{\"sliced\":true,\"cpu_s\":{\"qemu\":1.5,\"blkback\":null},"
        "\"cpu_s_per_gib\":{\"qemu\":0.75,\"dom0_busy\":2}}}]}]}";
    vdc_result_set rs, copy;
    vdc_run *r;
    char *out;
    size_t len;

    vdc_result_set_init(&rs);
    assert_int_equal(vdc_result_set_load_data(&rs, doc, strlen(doc), "h.json"), 0);
    assert_non_null(rs.runs[0]->host);
    assert_true(vdc_sample_host_figure(rs.runs[0]->samples[0], "cpu_s_per_gib", "qemu") == 0.75);
    assert_true(vdc_sample_host_figure(rs.runs[0]->samples[0], "cpu_s_per_gib", "dom0_busy") == 2.0);
    assert_true(isnan(vdc_sample_host_figure(rs.runs[0]->samples[0], "cpu_s", "blkback")));
    assert_true(isnan(vdc_sample_host_figure(rs.runs[0]->samples[0], "cpu_s_per_gib", "agent")));
    assert_true(isnan(vdc_sample_host_figure(rs.runs[0]->samples[0], "ios", "qemu")));
    out = vdc_result_set_to_string(&rs, &len);
    assert_non_null(strstr(out, "\"poll_interval_s\": 0.1"));
    assert_non_null(strstr(out, "\"qemu\": 0.75"));
    g_free(out);
    vdc_result_set_init(&copy);
    r = vdc_result_set_add_run(&copy, "image");
    vdc_run_dispose(r);
    vdc_run_copy(r, rs.runs[0]);
    assert_true(r->host == rs.runs[0]->host);     /* shared, never changed once loaded */
    assert_true(vdc_sample_host_figure(r->samples[0], "cpu_s", "qemu") == 1.5);
    vdc_result_set_dispose(&copy);
    vdc_result_set_dispose(&rs);

    expect_load_error(HEAD "\"runs\":[{\"target\":\"a\",\"host\":[],\"samples\":[]}]}",
                      "vmdiskcmp: t.json: runs[0].host: expected an object\n");
    expect_load_error(HEAD "\"runs\":[{\"target\":\"a\",\"samples\":[{\"test\":\"putc\",\"value\":1,"
                      "\"host\":{\"cpu_s_per_gib\":{\"qemu\":\"fast\"}}}]}]}",
                      "vmdiskcmp: t.json: runs[0].samples[0].host: cpu_s_per_gib.qemu: expected a "
                      "number or null\n");
    /* CPU seconds that cannot be: negative (a difference of two reads a
     * tick below 0 is what it is), above interval_s on every CPU, absurd
     * or not finite; named with the member */
    {
        static const char *const bad[][2] = {
            { "\"cpu_s\":{\"qemu\":-1}", "cpu_s.qemu: -1: expected CPU seconds from 0 to 1e+08 (no interval_s)\n" },
            { "\"interval_s\":2,\"cpu_s\":{\"blkback\":-0.01}", "cpu_s.blkback: -0.01: expected CPU seconds from 0 to" },
            { "\"interval_s\":1,\"cpu_s\":{\"dom0_other\":-9000}",
              "cpu_s.dom0_other: -9000: expected CPU seconds from -8192.1 to 8192.1" },
            { "\"interval_s\":2,\"cpu_s\":{\"agent\":1e6}",
              "cpu_s.agent: 1e+06: expected CPU seconds from 0 to 16384.1 (interval_s on each of 8192 CPUs)\n" },
            { "\"cpu_s\":{\"dom0_busy\":1e300}", "cpu_s.dom0_busy: 1e+300: expected CPU seconds" },
            { "\"cpu_s\":{\"domu\":1e999}", "cpu_s.domu: inf: expected CPU seconds" },
            { "\"cpu_s_per_gib\":{\"qemu\":-3}", "cpu_s_per_gib.qemu: -3: expected a finite number from 0" },
            { "\"cpu_s_per_1000_ios\":{\"qemu\":1e12}", "cpu_s_per_1000_ios.qemu: 1e+12: expected a finite number" },
            /* an interval that lifts the ceiling of cpu_s past any bound */
            { "\"interval_s\":1e308,\"cpu_s\":{\"qemu\":1e308}", "interval_s: 1e+308: expected seconds from 0 to 1e+08\n" },
            { "\"interval_s\":1e999", "interval_s: expected a number >= 0 or null\n" },
            { "\"guest_elapsed_s\":2e8", "guest_elapsed_s: 2e+08: expected seconds from 0 to 1e+08\n" },
            { "\"monotonic_s\":[5,1]", "monotonic_s: expected [begin, end] with end >= begin" },
            { "\"cpu_attribution\":{\"qemu\":{\"attribution\":\"mostly\"}}",
              "cpu_attribution.qemu: expected {attribution: exact|shared|ambiguous|ended|inconsistent, reason}\n" },
        };
        static const char *const good[] = {
            "\"interval_s\":2,\"cpu_s\":{\"qemu_io\":-0.02,\"dom0_other\":-1.58,\"qemu\":16000}",
            "\"cpu_s_per_gib\":{\"qemu_io\":-40,\"qemu\":0}",
            "\"interval_s\":1e8,\"monotonic_s\":[3,3],\"cpu_attribution\":{\"agent\":{\"attribution\":\"ended\"}}",
        };

        for (size_t k = 0; k < G_N_ELEMENTS(bad); k++) {
            g_autofree char *d = g_strdup_printf(HEAD "\"runs\":[{\"target\":\"a\",\"samples\":[{\"test\":"
                                                 "\"putc\",\"value\":1,\"host\":{%s}}]}]}", bad[k][0]);
            g_autofree char *want = g_strdup_printf("vmdiskcmp: t.json: runs[0].samples[0].host: %s", bad[k][1]);
            vdc_result_set bs;
            char *err;

            vdc_result_set_init(&bs);
            vdc_error_reset();
            capture_stderr_begin();
            assert_int_equal(vdc_result_set_load_data(&bs, d, strlen(d), "t.json"), -1);
            err = capture_stderr_end();
            vdc_result_set_dispose(&bs);
            if (!g_str_has_prefix(err, want) || strchr(err, '\n') != err + strlen(err) - 1)
                fail_msg("case %zu: got '%s', wanted one line starting '%s'", k, err, want);
            free(err);
        }
        for (size_t k = 0; k < G_N_ELEMENTS(good); k++) {
            g_autofree char *d = g_strdup_printf(HEAD "\"runs\":[{\"target\":\"a\",\"samples\":[{\"test\":"
                                                 "\"putc\",\"value\":1,\"host\":{%s}}]}]}", good[k]);
            vdc_result_set gs;

            vdc_result_set_init(&gs);
            assert_int_equal(vdc_result_set_load_data(&gs, d, strlen(d), "t.json"), 0);
            vdc_result_set_dispose(&gs);
        }
    }
    expect_load_error(HEAD "\"runs\":[{\"target\":\"a\",\"samples\":[{\"test\":\"putc\",\"value\":1,"
                      "\"host\":{\"cpu_s\":3}}]}]}",
                      "vmdiskcmp: t.json: runs[0].samples[0].host: cpu_s: expected an object of CPU "
                      "seconds by role\n");
    /* the scalars and pairs the renderers read: wrong types and negative
     * counts refused, not read as absent */
    expect_load_error(HEAD "\"runs\":[{\"target\":\"a\",\"samples\":[{\"test\":\"putc\",\"value\":1,"
                      "\"host\":{\"interval_s\":\"abc\"}}]}]}",
                      "vmdiskcmp: t.json: runs[0].samples[0].host: interval_s: expected a number >= 0 or "
                      "null\n");
    expect_load_error(HEAD "\"runs\":[{\"target\":\"a\",\"samples\":[{\"test\":\"putc\",\"value\":1,"
                      "\"host\":{\"bytes\":-5}}]}]}",
                      "vmdiskcmp: t.json: runs[0].samples[0].host: bytes: expected a number >= 0 or null\n");
    expect_load_error(HEAD "\"runs\":[{\"target\":\"a\",\"samples\":[{\"test\":\"putc\",\"value\":1,"
                      "\"host\":{\"dom0_dirty_bytes\":[1,\"x\"]}}]}]}",
                      "vmdiskcmp: t.json: runs[0].samples[0].host: dom0_dirty_bytes: expected [begin, end], "
                      "two numbers >= 0\n");
    expect_load_error(HEAD "\"runs\":[{\"target\":\"a\",\"samples\":[{\"test\":\"putc\",\"value\":1,"
                      "\"host\":{\"sliced\":\"yes\"}}]}]}",
                      "vmdiskcmp: t.json: runs[0].samples[0].host: sliced: expected true or false\n");
    expect_load_error(HEAD "\"runs\":[{\"target\":\"a\",\"samples\":[{\"test\":\"putc\",\"value\":1,"
                      "\"host\":{\"cpu_attribution\":{\"qemu\":1}}}]}]}",
                      "vmdiskcmp: t.json: runs[0].samples[0].host: cpu_attribution.qemu: expected "
                      "{attribution: exact|shared|ambiguous|ended|inconsistent, reason}\n");
}

static void
test_save_atomic(void **state)
{
    char dir[] = "/tmp/vdc-model-XXXXXX";
    char *path;
    vdc_result_set rs, back;

    assert_non_null(mkdtemp(dir));
    path = g_build_filename(dir, "r.json", NULL);
    build(&rs);
    assert_int_equal(vdc_result_set_save(&rs, path), 0);
    vdc_result_set_init(&back);
    assert_int_equal(vdc_result_set_load_file(&back, path), 0);
    assert_int_equal(back.n_runs, 6);
    vdc_result_set_dispose(&back);
    unlink(path);
    rmdir(dir);
    g_free(path);
    vdc_result_set_dispose(&rs);
}

/* string members: at most VDC_RESULT_STRING_MAX bytes (command lines
 * VDC_RESULT_LONG_STRING_MAX), refused with the member's path and the limit */
static void
test_string_limits(void **state)
{
    g_autofree char *s4096 = g_strnfill(VDC_RESULT_STRING_MAX, 'x');
    g_autofree char *s4097 = g_strnfill(VDC_RESULT_STRING_MAX + 1, 'x');
    g_autofree char *ok = g_strdup_printf(HEAD "\"runs\":[{\"target\":\"a\",\"metadata\":{\"hostname\":"
                                          "\"%s\",\"command_line\":\"%s%s\"},\"samples\":[]}]}",
                                          s4096, s4097, s4097);
    g_autofree char *host = g_strdup_printf(HEAD "\"runs\":[{\"target\":\"a\",\"metadata\":{\"hostname\":"
                                            "\"%s\"},\"samples\":[]}]}", s4097);
    g_autofree char *prod = g_strdup_printf("{\"format\":\"vmdiskcmp-result\",\"format_version\":1,"
                                            "\"producer\":{\"name\":\"%s\",\"version\":\"1\"},"
                                            "\"runs\":[]}", s4097);
    g_autofree char *exp = g_strdup_printf(HEAD "\"experiment\":{\"host\":{\"cpu_model\":\"%s\"}},"
                                           "\"runs\":[]}", s4097);
    vdc_result_set rs;

    vdc_result_set_init(&rs);
    assert_int_equal(vdc_result_set_load_data(&rs, ok, strlen(ok), "t.json"), 0);
    assert_int_equal(strlen(rs.runs[0]->meta.hostname), VDC_RESULT_STRING_MAX);
    vdc_result_set_dispose(&rs);
    expect_load_error(host, "vmdiskcmp: t.json: runs[0].metadata.hostname: expected a string of at "
                            "most 4096 bytes, found 4097 bytes\n");
    expect_load_error(prod, "vmdiskcmp: t.json: producer.name: expected a string of at most 4096 "
                            "bytes, found 4097 bytes\n");
    expect_load_error(exp, "vmdiskcmp: t.json: experiment.host.cpu_model: expected a string of at "
                           "most 4096 bytes, found 4097 bytes\n");
    /* far too long for any member, even one the loader ignores: refused
     * before json-glib copies it */
    {
        g_autofree char *huge = g_strnfill(6 * VDC_RESULT_LONG_STRING_MAX + 1, 'x');
        g_autofree char *doc = g_strdup_printf(HEAD "\n\"future\":\"%s\",\"runs\":[]}", huge);

        expect_load_error(doc, "vmdiskcmp: t.json:2: a JSON string of more than 393216 bytes: expected "
                               "strings of at most 4096 bytes (65536 for command lines)\n");
    }
}

/* a set the loader would refuse (two runs of one target and repetition,
 * as a relabelling merge made) is never written */
static void
test_save_refuses_unloadable(void **state)
{
    char dir[] = "/tmp/vdc-model-XXXXXX";
    g_autofree char *path = NULL;
    vdc_result_set rs;
    char *err;

    assert_non_null(mkdtemp(dir));
    path = g_build_filename(dir, "result.json", NULL);
    vdc_result_set_init(&rs);
    vdc_result_set_add_run(&rs, "image")->repetition = 0;
    vdc_result_set_add_run(&rs, "image")->repetition = 0;
    capture_stderr_begin();
    assert_int_equal(vdc_result_set_save(&rs, path), -1);
    err = capture_stderr_end();
    assert_non_null(strstr(err, "(as it would be written): runs[1]: duplicate run: target \"image\" "
                                "repetition 0"));
    assert_non_null(strstr(err, "not written: vmdiskcmp would refuse to read it back"));
    assert_false(g_file_test(path, G_FILE_TEST_EXISTS));
    assert_int_equal(rmdir(dir), 0);                    /* nothing else either */
    free(err);
    vdc_result_set_dispose(&rs);
    vdc_error_reset();
}

/* experiment.levels[] held against the document: a level of an undeclared
 * target, a host cost over another number of guests than the level's, the
 * same (target, repetition, level) twice: each one line, nothing loaded.
 * The level's host cost has the CPU bound of samples[].host: interval_s on
 * each of VDC_HOST_MAX_CPUS (8192) CPUs. */
#define LEVELS_HEAD HEAD "\"experiment\":{\"id\":\"x\",\"levels\":["
#define LEVELS_TAIL "]},\"targets\":[{\"name\":\"image\",\"kind\":\"image\"},{\"name\":\"lvm\",\"kind\":\"lvm\"}]," \
                    "\"runs\":[{\"target\":\"image\",\"level\":2,\"guest\":0,\"samples\":[]}," \
                    "{\"target\":\"image\",\"level\":2,\"guest\":1,\"samples\":[]}]}"
static void
test_levels_consistent(void **state)
{
    static const char *const good =
        LEVELS_HEAD "{\"guests\":2,\"repetition\":0,\"target\":\"image\",\"host\":{\"guests\":2,"
        "\"interval_s\":1,\"cpu_s\":{\"blkback\":8000}}},"
        "{\"guests\":3,\"repetition\":0,\"target\":\"image\"},"
        "{\"guests\":2,\"repetition\":1,\"target\":\"image\"},"
        "{\"guests\":2,\"repetition\":0,\"target\":\"lvm\"}" LEVELS_TAIL;
    static const char *const bad[][2] = {
        { LEVELS_HEAD "{\"guests\":2,\"repetition\":0,\"target\":\"image\"},"
          "{\"guests\":2,\"repetition\":0,\"target\":\"ghost\"}" LEVELS_TAIL,
          "vmdiskcmp: t.json: experiment.levels[1].target: \"ghost\": expected one of the targets[] names\n" },
        { LEVELS_HEAD "{\"guests\":2,\"repetition\":0,\"target\":\"image\",\"host\":{\"guests\":3}}" LEVELS_TAIL,
          "vmdiskcmp: t.json: experiment.levels[0].host.guests: 3: expected the level's guests, 2 (the host "
          "cost of a level sums over each of its guests)\n" },
        { LEVELS_HEAD "{\"guests\":2,\"repetition\":0,\"target\":\"image\"},"
          "{\"guests\":3,\"repetition\":0,\"target\":\"image\"},"
          "{\"guests\":2,\"repetition\":0,\"target\":\"image\",\"status\":\"failed\"}" LEVELS_TAIL,
          "vmdiskcmp: t.json: experiment.levels[2]: duplicate level: target \"image\" repetition 0 at 2 "
          "guests already recorded in experiment.levels[0]: expected one record per target, repetition "
          "and level\n" },
        /* without targets[], a level names a target a run names */
        { HEAD "\"experiment\":{\"levels\":[{\"guests\":2,\"repetition\":0,\"target\":\"lvm\"}]},"
          "\"runs\":[{\"target\":\"image\",\"level\":2,\"samples\":[]}]}",
          "vmdiskcmp: t.json: experiment.levels[0].target: \"lvm\": expected one of the runs' targets "
          "(the document has no targets[])\n" },
        { LEVELS_HEAD "{\"guests\":2,\"repetition\":0,\"target\":\"image\",\"host\":{\"guests\":2,"
          "\"interval_s\":1,\"cpu_s\":{\"blkback\":8200}}}" LEVELS_TAIL,
          "vmdiskcmp: t.json: experiment.levels[0].host: cpu_s.blkback: 8200: expected CPU seconds from 0 "
          "to 8192.1 (interval_s on each of 8192 CPUs)\n" },
    };
    vdc_result_set rs;
    size_t k;

    (void)state;
    vdc_result_set_init(&rs);
    assert_int_equal(vdc_result_set_load_data(&rs, good, strlen(good), "t.json"), 0);
    assert_int_equal(rs.experiment.n_levels, 4);
    vdc_result_set_dispose(&rs);
    for (k = 0; k < G_N_ELEMENTS(bad); k++)
        expect_load_error(bad[k][0], bad[k][1]);
    vdc_error_reset();
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_string_limits),
        cmocka_unit_test(test_save_refuses_unloadable),
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_agent_table),
        cmocka_unit_test(test_keys),
        cmocka_unit_test(test_passes),
        cmocka_unit_test(test_storage_alignment),
        cmocka_unit_test(test_thin_pool_full),
        cmocka_unit_test(test_variant),
        cmocka_unit_test(test_build_lookup),
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_roundtrip_facts),
        cmocka_unit_test(test_merge),
        cmocka_unit_test(test_load_errors),
        cmocka_unit_test(test_cache_placement),
        cmocka_unit_test(test_load_minimal_and_unknown),
        cmocka_unit_test(test_from_json),
        cmocka_unit_test(test_host_members),
        cmocka_unit_test(test_save_atomic),
        cmocka_unit_test(test_levels_consistent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
