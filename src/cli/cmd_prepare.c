/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp prepare: install the static agent and the runner into a copy of
 * a guest template with libguestfs, cached under
 * sha256(template)+sha256(agent)+sha256(runner) (src/guest/prepare.h,
 * doc/guest-template.md).  Only this step, so it can run on another machine
 * (a build box, the outer host of the emulated lab) and the prepared image
 * be reused on many hosts. */
#include "config.h"

#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "cli/commands.h"
#include "common/helper.h"
#include "common/opts.h"
#include "common/util.h"
#include "guest/prepare.h"

static volatile sig_atomic_t prepare_stop;

/* SIGINT/SIGTERM/SIGHUP only set the flag: vdc_prepare polls it (every
 * 100 ms while the appliance works), stops the appliance, removes what it
 * made and fails; we then exit 3 as `run` does. */
static void
on_prepare_signal(int sig)
{
    prepare_stop = sig;
}

/* The options of `vmdiskcmp prepare` (common/opts.h). */
struct prepare_cli {
    char *guest_image, *agent, *runner, *cache_dir, *out;
    unsigned timeout;
    int quiet;
};

#define P(m) offsetof(struct prepare_cli, m)
static const vdc_opt prepare_table[] = {
    { .name = "guest-image", .type = VDC_OPT_STR, .off = P(guest_image), .metavar = "IMG",
      .help = "guest template (raw image with IMG.manifest)" },
    { .name = "agent", .type = VDC_OPT_STR, .off = P(agent), .metavar = "FILE",
      .def = "beside vmdiskcmp in a build tree, else " VDC_LIBEXECDIR "/vmdiskcmp-agent",
      .help = "static agent" },
    { .name = "runner", .type = VDC_OPT_STR, .off = P(runner), .metavar = "FILE",
      .def = "likewise, " VDC_LIBEXECDIR "/vmdiskcmp-runner", .help = "static runner" },
    { .name = "cache-dir", .type = VDC_OPT_STR, .off = P(cache_dir), .metavar = "DIR",
      .def = VDC_PREPARE_DEFAULT_CACHE, .help = "prepared image cache" },
    { .name = "out", .type = VDC_OPT_STR, .off = P(out), .metavar = "IMG", .empty_ok = 1,
      .help = "also copy the prepared image to IMG, with IMG.manifest, IMG.vmlinuz and IMG.initrd beside it (must not exist)" },
    { .name = "timeout", .type = VDC_OPT_UINT, .off = P(timeout), .metavar = "SEC", .min = 1,
      .max = 86400, .expect = "seconds, 1 to 86400", .def = "600",
      .help = "libguestfs session timeout" },
    { .name = "quiet", .type = VDC_OPT_FLAG, .off = P(quiet), .short_name = 'q',
      .help = "no progress lines" },
    { .name = "help", .type = VDC_OPT_HELP, .short_name = 'h', .help = "this text" },
};

static const vdc_opts_spec prepare_spec = {
    .command = "prepare",
    .prefix = "prepare: ",
    .table = prepare_table,
    .n = G_N_ELEMENTS(prepare_table),
    .operands = VDC_OPERANDS_NONE,
    .usage =
        "usage: vmdiskcmp prepare --guest-image TEMPLATE [OPTIONS]\n"
        "\n"
        "Install vmdiskcmp-agent and vmdiskcmp-runner into a copy of TEMPLATE with\n"
        "libguestfs (once per template, agent and runner build) and print the\n"
        "prepared image.  TEMPLATE.manifest must sit beside TEMPLATE\n"
        "(doc/guest-template.md; `make guest-template` builds the default one).\n"
        "\n",
    .epilogue =
        "\n"
        "libguestfs settings come from the environment (LIBGUESTFS_BACKEND,\n"
        "LIBGUESTFS_BACKEND_SETTINGS=force_tcg where KVM is unusable, LIBGUESTFS_CACHEDIR).\n",
};

int
vdc_cmd_prepare(int argc, char **argv)
{
    struct prepare_cli c = { 0 };
    struct vdc_prepare_opts o = { 0 };
    struct vdc_prepared p;
    g_autofree char *agent = NULL, *runner = NULL;   /* defaults we found */
    vdc_opts_result r = vdc_opts_parse(&prepare_spec, &c, argc, argv, NULL, NULL);
    int rc = -1;

    if (r == VDC_OPTS_HELP) {
        vdc_opts_help(&prepare_spec, stdout);
        rc = 0;
        goto out;
    }
    if (r < 0)
        goto out;
    if (c.quiet)
        vdc_set_quiet(1);
    /* absolute: the prepared manifest records it, and `lab run --prepared`
     * hands that template in */
    if (c.guest_image && *c.guest_image && !g_path_is_absolute(c.guest_image)) {
        char *abs = g_canonicalize_filename(c.guest_image, NULL);

        g_free(c.guest_image);
        c.guest_image = abs;
    }
    o.template_path = c.guest_image;
    o.agent_path = c.agent;
    o.runner_path = c.runner;
    o.cache_dir = c.cache_dir;
    o.out_path = c.out;
    o.launch_timeout_s = (int)c.timeout;
    if (!o.template_path) {
        vdc_input_error("prepare: --guest-image: expected a guest template image");
        goto out;
    }
    if (!o.agent_path)
        o.agent_path = agent = vdc_default_helper("vmdiskcmp-agent");
    if (!o.runner_path)
        o.runner_path = runner = vdc_default_helper("vmdiskcmp-runner");
    {
        g_autofree char *manifest = g_strconcat(o.template_path, ".manifest", NULL);
        const char *const inputs[][2] = {
            { "--guest-image", o.template_path },
            { "--guest-image manifest", manifest },
            { "--agent", o.agent_path },
            { "--runner", o.runner_path },
        };
        size_t i;

        for (i = 0; i < G_N_ELEMENTS(inputs); i++) {
            if (!g_file_test(inputs[i][1], G_FILE_TEST_IS_REGULAR)) {
                vdc_input_error("prepare: %s '%s': expected an existing file",
                          inputs[i][0], inputs[i][1]);
                goto out;
            }
        }
    }
    if (o.out_path) {
        g_autofree char *dir = g_path_get_dirname(o.out_path);

        if (!*o.out_path || g_str_has_suffix(o.out_path, "/")) {
            vdc_input_error("prepare: --out '%s': expected a file name", o.out_path);
            goto out;
        }
        if (!g_file_test(dir, G_FILE_TEST_IS_DIR)) {
            vdc_input_error("prepare: --out %s: directory %s does not exist", o.out_path, dir);
            goto out;
        }
    }
    if (o.out_path && g_file_test(o.out_path, G_FILE_TEST_EXISTS)) {
        vdc_input_error("prepare: --out %s: already exists: refusing to overwrite it", o.out_path);
        goto out;
    }
    vdc_on_stop_signals(on_prepare_signal);
    o.stop = &prepare_stop;
    if (vdc_prepare(&o, &p) < 0 || prepare_stop) {
        /* a stop after the cache entry was renamed into place: the entry
         * is whole, but the user asked to stop: no output, exit 3 */
        if (prepare_stop) {
            vdc_progress("prepare: interrupted (signal %d): nothing left behind",
                         (int)prepare_stop);
            vdc_note_interrupted();
        }
        vdc_prepared_dispose(&p);
        goto out;
    }
    printf("prepared_image=%s\n", o.out_path ? o.out_path : p.image);
    printf("cache_image=%s\n", p.image);
    printf("cache_key=%s\n", p.key ? p.key : "");
    printf("cache_hit=%s\n", p.cache_hit ? "yes" : "no");
    printf("init_system=%s\n", p.init_system ? p.init_system : "");
    printf("template_sha256=%s\nagent_sha256=%s\nrunner_sha256=%s\n", p.template_sha256,
           p.agent_sha256, p.runner_sha256);
    printf("kernel=%s\ninitrd=%s\ncmdline_xen=%s\ncmdline_kvm=%s\n", p.kernel, p.initrd,
           p.cmdline_xen, p.cmdline_kvm);
    vdc_prepared_dispose(&p);
    rc = 0;
 out:
    vdc_opts_dispose(&prepare_spec, &c);
    return rc;
}
