/*
 * prng.h — the project PRNG: xoshiro256** seeded through splitmix64. The same seed gives the
 * same sequence on every machine and compiler (pure 64-bit integer arithmetic); rand() is
 * never used.
 */
#ifndef FTSIM_PRNG_H
#define FTSIM_PRNG_H

#include <stdint.h>

typedef struct prng {
    uint64_t s[4];
} prng_t;

static inline uint64_t prng_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline void prng_seed(prng_t *p, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        p->s[i] = prng_splitmix64(&seed);
}

static inline uint64_t prng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t prng_next(prng_t *p)
{
    uint64_t *s = p->s;
    uint64_t r = prng_rotl(s[1] * 5u, 7) * 9u;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = prng_rotl(s[3], 45);
    return r;
}

/* Uniform in [0, n), n > 0 (Lemire's multiply-shift; the bias is below 2^-32 for our n). */
static inline uint32_t prng_below(prng_t *p, uint32_t n)
{
    return (uint32_t)(((prng_next(p) >> 32) * (uint64_t)n) >> 32);
}

/* True with probability num/den. */
static inline int prng_chance(prng_t *p, uint32_t num, uint32_t den)
{
    return prng_below(p, den) < num;
}

#endif
