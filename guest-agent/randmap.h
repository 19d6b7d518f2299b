/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: fio's random map for random jobs (io_u.c
 * get_next_rand_offset with lib/axmap.c, fio 3.33).
 *
 * One bit per block of a job's region.  A drawn block that is already
 * used this pass is replaced by the next unused block after it, wrapping
 * to block 0 at the end (axmap_next_free); when every block is used the
 * draw fails, and a time-based job clears the map and draws again
 * (fio_file_reset; jobgen.c does both).  So each pass touches every block
 * exactly once, as fio does unless norandommap is set.  Two levels: one bit per block, and one bit per
 * 64-block word that is full, so a search skips 4096 used blocks per word
 * it reads.  libc only (the agent is static). */
#ifndef VDC_AGENT_RANDMAP_H
#define VDC_AGENT_RANDMAP_H

#include <stdint.h>

#define AGENT_RANDMAP_NONE UINT64_MAX

struct agent_randmap {
    uint64_t nblocks;       /* bits */
    uint64_t used;          /* blocks marked this pass */
    uint64_t *l0;           /* bit b: block b used; ceil(nblocks/64) words */
    uint64_t *l1;           /* bit w: l0 word w full; ceil(l0 words/64) */
    uint64_t n0, n1;        /* words in l0, l1 */
};

/* Allocate a map of @nblocks (>= 1) clear bits.  0, or -1 (out of
 * memory; @m is left empty and safe to free). */
int agent_randmap_init(struct agent_randmap *m, uint64_t nblocks);
void agent_randmap_free(struct agent_randmap *m);
/* Clear every bit: a new pass. */
void agent_randmap_reset(struct agent_randmap *m);
int agent_randmap_isset(const struct agent_randmap *m, uint64_t b);
/* Mark block @b (< nblocks) used. */
void agent_randmap_set(struct agent_randmap *m, uint64_t b);
/* The first unused block after @b, wrapping past the end to block 0 (the
 * search ends at @b itself); AGENT_RANDMAP_NONE when every block is used. */
uint64_t agent_randmap_next_free(const struct agent_randmap *m, uint64_t b);

#endif
