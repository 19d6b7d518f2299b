/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp emulated Xen lab: the C side of `vmdiskcmp lab`.  The one
 * parser and validator of the lab's options and jobs: it checks every
 * input before anything is built or booted and hands templates/lab/lab.sh
 * (installed under $(pkgdatadir)/lab) a plain, already-checked request
 * (vdc_lab_request_text), so that the script only stages, boots and
 * collects. */
#ifndef VDC_LAB_LAB_H
#define VDC_LAB_LAB_H

#include <stddef.h>
#include <stdio.h>

/* One `vmdiskcmp lab` invocation as parsed.  Strings are owned (g_free'd
 * by dispose). */
struct vdc_lab_opts {
    char *action;        /* "build", "selftest" or "run" */
    char *script_dir;    /* directory holding lab.sh, build-dom0.sh ... */
    char *cache_dir;     /* built lab cache (dom0-KEY/ below it) */
    char *out_dir;       /* result directory: new or empty (selftest, run) */
    char *vmdiskcmp;     /* the vmdiskcmp binary handed into dom0 (run) */
    char *prepared;      /* prepared guest image from `vmdiskcmp prepare --out` (run) */
    unsigned timeout_s;  /* the job's timeout inside dom0, seconds; 0: 3600 */
    unsigned dom0_memory; /* dom0's memory in MiB (selftest, run); 0: lab.conf's */
    int libvirt;         /* selftest: add the libvirt xen:///system case */
    char **files;        /* NULL-terminated HOST[=NAME] list (run --file) */
    char **args;         /* NULL-terminated vmdiskcmp arguments (run, after --) */
};

void vdc_lab_opts_init(struct vdc_lab_opts *o);
/* Safe to call twice. */
void vdc_lab_opts_dispose(struct vdc_lab_opts *o);

/* Parse `lab ACTION [OPTIONS] [-- ARGS]` (argv[0] is "lab") with the lab's
 * options table (common/opts.h; each option names the actions it applies
 * to).  Returns VDC_OPTS_OK, VDC_OPTS_HELP (print vdc_lab_help), or
 * VDC_OPTS_ERROR after one vdc_input_error line naming the bad option. */
int vdc_lab_parse(struct vdc_lab_opts *o, int argc, char **argv);

/* `vmdiskcmp lab --help`. */
void vdc_lab_help(FILE *f);

/* Fill script_dir and cache_dir when unset: env VDC_LAB_DIR / VDC_LAB_CACHE
 * first; else, when @exe is the build tree's src/vmdiskcmp, the source tree's
 * templates/lab and BUILDDIR/lab-cache; else $(pkgdatadir)/lab and
 * /var/cache/vmdiskcmp-lab.  @exe may be NULL. */
void vdc_lab_default_paths(struct vdc_lab_opts *o, const char *exe);

/* One vmdiskcmp job in dom0 (lab run). */
struct vdc_lab_job {
    char **argv;         /* the complete vmdiskcmp arguments (NULL-terminated) */
    int libvirt;         /* it drives libvirt: libvirtd must run in dom0 first */
    char *result_dir;    /* where its --out comes back on this host (OUT/result-K);
                          * NULL when it is not under /lab/out */
};

/* A lab invocation, checked: what lab.sh is told (vdc_lab_request_text). */
struct vdc_lab_request {
    char *action;
    char *script_dir, *cache_dir;
    char *out_dir;       /* absolute (selftest, run) */
    unsigned timeout_s;
    unsigned dom0_memory; /* MiB, 0: lab.conf's LAB_DOM0_MEM_MIB (selftest, run) */
    int libvirt;         /* selftest */
    char *vmdiskcmp;     /* absolute (run) */
    char **helpers;      /* agent and runner beside vmdiskcmp, staged into /lab/in/bin (run) */
    char **files;        /* pairs: host path (resolved), name in /lab/in/files (run) */
    char **stage;        /* pairs: host path (resolved), path under /lab/in (run
                          * --prepared: guest-template/..., prepare-cache/KEY/...) */
    struct vdc_lab_job *jobs;
    size_t n_jobs;
};

void vdc_lab_request_init(struct vdc_lab_request *r);
/* Safe to call twice. */
void vdc_lab_request_dispose(struct vdc_lab_request *r);

/* Check @o (defaults filled) and describe the lab invocation in @r.  Reads
 * the file system, creates nothing.  For run: --vmdiskcmp is executable;
 * the jobs have the shape ARGS [--then ARGS]...; each job's arguments are
 * options of `vmdiskcmp run` (checked with run's parser, so a bad one is
 * refused before the boot) and get --out /lab/out/result (job 1) or
 * /lab/out/result-K unless they name their own or are dry runs: nothing
 * else, the agent,
 * the runner (staged in /lab/in/guest-agent beside /lab/in/bin/vmdiskcmp)
 * and the guest are what dom0's vmdiskcmp finds by itself; every --file
 * HOST[=NAME] is readable with a plain, unique NAME; --prepared has its
 * manifest, kernel and initrd beside it, was prepared with the agent and
 * runner that are staged, from a template that is still there unchanged:
 * the template is staged as dom0's default guest
 * (/lab/in/guest-template) and the prepared image as the entry of dom0's
 * prepare cache for it (r->stage; else vmdiskcmp would launch libguestfs
 * in dom0).  For selftest and run: --out is new or empty.  Returns 0, or
 * -1 after one vdc_input_error (exit 2). */
int vdc_lab_check(const struct vdc_lab_opts *o, struct vdc_lab_request *r);

/* The request lab.sh reads (`lab.sh REQUEST`): bash assignments, every
 * value quoted (LAB_ACTION, LAB_CACHE, LAB_OUT, LAB_TIMEOUT, LAB_LIBVIRT,
 * LAB_BIN, LAB_HELPERS=(...), LAB_FILES=(HOST NAME ...), LAB_STAGE=(HOST
 * PATH ...), LAB_PREPARE_CACHE (dom0's prepare cache), LAB_JOBS=(...)
 * with each job's words quoted for sh, LAB_JOB_LIBVIRT=(0|1 ...)).  Pure.
 * Returns a new string (g_free). */
char *vdc_lab_request_text(const struct vdc_lab_request *r);

/* After lab.sh failed: did the lab run the job, and which failed?  Reads
 * what came back: OUT/lab/stages.txt ("job-exit=N", written once the output
 * was extracted) and OUT/jobs.txt ("job=K exit=N", run).  Returns 0 when no
 * job ran to its end (a stage failed: lab.sh printed one line naming it),
 * else 1 with *@job the first failing job (0: the job script itself, or
 * the self-test) and *@code its exit status. */
int vdc_lab_failed_job(const struct vdc_lab_request *r, size_t *job, int *code);

#endif
