/*
 * pattern.h — the standard traffic patterns of the interconnect literature (FT-DRB's
 * evaluation and the torus's --traffic): a source's destination among N nodes, numbered
 * y * W + x on a W x H torus.
 *
 *   uniform     a random node other than the source (two per source on the torus)
 *   bitrev      the index's bits reversed           (N a power of two)
 *   shuffle     the index rotated left by one bit   (N a power of two)
 *   butterfly   the index's top and bottom bits swapped (N a power of two)
 *   transpose   (x, y) -> (y, x)                    (a square torus)
 *   complement  N - 1 - index
 *   hotspot     the middle node
 *
 * A source whose destination is itself sends nothing.
 */
#ifndef FTSIM_PATTERN_H
#define FTSIM_PATTERN_H

#include <string.h>

#include "prng.h"

typedef enum {
    TP_UNIFORM,
    TP_BITREV,
    TP_SHUFFLE,
    TP_BUTTERFLY,
    TP_TRANSPOSE,
    TP_COMPLEMENT,
    TP_HOTSPOT,
    TP_N
} traffic_pattern_t;

static const char *const traffic_pattern_names[TP_N] = {
    "uniform", "bitrev", "shuffle", "butterfly", "transpose", "complement", "hotspot"};

/* The pattern named `name`, or -1. */
static inline int traffic_pattern_find(const char *name)
{
    for (int k = 0; k < TP_N; k++)
        if (!strcmp(name, traffic_pattern_names[k]))
            return k;
    return -1;
}

static inline unsigned traffic_bits(unsigned n)
{
    unsigned b = 0;
    while ((1u << b) < n)
        b++;
    return b;
}

/* The bit permutations of an index among N = 2^b nodes: bitrev, shuffle, butterfly, and
 * transpose as the swap of the index's halves (rotated by b/2: (x, y) -> (y, x) on a 2^(b/2)
 * square); any other p leaves s. */
static inline unsigned traffic_pattern_bits(int p, unsigned b, unsigned s)
{
    unsigned n = 1u << b, d = s;
    switch (p) {
    case TP_BITREV:
        d = 0;
        for (unsigned i = 0; i < b; i++)
            d |= ((s >> i) & 1u) << (b - 1 - i);
        break;
    case TP_SHUFFLE: d = ((s << 1) | (s >> (b - 1))) & (n - 1); break;
    case TP_BUTTERFLY: {
        unsigned lo = s & 1u, hi = (s >> (b - 1)) & 1u;
        d = (s & ~(1u | (1u << (b - 1)))) | (lo << (b - 1)) | hi;
        break;
    }
    case TP_TRANSPOSE: d = ((s << (b / 2)) | (s >> (b - b / 2))) & (n - 1); break;
    default: break;
    }
    return d;
}

/* NULL when pattern p runs on a W x H torus, else why not. */
static inline const char *traffic_pattern_unfit(int p, unsigned w, unsigned h)
{
    unsigned n = w * h;
    if ((p == TP_BITREV || p == TP_SHUFFLE || p == TP_BUTTERFLY) && (1u << traffic_bits(n)) != n)
        return "needs a power-of-two number of nodes";
    if (p == TP_TRANSPOSE && w != h)
        return "needs a square torus";
    return NULL;
}

/* Source s's destination under pattern p (uniform: a random other node from rng). */
static inline unsigned traffic_pattern_dst(int p, unsigned w, unsigned h, unsigned s, prng_t *rng)
{
    unsigned n = w * h, b = traffic_bits(n), d = s;
    switch (p) {
    case TP_UNIFORM:
        do
            d = prng_below(rng, n);
        while (d == s);
        break;
    case TP_BITREV:
    case TP_SHUFFLE:
    case TP_BUTTERFLY: d = traffic_pattern_bits(p, b, s); break;
    case TP_TRANSPOSE: d = (s % w) * w + s / w; break; /* any square torus, not only 2^k */
    case TP_COMPLEMENT: d = n - 1 - s; break;
    case TP_HOTSPOT: d = (h / 2) * w + w / 2; break;
    default: break;
    }
    return d;
}

#endif
