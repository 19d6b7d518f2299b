/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: fio's random map (see randmap.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "randmap.h"

int
agent_randmap_init(struct agent_randmap *m, uint64_t nblocks)
{
    memset(m, 0, sizeof(*m));
    if (nblocks == 0)
        return -1;
    m->nblocks = nblocks;
    m->n0 = (nblocks + 63) / 64;
    m->n1 = (m->n0 + 63) / 64;
    m->l0 = calloc(m->n0, sizeof(*m->l0));
    m->l1 = calloc(m->n1, sizeof(*m->l1));
    if (!m->l0 || !m->l1) {
        agent_randmap_free(m);
        return -1;
    }
    return 0;
}

void
agent_randmap_free(struct agent_randmap *m)
{
    free(m->l0);
    free(m->l1);
    memset(m, 0, sizeof(*m));
}

void
agent_randmap_reset(struct agent_randmap *m)
{
    memset(m->l0, 0, m->n0 * sizeof(*m->l0));
    memset(m->l1, 0, m->n1 * sizeof(*m->l1));
    m->used = 0;
}

/* The bits of l0 word @w that stand for blocks (the last word may be
 * partly past the end). */
static uint64_t
word_mask(const struct agent_randmap *m, uint64_t w)
{
    uint64_t rest = m->nblocks - w * 64;

    return rest >= 64 ? UINT64_MAX : (1ull << rest) - 1;
}

int
agent_randmap_isset(const struct agent_randmap *m, uint64_t b)
{
    return (int)(m->l0[b / 64] >> (b % 64) & 1);
}

void
agent_randmap_set(struct agent_randmap *m, uint64_t b)
{
    uint64_t w = b / 64, bit = 1ull << (b % 64);

    if (m->l0[w] & bit)
        return;
    m->l0[w] |= bit;
    m->used++;
    if (m->l0[w] == word_mask(m, w))
        m->l1[w / 64] |= 1ull << (w % 64);
}

/* First unused block in l0 words [w, end) with bits below @from of word
 * @w ignored; AGENT_RANDMAP_NONE if none. */
static uint64_t
first_free_from(const struct agent_randmap *m, uint64_t w, unsigned from)
{
    uint64_t free0;

    if (w >= m->n0)
        return AGENT_RANDMAP_NONE;
    free0 = ~m->l0[w] & word_mask(m, w) & (UINT64_MAX << from);
    if (free0)
        return w * 64 + (uint64_t)__builtin_ctzll(free0);
    /* the next word that is not full, 64 words per l1 word read */
    for (uint64_t x = w + 1; x < m->n0;) {
        uint64_t notfull = ~m->l1[x / 64] & (UINT64_MAX << (x % 64));

        if (notfull) {
            uint64_t v = (x / 64) * 64 + (uint64_t)__builtin_ctzll(notfull);

            if (v >= m->n0)
                break;
            free0 = ~m->l0[v] & word_mask(m, v);
            return v * 64 + (uint64_t)__builtin_ctzll(free0);
        }
        x = (x / 64 + 1) * 64;
    }
    return AGENT_RANDMAP_NONE;
}

uint64_t
agent_randmap_next_free(const struct agent_randmap *m, uint64_t b)
{
    uint64_t next = b + 1 == m->nblocks ? 0 : b + 1, r;

    if (m->used == m->nblocks)
        return AGENT_RANDMAP_NONE;
    r = first_free_from(m, next / 64, (unsigned)(next % 64));
    if (r == AGENT_RANDMAP_NONE && next != 0)
        r = first_free_from(m, 0, 0);
    return r;
}
