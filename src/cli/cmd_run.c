/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `vmdiskcmp run` (the default command) and `vmdiskcmp cleanup`. */
#include "config.h"

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "cli/commands.h"
#include "common/helper.h"
#include "common/opts.h"
#include "common/util.h"
#include "store/store.h"
#include "guest/prepare.h"
#include "guest/tmpdir.h"
#include "hv/hv.h"
#include "hv/translate.h"
#include "plan/build.h"
#include "plan/dims.h"
#include "plan/levels.h"
#include "plan/options.h"
#include "plan/plan.h"
#include "plan/workloads.h"
#include "run/journal.h"
#include "collect/facts.h"
#include "run/preflight.h"
#include "run/run.h"
#include "run/undo.h"
#include "storage/storage.h"

static volatile sig_atomic_t vdc_stop;

/* Only sets the flag: the run loop and every wait poll it.  A second
 * SIGINT sets it again; teardown runs regardless. */
static void
on_signal(int sig)
{
    vdc_stop = sig;
}

static void
install_signals(void)
{
    vdc_on_stop_signals(on_signal);
}

static char *
join_argv(int argc, char **argv)
{
    GString *s = g_string_new("vmdiskcmp");
    int i;

    for (i = 1; i < argc; i++) {
        g_autofree char *q = g_shell_quote(argv[i]);
        g_string_append_c(s, ' ');
        g_string_append(s, strpbrk(argv[i], " \t'\"$\\") ? q : argv[i]);
    }
    return g_string_free(s, FALSE);
}

/* --dry-run: whether the guest template is already prepared (cached);
 * the cache entry's image (g_free), or NULL */
static char *
print_guest_cache(const vdc_plan *p, const vdc_run_settings *s)
{
    const char *cache = s->cache_dir ? s->cache_dir : VDC_PREPARE_DEFAULT_CACHE;
    char *hit = NULL;

    if (p->hv == VDC_HV_NONE || p->prepared_image || !p->guest_image)
        return NULL;
    hit = vdc_prepare_cached(p->guest_image, s->agent, s->runner, cache);
    if (hit)
        printf("guest: %s prepared with this agent and runner: cached, %s (no appliance launch)\n",
               p->guest_image, hit);
    else
        printf("guest: %s not prepared with this agent and runner yet: the run prepares it "
               "(libguestfs, once) into %s\n", p->guest_image, cache);
    return hit;
}

/* --dry-run: the boot facts the run would take where no option names
 * them (run.c's prepare_guest): from the manifest of --prepared-image or
 * of the cached prepared image @hit, else from the template's manifest
 * (the run boots the copies prepare makes of the same files).  Loaded
 * into @prep; nothing when no manifest loads (the checks before the dry
 * run have named a bad one). */
static void
dry_run_boot_facts(const vdc_plan *p, const char *hit, struct vdc_prepared *prep)
{
    const char *image = p->prepared_image ? p->prepared_image : hit ? hit : p->guest_image;
    g_autofree char *manifest = image ? g_strconcat(image, ".manifest", NULL) : NULL;
    vdc_err_kind scope;
    int r;

    if (!manifest || !g_file_test(manifest, G_FILE_TEST_IS_REGULAR))
        return;                 /* a template yet to be made: the run refuses it */
    scope = vdc_error_scope(VDC_ERR_INPUT);
    if (p->prepared_image || hit)
        r = vdc_prepared_load(image, prep);
    else
        r = vdc_template_load(image, prep);
    if (r < 0) {
        vdc_error_reset();
        vdc_prepared_dispose(prep);
        vdc_prepared_init(prep);
    }
    vdc_error_scope(scope);
}

static void
print_dry_run(const vdc_plan *p, const vdc_run_settings *s)
{
    g_autofree char *text = vdc_plan_to_text(p);
    g_autofree char *json = vdc_plan_to_json(p);
    g_autofree char *root = g_strdup_printf("%s/PREPARED-GUEST.img", "CACHE");
    g_autofree char *ctl = g_strdup_printf("%s/control-N.img", p->out_dir);
    g_autofree char *hit = NULL;
    struct vdc_prepared prep;
    vdc_hv_domain dom;
    size_t i;

    vdc_prepared_init(&prep);
    fputs(text, stdout);
    hit = print_guest_cache(p, s);
    if (p->hv == VDC_HV_NONE) {
        printf("\nno domU: dom0 baseline only\n");
    } else {
        int xen = p->hv == VDC_HV_LIBXL || !strcmp(p->domain_type, "xen");
        vdc_hv_domain_from_plan(p, p->prepared_image ? p->prepared_image : hit ? hit
                                : p->guest_image ? p->guest_image : root, ctl, NULL, &dom);
        /* what the run boots: --kernel/--initrd/--cmdline, else the manifest's */
        dry_run_boot_facts(p, hit, &prep);
        if (!dom.kernel)
            dom.kernel = prep.kernel;
        if (!dom.initrd)
            dom.initrd = prep.initrd;
        if (!dom.cmdline)
            dom.cmdline = xen ? prep.cmdline_xen : prep.cmdline_kvm;
        if (xen) {
            g_autofree char *cfg = vdc_xl_cfg(&dom);
            printf("\n# xl disk specs\n");
            for (i = 0; i < dom.n_disks; i++) {
                g_autofree char *spec = vdc_xl_disk_spec(&dom.disks[i]);
                printf("%-10s %s\n", dom.disks[i].target, spec ? spec : "(error)");
            }
            printf("\n# xl.cfg\n%s", cfg ? cfg : "(error)\n");
        }
        if (p->hv == VDC_HV_LIBVIRT) {
            g_autofree char *xml = vdc_domain_xml(&dom);
            printf("\n# domain XML (%s)\n%s", p->uri, xml ? xml : "(error)\n");
        }
    }
    printf("\n# plan.json\n%s\n", json);
    vdc_prepared_dispose(&prep);
}

/* Make *@s absolute against the current directory (in place).  The
 * journal records these paths and `vmdiskcmp cleanup` may run from another
 * directory; libvirtd and libxl resolve paths in their own. */
static void
make_absolute(char **s)
{
    if (*s && **s && !g_path_is_absolute(*s)) {
        char *a = g_canonicalize_filename(*s, NULL);

        g_free(*s);
        *s = a;
    }
}

static void
make_paths_absolute(vdc_run_opts *o)
{
    size_t i;

    if (o->out && *o->out) {
        /* absolute and canonical, an absolute OUT too: OUT/ and OUT/. name
         * OUT (the result directory is made by mkdir(OUT) after its parent,
         * run.c, which must not be OUT) */
        char *c = g_canonicalize_filename(o->out, NULL);

        g_free(o->out);
        o->out = c;
    }
    make_absolute(&o->image_dir);
    make_absolute(&o->guest_image);
    make_absolute(&o->prepared_image);
    make_absolute(&o->kernel);
    make_absolute(&o->initrd);
    make_absolute(&o->cache_dir);
    make_absolute(&o->agent);
    make_absolute(&o->runner);
    for (i = 0; o->blocks && o->blocks[i]; i++)
        make_absolute(&o->blocks[i]);
    for (i = 0; o->custom && o->custom[i]; i++) {
        char *eq = strchr(o->custom[i], '=');

        if (eq && eq[1] && !g_path_is_absolute(eq + 1)) {
            g_autofree char *dev = g_canonicalize_filename(eq + 1, NULL);
            char *c = g_strdup_printf("%.*s=%s", (int)(eq - o->custom[i]), o->custom[i], dev);

            g_free(o->custom[i]);
            o->custom[i] = c;
        }
    }
    if (o->dom0_on && strcmp(o->dom0_on, "lvm") && strcmp(o->dom0_on, "image"))
        make_absolute(&o->dom0_on);
}

/* What this libvirt and QEMU cannot do of the plan's QEMU knobs is bad
 * input, refused before anything is created (plan/dims.h
 * vdc_dim_check_build); a connection that fails is the run's error. */
static int
check_build(const vdc_plan *p)
{
    vdc_hv_build b;
    int rc;

    if (vdc_hv_build_facts(p, &b) < 0) {
        vdc_hv_build_dispose(&b);
        return -1;
    }
    rc = vdc_dim_check_build(p, &b);
    vdc_hv_build_dispose(&b);
    return rc;
}

/* Bad input found before anything is created (exit 2): input files that
 * are missing or not readable regular files; with @dry_run only those the
 * dry run's domain XML and xl.cfg name (--prepared-image and its manifest,
 * --kernel, --initrd: a template is yet to be made or prepared).  (--out,
 * the directories, the devices and the manifest were checked before
 * --dry-run: vdc_run_check_inputs.)  0 or -1 after one vdc_input_error. */
static int
preflight(const vdc_run_opts *o, int dry_run)
{
    g_autofree char *manifest = o->prepared_image ? g_strconcat(o->prepared_image, ".manifest", NULL)
                                                  : NULL;
    const struct { const char *opt, *path; int booted; } in[] = {
        { "--prepared-image", o->prepared_image, 1 },
        { "--prepared-image (its manifest)", manifest, 1 },
        { "--guest-image", o->guest_image, 0 },
        { "--kernel", o->kernel, 1 },
        { "--initrd", o->initrd, 1 },
        { "--agent", o->agent, 0 },     /* defaults: checked where needed */
        { "--runner", o->runner, 0 },
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(in); i++) {
        if (!in[i].path || (dry_run && !in[i].booted))
            continue;
        if (!g_file_test(in[i].path, G_FILE_TEST_IS_REGULAR) || access(in[i].path, R_OK) < 0) {
            vdc_input_error("%s %s: %s: expected a readable file", in[i].opt, in[i].path,
                            g_file_test(in[i].path, G_FILE_TEST_EXISTS) ? "not a readable regular file"
                                                                        : "no such file");
            return -1;
        }
    }
    return 0;
}

/* The agent (every run) and the runner (when a domU is prepared here) must
 * exist before anything is created.  Returns 0 or -1 after one message. */
static int
check_helpers(const vdc_plan *p, const vdc_run_settings *s)
{
    const struct { const char *opt, *path; int needed; } h[] = {
        { "--agent", s->agent, 1 },
        { "--runner", s->runner, p->n_boots > 0 && !p->prepared_image },
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(h); i++) {
        if (h[i].needed && !g_file_test(h[i].path, G_FILE_TEST_IS_REGULAR)) {
            vdc_input_error("%s %s: no such file: build it (make) and install it (make install), "
                            "or name it with %s FILE", h[i].opt, h[i].path, h[i].opt);
            return -1;
        }
    }
    return 0;
}

/* The host's VGs and the default guest template, as the plan takes them
 * (vdc_host_defaults): what host_choices looked up, owned here. */
struct host_vgs {
    struct vdc_lvm_vg_entry *entries;
    vdc_vg_fact *facts;
    size_t n;
    char *error;
    char *template, *template_where;
};

static void
host_vgs_dispose(struct host_vgs *v)
{
    vdc_storage_lvm_vgs_free(v->entries, v->n);
    g_free(v->facts);
    g_free(v->error);
    g_free(v->template);
    g_free(v->template_where);
    memset(v, 0, sizeof(*v));
}

/* Look up what the plan chooses from when no option names it (build.h):
 * the VGs (libblockdev), only for --lvm or --dom0-on lvm without --vg; the
 * default guest template, only without --guest-image/--prepared-image. */
static void
host_choices(const vdc_run_opts *o, vdc_host_defaults *h, struct host_vgs *v)
{
    g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);
    int dom0_lvm = o->dom0 && ((o->dom0_on && !strcmp(o->dom0_on, "lvm")) || (!o->dom0_on && o->lvm));
    size_t i;

    if (!o->vg && (o->lvm || dom0_lvm)) {
        h->vgs_listed = 1;
        if (vdc_storage_lvm_vgs(&v->entries, &v->n, &v->error) < 0) {
            h->vgs_error = v->error;
        } else {
            v->facts = g_new0(vdc_vg_fact, v->n ? v->n : 1);
            for (i = 0; i < v->n; i++)
                v->facts[i] = (vdc_vg_fact){ .name = v->entries[i].name,
                                             .free = v->entries[i].facts.free,
                                             .extent_size = v->entries[i].facts.extent_size,
                                             .pv_count = v->entries[i].facts.pv_count };
            h->vgs = v->facts;
            h->n_vgs = v->n;
        }
    }
    if (!o->guest_image && !o->prepared_image) {
        v->template = vdc_default_guest_template(exe, &v->template_where);
        h->guest_template = v->template;
        h->guest_template_where = v->template_where;
    }
}

/* The random end of a run id: 24 bits as 6 hex digits (GLib's generator,
 * seeded from /dev/urandom).  Newly allocated. */
static char *
run_id_suffix(void)
{
    return g_strdup_printf("%06x", g_random_int() & 0xffffffu);
}

/* Before anything is made: while @p's run id is taken on this host
 * (vdc_run_id_taken: a domain, image, LV or result directory of that
 * name), build @p again with another random suffix (*@suffix replaced; @h
 * points at it).  0, or -1 after one message (the hypervisor could not be
 * asked, or ids kept colliding). */
static int
unique_run_id(const vdc_run_opts *o, vdc_host_defaults *h, const char *cmdline, vdc_plan *p,
              char **suffix)
{
    for (int tries = 0; tries < 8; tries++) {
        int r = vdc_run_id_taken(p, NULL, !o->out);

        if (r <= 0)
            return r;
        g_free(*suffix);
        *suffix = run_id_suffix();
        h->suffix = *suffix;
        vdc_plan_dispose(p);
        vdc_plan_init(p);
        if (vdc_plan_build(o, h, cmdline, p) < 0)
            return -1;
        make_absolute(&p->out_dir);
    }
    vdc_error("run id %s: 8 random ids in a row were taken on this host: giving up", p->id);
    return -1;
}

/* A dom0 baseline the page cache flatters (vdc_plan_dom0_size_warning):
 * one line on stderr once the plan is checked, before anything is made
 * (not with --quiet; a bad input is then its only line). */
static void
warn_dom0_size(const vdc_plan *p, int quiet)
{
    g_autofree char *w = vdc_plan_dom0_size_warning(p);

    if (w && !quiet)
        fprintf(stderr, "vmdiskcmp: WARNING: %s\n", w);
}

int
vdc_cmd_run(int argc, char **argv)
{
    vdc_run_opts o;
    vdc_plan p;
    vdc_run_env env;
    vdc_run_settings s = { 0 };
    vdc_host_defaults h = { 0 };
    g_autoptr(GDateTime) now = g_date_time_new_now_utc();
    g_autofree char *date_s = g_date_time_format(now, "%Y-%m-%dT%H%M%S");
    g_autofree char *date_id = g_strdup_printf("%s.%03dZ", date_s,
                                               g_date_time_get_microsecond(now) / 1000);
    g_autofree char *suffix = run_id_suffix();
    g_autofree char *cmdline = join_argv(argc, argv);
    g_autofree char *agent = NULL, *runner = NULL;
    struct host_vgs vgs = { 0 };
    vdc_err_kind scope;
    int r, rc = -1;

    vdc_run_opts_init(&o);
    vdc_plan_init(&p);
    r = vdc_run_opts_parse(&o, argc, argv);
    if (r == VDC_OPTS_HELP) {
        vdc_run_opts_help(stdout);
        rc = 0;
        goto out;
    }
    if (r < 0)
        goto out;
    vdc_set_quiet(o.quiet);
    h.hostname = g_get_host_name();
    h.ram_mib = vdc_host_ram_mib();
    h.xen_control_d = vdc_host_is_xen_dom0();
    h.date_id = date_id;
    h.suffix = suffix;
    make_paths_absolute(&o);
    host_choices(&o, &h, &vgs);
    /* the plan is built from the options (the --workload job files read
     * and checked by the agent's parser); the directories, devices and
     * boot files it names are checked (vdc_run_check_inputs), and the VG
     * must hold every LV the plan creates, together, and the image
     * directory's filesystem every image: checked before anything exists,
     * --dry-run included (bd_lvm_vginfo, statvfs; nothing created).  What
     * fails here is bad input (exit 2). */
    scope = vdc_error_scope(VDC_ERR_INPUT);
    r = vdc_plan_build(&o, &h, cmdline, &p);
    if (r == 0)
        r = vdc_plan_load_workloads(&p, &o, vdc_workload_profile_dir());
    if (r == 0) {
        make_absolute(&p.out_dir);   /* the default results/ID */
        r = vdc_run_check_inputs(&p, o.consent) < 0 || vdc_run_check_lvm_room(&p) < 0 ||
            vdc_run_check_image_room(&p) < 0 || check_build(&p) < 0 ||
            vdc_run_check_level_memory(&p, h.xen_control_d) < 0 ? -1 : 0;
    }
    vdc_error_scope(scope);
    if (r < 0)
        goto out;
    agent = o.agent ? g_strdup(o.agent) : vdc_default_helper("vmdiskcmp-agent");
    runner = o.runner ? g_strdup(o.runner) : vdc_default_helper("vmdiskcmp-runner");
    s.agent = agent;
    s.runner = runner;
    s.cache_dir = o.cache_dir;
    if (o.store && (o.no_store ? (vdc_input_error("--store and --no-store: expected one of them"), -1)
                               : vdc_store_check_path(o.store)) < 0)
        goto out;    /* a --store refused before anything is created, --dry-run too */
    if (o.dry_run) {
        if (preflight(&o, 1) < 0)
            goto out;
        warn_dom0_size(&p, o.quiet);
        print_dry_run(&p, &s);
        rc = 0;
        goto out;
    }
    if (geteuid() != 0)
        vdc_progress("warning: not root: creating domains, LVs, loop devices and mounts will likely fail");

    install_signals();
    vdc_run_env_default(&env);
    env.stop = &vdc_stop;
    s.consent = o.consent;
    s.no_report = o.no_report;
    s.inspect = o.inspect;
    if (preflight(&o, 0) < 0 || check_helpers(&p, &s) < 0)
        goto out;
    if (unique_run_id(&o, &h, cmdline, &p, &suffix) < 0)
        goto out;
    warn_dom0_size(&p, o.quiet);
    vdc_progress("plan: %zu target(s), %zu step(s), %zu boot(s), results in %s",
                 p.n_targets, p.n_steps, p.n_boots, p.out_dir);
    /* the run returns its own status (run.h): 0, 1 failed, 3 interrupted */
    r = vdc_run_plan(&p, &s, &env);
    if (r == VDC_EXIT_INTERRUPTED)
        vdc_note_interrupted();
    if (r == VDC_EXIT_OK) {
        vdc_progress("done: %s/result.json", p.out_dir);
        rc = 0;
        /* result.json is complete: recorded in the store, or a warning */
        if (!o.no_store) {
            g_autofree char *store = o.store ? g_strdup(o.store) : vdc_store_default_path(p.out_dir);

            vdc_store_record(store, p.out_dir, VDC_STORE_KIND_RUN);
        }
    }
out:
    host_vgs_dispose(&vgs);
    vdc_plan_dispose(&p);
    vdc_run_opts_dispose(&o);
    return rc;
}

/* ---- cleanup ------------------------------------------------------------------ */

/* The options of `vmdiskcmp cleanup` (common/opts.h). */
struct cleanup_cli {
    int all;
    char *results, *vg, *cache_dir;
};

static const vdc_opt cleanup_table[] = {
    { .name = "all", .type = VDC_OPT_FLAG, .off = offsetof(struct cleanup_cli, all),
      .help = "replay every journal under --results" },
    { .name = "results", .type = VDC_OPT_STR, .off = offsetof(struct cleanup_cli, results),
      .metavar = "DIR", .def = "results", .help = "with --all: where the result directories are" },
    { .name = "vg", .type = VDC_OPT_STR, .off = offsetof(struct cleanup_cli, vg), .metavar = "VG",
      .help = "with --all: also remove the LVs of VG that carry our tag" },
    { .name = "cache-dir", .type = VDC_OPT_STR, .off = offsetof(struct cleanup_cli, cache_dir),
      .metavar = "DIR", .def = VDC_PREPARE_DEFAULT_CACHE,
      .help = "with --all: the prepared-guest cache whose unfinished entries are removed" },
    { .name = "help", .type = VDC_OPT_HELP, .short_name = 'h', .help = "this text" },
};

static const vdc_opts_spec cleanup_spec = {
    .command = "cleanup",
    .prefix = "cleanup: ",
    .table = cleanup_table,
    .n = G_N_ELEMENTS(cleanup_table),
    .operands = VDC_OPERANDS_ANYWHERE,
    .usage =
        "usage: vmdiskcmp cleanup DIR...\n"
        "       vmdiskcmp cleanup --all [--results DIR] [--vg VG] [--cache-dir DIR]\n\n"
        "Removes what a crashed run (or a run with --keep) left, from DIR/journal: only what the\n"
        "journal says the run created and that still is that object (a domain by its UUID, an\n"
        "image, file or directory by its inode, an LV by its tags, a loop device by its backing\n"
        "file, a mount by its source, a child's process group that outlived the run by its\n"
        "leader's pid, start time and executable).  A journal whose run is still running (it\n"
        "holds the journal's lock) is left alone, and so is a journal its run's record does not\n"
        "vouch for (written by hand, copied, moved or replaced).  Nothing else is touched.\n"
        "--all replays every journal under --results (default: results), removes what a\n"
        "prepare killed before it finished left (--cache-dir's .tmp-* and TMPDIR's\n"
        "vmdiskcmp-guestfs-*, when no live prepare holds them) and, with --vg, removes the LVs\n"
        "of VG that carry our tag, except those of runs still running (their journal under\n"
        "--results or their run record locked).\n\n",
};

/* Each of @dirs (@n) a directory holding a journal file, checked before
 * any is replayed.  0, or -1 after one vdc_input_error naming the path. */
static int
check_cleanup_dirs(char **dirs, int n)
{
    for (int i = 0; i < n; i++) {
        g_autofree char *journal = g_build_filename(dirs[i], "journal", NULL);

        if (!g_file_test(dirs[i], G_FILE_TEST_IS_DIR)) {
            vdc_input_error("cleanup: %s: %s: expected the result directory of a run (its journal "
                            "inside)", dirs[i], g_file_test(dirs[i], G_FILE_TEST_EXISTS)
                                                   ? "not a directory" : "no such directory");
            return -1;
        }
        if (!g_file_test(journal, G_FILE_TEST_IS_REGULAR)) {
            vdc_input_error("cleanup: %s: %s: expected the result directory of a run (a run "
                            "journals what it creates there before creating it)", journal,
                            g_file_test(journal, G_FILE_TEST_EXISTS) ? "not a regular file"
                                                                     : "no journal");
            return -1;
        }
    }
    return 0;
}

/* The id (of @live) whose run tag LV @vg/@lv carries, or NULL. */
static const char *
live_run_of(const char *vg, const char *lv, const GPtrArray *live)
{
    for (guint k = 0; k < live->len; k++) {
        g_autofree char *tag = g_strconcat(VDC_STORAGE_RUN_TAG_PREFIX,
                                           (const char *)g_ptr_array_index(live, k), NULL);

        if (vdc_storage_lvm_has_tag(vg, lv, tag) != 0)
            return g_ptr_array_index(live, k);      /* also when unsure (-1) */
    }
    return NULL;
}

int
vdc_cmd_cleanup(int argc, char **argv)
{
    vdc_run_env env;
    struct cleanup_cli c = { 0 };
    const char *results;
    int rc = -1, i, first = 0;
    vdc_opts_result pr = vdc_opts_parse(&cleanup_spec, &c, argc, argv, &first, NULL);

    if (pr == VDC_OPTS_HELP) {
        vdc_opts_help(&cleanup_spec, stdout);
        rc = 0;
        goto out;
    }
    if (pr < 0)
        goto out;
    if (!c.all && first >= argc) {
        vdc_input_error("cleanup: expected a result directory or --all");
        goto out;
    }
    if (c.all && first < argc) {
        vdc_input_error("cleanup: expected either result directories or --all, not both");
        goto out;
    }
    if (c.all && c.results && !g_file_test(c.results, G_FILE_TEST_IS_DIR)) {
        vdc_input_error("cleanup: --results %s: expected a directory of result directories", c.results);
        goto out;
    }
    if (check_cleanup_dirs(argv + first, argc - first) < 0)
        goto out;
    rc = 0;
    vdc_run_env_default(&env);
    for (i = first; i < argc; i++)
        if (vdc_run_cleanup_dir(argv[i], &env, 0, NULL) < 0)
            rc = -1;
    results = c.results ? c.results : "results";
    if (c.all) {
        g_autoptr(GDir) d = g_dir_open(results, 0, NULL);
        g_autoptr(GPtrArray) live = g_ptr_array_new_with_free_func(g_free);
        const char *name;
        while (d && (name = g_dir_read_name(d))) {
            g_autofree char *dir = g_build_filename(results, name, NULL);
            g_autofree char *journal = g_build_filename(dir, "journal", NULL);
            if (g_file_test(journal, G_FILE_TEST_IS_REGULAR) && vdc_run_cleanup_dir(dir, &env, 1, live) < 0)
                rc = -1;
        }
        /* runs alive elsewhere: their records are locked (run/runrec.h) */
        {
            g_autoptr(GPtrArray) recs = vdc_runrec_live();

            for (guint k = 0; k < recs->len; k++)
                g_ptr_array_add(live, g_strdup(((vdc_runrec *)g_ptr_array_index(recs, k))->id));
        }
        /* what a prepare killed before it finished left (guest/tmpdir.h) */
        (void)vdc_tmpdir_sweep(c.cache_dir ? c.cache_dir : VDC_PREPARE_DEFAULT_CACHE,
                               VDC_TMPDIR_CACHE_PREFIX);
        (void)vdc_tmpdir_sweep(g_get_tmp_dir(), VDC_TMPDIR_GUESTFS_PREFIX);
        if (c.vg) {
            g_auto(GStrv) lvs = vdc_storage_lvm_list_tagged(c.vg);
            size_t k;
            if (!lvs)
                rc = -1;
            for (k = 0; lvs && lvs[k]; k++) {
                const char *id = live_run_of(c.vg, lvs[k], live);

                if (id) {
                    printf("%s/%s: tagged by run %s, which is still running: skipped\n", c.vg,
                           lvs[k], id);
                    continue;
                }
                printf("%s/%s: tagged %s: removing\n", c.vg, lvs[k], VDC_STORAGE_TAG);
                if (env.storage_destroy_journaled(VDC_BACKING_LVM, NULL, c.vg, lvs[k], NULL) < 0)
                    rc = -1;
            }
        }
    }
 out:
    vdc_opts_dispose(&cleanup_spec, &c);
    return rc;
}
