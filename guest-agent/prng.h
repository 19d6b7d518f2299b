/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: the seeded random generator and the op-sequence digest.
 *
 * Generator: xoshiro256** 1.0 (Blackman and Vigna, 2018,
 * https://prng.di.unimi.it/xoshiro256starstar.c), its 256-bit state filled
 * from the 64-bit seed by four calls of splitmix64 (Vigna,
 * https://prng.di.unimi.it/splitmix64.c), as the authors recommend.  Pure
 * 64-bit integer arithmetic: the same seed gives the same sequence on every
 * machine and libc (libc rand() would not).
 *
 * Digest: FNV-1a 64 (Fowler, Noll, Vo; offset basis 0xcbf29ce484222325,
 * prime 0x100000001b3) over the operations a run performs (seek offsets and
 * update flags, file names, sizes and orders, block sizes): equal seeds and
 * options give equal digests. */
#ifndef VDC_AGENT_PRNG_H
#define VDC_AGENT_PRNG_H

#include <stddef.h>
#include <stdint.h>

struct agent_prng {
    uint64_t s[4];
};

/* Seed the generator: s[0..3] = four successive splitmix64 outputs from
 * state @seed.  Any seed (0 included) is valid. */
void agent_prng_seed(struct agent_prng *r, uint64_t seed);

/* Next 64-bit output of xoshiro256**. */
uint64_t agent_prng_next(struct agent_prng *r);

/* A number in [0, n) for n >= 1 (Lemire's unbiased bounded method with
 * rejection, on 64x64->128 multiplication). */
uint64_t agent_prng_below(struct agent_prng *r, uint64_t n);

/* One splitmix64 step: advances *state, returns the output. */
uint64_t agent_splitmix64(uint64_t *state);

/* Seed from getrandom(2) (or /dev/urandom when getrandom is missing).
 * Returns 0, or -1 with errno set. */
int agent_random_seed(uint64_t *out);

#define AGENT_FNV1A64_INIT 0xcbf29ce484222325ull

/* Fold @len bytes into FNV-1a 64 hash @h; returns the new hash. */
uint64_t agent_fnv1a64(uint64_t h, const void *data, size_t len);

/* Fold a 64-bit number, as 8 little-endian bytes (machine independent). */
uint64_t agent_fnv1a64_u64(uint64_t h, uint64_t v);

/* Fold a NUL-terminated string including its terminating NUL. */
uint64_t agent_fnv1a64_str(uint64_t h, const char *s);

#endif
