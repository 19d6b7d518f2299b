/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The target matrix (src/plan/dims.c): its comma lists parsed and refused,
 * the cross product of the dimensions in table order with generated names
 * and vdevs, the defaults that keep the old names (image, image-nocache,
 * image-qdisk), plan.json's variant and matrix, --help from the table, and
 * every refusal before anything is made: too many targets, a combination
 * QEMU and libvirt cannot run, QEMU's knobs on Xen, a matrix over block
 * devices without a device per variant, an option with no target kind it
 * applies to; each target's variant through the recorder into result.json,
 * and every dimension's key a member of the model's variant. */
#include "config.h"

#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>
#include <json-glib/json-glib.h>

#include "collect/recorder.h"
#include "model/result.h"
#include "model/result_fields.h"
#include "plan/build.h"
#include "plan/dims.h"
#include "plan/options.h"
#include "plan/plan.h"

static const vdc_host_defaults host = {
    .hostname = "host1", .ram_mib = 1024, .xen_control_d = 0, .date_id = "2026-11-30T101500Z",
};

#define KVM "run --hypervisor libvirt --connect qemu:///system --accel tcg --guest-image /g --runs 2 --seed 5 "

/* Parse and build @line ("run ..."); -1/0 and what went to stderr. */
static int
try_line(const char *line, char **err_out, vdc_plan *p)
{
    g_auto(GStrv) argv = NULL;
    int argc = 0, rc, saved, fd;
    char tmpl[] = "/tmp/vdc-test-dims-XXXXXX";
    vdc_run_opts o;

    assert_true(g_shell_parse_argv(line, &argc, &argv, NULL));
    fd = mkstemp(tmpl);
    assert_true(fd >= 0);
    fflush(stderr);
    saved = dup(2);
    dup2(fd, 2);
    vdc_run_opts_init(&o);
    rc = vdc_run_opts_parse(&o, argc, argv);
    if (rc == 0)
        rc = vdc_plan_build(&o, &host, line, p);
    vdc_run_opts_dispose(&o);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(fd);
    assert_true(g_file_get_contents(tmpl, err_out, NULL, NULL));
    unlink(tmpl);
    return rc;
}

static void
test_parse(void **state)
{
    vdc_dim_list l;

    assert_int_equal(vdc_dim_list_parse("disk-cache", "none,writeback", &l), 0);
    assert_int_equal(l.n, 2);
    assert_int_equal(l.v[0], VDC_DISK_CACHE_NONE);
    assert_int_equal(l.v[1], VDC_DISK_CACHE_WRITEBACK);
    /* numbers are stored as count + 1 (model/target.h) */
    assert_int_equal(vdc_dim_list_parse("iothreads", "0,1,4", &l), 0);
    assert_int_equal(l.n, 3);
    assert_int_equal(l.v[0], 1);
    assert_int_equal(l.v[2], 5);
    assert_int_equal(vdc_dim_list_parse("disk-bus", "virtio-scsi", &l), 0);
    assert_int_equal(l.v[0], VDC_DISK_BUS_VIRTIO_SCSI);
}

/* every refusal of a comma list: one line naming the option, the list
 * and what was expected */
static void
test_parse_refused(void **state)
{
    static const struct {
        const char *line, *want;
    } cases[] = {
        { KVM "--image --disk-cache none,bogus", "--disk-cache 'none,bogus': expected a comma list of none|writeback|directsync|writethrough" },
        { KVM "--image --disk-cache default", "--disk-cache 'default': expected a comma list of" },
        { KVM "--image --disk-cache none,", "--disk-cache 'none,': expected a comma list of" },
        { KVM "--image --disk-io native,native", "--disk-io 'native,native': 'native' given twice: expected each of native|io_uring|threads at most once" },
        { KVM "--image --iothreads 17", "--iothreads '17': expected a comma list of integers from 0 to 16" },
        { KVM "--image --iothreads 01", "--iothreads '01': expected a comma list of integers from 0 to 16" },
        { KVM "--image --disk-bus virtio", "--disk-bus 'virtio': expected a comma list of virtio-blk|virtio-scsi" },
        /* more values than a dimension holds: the count, not the range */
        { KVM "--image --fill 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24",
          "--fill '0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24': 25 values: expected at most 24 values" },
        { KVM "--image --disk-cache none --disk-cache writeback", "--disk-cache" },
        { KVM "--dom0 --disk-cache none", "--disk-cache none: expected a domU target as well (--image, --lvm, --block, --target)" },
        { KVM "--dom0 --iothreads 1", "--iothreads 1: expected a domU target as well" },
        { KVM "--lvm --vg vg0 --image-cache none", "--image-cache none: expected --image as well" },
        /* the hypervisor's */
        { "run --hypervisor libxl --guest-image /g --image --disk-cache none",
          "--disk-cache none: expected a QEMU/KVM domain (--hypervisor libvirt --connect qemu:///system)" },
        { "run --hypervisor libvirt --connect xen:///system --guest-image /g --lvm --vg vg0 --disk-bus virtio-scsi",
          "--disk-bus virtio-scsi: expected a QEMU/KVM domain" },
        { "run --hypervisor libxl --guest-image /g --image --iothreads 0,1", "--iothreads 0: expected a QEMU/KVM domain" },
        /* combinations QEMU and libvirt refuse */
        { KVM "--image --disk-cache none,writeback --disk-io native",
          "--disk-io native with --disk-cache writeback: expected --disk-cache none or directsync (QEMU's aio=native needs O_DIRECT" },
        { KVM "--lvm --vg vg0 --disk-cache writethrough --disk-io native", "--disk-io native with --disk-cache writethrough" },
        /* an image served through the host's page cache (QEMU's default) */
        { KVM "--image --disk-io native",
          "--disk-io native: expected --disk-cache none or directsync as well (or --image-cache none): "
          "without them an image target is served through the host's page cache (--image-cache host, "
          "the default: QEMU's cache=writeback), and aio=native needs O_DIRECT" },
        { KVM "--image --image-cache none --disk-cache none", "--image-cache with --disk-cache: expected one of them" },
        /* block devices: one per variant */
        { KVM "--destroy-data --block /dev/b1 --disk-cache none,writeback",
          "--block: expected 2 --block devices, one per variant of the block target (--disk-cache 2; a device serves one variant), got 1" },
        { KVM "--destroy-data --block /dev/b1 --block /dev/b2 --block /dev/b3 --disk-cache none,writeback",
          "--block: expected 2 --block devices" },
        { KVM "--destroy-data --target db=/dev/b1 --disk-io native,threads",
          "--target db=/dev/b1: expected no --target with a matrix over block devices (2 variants" },
        /* too many targets, before anything else of the plan */
        { KVM "--image --lvm --vg vg0 --dom0 --disk-cache none,directsync --disk-io native,io_uring --iothreads 0,1",
          "the plan makes 17 targets (8 image, 8 LV, 0 block, 1 dom0; the matrix --disk-cache 2 x --disk-io 2 x --iothreads 2): expected at most --max-targets 16" },
        { KVM "--image --disk-cache none,writeback --max-targets 1", "the plan makes 2 targets (2 image, 0 LV, 0 block, no dom0; the matrix --disk-cache 2): expected at most --max-targets 1" },
        { KVM "--image --max-targets 0", "--max-targets '0': expected an integer from 1 to 64" },
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *err = NULL;
        vdc_plan p;

        vdc_plan_init(&p);
        if (try_line(cases[i].line, &err, &p) != -1 || !strstr(err, cases[i].want) ||
            strchr(err, '\n') != err + strlen(err) - 1 || p.n_steps != 0) {
            print_error("case '%s': got '%s', wanted one line with '%s'\n", cases[i].line, err,
                        cases[i].want);
            fail();
        }
        vdc_plan_dispose(&p);
    }
}

static const char *
names(const vdc_plan *p)
{
    static char buf[1024];
    size_t i;

    buf[0] = '\0';
    for (i = 0; i < p->n_targets; i++) {
        g_strlcat(buf, i ? " " : "", sizeof(buf));
        g_strlcat(buf, p->targets[i].name, sizeof(buf));
        if (p->targets[i].vdev) {
            g_strlcat(buf, "@", sizeof(buf));
            g_strlcat(buf, p->targets[i].vdev, sizeof(buf));
        }
    }
    return buf;
}

/* the cross product: kinds image, lvm, block in that order, within a kind
 * the first dimension outermost; one --block device per variant */
static void
test_cross_product(void **state)
{
    g_autofree char *err = NULL;
    vdc_plan p;
    size_t i;

    vdc_plan_init(&p);
    assert_int_equal(try_line(KVM "--image --destroy-data --block /dev/b1 --block /dev/b2 --block /dev/b3 "
                              "--block /dev/b4 --disk-cache none,writeback --disk-io threads,io_uring",
                              &err, &p), 0);
    assert_string_equal(names(&p),
                        "image-none-threads@vdb image-none-uring@vdc image-wb-threads@vdd image-wb-uring@vde "
                        "block-none-threads@vdf block-none-uring@vdg block-wb-threads@vdh block-wb-uring@vdi");
    assert_string_equal(p.targets[5].path, "/dev/b2");
    assert_int_equal(p.targets[5].spec.disk_io, VDC_DISK_IO_IO_URING);
    assert_int_equal(p.targets[6].spec.disk_cache, VDC_DISK_CACHE_WRITEBACK);
    assert_non_null(strstr(p.targets[2].path, "-image-wb-threads.raw"));
    /* rotated over all eight: each starts a repetition's boot in turn */
    assert_int_equal(p.n_boots, 2);
    assert_int_equal(p.boots[0].n, 8);
    for (i = 0; i < 8; i++)
        assert_int_not_equal(p.steps[i].target, p.steps[8 + i].target);
    vdc_plan_dispose(&p);

    /* numbers and buses; LVs named after their variant */
    vdc_plan_init(&p);
    assert_int_equal(try_line(KVM "--lvm --vg vg0 --iothreads 0,2 --disk-bus virtio-blk", &err, &p), 0);
    assert_string_equal(names(&p), "lvm-it0-blk@vdb lvm-it2-blk@vdc");
    assert_string_equal(p.targets[1].lv, "vmdiskcmp-2026-11-30T101500Z-lvm-it2-blk");
    assert_int_equal(vdc_target_iothreads(&p.targets[1].spec), 2);
    vdc_plan_dispose(&p);

    /* a dimension given one value still names the target */
    vdc_plan_init(&p);
    assert_int_equal(try_line(KVM "--image --lvm --vg vg0 --dom0 --disk-io io_uring", &err, &p), 0);
    assert_string_equal(names(&p), "image-uring@vdb lvm-uring@vdc dom0");
    vdc_plan_dispose(&p);
}

/* the old comma options are rows of the table: their names unchanged */
static void
test_old_names(void **state)
{
    g_autofree char *err = NULL;
    vdc_plan p;

    vdc_plan_init(&p);
    assert_int_equal(try_line("run --hypervisor libxl --guest-image /g --image --image-backend tap,qdisk,auto "
                              "--image-cache host,none --lvm --vg vg0", &err, &p), 0);
    assert_string_equal(names(&p), "image@xvdb image-nocache@xvdc image-qdisk@xvdd image-qdisk-nocache@xvde "
                                   "image-auto@xvdf image-auto-nocache@xvdg lvm@xvdh");
    assert_string_equal(p.targets[6].lv, "vmdiskcmp-2026-11-30T101500Z-lvm");
    vdc_plan_dispose(&p);
}

/* plan.json: each target's variant holds the dimensions given that apply
 * to it (numbers as numbers), "matrix" the lists and the count */
static void
test_plan_json(void **state)
{
    g_autofree char *err = NULL, *json = NULL, *text = NULL;
    g_autoptr(JsonParser) parser = json_parser_new();
    JsonObject *root, *t0, *v, *m;
    JsonArray *targets;
    vdc_plan p;

    vdc_plan_init(&p);
    assert_int_equal(try_line(KVM "--image --dom0 --disk-cache none --iothreads 0,1", &err, &p), 0);
    json = vdc_plan_to_json(&p);
    assert_true(json_parser_load_from_data(parser, json, -1, NULL));
    root = json_node_get_object(json_parser_get_root(parser));
    targets = json_object_get_array_member(root, "targets");
    assert_int_equal(json_array_get_length(targets), 3);
    t0 = json_array_get_object_element(targets, 1);
    assert_string_equal(json_object_get_string_member(t0, "name"), "image-none-it1");
    v = json_object_get_object_member(t0, "variant");
    assert_string_equal(json_object_get_string_member(v, "disk_cache"), "none");
    assert_int_equal(json_object_get_int_member(v, "iothreads"), 1);
    assert_int_equal(json_object_get_size(v), 2);
    /* dom0 has no variant */
    assert_false(json_object_has_member(json_array_get_object_element(targets, 2), "variant"));
    m = json_object_get_object_member(root, "matrix");
    assert_int_equal(json_object_get_int_member(m, "targets"), 3);
    assert_int_equal(json_object_get_int_member(m, "max_targets"), 16);
    assert_true(json_object_get_double_member(m, "estimate_s") > 0);
    assert_int_equal(json_array_get_length(json_object_get_array_member(m, "dimensions")), 2);
    text = vdc_plan_to_text(&p);
    assert_non_null(strstr(text, "image-none-it1"));
    assert_non_null(strstr(text, "[disk_cache none, iothreads 1]"));
    assert_non_null(strstr(text, "estimate: 3 target(s) (--max-targets 16; matrix --iothreads 2)"));
    vdc_plan_dispose(&p);
}

/* the member of targets[].variant that holds @key, or NULL */
static const vdc_field *
variant_field(const char *key)
{
    const vdc_field *f;

    for (f = vdc_variant_fields; f->name; f++)
        if (!strcmp(f->name, key))
            return f;
    return NULL;
}

/* every dimension's key is a member of result.json's variant, of its type
 * (a name a string, a number an integer, off/on a boolean), so the
 * recorder's copy of the plan's variant loses nothing */
static void
test_variant_keys_in_model(void **state)
{
    size_t i;

    for (i = 0; i < vdc_n_dimensions; i++) {
        const vdc_dimension *d = &vdc_dimensions[i];
        const vdc_field *f = variant_field(vdc_dim_key(d));

        if (!f)
            fail_msg("dimension %s: key %s is no member of targets[].variant", d->option, vdc_dim_key(d));
        assert_int_equal(f->type, d->numeric ? VDC_F_INT : d->boolean ? VDC_F_BOOL : VDC_F_STR);
    }
}

/* the recorder copies each target's variant from the plan into the result
 * set: the dimensions given that apply to its kind, nothing for dom0; the
 * saved document reads back with them */
static void
test_recorded_variant(void **state)
{
    g_autofree char *err = NULL, *text = NULL, *doc = NULL;
    const vdc_result_set *rs;
    size_t len = 0;
    vdc_result_set back;
    vdc_recorder *rec;
    vdc_plan p;
    size_t i;

    vdc_plan_init(&p);
    assert_int_equal(try_line(KVM "--image --dom0 --disk-cache none --iothreads 0,1 --image-format raw,qcow2 "
                                  "--fill 50", &err, &p), 0);
    assert_int_equal(p.n_targets, 5);
    rec = vdc_recorder_new(&p);
    for (i = 0; i < p.n_targets; i++)
        vdc_recorder_target(rec, i, NULL, NULL);
    rs = vdc_recorder_result(rec);
    assert_int_equal(rs->n_targets, 5);
    for (i = 0; i < 4; i++) {
        const vdc_target_variant *v = &rs->targets[i]->variant;

        assert_string_equal(v->image_format, i < 2 ? "raw" : "qcow2");
        assert_string_equal(v->disk_cache, "none");
        assert_int_equal(v->iothreads, i % 2);
        assert_int_equal(v->fill_percent, 50);
        assert_int_equal(v->precondition, VDC_BOOL_ABSENT);   /* not given */
        assert_null(v->disk_io);                /* not given */
        assert_null(v->lv_type);                /* not of an image */
    }
    text = vdc_target_variant_text(rs->targets[3]);
    assert_string_equal(text, "image_format qcow2, disk_cache none, iothreads 1, fill_percent 50");
    assert_string_equal(rs->targets[4]->kind, "dom0");
    assert_null(rs->targets[4]->variant.disk_cache);
    assert_null(vdc_target_variant_text(rs->targets[4]));

    /* saved and loaded: the same */
    doc = vdc_result_set_to_string(rs, &len);
    assert_non_null(strstr(doc, "\"variant\""));
    vdc_result_set_init(&back);
    assert_int_equal(vdc_result_set_load_data(&back, doc, len, "recorded"), 0);
    assert_string_equal(back.targets[3]->variant.image_format, "qcow2");
    assert_int_equal(back.targets[3]->variant.iothreads, 1);
    assert_int_equal(back.targets[3]->variant.fill_percent, 50);
    assert_int_equal(back.targets[4]->variant.iothreads, VDC_INT_ABSENT);
    vdc_result_set_dispose(&back);
    vdc_recorder_free(rec);
    vdc_plan_dispose(&p);
}

/* --help is generated from the table too */
static void
test_help(void **state)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    size_t i;

    vdc_run_opts_help(f);
    fclose(f);
    for (i = 0; i < vdc_n_dimensions; i++) {
        g_autofree char *opt = g_strdup_printf("--%s", vdc_dimensions[i].option);

        assert_non_null(strstr(buf, opt));
    }
    assert_non_null(strstr(buf, "none|writeback|directsync|writethrough"));
    assert_non_null(strstr(buf, "--max-targets"));
    free(buf);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_parse_refused),
        cmocka_unit_test(test_cross_product),
        cmocka_unit_test(test_old_names),
        cmocka_unit_test(test_plan_json),
        cmocka_unit_test(test_variant_keys_in_model),
        cmocka_unit_test(test_recorded_variant),
        cmocka_unit_test(test_help),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
