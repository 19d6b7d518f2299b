/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp emulated Xen lab: the lab's options, the checks of every input
 * and the request lab.sh reads (lab.h). */
#include "config.h"
#include "lab/lab.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "common/helper.h"
#include "common/opts.h"
#include "common/util.h"
#include "guest/prepare.h"
#include "plan/options.h"
#include "src/lab/lab-paths.h"  /* generated in the build tree */

/* where dom0 finds what the lab hands in, and puts what comes back.  The
 * binaries and the guest sit under /lab/in as in a build tree (bin/vmdiskcmp,
 * guest-agent/, guest-template/), so dom0's vmdiskcmp finds its agent,
 * runner and guest template by itself (common/helper.h), as on a dom0 */
#define LAB_IN_FILES "/lab/in/files"
#define LAB_OUT "/lab/out"
#define STAGE_TEMPLATE "guest-template"      /* under /lab/in */
#define STAGE_CACHE "prepare-cache"          /* under /lab/in; copied into the prepare cache */

#define L(m) offsetof(struct vdc_lab_opts, m)
/* One table drives parsing and --help; .scopes: the actions an option
 * applies to. */
static const vdc_opt lab_table[] = {
    { .name = "cache-dir", .type = VDC_OPT_STR, .off = L(cache_dir), .metavar = "DIR",
      .scopes = "build selftest run",
      .help = "where built labs are kept (dom0-KEY/); default: BUILDDIR/lab-cache in a build tree, else /var/cache/vmdiskcmp-lab" },
    { .name = "out", .type = VDC_OPT_STR, .off = L(out_dir), .metavar = "DIR", .scopes = "selftest run",
      .help = "result directory, new or empty (default: lab-YYYYmmdd-HHMMSS)" },
    { .name = "timeout", .type = VDC_OPT_UINT, .off = L(timeout_s), .metavar = "S", .min = 1,
      .max = 7 * 24 * 3600, .expect = "whole seconds, 1..604800", .scopes = "selftest run",
      .help = "seconds the job may run inside dom0 (default 3600)" },
    { .name = "vmdiskcmp", .type = VDC_OPT_STR, .off = L(vmdiskcmp), .metavar = "FILE", .scopes = "run",
      .help = "vmdiskcmp binary to run in dom0 (default: this one); the agent and runner beside it in the build tree go too" },
    { .name = "file", .type = VDC_OPT_STRV, .off = L(files), .metavar = "HOST[=NAME]", .scopes = "run",
      .help = "hand a file (e.g. the prepared guest image) to dom0 as /lab/in/files/NAME (repeatable)" },
    { .name = "prepared", .type = VDC_OPT_STR, .off = L(prepared), .metavar = "IMG", .scopes = "run",
      .help = "IMG from `vmdiskcmp prepare --out IMG` on this host (with IMG.manifest, IMG.vmlinuz, IMG.initrd): its template becomes dom0's default guest and IMG seeds dom0's prepare cache (no libguestfs in dom0)" },
    { .name = "dom0-memory", .type = VDC_OPT_UINT, .off = L(dom0_memory), .metavar = "MiB", .min = 256,
      .max = 2048, .expect = "MiB, 256..2048 (the outer QEMU has 3072)", .scopes = "selftest run",
      .help = "dom0's memory in the lab (Xen dom0_mem; default 1024): dom0's page cache, and the dom0 baseline's test file (2x dom0 RAM)" },
    { .name = "libvirt", .type = VDC_OPT_FLAG, .off = L(libvirt), .scopes = "selftest",
      .help = "also create a domU through libvirt xen:///system" },
    { .name = "help", .type = VDC_OPT_HELP, .short_name = 'h', .help = "this text" },
};

static const vdc_opts_spec lab_spec = {
    .command = "lab",
    .table = lab_table,
    .n = G_N_ELEMENTS(lab_table),
    .operands = VDC_OPERANDS_AFTER,
    .scope_label = "lab ",
    .usage =
        "usage: vmdiskcmp lab build    [--cache-dir D]\n"
        "       vmdiskcmp lab selftest [--cache-dir D] [--out DIR] [--timeout S] [--dom0-memory MiB] [--libvirt]\n"
        "       vmdiskcmp lab run      [--cache-dir D] [--out DIR] [--timeout S] [--dom0-memory MiB]\n"
        "                              [--prepared IMG]\n"
        "                              [--file HOST[=NAME]]...\n"
        "                              -- VMDISKCMP_ARGS... [--then VMDISKCMP_ARGS...]...\n"
        "\nThe emulated Xen lab: Xen 4.17 and a Debian 12 dom0 under QEMU (TCG).\n"
        "build makes the dom0 (debootstrap, cached); selftest boots it and creates PV\n"
        "domUs with an image and an LV, reading backends from xenstore; run boots it and\n"
        "runs `vmdiskcmp VMDISKCMP_ARGS` in dom0 (the VG is 'lab'; each --then starts one\n"
        "more job in the same boot, results in DIR/result-K), bringing results,\n"
        "dom0 logs and the serial log back to DIR.  VMDISKCMP_ARGS are options of\n"
        "`vmdiskcmp run`, checked here before the boot.  Emulated hardware: numbers\n"
        "are for function and relative checks only.\n\noptions:\n",
};

static const char *const lab_actions[] = { "build", "selftest", "run", NULL };

void
vdc_lab_opts_init(struct vdc_lab_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->timeout_s = 3600;
}

void
vdc_lab_opts_dispose(struct vdc_lab_opts *o)
{
    vdc_opts_dispose(&lab_spec, o);
    g_clear_pointer(&o->action, g_free);
    g_clear_pointer(&o->script_dir, g_free);
    g_clear_pointer(&o->args, g_strfreev);
}

void
vdc_lab_help(FILE *f)
{
    vdc_opts_help(&lab_spec, f);
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
    vdc_opts_spec spec = lab_spec;
    g_autofree char *prefix = NULL;
    int first = 0, dashdash = 0, r;

    if (argc < 2) {
        vdc_input_error("lab: missing action: expected build, selftest or run");
        return VDC_OPTS_ERROR;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
        return VDC_OPTS_HELP;
    if (!g_strv_contains(lab_actions, argv[1])) {
        vdc_input_error("lab: unknown action '%s': expected build, selftest or run", argv[1]);
        return VDC_OPTS_ERROR;
    }
    o->action = g_strdup(argv[1]);
    prefix = g_strdup_printf("lab %s: ", o->action);
    spec.prefix = prefix;
    spec.scope = o->action;
    /* argv[1], the action, stands as the command name */
    r = vdc_opts_parse(&spec, o, argc - 1, argv + 1, &first, &dashdash);
    if (r != VDC_OPTS_OK)
        return r;
    first++;
    if (first < argc && !dashdash) {
        vdc_input_error("lab %s: unexpected argument '%s': vmdiskcmp arguments go after --",
                        o->action, argv[first]);
        return VDC_OPTS_ERROR;
    }
    if (!strcmp(o->action, "run") && first >= argc) {
        vdc_input_error("lab run: no vmdiskcmp arguments: expected -- ARGS (e.g. -- --image --lvm --dom0 --vg lab)");
        return VDC_OPTS_ERROR;
    }
    if (strcmp(o->action, "run") && first < argc) {
        vdc_input_error("lab %s: takes no arguments after --", o->action);
        return VDC_OPTS_ERROR;
    }
    o->args = g_new0(char *, argc - first + 1);
    for (r = first; r < argc; r++)
        o->args[r - first] = g_strdup(argv[r]);
    return VDC_OPTS_OK;
}

/* ---- the checks ------------------------------------------------------------ */

void
vdc_lab_request_init(struct vdc_lab_request *r)
{
    memset(r, 0, sizeof(*r));
}

void
vdc_lab_request_dispose(struct vdc_lab_request *r)
{
    size_t i;

    for (i = 0; i < r->n_jobs; i++) {
        g_strfreev(r->jobs[i].argv);
        g_free(r->jobs[i].result_dir);
    }
    g_free(r->jobs);
    g_free(r->action);
    g_free(r->script_dir);
    g_free(r->cache_dir);
    g_free(r->out_dir);
    g_free(r->vmdiskcmp);
    g_strfreev(r->helpers);
    g_strfreev(r->files);
    g_strfreev(r->stage);
    memset(r, 0, sizeof(*r));
}

/* --out: new or empty; we never add to someone's results */
static int
check_out(const char *action, const char *out)
{
    g_autoptr(GDir) d = NULL;

    if (!g_file_test(out, G_FILE_TEST_EXISTS))
        return 0;
    d = g_dir_open(out, 0, NULL);
    if (!d || g_dir_read_name(d)) {
        vdc_input_error("lab %s: --out '%s' exists and is not empty: expected a new directory",
                        action, out);
        return -1;
    }
    return 0;
}

/* add HOST (resolved) as NAME to @files, NAME unique */
static int
add_file(GPtrArray *files, const char *what, const char *host, const char *name)
{
    char real[PATH_MAX];
    guint i;

    for (i = 1; i < files->len; i += 2)
        if (!strcmp(files->pdata[i], name)) {
            vdc_input_error("lab run: %s: the name '%s' is taken: expected each name in "
                            "/lab/in/files once", what, name);
            return -1;
        }
    if (!realpath(host, real)) {
        vdc_input_error("lab run: %s: '%s': %s", what, host, g_strerror(errno));
        return -1;
    }
    g_ptr_array_add(files, g_strdup(real));
    g_ptr_array_add(files, g_strdup(name));
    return 0;
}

/* --file HOST[=NAME]... */
static int
check_files(const struct vdc_lab_opts *o, GPtrArray *files)
{
    size_t i;

    for (i = 0; o->files && o->files[i]; i++) {
        const char *f = o->files[i], *eq = strchr(f, '=');
        g_autofree char *src = eq ? g_strndup(f, (gsize)(eq - f)) : g_strdup(f);
        g_autofree char *name = eq ? g_strdup(eq + 1) : g_path_get_basename(src);
        g_autofree char *what = g_strdup_printf("--file %s", f);

        if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, "..")) {
            vdc_input_error("lab run: --file %s: expected HOST_PATH[=NAME] with a plain NAME", f);
            return -1;
        }
        if (!*src || access(src, R_OK) != 0) {
            vdc_input_error("lab run: --file %s: '%s' not readable", f, src);
            return -1;
        }
        if (add_file(files, what, src, name) < 0)
            return -1;
    }
    return 0;
}

/* add HOST (resolved) as REL under /lab/in to @stage, REL unique */
static int
add_stage(GPtrArray *stage, const char *what, const char *host, const char *rel)
{
    char real[PATH_MAX];
    guint i;

    for (i = 1; i < stage->len; i += 2)
        if (!strcmp(stage->pdata[i], rel)) {
            vdc_input_error("lab run: %s: '%s' would be handed in twice", what, rel);
            return -1;
        }
    if (!realpath(host, real) || access(real, R_OK) != 0) {
        vdc_input_error("lab run: %s: '%s': %s", what, host, g_strerror(errno));
        return -1;
    }
    g_ptr_array_add(stage, g_strdup(real));
    g_ptr_array_add(stage, g_strdup(rel));
    return 0;
}

/* @image with its manifest and boot files (@m: its manifest loaded) staged
 * under @dir as guest.img, guest.img.manifest and the boot files under the
 * names the manifest gives them (beside the image: else refused) */
static int
stage_guest(GPtrArray *stage, const char *what, const char *image, const struct vdc_prepared *m,
            const char *dir)
{
    g_autofree char *manifest = g_strconcat(image, ".manifest", NULL);
    g_autofree char *idir = g_path_get_dirname(image);
    g_autofree char *img_rel = g_build_filename(dir, "guest.img", NULL);
    g_autofree char *man_rel = g_build_filename(dir, "guest.img.manifest", NULL);
    const char *boot[] = { m->kernel, m->initrd };
    size_t i;

    if (add_stage(stage, what, image, img_rel) < 0 || add_stage(stage, what, manifest, man_rel) < 0)
        return -1;
    for (i = 0; i < G_N_ELEMENTS(boot); i++) {
        g_autofree char *bdir = g_path_get_dirname(boot[i]);
        g_autofree char *base = g_path_get_basename(boot[i]);
        g_autofree char *rel = g_build_filename(dir, base, NULL);

        if (strcmp(bdir, idir)) {
            vdc_input_error("lab run: %s: %s: expected its boot file %s beside it", what, image, boot[i]);
            return -1;
        }
        if (add_stage(stage, what, boot[i], rel) < 0)
            return -1;
    }
    return 0;
}

/* --prepared IMG, handed in as a dom0 that prepared it once would have it:
 * the template IMG was prepared from (IMG.manifest [prepared] template,
 * unchanged since: its SHA-256) as dom0's default guest template, and IMG
 * as the prepare cache's entry for that template and the helpers staged
 * (KEY/), so dom0's vmdiskcmp, given no guest option, finds the template,
 * hashes it and takes the prepared image from its cache: libguestfs never
 * runs in dom0.  IMG must have been prepared with the helpers staged (else
 * the cache key would differ and vmdiskcmp would launch libguestfs). */
static int
check_prepared(const struct vdc_lab_opts *o, char **helpers, GPtrArray *stage)
{
    g_autofree char *what = g_strdup_printf("--prepared %s", o->prepared);
    g_autofree char *manifest = g_strconcat(o->prepared, ".manifest", NULL);
    g_autofree char *tsum = NULL, *entry = NULL;
    struct vdc_prepared p, t;
    const char *ctx;
    size_t i;
    int r;

    vdc_prepared_init(&t);
    if (access(o->prepared, R_OK) != 0 || access(manifest, R_OK) != 0) {
        vdc_input_error("lab run: --prepared %s: '%s' missing (expected the output of "
                        "vmdiskcmp prepare --out)", o->prepared,
                        access(o->prepared, R_OK) != 0 ? o->prepared : manifest);
        return -1;
    }
    ctx = vdc_error_context("lab run: --prepared");
    r = vdc_prepared_load(o->prepared, &p);
    vdc_error_context(ctx);
    if (r < 0)
        return -1;
    for (i = 0; helpers[i] && r == 0; i++) {
        g_autofree char *base = g_path_get_basename(helpers[i]);
        g_autofree char *sum = vdc_file_sha256(helpers[i]);
        const char *want = g_str_has_suffix(base, "-agent") ? p.agent_sha256 : p.runner_sha256;

        if (!sum || !want || strcmp(sum, want)) {
            vdc_input_error("lab run: --prepared %s was prepared with another %s than %s: "
                            "run vmdiskcmp prepare again", o->prepared, base, helpers[i]);
            r = -1;
        }
    }
    if (r == 0 && (strlen(p.key) != 64 || strspn(p.key, "0123456789abcdef") != 64)) {
        vdc_input_error("lab run: --prepared %s: its manifest's key '%s': expected 64 hex digits",
                        o->prepared, p.key);
        r = -1;
    }
    if (r == 0 && (!p.template_path || !g_path_is_absolute(p.template_path) ||
                   access(p.template_path, R_OK) != 0)) {
        vdc_input_error("lab run: --prepared %s: the template it was prepared from (%s) is gone: "
                        "expected it readable (dom0's default guest), or prepare again",
                        o->prepared, p.template_path ? p.template_path : "not named in its manifest");
        r = -1;
    }
    if (r == 0 && (!(tsum = vdc_file_sha256(p.template_path)) || strcmp(tsum, p.template_sha256))) {
        vdc_input_error("lab run: --prepared %s: its template %s changed since it was prepared: "
                        "run vmdiskcmp prepare again", o->prepared, p.template_path);
        r = -1;
    }
    if (r == 0) {
        ctx = vdc_error_context("lab run: --prepared's template");
        r = vdc_template_load(p.template_path, &t);
        vdc_error_context(ctx);
    }
    entry = g_build_filename(STAGE_CACHE, p.key, NULL);
    if (r == 0 && (stage_guest(stage, what, p.template_path, &t, STAGE_TEMPLATE) < 0 ||
                   stage_guest(stage, what, o->prepared, &p, entry) < 0))
        r = -1;
    vdc_prepared_dispose(&t);
    vdc_prepared_dispose(&p);
    return r;
}

static void
add_words(GPtrArray *v, const char *a, const char *b)
{
    g_ptr_array_add(v, g_strdup(a));
    g_ptr_array_add(v, g_strdup(b));
}

/* Each job that boots the guest --prepared hands in (no guest or kernel of
 * its own) with less than that guest's least memory (its manifest's
 * min_memory_mib) is refused here, not after the boot (dom0's plan refuses
 * it the same way).  --prepared was checked (check_prepared). */
static int
check_jobs_memory(const struct vdc_lab_opts *o, const struct vdc_lab_request *r)
{
    struct vdc_prepared p;
    int64_t min;
    size_t k, i;
    int rc = 0;

    if (vdc_prepared_load(o->prepared, &p) < 0)
        return -1;
    min = p.min_memory_mib;
    vdc_prepared_dispose(&p);
    for (k = 0; k < r->n_jobs && min > 0 && rc == 0; k++) {
        g_autoptr(GPtrArray) parse = g_ptr_array_new();
        g_autofree char *ctx_text = g_strdup_printf("lab run: job %zu", k + 1);
        const char *ctx;
        vdc_run_opts ro;
        unsigned mem;

        if (strcmp(r->jobs[k].argv[0], "run"))
            g_ptr_array_add(parse, (char *)"run");
        for (i = 0; r->jobs[k].argv[i]; i++)
            g_ptr_array_add(parse, r->jobs[k].argv[i]);
        g_ptr_array_add(parse, NULL);
        vdc_run_opts_init(&ro);
        ctx = vdc_error_context(ctx_text);
        if (vdc_run_opts_parse(&ro, (int)parse->len - 1, (char **)parse->pdata) != VDC_OPTS_OK) {
            rc = -1;   /* make_job parsed the same words */
        } else if ((ro.image || ro.lvm || ro.blocks || ro.custom) && !ro.guest_image &&
                   !ro.prepared_image && !ro.kernel &&
                   (int64_t)(mem = ro.guest_memory ? ro.guest_memory : 512) < min) {
            vdc_input_error("--guest-memory %u: the guest --prepared %s hands in needs at least %"
                            G_GINT64_FORMAT " MiB (its manifest's [boot] min_memory_mib): expected "
                            "--guest-memory %" G_GINT64_FORMAT " or more", mem, o->prepared, min, min);
            rc = -1;
        }
        vdc_error_context(ctx);
        vdc_run_opts_dispose(&ro);
    }
    return rc;
}

/* Job @k (1-based) of @n: @words checked as options of `vmdiskcmp run` and
 * completed with what the lab hands in (lab.h). */
static int
make_job(const struct vdc_lab_opts *o, const struct vdc_lab_request *r, char **words, size_t k,
         struct vdc_lab_job *job)
{
    g_autoptr(GPtrArray) parse = g_ptr_array_new();
    g_autoptr(GPtrArray) w = g_ptr_array_new_with_free_func(g_free);
    g_autofree char *ctx_text = g_strdup_printf("lab run: job %zu", k);
    g_autofree char *out = NULL;
    const char *ctx;
    vdc_run_opts ro;
    size_t i;
    int pr;

    /* `vmdiskcmp run OPTIONS` or `vmdiskcmp OPTIONS`: argv[0] names run */
    if (strcmp(words[0], "run"))
        g_ptr_array_add(parse, (char *)"run");
    for (i = 0; words[i]; i++) {
        g_ptr_array_add(parse, words[i]);
        g_ptr_array_add(w, g_strdup(words[i]));
    }
    g_ptr_array_add(parse, NULL);
    vdc_run_opts_init(&ro);
    ctx = vdc_error_context(ctx_text);
    pr = vdc_run_opts_parse(&ro, (int)parse->len - 1, (char **)parse->pdata);
    if (pr == VDC_OPTS_HELP)
        vdc_input_error("--help: expected the options of a run (see vmdiskcmp run --help)");
    vdc_error_context(ctx);
    if (pr != VDC_OPTS_OK) {
        vdc_run_opts_dispose(&ro);
        return -1;
    }
    /* the agent, the runner and the guest: dom0's vmdiskcmp finds them itself */
    out = ro.out ? g_canonicalize_filename(ro.out, LAB_IN_FILES)
                 : k == 1 ? g_strdup(LAB_OUT "/result") : g_strdup_printf(LAB_OUT "/result-%zu", k);
    /* the run itself marks its result emulated, so that result.json as it
     * is recorded in the run's store (doc/store.md: by the SHA-256 of its
     * bytes, with experiment.emulated) is the file that comes back: the
     * host only re-renders it (cmd_lab.c, lab_mark_emulated) */
    if (!ro.emulated && !ro.dry_run)
        g_ptr_array_add(w, g_strdup("--emulated"));
    /* a dry run writes nothing: it gets no --out and brings nothing back */
    if (!ro.out && !ro.dry_run)
        add_words(w, "--out", out);
    /* dom0's /lab/out comes back into OUT (never above it) */
    if (!ro.dry_run && g_str_has_prefix(out, LAB_OUT "/") && out[sizeof(LAB_OUT)])
        job->result_dir = g_build_filename(r->out_dir, out + sizeof(LAB_OUT), NULL);
    job->libvirt = ro.hypervisor && !strcmp(ro.hypervisor, "libvirt");
    g_ptr_array_add(w, NULL);
    job->argv = (char **)g_ptr_array_free(g_steal_pointer(&w), FALSE);
    vdc_run_opts_dispose(&ro);
    return 0;
}

/* ARGS [--then ARGS]... into jobs */
static int
check_jobs(const struct vdc_lab_opts *o, struct vdc_lab_request *r)
{
    g_autoptr(GPtrArray) cur = g_ptr_array_new();
    size_t i, n = 1;

    for (i = 0; o->args[i]; i++)
        n += !strcmp(o->args[i], "--then");
    r->jobs = g_new0(struct vdc_lab_job, n);
    for (i = 0; ; i++) {
        const char *a = o->args[i];

        if (a && strcmp(a, "--then")) {
            g_ptr_array_add(cur, (char *)a);
            continue;
        }
        if (cur->len == 0) {
            vdc_input_error("lab run: --then: expected vmdiskcmp arguments %s it",
                            a ? "before" : "after");
            return -1;
        }
        g_ptr_array_add(cur, NULL);
        if (make_job(o, r, (char **)cur->pdata, r->n_jobs + 1, &r->jobs[r->n_jobs]) < 0)
            return -1;
        r->n_jobs++;
        g_ptr_array_set_size(cur, 0);
        if (!a)
            return 0;
    }
}

int
vdc_lab_check(const struct vdc_lab_opts *o, struct vdc_lab_request *r)
{
    g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GPtrArray) stage = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GPtrArray) helpers = g_ptr_array_new_with_free_func(g_free);
    int run = !strcmp(o->action, "run");
    size_t i;

    vdc_lab_request_init(r);
    r->action = g_strdup(o->action);
    r->script_dir = g_strdup(o->script_dir);
    r->cache_dir = g_canonicalize_filename(o->cache_dir, NULL);
    r->timeout_s = o->timeout_s ? o->timeout_s : 3600;
    r->libvirt = o->libvirt;
    r->dom0_memory = o->dom0_memory;
    if (strcmp(o->action, "build"))
        r->out_dir = g_canonicalize_filename(o->out_dir, NULL);
    if (run) {
        static const char *const names[] = { "vmdiskcmp-agent", "vmdiskcmp-runner" };

        if (!o->vmdiskcmp || !g_file_test(o->vmdiskcmp, G_FILE_TEST_IS_REGULAR) ||
            access(o->vmdiskcmp, X_OK) != 0) {
            vdc_input_error("lab run: --vmdiskcmp %s: expected the built vmdiskcmp executable",
                            o->vmdiskcmp ? o->vmdiskcmp : "");
            return -1;
        }
        r->vmdiskcmp = g_canonicalize_filename(o->vmdiskcmp, NULL);
        for (i = 0; i < G_N_ELEMENTS(names); i++) {
            char *h = vdc_helper_beside(r->vmdiskcmp, names[i]);

            if (h)
                g_ptr_array_add(helpers, h);
        }
        g_ptr_array_add(helpers, NULL);
        r->helpers = (char **)g_ptr_array_free(g_steal_pointer(&helpers), FALSE);
        if (check_jobs(o, r) < 0 || check_files(o, files) < 0 ||
            (o->prepared && (check_prepared(o, r->helpers, stage) < 0 || check_jobs_memory(o, r) < 0)))
            return -1;
        g_ptr_array_add(files, NULL);
        r->files = (char **)g_ptr_array_free(g_steal_pointer(&files), FALSE);
        g_ptr_array_add(stage, NULL);
        r->stage = (char **)g_ptr_array_free(g_steal_pointer(&stage), FALSE);
    }
    if (r->out_dir && check_out(o->action, o->out_dir) < 0)
        return -1;
    return 0;
}

/* ---- the request ----------------------------------------------------------- */

static void
assign(GString *s, const char *name, const char *value)
{
    g_autofree char *q = g_shell_quote(value);

    g_string_append_printf(s, "%s=%s\n", name, q);
}

static void
assign_array(GString *s, const char *name, char *const *values)
{
    size_t i;

    g_string_append_printf(s, "%s=(", name);
    for (i = 0; values && values[i]; i++) {
        g_autofree char *q = g_shell_quote(values[i]);

        g_string_append_printf(s, "%s%s", i ? " " : "", q);
    }
    g_string_append(s, ")\n");
}

char *
vdc_lab_request_text(const struct vdc_lab_request *r)
{
    GString *s = g_string_new("# vmdiskcmp lab request: written by `vmdiskcmp lab` once every input\n"
                              "# was checked; read by lab.sh (bash).  Every value is quoted.\n");
    g_autoptr(GPtrArray) jobs = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GPtrArray) libvirt = g_ptr_array_new_with_free_func(g_free);
    size_t i, k;

    assign(s, "LAB_ACTION", r->action);
    assign(s, "LAB_CACHE", r->cache_dir);
    if (strcmp(r->action, "build")) {
        assign(s, "LAB_OUT", r->out_dir);
        g_string_append_printf(s, "LAB_TIMEOUT=%u\n", r->timeout_s);
        if (r->dom0_memory)
            g_string_append_printf(s, "LAB_BOOT_DOM0_MEM_MIB=%u\n", r->dom0_memory);
    }
    if (!strcmp(r->action, "selftest"))
        g_string_append_printf(s, "LAB_LIBVIRT=%d\n", r->libvirt ? 1 : 0);
    if (strcmp(r->action, "run"))
        return g_string_free(s, FALSE);
    assign(s, "LAB_BIN", r->vmdiskcmp);
    assign_array(s, "LAB_HELPERS", r->helpers);
    assign_array(s, "LAB_FILES", r->files);
    assign_array(s, "LAB_STAGE", r->stage);
    assign(s, "LAB_PREPARE_CACHE", VDC_PREPARE_DEFAULT_CACHE);
    /* each job: its words quoted for sh, as dom0's job.sh runs them */
    for (k = 0; k < r->n_jobs; k++) {
        GString *j = g_string_new(NULL);

        for (i = 0; r->jobs[k].argv[i]; i++) {
            g_autofree char *q = g_shell_quote(r->jobs[k].argv[i]);

            g_string_append_printf(j, "%s%s", i ? " " : "", q);
        }
        g_ptr_array_add(jobs, g_string_free(j, FALSE));
        g_ptr_array_add(libvirt, g_strdup(r->jobs[k].libvirt ? "1" : "0"));
    }
    g_ptr_array_add(jobs, NULL);
    g_ptr_array_add(libvirt, NULL);
    assign_array(s, "LAB_JOBS", (char **)jobs->pdata);
    g_string_append(s, "LAB_JOB_LIBVIRT=(");
    for (k = 0; libvirt->pdata[k]; k++)
        g_string_append_printf(s, "%s%s", k ? " " : "", (char *)libvirt->pdata[k]);
    g_string_append(s, ")\n");
    return g_string_free(s, FALSE);
}

/* ---- what came back -------------------------------------------------------- */

/* "KEY=N" on a line of @path: N, or -1 */
static int
read_number(const char *path, const char *key)
{
    g_autofree char *text = NULL;
    g_auto(GStrv) lines = NULL;
    size_t i, n = strlen(key);

    if (!path || !g_file_get_contents(path, &text, NULL, NULL))
        return -1;
    lines = g_strsplit(text, "\n", -1);
    for (i = 0; lines[i]; i++)
        if (!strncmp(lines[i], key, n) && lines[i][n] == '=' && g_ascii_isdigit(lines[i][n + 1]))
            return atoi(lines[i] + n + 1);
    return -1;
}

int
vdc_lab_failed_job(const struct vdc_lab_request *r, size_t *job, int *code)
{
    g_autofree char *stages = r->out_dir ? g_build_filename(r->out_dir, "lab", "stages.txt", NULL) : NULL;
    g_autofree char *jobs = r->out_dir ? g_build_filename(r->out_dir, "jobs.txt", NULL) : NULL;
    int job_exit = read_number(stages, "job-exit");
    size_t k;

    if (job_exit <= 0)
        return 0;
    *job = 0;
    *code = job_exit;
    for (k = 1; k <= r->n_jobs; k++) {
        g_autofree char *key = g_strdup_printf("job=%zu exit", k);
        int c = read_number(jobs, key);

        if (c > 0) {
            *job = k;
            *code = c;
            break;
        }
    }
    return 1;
}
