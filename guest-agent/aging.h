/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: aged targets and measurement passes, the pure part
 * (option values, the fill's size draw, the free-extent histogram, the
 * JSON record).  The I/O is fill.c's (fill.h).  libc only: compiled into
 * the static agent and, with $(CC), into libvdc-agentcore.a.
 *
 *   --fill PERCENT      before the tests, fill the target directory's
 *                       filesystem to PERCENT % used (df's Use%) with
 *                       seeded files, deleting some again on the way
 *   --fill-seed N       the fill's seed (default --seed): the same seed on
 *                       the same filesystem gives the same files
 *   --precondition[=S[:W]]  before the tests on a block device: write it
 *                       once sequentially, then randomly until steady state
 *                       (fio's ss=iops_slope over a window of W seconds,
 *                       default 30, after a ramp of W/3) or S seconds
 *                       (default 1800)
 *   --passes LIST       run the tests once per comma-separated label, in
 *                       order, with nothing undone between them (e.g.
 *                       first-write,overwrite on a thin LV); each sample
 *                       carries its pass
 *
 * Units: bytes, seconds, percent. */
#ifndef VDC_AGENT_AGING_H
#define VDC_AGENT_AGING_H

#include <stdint.h>
#include <stdio.h>

#include "agent.h"
#include "prng.h"

#define AGENT_FILL_PERCENT_MAX 95u
/* the fill's file sizes: a power of two 2^k, k uniform from
 * AGENT_FILL_MIN_SHIFT to AGENT_FILL_MAX_SHIFT, then uniform in [2^k,
 * 2^(k+1)), rounded down to 4 KiB (4 KiB to just under 32 MiB) */
#define AGENT_FILL_MIN_SHIFT 12u
#define AGENT_FILL_MAX_SHIFT 24u
/* one draw in AGENT_FILL_DELETE_DIV deletes an earlier file instead of
 * writing one (fragmenting the free space the later files fill) */
#define AGENT_FILL_DELETE_DIV 4u
#define AGENT_FILL_FILES_MAX (1u << 20)
/* free-extent histogram: power-of-two buckets from 8 KiB (every extent
 * under 8 KiB) to 2^63 */
#define AGENT_FREE_BUCKETS 51u
#define AGENT_FREE_FIRST_SHIFT 13u

#define AGENT_PRECONDITION_DEFAULT_S 1800u
/* the random phase's steady state: fio ss=iops_slope:0.5% ss_dur=W
 * ss_ramp=W/3 over the agent's one-second IOPS samples, W 30 by default
 * (at least 3: a slope needs samples) */
#define AGENT_PRECONDITION_SS_LIMIT 0.5
#define AGENT_PRECONDITION_SS_DUR_S 30u
#define AGENT_PRECONDITION_SS_DUR_MIN_S 3u

/* What aging did to the target (the "aging" object of the agent's result
 * document, doc/result-format.md "targets[].aging"). */
struct agent_aging {
    /* --fill */
    uint32_t fill_percent;          /* 0: no fill */
    uint64_t seed;
    uint64_t files_written, files_deleted;
    uint64_t bytes_written, bytes_deleted;
    double used_percent;            /* df's Use% after the fill */
    double fill_s;                  /* wall time of the fill */
    int free_known;                 /* the histogram below was read */
    uint64_t free_count[AGENT_FREE_BUCKETS];
    uint64_t free_extents, free_bytes, largest_free;
    const char *free_source;        /* "GETFSMAP" */
    /* --precondition */
    uint32_t precondition_max_s;    /* 0: no preconditioning */
    uint32_t window_s, ramp_s;      /* the steady-state window and its ramp */
    uint64_t seq_bytes;             /* the sequential pass */
    double seq_s;
    uint64_t random_bytes;
    double random_s;
    int ss_reached;
    double ss_at_s;                 /* random-phase seconds when reached */
    double ss_criterion;            /* slope, % of the mean per second; NAN never */
    char error[256];                /* one line when aging failed, else "" */
};

void agent_aging_init(struct agent_aging *a);

/* Option values (options.c).  Each returns 0, or -1 with @err (size
 * @errlen) holding one line naming the option and what was expected. */
int agent_fill_percent_parse(const char *arg, uint32_t *out, char *err, size_t errlen);
/* --precondition[=MAX[:WINDOW]]: @max (seconds of the random phase at
 * most) and @window (the steady state's, seconds); MAX at least WINDOW
 * and its ramp. */
int agent_precondition_parse(const char *arg, uint32_t *max, uint32_t *window, char *err,
                             size_t errlen);
/* @arg: 1 to AGENT_PASSES_MAX labels of 1-31 of [a-z0-9-], each once;
 * copied into @names. */
int agent_passes_parse(const char *arg, char names[][AGENT_PASS_NAME_MAX], size_t *n,
                       char *err, size_t errlen);

/* The next fill file's size (bytes, a multiple of 4 KiB) from @r, at most
 * @cap (>= 4096; the filesystem's size / 256 keeps a small filesystem's
 * fill from being a handful of files). */
uint64_t agent_fill_size(struct agent_prng *r, uint64_t cap);

/* df's Use%: used / (used + available) x 100 from statvfs's block counts
 * (f_blocks, f_bfree, f_bavail); 0 for an empty filesystem. */
double agent_used_percent(uint64_t blocks, uint64_t bfree, uint64_t bavail);

/* Count one free extent of @len bytes (> 0) into @a's histogram (bucket
 * k counts extents shorter than 2^(AGENT_FREE_FIRST_SHIFT + k) bytes and
 * at least half that; bucket 0 every extent under 8 KiB). */
void agent_free_extent_add(struct agent_aging *a, uint64_t len);

/* The "aging" JSON object of @a (without a trailing newline), members in
 * doc/result-format.md's order: fill_percent, seed, files_written,
 * files_deleted, bytes_written, bytes_deleted, used_percent, fill_s,
 * free_extents ([[upper_bound_bytes, count], ...] of the non-empty
 * buckets, or null), free_extent_count, free_bytes, largest_free_extent,
 * free_extents_source, precondition ({sequential_passes, sequential_bytes,
 * sequential_s, random_bytes, random_s, steady_state {reached, at_s,
 * criterion, limit_percent, window_s, ramp_s, rule}} or null), error. */
void agent_aging_format_json(FILE *fp, const struct agent_aging *a);

#endif
