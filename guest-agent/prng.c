/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: xoshiro256** seeded by splitmix64, FNV-1a 64 digest.
 * See prng.h for the sources of each algorithm. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "prng.h"

uint64_t
agent_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void
agent_prng_seed(struct agent_prng *r, uint64_t seed)
{
    uint64_t st = seed;

    for (int i = 0; i < 4; i++)
        r->s[i] = agent_splitmix64(&st);
}

static inline uint64_t
rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t
agent_prng_next(struct agent_prng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;

    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint64_t
agent_prng_below(struct agent_prng *r, uint64_t n)
{
    unsigned __int128 m;
    uint64_t lo;

    if (n <= 1)
        return 0;
    m = (unsigned __int128)agent_prng_next(r) * n;
    lo = (uint64_t)m;
    if (lo < n) {
        uint64_t threshold = -n % n;

        while (lo < threshold) {
            m = (unsigned __int128)agent_prng_next(r) * n;
            lo = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

int
agent_random_seed(uint64_t *out)
{
    unsigned char *p = (unsigned char *)out;
    size_t got = 0;

#ifdef SYS_getrandom
    while (got < sizeof(*out)) {
        long r = syscall(SYS_getrandom, p + got, sizeof(*out) - got, 0);

        if (r < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        got += (size_t)r;
    }
    if (got == sizeof(*out))
        return 0;
#endif
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);

    if (fd < 0)
        return -1;
    got = 0;
    while (got < sizeof(*out)) {
        ssize_t r = read(fd, p + got, sizeof(*out) - got);

        if (r <= 0) {
            if (r < 0 && errno == EINTR)
                continue;
            close(fd);
            if (r == 0)
                errno = EIO;
            return -1;
        }
        got += (size_t)r;
    }
    close(fd);
    return 0;
}

uint64_t
agent_fnv1a64(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;

    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

uint64_t
agent_fnv1a64_u64(uint64_t h, uint64_t v)
{
    unsigned char b[8];

    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    return agent_fnv1a64(h, b, sizeof(b));
}

uint64_t
agent_fnv1a64_str(uint64_t h, const char *s)
{
    size_t n = 0;

    while (s[n])
        n++;
    return agent_fnv1a64(h, s, n + 1);
}
