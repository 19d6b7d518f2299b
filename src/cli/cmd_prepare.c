/* vmdiskcmp prepare: install the static agent and the runner into a copy of
 * a guest template with libguestfs, cached under
 * sha256(template)+sha256(agent)+sha256(runner) (src/guest/prepare.h,
 * doc/guest-template.md).  Only this step, so it can run on another machine
 * (a build box, the outer host of the emulated lab) and the prepared image
 * be reused on many hosts. */
#include "config.h"

#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "cli/commands.h"
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

static const struct option prepare_options[] = {
    { "guest-image", required_argument, NULL, 'g' },
    { "agent", required_argument, NULL, 'a' },
    { "runner", required_argument, NULL, 'R' },
    { "cache-dir", required_argument, NULL, 'c' },
    { "out", required_argument, NULL, 'o' },
    { "timeout", required_argument, NULL, 't' },
    { "quiet", no_argument, NULL, 'q' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
};

static void
prepare_usage(FILE *f)
{
    fprintf(f,
            "usage: vmdiskcmp prepare --guest-image TEMPLATE [OPTIONS]\n"
            "\n"
            "Install vmdiskcmp-agent and vmdiskcmp-runner into a copy of TEMPLATE with\n"
            "libguestfs (once per template, agent and runner build) and print the\n"
            "prepared image.  TEMPLATE.manifest must sit beside TEMPLATE\n"
            "(doc/guest-template.md; `make guest-template` builds the default one).\n"
            "\n"
            "  --guest-image IMG  guest template (raw image with IMG.manifest)\n"
            "  --agent FILE       static agent (default: beside vmdiskcmp in a build tree,\n"
            "                     else %s/vmdiskcmp-agent)\n"
            "  --runner FILE      static runner (default: likewise, %s/vmdiskcmp-runner)\n"
            "  --cache-dir DIR    prepared image cache (default %s)\n"
            "  --out IMG          also copy the prepared image to IMG, with IMG.manifest,\n"
            "                     IMG.vmlinuz and IMG.initrd beside it (must not exist)\n"
            "  --timeout SEC      libguestfs session timeout (default 600)\n"
            "  -q, --quiet        no progress lines\n"
            "\n"
            "libguestfs settings come from the environment (LIBGUESTFS_BACKEND,\n"
            "LIBGUESTFS_BACKEND_SETTINGS=force_tcg where KVM is unusable, LIBGUESTFS_CACHEDIR).\n",
            VDC_LIBEXECDIR, VDC_LIBEXECDIR, VDC_PREPARE_DEFAULT_CACHE);
}

int
vdc_cmd_prepare(int argc, char **argv)
{
    struct vdc_prepare_opts o = { 0 };
    struct vdc_prepared p;
    g_autofree char *agent = NULL, *runner = NULL;   /* defaults we found */
    char *end = NULL;
    int c;
    long t;

    optind = 1;
    opterr = 0;             /* our one-line message, not getopt's */
    while ((c = getopt_long(argc, argv, "qh", prepare_options, NULL)) != -1) {
        switch (c) {
        case 'g': o.template_path = optarg; break;
        case 'a': o.agent_path = optarg; break;
        case 'R': o.runner_path = optarg; break;
        case 'c': o.cache_dir = optarg; break;
        case 'o': o.out_path = optarg; break;
        case 't':
            t = strtol(optarg, &end, 10);
            if (!*optarg || *end || t <= 0 || t > 86400) {
                vdc_error("--timeout '%s': expected seconds, 1 to 86400", optarg);
                return VDC_EXIT_USAGE;
            }
            o.launch_timeout_s = (int)t;
            break;
        case 'q': vdc_set_quiet(1); break;
        case 'h': prepare_usage(stdout); return VDC_EXIT_OK;
        default:
            vdc_error("prepare: '%s': unknown option or missing argument: "
                      "see 'vmdiskcmp prepare --help'", argv[optind - 1]);
            return VDC_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        vdc_error("prepare: unexpected argument '%s': expected options only", argv[optind]);
        return VDC_EXIT_USAGE;
    }
    if (!o.template_path) {
        vdc_error("prepare: --guest-image: expected a guest template image");
        return VDC_EXIT_USAGE;
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
                vdc_error("prepare: %s '%s': expected an existing file",
                          inputs[i][0], inputs[i][1]);
                return VDC_EXIT_USAGE;
            }
        }
    }
    if (o.out_path) {
        g_autofree char *dir = g_path_get_dirname(o.out_path);

        if (!*o.out_path || g_str_has_suffix(o.out_path, "/")) {
            vdc_error("prepare: --out '%s': expected a file name", o.out_path);
            return VDC_EXIT_USAGE;
        }
        if (!g_file_test(dir, G_FILE_TEST_IS_DIR)) {
            vdc_error("prepare: --out %s: directory %s does not exist", o.out_path, dir);
            return VDC_EXIT_USAGE;
        }
    }
    if (o.out_path && g_file_test(o.out_path, G_FILE_TEST_EXISTS)) {
        vdc_error("prepare: --out %s: already exists: refusing to overwrite it", o.out_path);
        return VDC_EXIT_USAGE;
    }
    vdc_on_stop_signals(on_prepare_signal);
    o.stop = &prepare_stop;
    if (vdc_prepare(&o, &p) < 0 || prepare_stop) {
        /* a stop after the cache entry was renamed into place: the entry
         * is whole, but the user asked to stop: no output, exit 3 */
        if (prepare_stop)
            vdc_progress("prepare: interrupted (signal %d): nothing left behind",
                         (int)prepare_stop);
        vdc_prepared_dispose(&p);
        return prepare_stop ? VDC_EXIT_INTERRUPTED : VDC_EXIT_FAILURE;
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
    return VDC_EXIT_OK;
}
