/*
 * rnpnet.h — multistage RNP networks of RN1s (rtl/rn1.md section 6), composed in the harness.
 *
 * Topology: N = 4^k endpoints (16..1024), each with two injection ports into stage 0 and two
 * ejection ports from the last stage; N/4 RN1s per stage in `dilated` mode (radix 4,
 * dilation 2). `extra` front stages route on any direction (all four lead everywhere): they
 * give a source more distinct paths and, past four stages, exercise SWALLOW. The remaining
 * log4(N) stages route on the destination's base-4 digits, most significant first. Between
 * stages the wiring is a seeded random permutation within each destination class (a
 * multibutterfly), with the two outputs of a dilation pair on different routers wherever the
 * next stage has more than one router in the class, so that a fault of one router or link
 * leaves an equivalent path. Router-to-router links rotate the data bits left by 2 going
 * forward and right by 2 coming back; endpoint links do not rotate.
 *
 * As a device (`rnpnet16`, `rnpnet64`, `rnpnet256`, wiring seed 1; `rnpnet256` has one extra
 * stage, so five stages and SWALLOW on stage 4): ports per endpoint e and port k (0, 1):
 *   sE.K  <- / ->   the source side: word into stage 0 / word back to the source
 *   sE.K.bc ->      stage 0's backward channel toward the source
 *   dE.K  -> / <-   the destination side: word out of the last stage / reply into it
 *   dE.K.bc <-      the destination's backward channel (drop request)
 * Registers: every router's RN1 registers as rR.NAME (address R*256 + the RN1 address), and
 * the network configuration `seed` (each router's LFSR seed derives from it) and `backchan`.
 * Faults live on the wires (rnpnet_fault), so they act the same on either implementation.
 * Controls (`@N WORD ...`): `fault ...` (below) and `reset rK`: router K alone reset as
 * dev_reset resets a device (reset held two cycles, K's network configuration written in a
 * third, released), those cycles run on K between two cycles of the network, so K shows IDLE
 * everywhere in the next cycle and every connection through it is cut; its `disable` is 0
 * again. Both implementations do the same, so lockstep goes on through it (the monitor's
 * recovery, harness/rnp/rnp_upset.c).
 */
#ifndef FTSIM_RNPNET_H
#define FTSIM_RNPNET_H

#include <stddef.h>
#include <stdint.h>

#include "dev.h"

#define RNPNET_NETCFG 0x7FFFFF00u /* address of the network configuration register */
/* The bits of a router's CFG the network configures (swallow, seed, mode, backchan): all but
 * `disable`, which belongs to whoever masks ports (the monitor). */
#define RNPNET_CFG_NET_MASK (0xFFull | 0xFFFF0000ull | (1ull << 32) | (1ull << 40))
#define RNPNET_CFG_MASK     (RNPNET_CFG_NET_MASK | 0xFF00ull) /* every CFG bit */

typedef struct rnpnet_topo {
    unsigned n;         /* endpoints */
    unsigned extra;     /* extra front stages */
    unsigned stages;    /* log4(n) + extra */
    unsigned per_stage; /* routers per stage: n / 4 */
    unsigned nrouters;
    uint64_t seed; /* wiring seed */
    int32_t *down; /* router r, backward port j (r*8+j) -> r2*8+f, or -(1 + e*2 + k): ejection */
    int32_t *up;   /* router r, forward port i (r*8+i) -> r2*8+j, or -(1 + e*2 + k): injection */
    uint32_t *inj; /* endpoint e port k (e*2+k) -> stage-0 router*8 + forward port */
    uint32_t *ej;  /* endpoint e port k -> last-stage router*8 + backward port */
} rnpnet_topo_t;

int rnpnet_topo_build(rnpnet_topo_t *t, unsigned n, unsigned extra, uint64_t seed, char *err,
                      size_t errlen);
void rnpnet_topo_free(rnpnet_topo_t *t);

static inline unsigned rnpnet_stage(const rnpnet_topo_t *t, unsigned r) { return r / t->per_stage; }
static inline int rnpnet_swallows(unsigned stage) { return stage > 0 && stage % 4 == 0; }

/* The direction digit stage s must take toward destination d (s >= extra); -1 for an extra
 * stage, where any digit will do. */
int rnpnet_digit(const rnpnet_topo_t *t, unsigned s, unsigned d);

/* Routing words for destination d, with digits xd[] chosen for the extra stages: one word per
 * four stages. Returns the number of words (at most 4). */
unsigned rnpnet_route_words(const rnpnet_topo_t *t, unsigned d, const unsigned *xd, uint16_t *w);

/* Rotations on a router-to-router link (rtl/rn1.md section 6). */
static inline uint8_t rnp_rotl2(uint8_t d) { return (uint8_t)((d << 2) | (d >> 6)); }
static inline uint8_t rnp_rotr2(uint8_t d) { return (uint8_t)((d >> 2) | (d << 6)); }
static inline uint8_t rnp_rotl(uint8_t d, unsigned k)
{
    k = (2u * k) & 7u;
    return k ? (uint8_t)((d << k) | (d >> (8u - k))) : d;
}

/* Distinct paths from source s to destination d: link-level paths (every choice of injection
 * port, extra digit and dilation port) and the routers they use. */
typedef struct rnpnet_paths {
    unsigned paths;      /* distinct link-level paths */
    unsigned routers[8]; /* per stage: the routers those paths use */
} rnpnet_paths_t;
void rnpnet_count_paths(const rnpnet_topo_t *t, unsigned s, unsigned d, rnpnet_paths_t *out);

/* ---- faults on the wires ------------------------------------------------------------------ */
typedef enum {
    RNPNET_F_DEAD_ROUTER, /* every output of a router reads IDLE (and its bc 0) */
    RNPNET_F_DEAD_LINK,   /* a link carries IDLE both ways (and bc 0) */
    RNPNET_F_STUCK_C1,    /* the forward control bit of a link stuck at 1 */
    RNPNET_F_FLIP,        /* a forward data bit flipped: once, or with probability p a word */
    RNPNET_F_STUCK_BIT,   /* a forward data bit stuck at a value */
} rnpnet_fault_kind_t;

typedef struct rnpnet_fault {
    rnpnet_fault_kind_t kind;
    unsigned router;     /* the router, or the link's upstream router */
    unsigned port;       /* the link's upstream backward port; for injection links 8 + k
                               with router = endpoint */
    unsigned bit, value; /* FLIP, STUCK_BIT: data bit 0..7; STUCK_BIT: 0 or 1 */
    uint32_t prob_ppm;   /* FLIP: per-word probability in parts per million; 0: once */
} rnpnet_fault_t;

/* Parse "kill r3", "cut r3.b5", "stuck1 r3.b5", "flip r3.b5 bit 2 [ppm 1000]", "stuck r3.b5
 * bit 2 = 1", "heal" (all faults cleared), "cut s4.1" (injection link of endpoint 4, port 1). */
int rnpnet_fault_parse(const char *text, rnpnet_fault_t *f, int *heal, char *err, size_t errlen);
void rnpnet_fault_format(const rnpnet_fault_t *f, char *buf, size_t len);

/* The CFG word the network loads into router r (rtl/rn1.md section 11): SWALLOW on every forward
 * port of a swallowing stage, the router's seed derived from the network seed, dilated mode,
 * backchan; `disable` 0. */
uint64_t rnpnet_router_cfg(const rnpnet_topo_t *t, uint16_t netseed, int backchan, unsigned r);

/* The design of a network, built for the caller, who releases it (dev_design_release). */
const dev_design_t *rnpnet_design(unsigned n, unsigned extra, uint64_t wiring_seed, char *err,
                                  size_t errlen);
/* The family's lookup (dev_lookup_t): `rnpnet16`, `rnpnet64`, `rnpnet256`, `rnpnetN[xE][wS]`;
 * NULL for any other name. */
const dev_design_t *rnpnet_find_design(const char *name);
/* The same network with routers of another design with RN1's ports and registers (the
 * SystemC harness's RN1, harness/sc/): its RTL routers write no waveform. */
const dev_design_t *rnpnet_find_design_on(const char *name, const dev_design_t *router);
/* The topology behind a network design. */
const rnpnet_topo_t *rnpnet_topo_of(const dev_design_t *d);

/* Port numbers of a network design. */
enum { RNPNET_SIN, RNPNET_SOUT, RNPNET_SBC, RNPNET_DOUT, RNPNET_DIN, RNPNET_DBC, RNPNET_NKIND };
static inline unsigned rnpnet_port(unsigned e, unsigned k, unsigned kind)
{
    return (e * 2u + k) * RNPNET_NKIND + kind;
}

#endif
