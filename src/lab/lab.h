/* vmdiskcmp emulated Xen lab (issue 5): the C side of `vmdiskcmp lab`.
 * The heavy lifting is done by the recipe scripts in templates/lab/
 * (installed under $(pkgdatadir)/lab); this module finds them, validates the
 * options and builds the argument vector of templates/lab/lab.sh. */
#ifndef VDC_LAB_LAB_H
#define VDC_LAB_LAB_H

#include <stddef.h>

/* One `vmdiskcmp lab` invocation.  Strings are owned (g_free'd by dispose). */
struct vdc_lab_opts {
    char *action;        /* "build", "selftest" or "run" */
    char *script_dir;    /* directory holding lab.sh, build-dom0.sh ... */
    char *cache_dir;     /* built lab cache (dom0-KEY/ below it) */
    char *out_dir;       /* result directory: new or empty (selftest, run) */
    char *vmdiskcmp;     /* the vmdiskcmp binary handed into dom0 (run) */
    char *prepared;      /* prepared guest image from `vmdiskcmp prepare --out` (run) */
    unsigned timeout_s;  /* the job's timeout inside dom0, seconds */
    int libvirt;         /* selftest: add the libvirt xen:///system case */
    char **files;        /* NULL-terminated HOST[=NAME] list (run --file) */
    char **args;         /* NULL-terminated vmdiskcmp arguments (run, after --) */
};

void vdc_lab_opts_init(struct vdc_lab_opts *o);
/* Safe to call twice. */
void vdc_lab_opts_dispose(struct vdc_lab_opts *o);

/* Parse `lab ACTION [OPTIONS] [-- ARGS]` (argv[0] is "lab").  Defaults the
 * paths with vdc_lab_default_paths.  Returns 0; 1 when --help was printed;
 * -1 after one vdc_error line naming the bad option (caller exits 2). */
int vdc_lab_parse(struct vdc_lab_opts *o, int argc, char **argv);

/* Fill script_dir and cache_dir when unset: env VDC_LAB_DIR / VDC_LAB_CACHE
 * first; else, when @exe is the build tree's src/vmdiskcmp, the source tree's
 * templates/lab and BUILDDIR/lab-cache; else $(pkgdatadir)/lab and
 * /var/cache/vmdiskcmp-lab.  @exe may be NULL. */
void vdc_lab_default_paths(struct vdc_lab_opts *o, const char *exe);

/* The argv for execv: "/bin/bash", SCRIPT_DIR/lab.sh, ACTION, options...
 * NULL-terminated, g_strfreev'able.  Pure: touches no file. */
char **vdc_lab_argv(const struct vdc_lab_opts *o);

#endif
