/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: a job clone's op sequence as fio 3.33 makes it (see
 * jobgen.h, which names the fio sources). */
#include "config.h"

#include <string.h>

#include "jobgen.h"
#include "prng.h"

#define FIO_RANDSEED 0xb1899bedull      /* init.c */
#define FIO_SEED_MULT 0x9e370001ull     /* init.c setup_random_seeds */
#define FIO_RAND_MIX_OFF 4              /* fio.h enum, its 5th entry */
#define FIO_RAND_BLOCK_OFF 6            /* its 7th */
#define FIO_RANDSEED_DEFAULT 0x89ull    /* options.c: randseed's default */

/* lib/rand.c __seed: an initial state word must not be below m */
static uint32_t
taus_floor(uint32_t x, uint32_t m)
{
    return x < m ? x + m : x;
}

/* lib/rand.h __rand32 (TAUSWORTHE(s, a, b, c, d) = ((s & c) << d) ^ (((s
 * << a) ^ s) >> b), in 32 bits) */
uint32_t
agent_taus88_next(struct agent_taus88 *t)
{
    t->s1 = ((t->s1 & 4294967294u) << 12) ^ (((t->s1 << 13) ^ t->s1) >> 19);
    t->s2 = ((t->s2 & 4294967288u) << 4) ^ (((t->s2 << 2) ^ t->s2) >> 25);
    t->s3 = ((t->s3 & 4294967280u) << 17) ^ (((t->s3 << 3) ^ t->s3) >> 11);
    return t->s1 ^ t->s2 ^ t->s3;
}

/* lib/rand.c __init_rand32: LCG(x) = x * 69069 ^ seed in 32 bits, from
 * (2^31) + (2^17) + (2^7), which C reads as 29 + 19 + 5 = 53; six cranks */
void
agent_taus88_seed(struct agent_taus88 *t, uint64_t seed64)
{
    uint32_t seed = (uint32_t)seed64;

    t->s1 = taus_floor(53u * 69069u ^ seed, 1);
    t->s2 = taus_floor(t->s1 * 69069u ^ seed, 7);
    t->s3 = taus_floor(t->s2 * 69069u ^ seed, 15);
    for (int i = 0; i < 6; i++)
        agent_taus88_next(t);
}

void
agent_jobgen_seeds(uint64_t rand_seed, unsigned thread_number, int repeatable,
                   uint64_t *block, uint64_t *mix)
{
    uint64_t s = rand_seed;

    for (int i = 0; i < 4; i++)
        s *= FIO_SEED_MULT;
    for (unsigned i = 0; i <= FIO_RAND_BLOCK_OFF; i++) {
        if (i == FIO_RAND_MIX_OFF)
            *mix = s * thread_number + i;
        if (i == FIO_RAND_BLOCK_OFF)
            *block = s * thread_number + i;
        s *= FIO_SEED_MULT;
    }
    if (repeatable)
        *block = FIO_RANDSEED * thread_number;
}

unsigned
agent_jobgen_thread_number(unsigned k, unsigned numjobs)
{
    return k ? numjobs - k + 1 : 1;
}

int
agent_jobgen_init(struct agent_jobgen *g, const struct agent_job *job,
                  unsigned k, uint64_t seed)
{
    uint64_t rand_seed, block, mix;
    int repeatable;

    memset(g, 0, sizeof(*g));
    g->job = job;
    g->start = job->offset + (uint64_t)k * job->offset_increment;
    g->nblocks = job->size / job->bs;
    g->last_pos = g->start;
    /* randseed= given: it, and randrepeat off for the clones after the
     * first (fixup_options ran on the job before they were copied);
     * randrepeat=0 without randseed: fio's seeds from the system, here
     * the run's seed; else fio's default randseed */
    rand_seed = job->randseed_given ? job->randseed
                : job->randrepeat ? FIO_RANDSEED_DEFAULT : seed;
    repeatable = job->randrepeat && !(job->randseed_given && k > 0);
    agent_jobgen_seeds(rand_seed, agent_jobgen_thread_number(k, job->numjobs),
                       repeatable, &block, &mix);
    agent_taus88_seed(&g->rnd, block);
    agent_taus88_seed(&g->mix, mix);
    g->mapped = agent_rw_random(job->rw) && !job->norandommap;
    if (g->mapped && agent_randmap_init(&g->map, g->nblocks) < 0) {
        g->mapped = 0;
        return -1;
    }
    return 0;
}

void
agent_jobgen_free(struct agent_jobgen *g)
{
    if (g->mapped)
        agent_randmap_free(&g->map);
    g->mapped = 0;
}

void
agent_jobgen_ramp_end(struct agent_jobgen *g)
{
    g->issues[0] = g->issues[1] = 0;
    g->rwmix_issues = 0;
}

/* get_rw_ddir for randrw */
static int
mix_ddir(struct agent_jobgen *g)
{
    if (g->issues[g->rwmix_ddir] >= g->rwmix_issues) {
        /* rand_between(1, 100): rand32_upto(99) + 1 */
        uint32_t r = agent_taus88_next(&g->mix);
        unsigned v = 1 + (unsigned)(int)(100.0 * (r / 4294967296.0));
        int ddir = v <= g->job->rwmixread ? 0 : 1;

        if (ddir != g->rwmix_ddir) {
            /* set_rwmix_bytes, on the direction being left */
            unsigned diff = ddir ? 100 - g->job->rwmixread : g->job->rwmixread;

            g->rwmix_issues = g->issues[g->rwmix_ddir] * diff / 100;
        }
        g->rwmix_ddir = ddir;
    }
    return g->rwmix_ddir;
}

/* __get_next_rand_offset: 0, or -1 when the map is full */
static int
rand_block(struct agent_jobgen *g, uint64_t *b)
{
    uint32_t r = agent_taus88_next(&g->rnd);

    *b = (uint64_t)((double)g->nblocks * ((double)r / (4294967295.0 + 1.0)));
    if (!g->mapped)
        return 0;
    if (agent_randmap_isset(&g->map, *b)) {
        *b = agent_randmap_next_free(&g->map, *b);
        if (*b == AGENT_RANDMAP_NONE)
            return -1;
    }
    agent_randmap_set(&g->map, *b);
    return 0;
}

int
agent_jobgen_next(struct agent_jobgen *g, int *ddir, uint64_t *offset)
{
    const struct agent_job *j = g->job;
    uint64_t b;

    switch (j->rw) {
    case AGENT_RW_READ:
    case AGENT_RW_WRITE:
        *ddir = j->rw == AGENT_RW_WRITE;
        if (g->last_pos >= g->start + g->nblocks * j->bs) {
            if (!j->time_based)
                return -1;
            g->last_pos = g->start;
        }
        *offset = g->last_pos;
        g->last_pos += j->bs;
        break;
    default:
        *ddir = j->rw == AGENT_RW_RANDRW ? mix_ddir(g) : j->rw == AGENT_RW_RANDWRITE;
        if (rand_block(g, &b) < 0) {
            /* get_next_rand_block: a time-based job starts a new pass */
            if (!j->time_based)
                return -1;
            agent_randmap_reset(&g->map);
            if (rand_block(g, &b) < 0)
                return -1;
        }
        *offset = g->start + b * j->bs;
    }
    g->issues[*ddir]++;
    return 0;
}

int
agent_job_digest(const struct agent_job *job, uint64_t seed, uint64_t *digest)
{
    uint64_t h = agent_fnv1a64_str(AGENT_FNV1A64_INIT, "job");

    h = agent_fnv1a64_str(h, job->name);
    h = agent_fnv1a64_u64(h, (uint64_t)job->rw);
    h = agent_fnv1a64_u64(h, job->rwmixread);
    h = agent_fnv1a64_u64(h, job->bs);
    h = agent_fnv1a64_u64(h, job->iodepth);
    h = agent_fnv1a64_u64(h, job->numjobs);
    h = agent_fnv1a64_u64(h, (uint64_t)job->direct);
    h = agent_fnv1a64_u64(h, (uint64_t)job->norandommap);
    h = agent_fnv1a64_u64(h, job->size);
    h = agent_fnv1a64_u64(h, job->offset);
    h = agent_fnv1a64_u64(h, job->offset_increment);
    h = agent_fnv1a64_u64(h, (uint64_t)job->time_based);
    for (unsigned k = 0; k < job->numjobs; k++) {
        struct agent_jobgen g;

        if (agent_jobgen_init(&g, job, k, seed) < 0) {
            agent_jobgen_free(&g);
            return -1;
        }
        for (unsigned i = 0; i < AGENT_JOB_DIGEST_OPS; i++) {
            int d;
            uint64_t off;

            if (agent_jobgen_next(&g, &d, &off) < 0)
                break;
            h = agent_fnv1a64_u64(h, off | (uint64_t)d << 63);
        }
        agent_jobgen_free(&g);
    }
    *digest = h;
    return 0;
}
