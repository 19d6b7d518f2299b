/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp fleet: the same job run on several hosts, held together with
 * the host as a dimension (`vmdiskcmp merge`; doc/report.md "Fleet
 * report").
 *
 *   vdc_fleet
 *     hosts[]        one per result directory given, in argument order:
 *                    ok (result.json loaded and analysed), failed (the
 *                    marker VDC_FLEET_FAILED_MARKER says why) or missing
 *                    (no result.json: the run never came back)
 *     targets, tests the experiment's shape: the first ok host's target
 *                    names and test keys; every ok host must have the same
 *     choices[]      each headline choice pair (an image variant against
 *                    an LV/block variant, report/headline.h) and which side
 *                    each host's headline picks, and whether every host
 *                    picks the same
 *     spread[]       per (target, test): the lowest and highest host mean
 *     facts_differ   the host facts (kernel, Xen, disk model, scheduler)
 *                    whose recorded values differ between the ok hosts
 *
 * Each host is analysed on its own (vdc_analysis_build_with with the
 * options given), so its headline is the one `vmdiskcmp report` prints for
 * its directory.  Hosts are never paired with each other: their runs share
 * neither seed nor boot.  Everything here is pure data over loaded result
 * sets; the command (src/cli/cmd_merge.c) reads the directories. */
#ifndef VDC_REPORT_FLEET_H
#define VDC_REPORT_FLEET_H

#include <stddef.h>

#include "model/result.h"
#include "report/analysis.h"

/* The file a fleet driver (contrib/ansible) writes into a host's result
 * directory when the host's run failed or the host could not be reached:
 * one line of text, why. */
#define VDC_FLEET_FAILED_MARKER "fleet-failed.txt"

enum vdc_fleet_status {
    VDC_FLEET_MISSING = 0,   /* no result.json: the run never came back */
    VDC_FLEET_OK,            /* result.json loaded */
    VDC_FLEET_FAILED,        /* the failure marker is there */
};

struct vdc_fleet_host {
    char *name;              /* the host's label: its directory's base name */
    char *dir;               /* the directory as given */
    enum vdc_fleet_status status;
    char *reason;            /* failed / missing: one line; NULL when ok */
    vdc_result_set rs;       /* ok: the host's results (empty otherwise) */
    struct vdc_analysis a;   /* ok: its analysis, made by vdc_fleet_build */
};

/* What a host's headline says of one choice pair. */
enum vdc_fleet_pick {
    VDC_FLEET_PICK_NONE = 0,     /* the host has no result or not this pair */
    VDC_FLEET_PICK_TARGET,       /* the target (image variant) is faster in some tests, slower in none */
    VDC_FLEET_PICK_REFERENCE,    /* the reference (LV/block) is faster in some tests, the target in none */
    VDC_FLEET_PICK_MIXED,        /* each side faster in some tests */
    VDC_FLEET_PICK_EVEN,         /* no test significantly different (some tested) */
    VDC_FLEET_PICK_UNDECIDED,    /* no test with a verdict (not comparable, not tested) */
};

struct vdc_fleet_choice {
    char *target, *reference;    /* target names, as in each host's result set */
    enum vdc_fleet_pick *picks;  /* n_hosts, by host */
    size_t *faster, *slower;     /* n_hosts: tests where the target is faster / slower (Holm) */
    int same;                    /* every host that has the pair picks the same */
};

struct vdc_fleet_spread {
    size_t target, test;         /* indexes into vdc_fleet.targets, .tests */
    const char *unit;            /* borrowed from a host's cell; may be NULL */
    size_t n_hosts;              /* hosts with a mean */
    double lo, hi;               /* lowest and highest host mean */
    size_t lo_host, hi_host;     /* indexes into hosts */
};

struct vdc_fleet {
    struct vdc_fleet_host *hosts;
    size_t n_hosts, n_ok;
    char **targets;              /* NULL-terminated (g_strfreev); NULL when no host is ok */
    char **tests;
    size_t n_targets, n_tests;
    struct vdc_fleet_choice *choices;
    size_t n_choices;
    struct vdc_fleet_spread *spread;
    size_t n_spread;
    char **facts_differ;         /* "kernel: h1 6.1.0-27-amd64, h2 6.1.0-28-amd64";
                                  * NULL-terminated, empty when none differs */
};

void vdc_fleet_init(struct vdc_fleet *f);
void vdc_fleet_dispose(struct vdc_fleet *f);

/* Append a host labelled @name, result directory @dir, status missing
 * with @reason (NULL: "no result.json").  The caller loads host->rs and
 * sets the status.  Returns the host (valid until the next append). */
struct vdc_fleet_host *vdc_fleet_add_host(struct vdc_fleet *f, const char *name, const char *dir);

/* Check the shape, analyse each ok host with @opt and @art (NULL: the
 * defaults) and decide choices, spread and differing facts.  Returns 0,
 * or -1 after one vdc_input_error (exit 2): an ok host whose target names
 * (with their kinds) or test keys differ from the first ok host's,
 * "merge: DIR: experiment shape differs from FIRST: targets dom0 against
 * image,lvm"; no host at all. */
int vdc_fleet_build(struct vdc_fleet *f, const struct vdc_stats_options *opt,
                    const vdc_artefact_options *art);

/* "image", "lvm" (the picked target's name), "mixed", "even",
 * "undecided", "-" (none) for @c's pick of host @h. */
const char *vdc_fleet_pick_text(const struct vdc_fleet_choice *c, size_t h);

/* The fleet report as text (doc/report.md "Fleet report"), g_free. */
char *vdc_fleet_render_text(const struct vdc_fleet *f);

/* The fleet as JSON (doc/report.md "fleet.json"), g_free. */
char *vdc_fleet_render_json(const struct vdc_fleet *f);

/* Every ok host's targets and runs in one result set (freshly _init'ed
 * @out), each target renamed TARGET@HOST; without an experiment (hosts
 * are not paired).  */
void vdc_fleet_merged_set(const struct vdc_fleet *f, vdc_result_set *out);

#endif
