/*
 * sci_route.h - routing tables of the 2-D SCI torus and their checks.
 *
 * Computes, for a W x H torus of LC3 or P2S nodes and a set of faults, the full table state
 * of every node (X-LC LRT + BRT, Y-LC LRT + BRT, PSB BRT, and on P2S the address select), as
 * the reference algorithm of harness/sci/README.md sections 3-4 defines it (policy SPEC) or as
 * the variant documented in harness/sci/sci_route.md (policy STEP); traces packets through those
 * tables hop by hop as the hardware moves them; and checks reachability, leg counts, which
 * nodes' tables changed, and the queue dependency graph for cycles.  Plain C11, libc only; no
 * mutable globals.
 *
 * Node ids: LC3 (and P2S tori up to 16x16) x = bits [3:0], y = bits [7:4]; P2S tori wider or
 * taller than 16: x = bits [5:0], y = bits [11:6] (6 bits a dimension, 13-bit index).  Tables
 * are stored per (node, address set, target node) and mapped to register indices by
 * sci_route_index().
 */
#ifndef SCI_ROUTE_H
#define SCI_ROUTE_H

#include <stdint.h>
#include <stdio.h>

#define SCI_ROUTE_MAX_LC3  16 /* LC3: 8-bit ids, 16 x 16 at most */
#define SCI_ROUTE_MAX_P2S  32 /* P2S: 6-bit fields would allow 64; memory keeps it to 32 */
#define SCI_ROUTE_MAX_HOPS 64
#define SCI_ROUTE_MAX_LEGS 16

/* B-link ports (harness/sci/README.md section 2). */
enum { SCI_PORT_HOST = 0, SCI_PORT_X = 1, SCI_PORT_Y = 2, SCI_PORT_DISCARD = 7 };

typedef enum { SCI_VAR_LC3 = 0, SCI_VAR_P2S = 1 } sci_route_variant_t;

/* SPEC: the reference algorithm as written.  STEP: the variant of sci_route.md (an X-ring fault
 * sends its packets one step down the Y ring and X-first from there). */
typedef enum { SCI_POLICY_SPEC = 0, SCI_POLICY_STEP = 1 } sci_policy_t;

typedef struct sci_torus {
    unsigned w, h;
    sci_route_variant_t var;
    sci_policy_t policy;
} sci_torus_t;

typedef struct sci_faults {
    uint8_t xring[SCI_ROUTE_MAX_P2S];                    /* row y's X ring down */
    uint8_t yring[SCI_ROUTE_MAX_P2S];                    /* column x's Y ring down */
    uint8_t dead[SCI_ROUTE_MAX_P2S * SCI_ROUTE_MAX_P2S]; /* node x + y*w powered down */
    /* --bad-flip: for every failed Y ring, every source flips its packets for that column to
     * Y-first (which makes queue cycles from 3 columns up: sci_route.md s.5). */
    int bad_flip;
} sci_faults_t;

/* One table entry of one node for one (address set, target). */
typedef struct sci_entry {
    uint8_t xtake, xport; /* X-LC: LRT take bit, BRT port */
    uint8_t ytake, yport; /* Y-LC */
    uint8_t pport;        /* PSB BRT port */
} sci_entry_t;

typedef struct sci_tables {
    sci_torus_t t;
    sci_faults_t f;
    unsigned n;     /* w * h */
    unsigned nsets; /* 1 (LC3) or 2 (P2S) */
    sci_entry_t *e; /* [(node * nsets + set) * n + target] */
    uint8_t *asel;  /* [node * n + target]: P2S address select (1 = id | 0x4000) */
} sci_tables_t;

/* Queue kinds: the vertices of the dependency graph are (node, kind). */
enum { SCI_Q_SEND_X = 0, SCI_Q_RECV_X = 1, SCI_Q_SEND_Y = 2, SCI_Q_RECV_Y = 3 };

typedef enum {
    SCI_TR_DELIVERED = 0,
    SCI_TR_LOST_DOWN,    /* put into the send queue of an LC whose ring is down */
    SCI_TR_SCRUBBED,     /* went round its ring: removed by the scrubber */
    SCI_TR_DISCARDED,    /* a BRT said discard */
    SCI_TR_MISDELIVERED, /* given to the host of the wrong node */
    SCI_TR_LOOP,         /* too many legs: circulates between rings */
    SCI_TR_DEAD_SOURCE
} sci_trace_status_t;

typedef struct sci_hop {
    uint16_t node;
    uint8_t q;
} sci_hop_t;

typedef struct sci_trace {
    sci_trace_status_t status;
    unsigned set; /* address set the source's PSB used */
    unsigned nhops;
    sci_hop_t hop[SCI_ROUTE_MAX_HOPS]; /* send, recv, send, recv, ... */
    unsigned legs;
    uint8_t leg_dim[SCI_ROUTE_MAX_LEGS];   /* 0 X ring, 1 Y ring */
    uint16_t leg_ring[SCI_ROUTE_MAX_LEGS]; /* row (X) or column (Y) */
    int ring_twice;                        /* some ring used by two legs */
    unsigned scrub_passes;                 /* most scrubber passes on one leg */
    uint16_t last;                         /* node where it ended (delivered, lost, ...) */
} sci_trace_t;

/* ---- the torus and node ids ---- */
int sci_route_check_torus(const sci_torus_t *t, char *err, size_t errlen);
/* "WxH" (decimal, nothing else; the size is checked by sci_route_check_torus): 0, or -1. */
int sci_route_parse_size(const char *s, unsigned *w, unsigned *h);
/* "X,Y" (decimal) followed by the character end ('\0': nothing more): 0, or -1. */
int sci_route_parse_xy(const char *s, unsigned *x, unsigned *y, char end);
/* A fault "xring:R" (R < H), "yring:C" (C < W) or "node:X,Y" of torus t, added to f: 0, or -1. */
int sci_route_parse_fault(const sci_torus_t *t, const char *s, sci_faults_t *f);
unsigned sci_route_node(const sci_torus_t *t, unsigned x, unsigned y);
uint16_t sci_route_id(const sci_torus_t *t, unsigned node);                    /* 13-bit node id */
uint16_t sci_route_index(const sci_torus_t *t, unsigned set, unsigned target); /* table index */
int sci_route_live(const sci_tables_t *tb, unsigned node);
int sci_route_ring_up(const sci_tables_t *tb, unsigned dim, unsigned ring);

/* ---- tables ---- */
/* Computes the tables in force for torus t under faults f (f may be NULL: fault-free).
 * Returns 0, or -1 with a message (bad torus, out of memory). */
int sci_route_tables(const sci_torus_t *t, const sci_faults_t *f, sci_tables_t *out, char *err,
                     size_t errlen);
void sci_route_free(sci_tables_t *tb);
const sci_entry_t *sci_route_entry(const sci_tables_t *tb, unsigned node, unsigned set,
                                   unsigned target);
/* P2S: the hardware failover of rtl/sci_node.md section 6 at node `node`, applied to tables
 * read back from the hardware, from the state it shows: its X-LC / Y-LC down, and FOCOL.
 * Per target, in the hardware's order: the forced address select, the BRT, the LC redirect;
 * and the X-LC's own-column bypass. */
void sci_route_p2s_failover(sci_tables_t *tb, unsigned node, int xdown, int ydown, int focol_valid,
                            unsigned focol);
/* Nodes whose tables differ (any entry of any set, or the ASEL): marks changed[node] = 1,
 * returns how many. */
unsigned sci_route_diff(const sci_tables_t *a, const sci_tables_t *b, uint8_t *changed);
/* The nodes the reference algorithm names for these faults under the policy: expected[node] = 1. */
unsigned sci_route_expected_changes(const sci_torus_t *t, const sci_faults_t *f, uint8_t *expected);
void sci_route_print_node(const sci_tables_t *tb, unsigned node, FILE *fp);

/* ---- tracing ---- */
/* Follows a host packet from src to dst.  set: -1 = the address the PSB's ASEL picks, else
 * force that set (P2S).  Returns tr->status. */
sci_trace_status_t sci_route_trace(const sci_tables_t *tb, unsigned src, unsigned dst, int set,
                                   sci_trace_t *tr);
const char *sci_route_status_name(sci_trace_status_t s);
void sci_route_print_trace(const sci_tables_t *tb, const sci_trace_t *tr, FILE *fp);
void sci_route_qname(const sci_tables_t *tb, unsigned v, char *buf, size_t len);

/* ---- checks ---- */
typedef struct sci_faultcheck {
    unsigned pairs, reached, max_legs, over_legs, ring_twice, scrub_twice;
    unsigned first_bad_src, first_bad_dst; /* a pair that failed (valid when reached < pairs) */
    sci_trace_status_t first_bad_status;
    /* queue dependency graph */
    unsigned vertices, edges;
    int cyclic;
    unsigned cycle_len;
    unsigned cycle
        [4 * SCI_ROUTE_MAX_HOPS]; /* vertices node*4 + kind; the edge back to cycle[0] is implied */
} sci_check_t;

/* All live ordered pairs, traced with the address each PSB uses (set = -1), or with a forced
 * set; builds the queue dependency graph from the traced routes and looks for a cycle.
 * Returns 0 when every check passes (all reached, <= 3 legs, no ring twice, acyclic), 1 if
 * one fails, -1 on out of memory. */
int sci_route_check(const sci_tables_t *tb, int set, sci_check_t *c);
void sci_route_print_cycle(const sci_tables_t *tb, const sci_check_t *c, FILE *fp);

#endif
