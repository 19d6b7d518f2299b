/* vmdiskcmp emulated Xen lab: option parsing and the lab.sh argv (lab.h). */
#include "config.h"
#include "lab/lab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "common/util.h"
#include "src/lab/lab-paths.h"  /* generated in the build tree */

enum lab_opt_arg { LAB_ARG_NONE, LAB_ARG_PATH, LAB_ARG_SECONDS };

/* One table drives parsing and --help.  @actions: which actions accept it. */
struct lab_opt {
    const char *name;
    enum lab_opt_arg arg;
    const char *actions;
    const char *help;
};

static const struct lab_opt lab_opts[] = {
    { .name = "cache-dir", .arg = LAB_ARG_PATH, .actions = "build selftest run",
      .help = "where built labs are kept (dom0-KEY/); default: BUILDDIR/lab-cache in a build tree, else /var/cache/vmdiskcmp-lab" },
    { .name = "out", .arg = LAB_ARG_PATH, .actions = "selftest run",
      .help = "result directory, new or empty (default: lab-YYYYmmdd-HHMMSS)" },
    { .name = "timeout", .arg = LAB_ARG_SECONDS, .actions = "selftest run",
      .help = "seconds the job may run inside dom0 (default 3600)" },
    { .name = "vmdiskcmp", .arg = LAB_ARG_PATH, .actions = "run",
      .help = "vmdiskcmp binary to run in dom0 (default: this one); the agent and runner beside it in the build tree go too" },
    { .name = "file", .arg = LAB_ARG_PATH, .actions = "run",
      .help = "HOST[=NAME]: hand a file (e.g. the prepared guest image) to dom0 as /lab/in/files/NAME (repeatable)" },
    { .name = "prepared", .arg = LAB_ARG_PATH, .actions = "run",
      .help = "IMG from `vmdiskcmp prepare --out IMG` on this host (with IMG.manifest, IMG.vmlinuz, IMG.initrd): handed in, and --guest-image points at it" },
    { .name = "libvirt", .arg = LAB_ARG_NONE, .actions = "selftest",
      .help = "also create a domU through libvirt xen:///system" },
};

void
vdc_lab_opts_init(struct vdc_lab_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->timeout_s = 3600;
}

void
vdc_lab_opts_dispose(struct vdc_lab_opts *o)
{
    g_clear_pointer(&o->action, g_free);
    g_clear_pointer(&o->script_dir, g_free);
    g_clear_pointer(&o->cache_dir, g_free);
    g_clear_pointer(&o->out_dir, g_free);
    g_clear_pointer(&o->vmdiskcmp, g_free);
    g_clear_pointer(&o->prepared, g_free);
    g_clear_pointer(&o->files, g_strfreev);
    g_clear_pointer(&o->args, g_strfreev);
}

static void
lab_usage(FILE *f)
{
    size_t i;

    fprintf(f,
            "usage: vmdiskcmp lab build    [--cache-dir D]\n"
            "       vmdiskcmp lab selftest [--cache-dir D] [--out DIR] [--timeout S] [--libvirt]\n"
            "       vmdiskcmp lab run      [--cache-dir D] [--out DIR] [--timeout S] [--prepared IMG]\n"
            "                              [--file HOST[=NAME]]...\n"
            "                              -- VMDISKCMP_ARGS... [--then VMDISKCMP_ARGS...]...\n"
            "\nThe emulated Xen lab: Xen 4.17 and a Debian 12 dom0 under QEMU (TCG).\n"
            "build makes the dom0 (debootstrap, cached); selftest boots it and creates PV\n"
            "domUs with an image and an LV, reading backends from xenstore; run boots it and\n"
            "runs `vmdiskcmp VMDISKCMP_ARGS` in dom0 (the VG is 'lab'; each --then starts one\n"
            "more job in the same boot, results in DIR/result-K), bringing results,\n"
            "dom0 logs and the serial log back to DIR.  Emulated hardware: numbers are for\n"
            "function and relative checks only.\n\noptions:\n");
    for (i = 0; i < G_N_ELEMENTS(lab_opts); i++)
        fprintf(f, "  --%-10s %-6s %s [%s]\n", lab_opts[i].name,
                lab_opts[i].arg == LAB_ARG_NONE ? "" :
                lab_opts[i].arg == LAB_ARG_SECONDS ? "S" : "PATH",
                lab_opts[i].help, lab_opts[i].actions);
}

static const struct lab_opt *
lab_find_opt(const char *name)
{
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(lab_opts); i++)
        if (!strcmp(lab_opts[i].name, name))
            return &lab_opts[i];
    return NULL;
}

/* does the space-separated @list contain the word @w? */
static int
lab_word_in(const char *list, const char *w)
{
    g_auto(GStrv) words = g_strsplit(list, " ", -1);

    return g_strv_contains((const char *const *)words, w);
}

void
vdc_lab_default_paths(struct vdc_lab_opts *o, const char *exe)
{
    const char *env_dir = getenv("VDC_LAB_DIR");
    const char *env_cache = getenv("VDC_LAB_CACHE");
    g_autofree char *built = g_build_filename(VDC_LAB_BUILDDIR, "src", "vmdiskcmp", NULL);
    int in_tree = exe && !strcmp(exe, built);

    if (!o->script_dir)
        o->script_dir = g_strdup(env_dir && *env_dir ? env_dir :
                                 in_tree ? VDC_LAB_SRCDIR : VDC_DATADIR "/lab");
    if (!o->cache_dir) {
        if (env_cache && *env_cache)
            o->cache_dir = g_strdup(env_cache);
        else if (in_tree)
            o->cache_dir = g_build_filename(VDC_LAB_BUILDDIR, "lab-cache", NULL);
        else
            o->cache_dir = g_strdup("/var/cache/vmdiskcmp-lab");
    }
}

int
vdc_lab_parse(struct vdc_lab_opts *o, int argc, char **argv)
{
    g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func(g_free);
    int i;

    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        if (argc < 2) {
            vdc_input_error("lab: missing action: expected build, selftest or run");
            return -1;
        }
        lab_usage(stdout);
        return 1;
    }
    if (strcmp(argv[1], "build") && strcmp(argv[1], "selftest") && strcmp(argv[1], "run")) {
        vdc_input_error("lab: unknown action '%s': expected build, selftest or run", argv[1]);
        return -1;
    }
    o->action = g_strdup(argv[1]);

    for (i = 2; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        g_autofree char *name = NULL;
        const struct lab_opt *opt;
        const char *eq;

        if (!strcmp(a, "--")) {
            for (i++; i < argc; i++)
                g_ptr_array_add(args, g_strdup(argv[i]));
            break;
        }
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            lab_usage(stdout);
            return 1;
        }
        if (strncmp(a, "--", 2)) {
            vdc_input_error("lab %s: unexpected argument '%s': vmdiskcmp arguments go after --", o->action, a);
            return -1;
        }
        eq = strchr(a, '=');
        name = eq ? g_strndup(a + 2, eq - a - 2) : g_strdup(a + 2);
        opt = lab_find_opt(name);
        if (!opt) {
            vdc_input_error("lab %s: unknown option '--%s' (see vmdiskcmp lab --help)", o->action, name);
            return -1;
        }
        if (!lab_word_in(opt->actions, o->action)) {
            vdc_input_error("lab %s: option '--%s' applies only to lab %s", o->action, name, opt->actions);
            return -1;
        }
        if (opt->arg != LAB_ARG_NONE) {
            if (eq)
                val = eq + 1;
            else if (i + 1 < argc)
                val = argv[++i];
            if (!val || !*val) {
                vdc_input_error("lab %s: option '--%s' expects a value", o->action, name);
                return -1;
            }
        } else if (eq) {
            vdc_input_error("lab %s: option '--%s' takes no value", o->action, name);
            return -1;
        }

        if (!strcmp(name, "cache-dir")) {
            g_free(o->cache_dir);
            o->cache_dir = g_strdup(val);
        } else if (!strcmp(name, "out")) {
            g_free(o->out_dir);
            o->out_dir = g_strdup(val);
        } else if (!strcmp(name, "vmdiskcmp")) {
            g_free(o->vmdiskcmp);
            o->vmdiskcmp = g_strdup(val);
        } else if (!strcmp(name, "prepared")) {
            g_free(o->prepared);
            o->prepared = g_strdup(val);
        } else if (!strcmp(name, "file")) {
            g_ptr_array_add(files, g_strdup(val));
        } else if (!strcmp(name, "libvirt")) {
            o->libvirt = 1;
        } else if (!strcmp(name, "timeout")) {
            char *end = NULL;
            unsigned long v = strtoul(val, &end, 10);

            if (!g_ascii_isdigit(*val) || *end || v == 0 || v > 7 * 24 * 3600) {
                vdc_input_error("lab %s: --timeout '%s': expected whole seconds, 1..604800", o->action, val);
                return -1;
            }
            o->timeout_s = (unsigned)v;
        }
    }
    if (!strcmp(o->action, "run") && args->len == 0) {
        vdc_input_error("lab run: no vmdiskcmp arguments: expected -- ARGS (e.g. -- --image --lvm --dom0 --vg lab)");
        return -1;
    }
    if (strcmp(o->action, "run") && args->len > 0) {
        vdc_input_error("lab %s: takes no arguments after --", o->action);
        return -1;
    }
    g_ptr_array_add(files, NULL);
    g_ptr_array_add(args, NULL);
    o->files = (char **)g_ptr_array_steal(files, NULL);
    o->args = (char **)g_ptr_array_steal(args, NULL);
    return 0;
}

char **
vdc_lab_argv(const struct vdc_lab_opts *o)
{
    GPtrArray *v = g_ptr_array_new();
    size_t i;

    g_ptr_array_add(v, g_strdup("/bin/bash"));
    g_ptr_array_add(v, g_build_filename(o->script_dir, "lab.sh", NULL));
    g_ptr_array_add(v, g_strdup(o->action));
    g_ptr_array_add(v, g_strdup("--cache-dir"));
    g_ptr_array_add(v, g_strdup(o->cache_dir));
    if (strcmp(o->action, "build")) {
        g_ptr_array_add(v, g_strdup("--out"));
        g_ptr_array_add(v, g_strdup(o->out_dir));
        g_ptr_array_add(v, g_strdup("--timeout"));
        g_ptr_array_add(v, g_strdup_printf("%u", o->timeout_s));
    }
    if (o->libvirt)
        g_ptr_array_add(v, g_strdup("--libvirt"));
    if (!strcmp(o->action, "run")) {
        g_ptr_array_add(v, g_strdup("--vmdiskcmp"));
        g_ptr_array_add(v, g_strdup(o->vmdiskcmp));
        if (o->prepared) {
            g_ptr_array_add(v, g_strdup("--prepared"));
            g_ptr_array_add(v, g_strdup(o->prepared));
        }
        for (i = 0; o->files && o->files[i]; i++) {
            g_ptr_array_add(v, g_strdup("--file"));
            g_ptr_array_add(v, g_strdup(o->files[i]));
        }
        g_ptr_array_add(v, g_strdup("--"));
        for (i = 0; o->args && o->args[i]; i++)
            g_ptr_array_add(v, g_strdup(o->args[i]));
    }
    g_ptr_array_add(v, NULL);
    return (char **)g_ptr_array_free(v, FALSE);
}
