/* rnpni_state.h — what the endpoints' two files share (private to rnpni.c and rnpni_ps.c):
 * the wire bytes, the senders, receivers and link fault table, the per-source tables, the
 * endpoints' state (struct ni), and the functions one file calls in the other. */
#ifndef RNPNI_STATE_H
#define RNPNI_STATE_H

#include <stdint.h>

#include "rnpni.h"

#define ACK_BYTE   0xACu
#define NAK_BYTE   0x5Cu
#define BUSY_BYTE  0xB5u   /* per-source tables: a relay whose buffer is full (ftdrb_rnp.md 4) */
#define RELAY_FLAG 0x8000u /* in the header's source field: a relayed segment */
#define PS_MAX     64      /* entries of a per-source table */
#define MAX_LFT    512
#define MAX_WRITES 1024

typedef struct sender {
    int st;
    ni_msg_t *m;
    uint64_t wait_until, t0, t_turn;
    unsigned port; /* injection port of this attempt */
    unsigned to;   /* this attempt's destination on the wire: the message's, or a relay */
    unsigned hop2; /* a relayed attempt's second intermediate (NI_NONE) */
    int flag;      /* this attempt is a relayed segment (relay header in the payload) */
    uint16_t w[4 + 6 + NI_MAX_PAYLOAD + 4 + 1]; /* routing, header, payload, CRC, TURN */
    unsigned nw, pos, nroute;
    uint8_t xd[NI_MAX_STAGES]; /* extra-stage digits of this attempt */
    uint8_t exp_count[NI_MAX_STAGES + 1], exp_xor[NI_MAX_STAGES + 1]; /* [stages]: destination */
    unsigned prt[NI_MAX_STAGES], pport[NI_MAX_STAGES]; /* path: router and output per stage */
    unsigned known;                                    /* stages whose STATUS said routed */
    int bad_stage, blocked_stage, dropped_stage, collapsed, answer, dst_xor, dst_count;
    uint16_t cur;     /* drive for the next cycle */
    uint64_t drop_at; /* the cycle it drove the DROP that closed a collapsed attempt */
} sender_t;

typedef struct receiver {
    int st;
    uint8_t buf[8 + NI_MAX_PAYLOAD + 4];
    unsigned n, first;
    uint8_t verdict, xr, count; /* what it received, as the last router counts it */
    unsigned words;             /* c=1 words of this connection: past any message, garbage */
    int drop_bc;                /* raise bc for one cycle: drop the connection */
    uint16_t cur;
} receiver_t;

typedef struct lft {
    unsigned router, port, stage, attempt;
    int masked, trial, used;
} lft_t;

/* An entry of a per-source table (ftdrb_rnp.md 2): the link, the paper's stage and attempt. */
typedef struct ps_entry {
    uint16_t router;
    uint8_t port, stage, attempt;
} ps_entry_t;

/* A source's last multistep-path answer for one destination, good while its table's version
 * is the one it was found with. */
#define PS_SPREAD 4 /* one-intermediate paths a source spreads a destination's traffic over */
typedef struct ps_plan {
    uint32_t ver;
    uint16_t dst, i1[PS_SPREAD], i2;
    uint8_t valid, found; /* found: how many i1 (with i2: 1) */
} ps_plan_t;

/* A source's metapath toward one destination (ftdrb_rnp.md 4): path 0 the direct one, then up
 * to MP_PATHS - 1 multistep paths; each path's latency as the latency ACKs return it. */
#define MP_PATHS 4
#define MP_PAIRS 4 /* destinations a source keeps a metapath for (least recently used goes) */
typedef struct ps_mpath {
    uint16_t dst, i1[MP_PATHS], i2[MP_PATHS];
    float lat[MP_PATHS]; /* cycles, a moving average; < 0 not measured yet */
    uint8_t n, valid, probing[MP_PATHS];
    uint32_t ver;                  /* the source's table version its paths were checked with */
    uint32_t msgs, next_add, cool; /* messages routed; when a path may be added; the wait after */
    uint32_t scan;                 /* where the next search for an intermediate goes on */
    uint64_t used;                 /* last use */
} ps_mpath_t;

struct ni {
    const rnpnet_topo_t *t;
    ni_policy_t pol;
    prng_t rng;
    int backchan;
    sender_t *snd;
    receiver_t *rcv;  /* 2 per endpoint */
    ni_msg_t **queue; /* per endpoint: a ring of pending messages */
    unsigned *qhead, *qlen, qcap;
    uint16_t *next_seq; /* per source */
    uint16_t *last_rx;  /* per (dst, src): the last sequence number delivered + 1 */
    ni_msg_t *msgs;
    size_t nmsgs, capmsgs;
    lft_t lft[MAX_LFT];
    unsigned nlft;
    uint8_t *disable; /* per router: the mask the monitor has written */
    dev_write_t wq[MAX_WRITES];
    unsigned wq_head, wq_len;
    ni_stats_t st;
    void *ctx;
    ni_diag_fn diag;
    ni_done_fn done, rx;
    ni_attempt_fn attempt;
    ni_misrx_fn misrx;
    /* per-source tables (ftdrb_rnp.md); all NULL with the global table */
    ps_entry_t *ps;         /* PS_MAX per endpoint */
    uint8_t *ps_n;          /* entries in use per endpoint */
    uint32_t *ps_ver;       /* per endpoint: changes whenever what its table blocks may change */
    ps_plan_t *ps_plan;     /* per endpoint */
    ps_mpath_t *mp;         /* MP_PAIRS per endpoint */
    float *floor;           /* per source: the lowest latency an ACK returned (0 none yet) */
    uint32_t *stamp, gen;   /* per router: reached by the walk of generation gen */
    unsigned *front, *next; /* the walk's routers of one stage and of the next */
    ni_msg_t **rq;          /* relay buffers: per endpoint R1 then R2, NI_RELAY_BUF each */
    unsigned *rq_head, *rq_len;
    uint64_t *seen; /* the (endpoint, source, seq) an endpoint has taken: open addressing */
    size_t seen_cap, seen_n;
    uint32_t **sid; /* per source: message id by sequence number */
    uint32_t *sid_cap;
};

static inline int per_source(const ni_t *ni)
{
    return ni->pol.use_lft && ni->pol.lft_scope == NI_LFT_PER_SOURCE;
}

/* rnpni.c: a new message, not queued anywhere yet (NULL out of memory). */
ni_msg_t *ni_new_msg(ni_t *ni, uint64_t cycle, unsigned src, unsigned dst, unsigned len,
                     const uint8_t *data);

/* rnpni_ps.c: the per-source tables and relays (ftdrb_rnp.md). */
int ni_ps_alloc(ni_t *ni);
void ni_ps_note(ni_t *ni, unsigned e, unsigned r, unsigned p);
void ni_ps_crossed_ok(ni_t *ni, unsigned e, unsigned r, unsigned p);
void ni_ps_choose(ni_t *ni, unsigned e, sender_t *s, unsigned ports);
void ni_ps_latency(ni_t *ni, const ni_msg_t *m, uint64_t cycle, int delivered);
void ni_ps_busy(ni_t *ni, const ni_msg_t *m);
unsigned ni_free_ports(const ni_t *ni, uint64_t cycle, unsigned e, const sender_t *s);
uint8_t ni_ps_receive(ni_t *ni, uint64_t cycle, unsigned d, unsigned src, int flag, unsigned seq,
                      const uint8_t *pl, unsigned len);
int ni_ps_delivered(ni_t *ni, uint64_t cycle, const sender_t *s);
void ni_ps_segment_failed(ni_t *ni, uint64_t cycle, ni_msg_t *m);

#endif
