/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: which I/Os a job's clone issues, in fio 3.33's order:
 * the same directions and offsets as fio for the same job file, clone by
 * clone (what `fio --write_iolog` logs).
 *
 * fio's pieces, reproduced here:
 * - the generators: lib/rand.h taus88 ("tausworthe", 32-bit: the block
 *   offsets and the read/write mix), seeded as lib/rand.c __init_rand32;
 * - the seeds (init.c setup_random_seeds, td_fill_rand_seeds_internal,
 *   fixup_options): seed = randseed (0x89 by default) multiplied by
 *   0x9e370001 four times, then seed[i] = seed x thread_number + i
 *   (multiplied again between entries); the offsets' generator takes seed[6]
 *   (FIO_RAND_BLOCK_OFF), but 0xb1899bed x thread_number while randrepeat
 *   holds (default 1); the mix takes seed[4] (FIO_RAND_MIX_OFF).  A
 *   randseed= turns randrepeat off in fixup_options, which runs after the
 *   job's own seeds were set and before its clones copy its options: the
 *   first clone keeps the randrepeat offsets, the others follow randseed;
 * - the clones (init.c add_job): clone k (fio's subjob_number, which also
 *   names a directory target's file JOB.k.0 and multiplies
 *   offset_increment) has thread_number 1 for k = 0 and numjobs - k + 1
 *   for the others (the clones are created last first);
 * - random offsets (io_u.c __get_next_rand_offset): block = lastb x (r /
 *   2^32) in double, lastb = size / bs; with the random map (lib/axmap.c)
 *   a used block is replaced by the next unused one after it, wrapping to
 *   block 0; a full map fails the draw, and a time-based job then clears
 *   the map and draws again (get_next_rand_block, fio_file_reset);
 * - sequential offsets (get_next_seq_offset): from the clone's start,
 *   wrapping to it at the region's end for a time-based job;
 * - randrw's direction (get_rw_ddir, get_rand_ddir, set_rwmix_bytes): a
 *   new direction is drawn (1..100 <= rwmixread: read) whenever the issues
 *   of the current one reach rwmix_issues; on a change, rwmix_issues =
 *   issues of the old direction x the new direction's percentage / 100.
 *   The ramp's end zeroes the issue counts (reset_all_stats).
 * Pure and libc only. */
#ifndef VDC_AGENT_JOBGEN_H
#define VDC_AGENT_JOBGEN_H

#include <stdint.h>

#include "jobfile.h"
#include "randmap.h"

/* fio's taus88 state (lib/rand.h struct taus88_state) */
struct agent_taus88 {
    uint32_t s1, s2, s3;
};

/* lib/rand.c __init_rand32(state, (unsigned) seed) */
void agent_taus88_seed(struct agent_taus88 *t, uint64_t seed);
/* lib/rand.h __rand32 */
uint32_t agent_taus88_next(struct agent_taus88 *t);

/* fio's seed for clone @thread_number's offsets (@block) and mix (@mix),
 * from randseed @rand_seed; @repeatable: fio's randrepeat as it stood when
 * the clone's seeds were set (see above). */
void agent_jobgen_seeds(uint64_t rand_seed, unsigned thread_number, int repeatable,
                        uint64_t *block, uint64_t *mix);

/* fio's thread_number of clone @k (subjob_number) of @numjobs. */
unsigned agent_jobgen_thread_number(unsigned k, unsigned numjobs);

/* One clone's op sequence. */
struct agent_jobgen {
    const struct agent_job *job;
    uint64_t start;             /* the clone's first byte (fio file_offset) */
    uint64_t nblocks;           /* size / bs */
    uint64_t last_pos;          /* next sequential offset (absolute) */
    struct agent_taus88 rnd;    /* offsets */
    struct agent_taus88 mix;    /* randrw's direction */
    int rwmix_ddir;             /* 0 read, 1 write */
    uint64_t rwmix_issues;
    uint64_t issues[2];         /* I/Os issued per direction since the
                                 * start or the ramp's end */
    int mapped;                 /* a random job with the random map */
    struct agent_randmap map;
};

/* Set up clone @k of @job (size = its region in bytes, a multiple of bs;
 * its start offset + k x offset_increment), seeds from @seed standing for
 * fio's randseed when the job sets none and randrepeat=0 (fio then takes
 * its seeds from the system; the agent takes the run's seed, so the run
 * can be repeated).  0, or -1 when the random map cannot be allocated (@g
 * is then safe to free). */
int agent_jobgen_init(struct agent_jobgen *g, const struct agent_job *job,
                      unsigned k, uint64_t seed);
void agent_jobgen_free(struct agent_jobgen *g);

/* The next I/O: its direction (0 read, 1 write) and absolute byte offset.
 * Counts it as issued.  Returns 0, or -1 when the region is done (a job
 * that is not time-based: every block issued once). */
int agent_jobgen_next(struct agent_jobgen *g, int *ddir, uint64_t *offset);

/* The ramp's end: issue counts and the mix threshold zeroed, as fio's
 * reset_all_stats; offsets and the random map carry on. */
void agent_jobgen_ramp_end(struct agent_jobgen *g);

/* The digest of a job's op sequence: FNV-1a 64 over the job's parameters
 * and, per clone, the first AGENT_JOB_DIGEST_OPS (offset | direction << 63)
 * its generator yields (fewer when the region ends first).  0, or -1 when
 * a random map cannot be allocated. */
#define AGENT_JOB_DIGEST_OPS 65536u
int agent_job_digest(const struct agent_job *job, uint64_t seed, uint64_t *digest);

#endif
