/*
 * fuzz_sciring.c — `ftsim fuzz --device ring`: random traffic between the hosts of a ring of
 * SCI nodes (harness/sci/sci_ring.c), random cable pulls and restores, the RTL and the C model in
 * lockstep, and a ledger that checks the end-to-end protocol of harness/sci/README.md section 1.
 *
 * The hosts (one agent per node, in the harness, the same for both models):
 * - a flow per (source, destination) pair carries messages with sequence numbers, stop and
 *   wait: a DATA packet {seq, flags, data...} and, from the destination, an ACK {seq};
 * - every packet a host sends gets a new tid (16-bit counter per source), so a retransmission
 *   has a new tid (harness/sci/README.md section 1);
 * - the source retransmits on its timeout, and sooner (after a back-off) when its PSB hands it
 *   a FAIL_REPORT for the packet's tid; after `MAX_TRIES` attempts it gives the message up:
 *   the source *knows it failed*. The next message of that flow carries the resync flag,
 *   which lets the destination skip exactly the given-up messages;
 * - the destination delivers seq = last + 1 (or a resync message above it), drops anything at
 *   or below the last delivered (a duplicate: a lost echo, a late retransmission) and acks
 *   what it delivered or dropped as a duplicate.
 * Payloads are a function of (source, destination, seq), so the ledger checks every delivered
 * symbol without keeping them.
 *
 * The ledger fails the run when: a delivered payload differs from the one sent (corrupt); a
 * packet arrives that no host sent (phantom); a flow delivers out of order or skips a message
 * its source has not given up; an ACK names a message not delivered; at the end, after a drain
 * with no new messages and the cables back, a message is neither delivered and acked nor
 * given up (lost without its sender knowing).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fuzz_sci.h"
#include "lockstep.h"
#include "play.h"
#include "prng.h"
#include "sci_dev.h"
#include "sci_lc.h"
#include "sci_ring.h"
#include "sci_torus.h"
#include "sci_word.h"
#include "vec.h"

#define N_MAX        SCI_RING_MAX
#define MAX_TRIES    10u
#define HOST_TIMEOUT 6000u /* cycles without an ACK before the source retransmits */
#define FAIL_BACKOFF 400u  /* after a FAIL_REPORT */
#define F_RESYNC     1u
#define DRAIN_MAX    200000u /* cycles after --cycles to resolve every message */

enum { ST_GAP, ST_WAIT };

typedef struct {
    /* source side */
    uint32_t seq; /* the current message */
    uint8_t st;
    uint8_t tries;
    uint8_t resync;      /* the current message carries the resync flag */
    uint16_t tid;        /* of its latest attempt */
    uint8_t failed_hint; /* a FAIL_REPORT named the latest attempt */
    uint64_t due;        /* ST_GAP: when to send; ST_WAIT: when to retransmit */
    uint8_t *fate;       /* per seq: bit 0 given up, bit 1 acked, bit 2 delivered */
    uint32_t cap;
    /* destination side */
    int64_t last; /* last delivered seq, -1 before the first */
} flow_t;

typedef struct {
    uint16_t sym[SCI_MAX_PKT];
    unsigned len;
} hpkt_t;

#define TXQ 64
typedef struct {
    /* send side: packets waiting for the PSB (ACKs ahead of DATA), the one under way */
    hpkt_t q[TXQ];
    unsigned qh, qn;
    hpkt_t cur;
    unsigned pos; /* next symbol of cur; cur.len 0: none */
    uint16_t tid_next;
    /* receive side */
    uint16_t rx[SCI_MAX_PKT + 8];
    /* remote status reads and probes this host has sent: tid, target (probes: own id) */
    struct {
        uint16_t tid, target;
        uint8_t probe, answered;
    } ask[16];
    unsigned nask;
    uint64_t next_ask;
    unsigned rxn;
} host_t;

typedef struct {
    uint64_t msgs, delivered, dups, acks, retx, tmo_retx, given_up, late_delivered;
    uint64_t fail_reports[5], cuts, restores, pkts_in;
    uint64_t link_busy; /* link-cycles carrying a packet symbol, over every link */
    uint64_t reads, replies, read_timeouts, probes, probes_back, notifies;
} rstats_t;

typedef struct {
    uint64_t cycle;
    uint32_t port; /* UINT32_MAX: a control (text in ctl) */
    uint64_t value;
    char ctl[48];
} logent_t;

typedef struct {
    const fuzz_opts_t *o;
    const dev_design_t *d;
    unsigned n;
    int nocuts; /* --no-cuts: no cable pulls */
    lockstep_t ls;
    prng_t rng;
    uint64_t t, drain_at, quiet_cuts_at;
    uint64_t *in;
    host_t h[N_MAX];
    flow_t f[N_MAX][N_MAX];
    unsigned gap;    /* mean cycles between messages of a flow */
    int cut;         /* the link cut now, -1 none */
    int pull;        /* --pull I: one planned pull of link I, no random cuts; -1 none */
    unsigned tw, th; /* a torus: its dimensions (0: a ring) */
    int cut_dim;     /* a torus: the cut cable is node cut's X (0) or Y (1) cable */
    uint64_t pull_at, pull_end;
    int64_t down_at[N_MAX], up_at[N_MAX]; /* when each LC reported down / up again (-1: not) */
    int was_up[N_MAX];
    uint64_t cut_until, next_cut;
    int failed;
    char why[800];
    rstats_t st;
    logent_t *log;
    size_t nlog, caplog;
    int logging;
    dev_write_t init[3 * N_MAX];
    unsigned ninit;
    rec_t *golden;              /* --record */
    int debug;                  /* FTSIM_RING_DEBUG set: trace host events on stderr */
    uint16_t dbg_hdr[N_MAX][4]; /* FTSIM_RING_TID: each link's packet header so far */
    unsigned dbg_pos[N_MAX];
    uint8_t fate_sink; /* what fate() hands out when the ledger cannot grow */
} rz_t;

static void rz_fail(rz_t *z, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fuzz_first_failure(&z->failed, z->why, sizeof z->why, z->t, fmt, ap);
    va_end(ap);
}

static void log_add(rz_t *z, uint32_t port, uint64_t value, const char *ctl)
{
    if (!z->logging)
        return;
    if (z->nlog == z->caplog) {
        size_t cap = z->caplog ? z->caplog * 2 : 8192;
        logent_t *n = realloc(z->log, cap * sizeof *n);
        if (!n) {
            z->logging = 0;
            return;
        }
        z->log = n;
        z->caplog = cap;
    }
    logent_t *e = &z->log[z->nlog++];
    e->cycle = z->t;
    e->port = port;
    e->value = value;
    e->ctl[0] = 0;
    if (ctl)
        snprintf(e->ctl, sizeof e->ctl, "%s", ctl);
}

/* ---- the fabric: a ring (node i) or a torus (node i = y * W + x) -------------------------- */

static unsigned port(const rz_t *z, unsigned i, unsigned ring_kind)
{
    if (!z->tw)
        return sci_ring_port(i, ring_kind);
    static const unsigned tk[SCI_RING_NK] = {SCI_TP_HIN,  SCI_TP_HOUT_READY, SCI_TP_HIN_READY,
                                             SCI_TP_HOUT, SCI_TP_IRQ_X,      SCI_TP_LX,
                                             SCI_TP_LX_SD};
    return sci_torus_port(z->d, i % z->tw, i / z->tw, tk[ring_kind]);
}

static uint16_t node_id(const rz_t *z, unsigned i)
{
    return z->tw ? sci_torus_node_id(z->d, i % z->tw, i / z->tw) : sci_ring_node_id(i);
}

static uint32_t node_addr(const rz_t *z, unsigned i, unsigned a)
{
    return z->tw ? sci_torus_addr(z->d, i % z->tw, i / z->tw, a) : sci_ring_addr(i, a);
}

static int fabric_p2s(const rz_t *z) { return z->tw ? sci_torus_p2s(z->d) : sci_ring_p2s(z->d); }

static const char *fabric_kind(const rz_t *z) { return z->tw ? "torus" : "ring"; }

/* The options that select this fabric, as a command line would give them. */
static void fabric_args(const rz_t *z, char *buf, size_t len)
{
    if (z->tw)
        snprintf(buf, len, "--device torus --torus %ux%u --%s", z->tw, z->th,
                 fabric_p2s(z) ? "p2s" : "lc3");
    else
        snprintf(buf, len, "--device ring --nodes %u --%s", z->n, fabric_p2s(z) ? "p2s" : "lc3");
}

/* ---- payloads ------------------------------------------------------------------------------ */

static uint32_t mix(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

static unsigned msg_len(unsigned s, unsigned d, uint32_t seq)
{
    uint32_t h = mix(s * 7919u + d * 104729u + seq * 2654435761u);
    /* data symbols after {seq, flags}: 0..30, so a DATA packet carries 2..32 payload symbols */
    return (h & 3u) == 0 ? (h >> 8) % 31u : h >> 8 & 7u;
}

static uint16_t msg_sym(unsigned s, unsigned d, uint32_t seq, unsigned k)
{
    return (uint16_t)mix((s << 24) ^ (d << 16) ^ seq * 31u ^ k * 0x9E3779B9u);
}

static uint8_t *fate(rz_t *z, flow_t *f, uint32_t seq)
{
    if (seq >= f->cap) {
        uint32_t cap = f->cap ? f->cap * 2 : 256;
        while (cap <= seq)
            cap *= 2;
        uint8_t *p = realloc(f->fate, cap);
        if (!p) {
            rz_fail(z, "out of memory for the ledger");
            return &z->fate_sink;
        }
        memset(p + f->cap, 0, cap - f->cap);
        f->fate = p;
        f->cap = cap;
    }
    return &f->fate[seq];
}

/* ---- hosts: sending ------------------------------------------------------------------------ */

static void host_queue(rz_t *z, unsigned i, uint16_t tgt, uint8_t type, const uint16_t *pay,
                       unsigned npay, int front)
{
    host_t *h = &z->h[i];
    if (h->qn == TXQ) {
        rz_fail(z, "host %u: its send queue overflows (harness limit %u packets)", i, TXQ);
        return;
    }
    unsigned at = front ? (h->qh + TXQ - 1) % TXQ : (h->qh + h->qn) % TXQ;
    if (front)
        h->qh = at;
    hpkt_t *p = &h->q[at];
    p->len = sci_packet_build(p->sym, tgt, type, node_id(z, i), h->tid_next++, pay, npay);
    if (!p->len) {
        rz_fail(z, "host %u: a packet of %u payload symbols (harness error)", i, npay);
        return;
    }
    h->qn++;
    if (z->debug)
        fprintf(stderr,
                "cycle %llu: host %u queues type 0x%02X tid 0x%04X at %u (front %d, %u queued)\n",
                (unsigned long long)z->t, i, type, p->sym[3], at, front, h->qn);
}

/* Send (or resend) flow s->d's current message with a new tid. */
static void send_msg(rz_t *z, unsigned s, unsigned d)
{
    flow_t *f = &z->f[s][d];
    unsigned nd = msg_len(s, d, f->seq);
    uint16_t pay[SCI_MAX_PAYLOAD];
    pay[0] = (uint16_t)f->seq;
    pay[1] = (uint16_t)((f->seq >> 16) << 8 | (f->resync ? F_RESYNC : 0));
    for (unsigned k = 0; k < nd; k++)
        pay[2 + k] = msg_sym(s, d, f->seq, k);
    f->tid = z->h[s].tid_next;
    host_queue(z, s, node_id(z, d), SCI_T_DATA, pay, 2 + nd, 0);
    f->st = ST_WAIT;
    f->tries++;
    f->failed_hint = 0;
    f->due = z->t + HOST_TIMEOUT;
}

static void give_up(rz_t *z, unsigned s, unsigned d)
{
    flow_t *f = &z->f[s][d];
    *fate(z, f, f->seq) |= 1u;
    z->st.given_up++;
    f->seq++;
    f->resync = 1;
    f->tries = 0;
    f->st = ST_GAP;
    f->due = z->t + 1 + prng_below(&z->rng, 2 * z->gap + 1);
}

/* Now and then a host reads the status of another node's LC (sci_node.md: the PSB answers)
 * or probes its own ring (a PROBE to itself through its LC). */
static void asks_step(rz_t *z)
{
    for (unsigned i = 0; i < z->n; i++) {
        host_t *h = &z->h[i];
        if (z->t < h->next_ask || z->t >= z->drain_at)
            continue;
        h->next_ask = z->t + 5000 + prng_below(&z->rng, 30000);
        int probe = prng_chance(&z->rng, 1, 3);
        unsigned d = probe ? i : (i + 1 + prng_below(&z->rng, z->n - 1)) % z->n;
        if (h->nask == sizeof h->ask / sizeof h->ask[0])
            memmove(h->ask, h->ask + 1, --h->nask * sizeof h->ask[0]);
        h->ask[h->nask].tid = h->tid_next;
        h->ask[h->nask].target = node_id(z, d);
        h->ask[h->nask].probe = (uint8_t)probe;
        h->ask[h->nask].answered = 0;
        h->nask++;
        uint16_t pay[1] = {0}; /* LC 0 */
        host_queue(z, i, node_id(z, d), probe ? SCI_T_PROBE : SCI_T_STATUS_READ, pay, 1, 0);
        if (probe)
            z->st.probes++;
        else
            z->st.reads++;
    }
}

static void flows_step(rz_t *z)
{
    for (unsigned s = 0; s < z->n; s++)
        for (unsigned d = 0; d < z->n; d++) {
            if (s == d)
                continue;
            flow_t *f = &z->f[s][d];
            if (f->due > z->t)
                continue;
            if (f->st == ST_GAP) {
                if (z->t >= z->drain_at)
                    continue;
                f->tries = 0;
                z->st.msgs++;
                send_msg(z, s, d);
            } else if (f->tries >= MAX_TRIES) {
                give_up(z, s, d);
            } else {
                z->st.retx++;
                if (!f->failed_hint)
                    z->st.tmo_retx++;
                if (z->debug)
                    fprintf(stderr,
                            "cycle %llu: flow %u->%u seq %u retransmit (%s), tid was 0x%04X\n",
                            (unsigned long long)z->t, s, d, f->seq,
                            f->failed_hint ? "failure report" : "timeout", f->tid);
                send_msg(z, s, d);
            }
        }
}

/* Drive n<i>.hin from the host's queue; `moved`: the symbol driven last cycle was taken. */
static void host_drive(rz_t *z, unsigned i, int moved)
{
    host_t *h = &z->h[i];
    if (moved && h->cur.len && ++h->pos >= h->cur.len)
        h->cur.len = 0;
    if (!h->cur.len && h->qn) {
        h->cur = h->q[h->qh];
        h->qh = (h->qh + 1) % TXQ;
        h->qn--;
        h->pos = 0;
        if (z->debug)
            fprintf(stderr, "cycle %llu: host %u starts type 0x%02X to 0x%04X tid 0x%04X len %u\n",
                    (unsigned long long)z->t, i, h->cur.sym[1] >> 8, h->cur.sym[0], h->cur.sym[3],
                    h->cur.len);
    }
    uint64_t w = 0;
    if (h->cur.len)
        w = SCI_FLAG | h->cur.sym[h->pos] | (h->pos + 1 == h->cur.len ? SCI_LAST : 0);
    uint32_t pw = port(z, i, SCI_RP_HIN), pr = port(z, i, SCI_RP_HOUT_READY);
    uint64_t ready = !prng_chance(&z->rng, 1, 10);
    if (z->in[pw] != w)
        log_add(z, pw, w, NULL);
    if (z->in[pr] != ready)
        log_add(z, pr, ready, NULL);
    z->in[pw] = w;
    z->in[pr] = ready;
}

/* ---- hosts: receiving ---------------------------------------------------------------------- */

static int node_of(rz_t *z, uint16_t id)
{
    for (unsigned i = 0; i < z->n; i++)
        if (node_id(z, i) == (id & SCI_ID_MASK))
            return (int)i;
    return -1;
}

static void got_data(rz_t *z, unsigned i, const uint16_t *p, unsigned len)
{
    int s = node_of(z, p[2]);
    if (s < 0 || s == (int)i || len < 7) {
        rz_fail(z, "host %u: a DATA packet no host sent (source 0x%04X, %u symbols)", i, p[2], len);
        return;
    }
    flow_t *f = &z->f[s][i];
    uint32_t seq = p[4] | (uint32_t)(p[5] >> 8) << 16;
    unsigned flags = p[5] & 0xFFu, nd = len - 7;
    if (seq > z->f[s][i].seq || nd != msg_len((unsigned)s, i, seq)) {
        rz_fail(z,
                "host %u: DATA from %d seq %u was never sent (source is at seq %u) or has the "
                "wrong length (%u data symbols)",
                i, s, seq, z->f[s][i].seq, nd);
        return;
    }
    for (unsigned k = 0; k < nd; k++)
        if (p[6 + k] != msg_sym((unsigned)s, i, seq, k)) {
            rz_fail(z,
                    "host %u: DATA from %d seq %u delivered corrupt: data[%u] is 0x%04X, sent "
                    "0x%04X",
                    i, s, seq, k, p[6 + k], msg_sym((unsigned)s, i, seq, k));
            return;
        }
    if ((int64_t)seq <= f->last) {
        z->st.dups++;
    } else {
        if ((int64_t)seq != f->last + 1) {
            if (!(flags & F_RESYNC)) {
                rz_fail(z, "flow %d->%u: seq %u delivered after %lld without resync (out of order)",
                        s, i, seq, (long long)f->last);
                return;
            }
            for (int64_t k = f->last + 1; k < (int64_t)seq; k++)
                if (!(*fate(z, f, (uint32_t)k) & 1u)) {
                    rz_fail(z,
                            "flow %d->%u: seq %u skips seq %lld, which its source has not given up",
                            s, i, seq, (long long)k);
                    return;
                }
        }
        uint8_t *fa = fate(z, f, seq);
        if (*fa & 1u)
            z->st.late_delivered++;
        *fa |= 4u;
        f->last = seq;
        z->st.delivered++;
    }
    uint16_t ack[1] = {(uint16_t)seq};
    (void)ack;
    uint16_t pay[2] = {(uint16_t)seq, (uint16_t)(seq >> 16)};
    host_queue(z, i, node_id(z, (unsigned)s), SCI_T_ACK, pay, 2, 1);
}

static void got_ack(rz_t *z, unsigned i, const uint16_t *p, unsigned len)
{
    int d = node_of(z, p[2]);
    if (d < 0 || d == (int)i || len != 7) {
        rz_fail(z, "host %u: an ACK no host sent (source 0x%04X, %u symbols)", i, p[2], len);
        return;
    }
    flow_t *f = &z->f[i][d];
    uint32_t seq = p[4] | (uint32_t)p[5] << 16;
    if (seq > f->seq || !(*fate(z, f, seq) & 4u)) {
        rz_fail(z, "host %u: ACK from %d for seq %u, which was never delivered", i, d, seq);
        return;
    }
    z->st.acks++;
    *fate(z, f, seq) |= 2u;
    if (seq == f->seq && f->st == ST_WAIT) {
        f->seq++;
        f->resync = 0;
        f->tries = 0;
        f->st = ST_GAP;
        f->due = z->t + 1 + prng_below(&z->rng, 2 * z->gap + 1);
    }
}

static void got_fail(rz_t *z, unsigned i, const uint16_t *p, unsigned len)
{
    if (len != 9) {
        rz_fail(z, "host %u: a FAIL_REPORT of %u symbols", i, len);
        return;
    }
    unsigned reason = p[4];
    z->st.fail_reports[reason < 5 ? reason : 0]++;
    int d = node_of(z, p[5]);
    if (d < 0 || d == (int)i)
        return;
    flow_t *f = &z->f[i][d];
    /* Only the latest attempt of the current message matters; an ACK's failure is repaired by
     * the source's retransmission, which the destination acks again. */
    if (f->st == ST_WAIT && p[7] == f->tid) {
        uint64_t due = z->t + FAIL_BACKOFF + prng_below(&z->rng, FAIL_BACKOFF);
        f->failed_hint = 1;
        if (due < f->due)
            f->due = due;
    }
}

/* A STATUS_REPLY (or the PSB's timeout reply: payload[0] bit 15) or a PROBE back: it must
 * answer a read or probe this host sent; a read gets its timeout reply at most once. */
static void got_answer(rz_t *z, unsigned i, const uint16_t *p, unsigned len)
{
    host_t *h = &z->h[i];
    int probe = (p[1] >> 8) == SCI_T_PROBE;
    for (unsigned k = 0; k < h->nask; k++) {
        if (h->ask[k].tid != p[3] || h->ask[k].probe != probe)
            continue;
        if (probe) {
            if (p[2] != node_id(z, i) || len != 6) {
                rz_fail(z, "host %u: its PROBE tid 0x%04X came back changed", i, p[3]);
                return;
            }
            z->st.probes_back++;
            return;
        }
        int timeout = len == 7 && (p[4] & 0x8000u);
        if (len != 7 || (p[4] & 0x7FFFu) != 0 || p[2] != h->ask[k].target ||
            (timeout && (h->ask[k].answered & 2u))) {
            rz_fail(z,
                    "host %u: a STATUS_REPLY for tid 0x%04X from 0x%04X does not answer its "
                    "read of 0x%04X LC 0 (%u symbols, lc 0x%04X)",
                    i, p[3], p[2], h->ask[k].target, len, len > 4 ? p[4] : 0);
            return;
        }
        h->ask[k].answered |= timeout ? 2u : 1u;
        if (timeout)
            z->st.read_timeouts++;
        else
            z->st.replies++;
        return;
    }
    /* Older than the ones kept: the table holds the last 16 asks. */
    if (probe ? p[2] != node_id(z, i) : 0)
        rz_fail(z, "host %u: a PROBE it never sent (from 0x%04X)", i, p[2]);
}

static void host_receive(rz_t *z, unsigned i, const uint64_t *out)
{
    host_t *h = &z->h[i];
    uint64_t w = out[port(z, i, SCI_RP_HOUT)];
    if (!(w & SCI_FLAG) || !z->in[port(z, i, SCI_RP_HOUT_READY)])
        return;
    if (h->rxn < sizeof h->rx / sizeof h->rx[0])
        h->rx[h->rxn] = (uint16_t)w;
    h->rxn++;
    if (!(w & SCI_LAST))
        return;
    unsigned len = h->rxn;
    h->rxn = 0;
    z->st.pkts_in++;
    if (z->debug)
        fprintf(stderr,
                "cycle %llu: host %u got type 0x%02X from 0x%04X tid 0x%04X p4 0x%04X len %u\n",
                (unsigned long long)z->t, i, h->rx[1] >> 8, h->rx[2], h->rx[3],
                len > 4 ? h->rx[4] : 0, len);
    if (len > SCI_MAX_PKT || sci_crc16(h->rx, len) != 0) {
        rz_fail(z, "host %u: received a packet of %u symbols with a bad CRC", i, len);
        return;
    }
    if ((h->rx[0] & SCI_ID_MASK) != node_id(z, i)) {
        rz_fail(z,
                "host %u: received a packet for 0x%04X (command 0x%04X, source 0x%04X, tid "
                "0x%04X, %u symbols)",
                i, h->rx[0], h->rx[1], h->rx[2], h->rx[3], len);
        return;
    }
    switch (h->rx[1] >> 8) {
    case SCI_T_DATA: got_data(z, i, h->rx, len); break;
    case SCI_T_ACK: got_ack(z, i, h->rx, len); break;
    case SCI_T_FAIL_REPORT: got_fail(z, i, h->rx, len); break;
    case SCI_T_STATUS_REPLY:
    case SCI_T_PROBE: got_answer(z, i, h->rx, len); break;
    case SCI_T_NOTIFY:
        /* P2S failover (rtl/sci_node.md section 6): the upstream X neighbour's PSB tells of a
         * change of its Y ring, {down, 0x0001} */
        if (z->tw && sci_torus_p2s(z->d) && len == 7 &&
            (h->rx[2] & SCI_ID_MASK) ==
                node_id(z, (i / z->tw) * z->tw + (i % z->tw + z->tw - 1) % z->tw) &&
            h->rx[4] <= 1 && h->rx[5] == 1) {
            z->st.notifies++;
            break;
        }
        rz_fail(z,
                "host %u: a NOTIFY that is not its upstream X neighbour's (source 0x%04X, %u "
                "symbols)",
                i, h->rx[2], len);
        break;
    default: rz_fail(z, "host %u: received a packet of type 0x%02X nobody sent", i, h->rx[1] >> 8);
    }
}

/* The planned pull: when each LC's STATUS.ring_up falls after the cut and rises after the
 * restore (read from the model's register port every cycle). */
static void watch_ring(rz_t *z)
{
    device_t *m = z->ls.m[z->ls.n - 1];
    for (unsigned i = 0; i < z->n; i++) {
        int up = (int)(dev_reg_read(m, node_addr(z, i, SCI_REG_STATUS)) & 1u);
        if (z->t >= z->pull_at && z->t < z->pull_end && !up && z->was_up[i] && z->down_at[i] < 0)
            z->down_at[i] = (int64_t)(z->t - z->pull_at);
        if (z->t >= z->pull_end && up && !z->was_up[i] && z->up_at[i] < 0)
            z->up_at[i] = (int64_t)(z->t - z->pull_end);
        z->was_up[i] = up;
    }
}

static void pull_report(rz_t *z)
{
    unsigned down_bound = 5 + 43 * (z->n - 1), up_bound = 66 + 5 * z->n; /* sci_lc.md section 3 */
    printf("  pulled the cable out of node %d at cycle %llu, restored at cycle %llu "
           "(bounds, rtl/sci_lc.md section 3: down within %u cycles, up within %u)\n",
           z->pull, (unsigned long long)z->pull_at, (unsigned long long)z->pull_end, down_bound,
           up_bound);
    printf("  | node | reports down (cycles after the pull) | reports up (cycles after the "
           "restore) |\n"
           "  |---|---:|---:|\n");
    for (unsigned i = 0; i < z->n; i++) {
        printf("  | %u | %lld | %lld |\n", i, (long long)z->down_at[i], (long long)z->up_at[i]);
        if (z->down_at[i] < 0 || z->down_at[i] > (int64_t)down_bound)
            rz_fail(z, "node %u: ring down reported %lld cycles after the pull (bound %u)", i,
                    (long long)z->down_at[i], down_bound);
        else if (z->up_at[i] < 0 || z->up_at[i] > (int64_t)up_bound)
            rz_fail(z, "node %u: ring up reported %lld cycles after the restore (bound %u)", i,
                    (long long)z->up_at[i], up_bound);
    }
}

/* Debugging aid (FTSIM_RING_TID=0xT): print every packet with that tid on every link. */
static void debug_links(rz_t *z, const uint64_t *out, uint16_t tid)
{
    uint16_t(*hdr)[4] = z->dbg_hdr;
    unsigned *pos = z->dbg_pos;
    for (unsigned i = 0; i < z->n; i++) {
        uint64_t w = out[port(z, i, SCI_RP_LINK)];
        if (!(w & SCI_FLAG)) {
            pos[i] = 0;
            continue;
        }
        if (pos[i] < 4)
            hdr[i][pos[i]] = (uint16_t)w;
        if (++pos[i] == 4 && hdr[i][3] == tid)
            fprintf(stderr,
                    "cycle %llu: link l%u carries target 0x%04X cmd 0x%04X src 0x%04X tid 0x%04X\n",
                    (unsigned long long)z->t, i, hdr[i][0], hdr[i][1], hdr[i][2], hdr[i][3]);
    }
}

/* ---- cables ---------------------------------------------------------------------------------- */

static void control(rz_t *z, const char *text)
{
    char msg[DEV_ERR_LEN];
    for (unsigned k = 0; k < z->ls.n; k++)
        if (z->ls.m[k]->ops->control(z->ls.m[k]->self, text, msg, sizeof msg) < 0)
            rz_fail(z, "control '%s': %s", text, msg);
    log_add(z, UINT32_MAX, 0, text);
    if (z->golden)
        rec_control(z->golden, z->t, text);
}

static void cables(rz_t *z)
{
    char text[48];
    if (z->pull >= 0) { /* the planned pull: no random cuts */
        if (z->t == z->pull_at || z->t == z->pull_end) {
            snprintf(text, sizeof text, "%s %d", z->t == z->pull_at ? "cut" : "restore", z->pull);
            control(z, text);
            z->st.cuts += z->t == z->pull_at;
            z->st.restores += z->t == z->pull_end;
        }
        return;
    }
    if (z->cut >= 0 && z->t >= z->cut_until) {
        if (z->tw)
            snprintf(text, sizeof text, "restore %c %u,%u", "xy"[z->cut_dim], z -> cut % z -> tw,
                     z -> cut / z -> tw);
        else
            snprintf(text, sizeof text, "restore %d", z->cut);
        control(z, text);
        z->cut = -1;
        z->st.restores++;
        z->next_cut = z->t + 2000 + prng_below(&z->rng, 60000);
    } else if (z->cut < 0 && z->t >= z->next_cut && z->t < z->quiet_cuts_at && !z->nocuts) {
        z->cut = (int)prng_below(&z->rng, z->n);
        unsigned len = prng_chance(&z->rng, 1, 3) ? 1 + prng_below(&z->rng, 300)
                                                  : 300 + prng_below(&z->rng, 25000);
        z->cut_until = z->t + len;
        z->cut_dim = (int)prng_below(&z->rng, 2);
        if (z->tw)
            snprintf(text, sizeof text, "cut %c %u,%u", "xy"[z->cut_dim], z -> cut % z -> tw,
                     z -> cut / z -> tw);
        else
            snprintf(text, sizeof text, "cut %d", z->cut);
        control(z, text);
        z->st.cuts++;
    }
}

/* Anything still to resolve: a message waiting for its ACK, a packet a host has to send, a
 * cable still out. */
static int busy(const rz_t *z)
{
    if (z->cut >= 0 || (z->pull >= 0 && z->t <= z->pull_end))
        return 1;
    for (unsigned s = 0; s < z->n; s++) {
        if (z->h[s].qn || z->h[s].cur.len || z->h[s].rxn)
            return 1;
        for (unsigned d = 0; d < z->n; d++)
            if (s != d && z->f[s][d].st == ST_WAIT)
                return 1;
    }
    return 0;
}

/* ---- end of run ----------------------------------------------------------------------------- */

static void ledger_final(rz_t *z)
{
    for (unsigned s = 0; s < z->n && !z->failed; s++)
        for (unsigned d = 0; d < z->n && !z->failed; d++) {
            if (s == d)
                continue;
            flow_t *f = &z->f[s][d];
            if (f->st == ST_WAIT) {
                rz_fail(z,
                        "flow %u->%u: seq %u still unresolved %u cycles after the last message "
                        "started (%u attempts)",
                        s, d, f->seq, DRAIN_MAX, f->tries);
                break;
            }
            for (uint32_t k = 0; k < f->seq; k++) {
                uint8_t x = *fate(z, f, k);
                if (!(x & 1u) && !((x & 2u) && (x & 4u))) {
                    rz_fail(z, "flow %u->%u: seq %u neither delivered and acked nor given up", s, d,
                            k);
                    break;
                }
            }
        }
}

static int write_repro(rz_t *z, const char *path)
{
    char err[DEV_ERR_LEN], header[1024];
    char args[96];
    fabric_args(z, args, sizeof args);
    snprintf(header, sizeof header,
             "# REPRODUCER written by `ftsim fuzz %s --seed %llu`, cycles\n"
             "# 0..%llu of the run. Failure: %s\n",
             args, (unsigned long long)z->o->seed, (unsigned long long)z->t, z->why);
    rec_t *r = rec_open(path, z->d, z->init, z->ninit, header, 0, err, sizeof err);
    if (!r) {
        fprintf(stderr, "ftsim: %s\n", err);
        return -1;
    }
    uint64_t *in = calloc(z->d->nports, sizeof *in);
    if (!in)
        return -1;
    size_t k = 0;
    for (uint64_t t = 0; t <= z->t; t++) {
        for (; k < z->nlog && z->log[k].cycle == t; k++) {
            if (z->log[k].port == UINT32_MAX)
                rec_control(r, t, z->log[k].ctl);
            else
                in[z->log[k].port] = z->log[k].value;
        }
        rec_cycle(r, t, in, NULL, NULL, NULL);
    }
    free(in);
    return rec_close(r, z->t + 4, err, sizeof err) ? -1 : 0;
}

static void report_failure(rz_t *z)
{
    printf("FAIL fuzz %s seed %llu: %s\n", fabric_kind(z), (unsigned long long)z->o->seed, z->why);
    if (!z->logging) {
        char args[96];
        fabric_args(z, args, sizeof args);
        printf("no reproducer vector (kept for runs of up to %u cycles); `ftsim fuzz %s --seed "
               "%llu --cycles %llu` (with the same --gap/--pull/--no-cuts) repeats it exactly\n",
               600000u - DRAIN_MAX, args, (unsigned long long)z->o->seed,
               (unsigned long long)z->o->cycles);
        return;
    }
    const char *dir = z->o->outdir ? z->o->outdir : "build/fuzz";
    mkdir("build", 0777);
    mkdir(dir, 0777);
    char vec[512], fst[512];
    snprintf(vec, sizeof vec, "%s/%s-seed%llu.vec", dir, z->d->name,
             (unsigned long long)z->o->seed);
    snprintf(fst, sizeof fst, "%s/%s-seed%llu.fst", dir, z->d->name,
             (unsigned long long)z->o->seed);
    if (write_repro(z, vec) < 0)
        return;
    printf("reproducer: %s\n", vec);
    static const dev_lookup_t lookups[] = {sci_ring_find_design, sci_torus_find_design, NULL};
    static const dev_catalog_t cat = {.lookups = lookups};
    fuzz_replay(&cat, vec, fst, z->o->models, NULL);
}

static void print_stats(const rz_t *z, double secs)
{
    const rstats_t *s = &z->st;
    printf(
        "  %llu cycles in %.2f s (%.0f cycles/s); messages %llu: delivered %llu, duplicates "
        "dropped %llu, acks %llu, retransmissions %llu (%llu on timeout), given up %llu (%llu of "
        "them delivered after all)\n",
        (unsigned long long)z->t, secs, secs > 0 ? (double)z->t / secs : 0.0,
        (unsigned long long)s->msgs, (unsigned long long)s->delivered, (unsigned long long)s->dups,
        (unsigned long long)s->acks, (unsigned long long)s->retx, (unsigned long long)s->tmo_retx,
        (unsigned long long)s->given_up, (unsigned long long)s->late_delivered);
    printf("  status reads %llu: replies %llu, timeout replies %llu; probes %llu, back %llu; "
           "failover NOTIFYs %llu\n",
           (unsigned long long)s->reads, (unsigned long long)s->replies,
           (unsigned long long)s->read_timeouts, (unsigned long long)s->probes,
           (unsigned long long)s->probes_back, (unsigned long long)s->notifies);
    printf("  links busy %.1f%% of cycles; cable pulls %llu, restores %llu; failure reports: busy "
           "limit %llu, echo timeout %llu, ring down %llu, disabled %llu\n",
           z->t ? 100.0 * (double)s->link_busy / ((double)z->t * z->n * (z->tw ? 2 : 1)) : 0.0,
           (unsigned long long)s->cuts, (unsigned long long)s->restores,
           (unsigned long long)s->fail_reports[1], (unsigned long long)s->fail_reports[2],
           (unsigned long long)s->fail_reports[3], (unsigned long long)s->fail_reports[4]);
}

static void config(rz_t *z)
{
    /* Per node: LC CTRL (id, enable, scrubber on node 0, limits, echo timeout) and PSB CTRL. */
    unsigned busy = 2 + prng_below(&z->rng, 6), retry = 1 + prng_below(&z->rng, 4);
    unsigned tmo = 150 + 12 * z->n + prng_below(&z->rng, 300);
    unsigned rsr = 300 + prng_below(&z->rng, 3000); /* the PSB's remote-read timeout */
    for (unsigned i = 0; i < z->n; i++) {
        if (z->tw) { /* a torus: an X-LC and a Y-LC; scrubbers at x = 0 (X rings), y = 0 (Y) */
            for (unsigned k = 0; k < 2; k++) {
                int scrub = k ? i / z->tw == 0 : i % z->tw == 0;
                uint64_t c = node_id(z, i) | 1ull << 16 | (uint64_t)scrub << 17 |
                             (uint64_t)busy << 24 | (uint64_t)retry << 32 | (uint64_t)tmo << 48;
                z->init[z->ninit++] =
                    (dev_write_t){node_addr(z, i, 0x20 * k), c, 0xFFFF00FFFF031FFFull};
            }
            z->init[z->ninit++] = (dev_write_t){
                node_addr(z, i, 0x80), node_id(z, i) | (uint64_t)rsr << 32, 0x0000FFFF00001FFFull};
            continue;
        }
        uint64_t ctrl = node_id(z, i) | 1ull << 16 | (uint64_t)(i == 0) << 17 |
                        (uint64_t)busy << 24 | (uint64_t)retry << 32 | (uint64_t)tmo << 48;
        z->init[z->ninit++] =
            (dev_write_t){node_addr(z, i, SCI_REG_CTRL), ctrl, 0xFFFF00FFFF031FFFull};
        z->init[z->ninit++] = (dev_write_t){
            node_addr(z, i, 0x80), node_id(z, i) | (uint64_t)rsr << 32, 0x0000FFFF00001FFFull};
    }
    printf("  %s: %u %s nodes, busy_limit %u, retry_limit %u, echo_timeout %u, rsr_timeout %u, "
           "message gap ~%u\n",
           z->d->name, z->n, fabric_p2s(z) ? "P2S" : "LC3", busy, retry, tmo, rsr, z->gap);
}

/* ---- the run ------------------------------------------------------------------------------- */

/* The fabric the options name: a W x H torus, or a ring of --nodes nodes (by default a size
 * from the seed), LC3 or P2S (by default from the seed). 0, or 2 (said why). */
static int pick_fabric(rz_t *z, const fuzz_sciring_opts_t *ro)
{
    int p2s;
    if (ro->torus_w) {
        z->tw = ro->torus_w;
        z->th = ro->torus_h;
        z->n = z->tw * z->th;
        p2s = ro->p2s >= 0 ? ro->p2s : (int)prng_below(&z->rng, 2);
        z->d = z->n <= N_MAX ? sci_torus_design(p2s, z->tw, z->th) : NULL;
        if (!z->d) {
            fprintf(stderr, "ftsim: the torus fuzz takes tori of up to %u nodes (2x2 to 4x4)\n",
                    N_MAX);
            return 2;
        }
        if (ro->pull >= 0) {
            fprintf(stderr, "ftsim: --pull is for rings\n");
            return 2;
        }
        return 0;
    }
    z->n = ro->nodes ? ro->nodes : 2 + prng_below(&z->rng, 15);
    p2s = ro->p2s >= 0 ? ro->p2s : (int)prng_below(&z->rng, 2);
    z->d = sci_ring_design(p2s, z->n);
    if (!z->d) {
        fprintf(stderr, "ftsim: no ring of %u nodes (2 to 16)\n", z->n);
        return 2;
    }
    if (ro->pull >= (int)z->n) {
        fprintf(stderr, "ftsim: --pull %d: the ring has nodes 0..%u\n", ro->pull, z->n - 1);
        return 2;
    }
    return 0;
}

/* --record: the golden vector, its header naming the command that regenerates it. */
static int open_golden(rz_t *z, const fuzz_sciring_opts_t *ro)
{
    const fuzz_opts_t *o = &ro->base;
    char err[DEV_ERR_LEN], header[640], extra[96] = "", args[96];
    fabric_args(z, args, sizeof args);
    if (ro->pull >= 0)
        snprintf(extra, sizeof extra, " --pull %d", ro->pull);
    if (ro->nocuts)
        snprintf(extra + strlen(extra), sizeof extra - strlen(extra), " --no-cuts");
    if (ro->gap)
        snprintf(extra + strlen(extra), sizeof extra - strlen(extra), " --gap %u", ro->gap);
    snprintf(
        header, sizeof header,
        "# GOLDEN VECTOR, recorded by `ftsim fuzz %s%s --seed %llu "
        "--cycles %llu --record` on the %s model.\n# Regenerate with `make vectors`; never edit "
        "by hand.\n",
        args, extra, (unsigned long long)o->seed, (unsigned long long)o->cycles,
        dev_impl_name(z->ls.m[z->ls.n - 1]->impl));
    z->golden = rec_open(o->record, z->d, z->init, z->ninit, header, 1, err, sizeof err);
    if (!z->golden) {
        fprintf(stderr, "ftsim: %s\n", err);
        return 2;
    }
    return 0;
}

/* The models, configured and reset, with the waveform and the golden vector asked for.
 * 0, or 2 (said why). */
static int open_models(rz_t *z, const fuzz_sciring_opts_t *ro)
{
    const fuzz_opts_t *o = &ro->base;
    char err[DEV_ERR_LEN];
    printf("fuzz %s: seed %llu, %llu cycles, models %s\n", fabric_kind(z),
           (unsigned long long)o->seed, (unsigned long long)o->cycles,
           o->models == LS_BOTH  ? "rtl+csim lockstep"
           : o->models == LS_RTL ? "rtl"
                                 : "csim");
    fflush(stdout);
    if (ls_open(&z->ls, z->d, o->models, err, sizeof err) < 0) {
        fprintf(stderr, "ftsim: %s\n", err);
        return 2;
    }
    z->in = calloc(z->d->nports, sizeof *z->in);
    z->gap = ro->gap ? ro->gap : 200 + 40 * z->n;
    config(z);
    ls_reset(&z->ls, z->init, z->ninit);
    if (o->wave &&
        dev_trace_open_window(z->ls.m[0], o->wave, o->wave_from, o->wave_to, err, sizeof err) < 0) {
        fprintf(stderr, "ftsim: %s\n", err);
        return 2;
    }
    z->logging = o->cycles + DRAIN_MAX <= 600000;
    return o->record ? open_golden(z, ro) : 0;
}

/* The plan of the run: the cable pulls, each host's first ask and each flow's first message. */
static void plan_run(rz_t *z)
{
    const fuzz_opts_t *o = z->o;
    z->cut = -1;
    z->next_cut = 500 + prng_below(&z->rng, 20000);
    z->pull_at = o->cycles / 5;
    z->pull_end = z->pull_at + (o->cycles / 10 < 20000 ? o->cycles / 10 : 20000);
    for (unsigned i = 0; i < z->n; i++)
        z->down_at[i] = z->up_at[i] = -1;
    /* Messages start until --cycles; random pulls start until four fifths of it; then the run
     * goes on (the drain) until every message is resolved, at most DRAIN_MAX cycles more. */
    z->drain_at = o->cycles;
    z->quiet_cuts_at = o->cycles / 5 * 4;
    for (unsigned s = 0; s < z->n; s++) {
        z->h[s].tid_next = (uint16_t)prng_next(&z->rng);
        z->h[s].next_ask = 1000 + prng_below(&z->rng, 20000);
        for (unsigned d = 0; d < z->n; d++) {
            z->f[s][d].last = -1;
            z->f[s][d].due = 50 + prng_below(&z->rng, 2 * z->gap + 1);
        }
    }
}

/* One cycle: cables, hosts, the models sampled, compared and ticked. moved[i]: node i's host
 * input was taken last cycle. 0 to go on, -1 failed. */
static int step(rz_t *z, int *moved, long dbg_tid)
{
    char msg[800];
    cables(z);
    if (z->pull >= 0)
        watch_ring(z);
    flows_step(z);
    asks_step(z);
    for (unsigned i = 0; i < z->n; i++)
        host_drive(z, i, moved[i]);
    ls_set_inputs(&z->ls, z->in);
    ls_sample(&z->ls);
    if (ls_diverged(&z->ls, msg, sizeof msg)) {
        rz_fail(z, "the models diverge (first difference): %s", msg);
        return -1;
    }
    const uint64_t *out = z->ls.out[z->ls.n - 1];
    if (z->golden)
        rec_cycle(z->golden, z->t, z->in, NULL, out, z->ls.m[z->ls.n - 1]);
    if (dbg_tid >= 0)
        debug_links(z, out, (uint16_t)dbg_tid);
    for (unsigned i = 0; i < z->n; i++) {
        z->st.link_busy += (out[port(z, i, SCI_RP_LINK)] & SCI_FLAG) != 0;
        if (z->tw) /* a torus node's Y link too */
            z->st.link_busy +=
                (out[sci_torus_port(z->d, i % z->tw, i / z->tw, SCI_TP_LY)] & SCI_FLAG) != 0;
        moved[i] = (z->in[port(z, i, SCI_RP_HIN)] & SCI_FLAG) && out[port(z, i, SCI_RP_HIN_READY)];
        host_receive(z, i, out);
    }
    if (z->failed)
        return -1;
    if (ls_tick(&z->ls, msg, sizeof msg)) {
        rz_fail(z, "%s", msg);
        return -1;
    }
    return 0;
}

/* Until --cycles, then on while messages are unresolved (at most DRAIN_MAX more). Seconds. */
static double run_cycles(rz_t *z)
{
    const fuzz_opts_t *o = z->o;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    int tty = isatty(2);
    int moved[N_MAX] = {0};
    const char *dt = getenv("FTSIM_RING_TID");
    long dbg_tid = dt ? strtol(dt, NULL, 0) : -1;
    for (z->t = 0; !z->failed && (z->t < o->cycles || (busy(z) && z->t < o->cycles + DRAIN_MAX));
         z->t++) {
        if (tty && !o->quiet && (z->t & 0x3FFFF) == 0 && o->cycles > 1000000)
            fprintf(stderr, "\r  cycle %llu of %llu (%.0f%%)", (unsigned long long)z->t,
                    (unsigned long long)o->cycles, 100.0 * (double)z->t / (double)o->cycles);
        if (step(z, moved, dbg_tid) < 0)
            break;
    }
    if (tty && !o->quiet && o->cycles > 1000000)
        fputc('\n', stderr);
    if (!z->failed)
        ledger_final(z);
    if (!z->failed && z->pull >= 0)
        pull_report(z);
    if (z->debug)
        for (unsigned i = 0; i < z->n; i++)
            fprintf(stderr, "node %u: LC STATUS 0x%llX COUNTS 0x%llX, PSB STATUS 0x%llX\n", i,
                    (unsigned long long)dev_reg_read(z->ls.m[z->ls.n - 1], node_addr(z, i, 1)),
                    (unsigned long long)dev_reg_read(z->ls.m[z->ls.n - 1], node_addr(z, i, 3)),
                    (unsigned long long)dev_reg_read(z->ls.m[z->ls.n - 1], node_addr(z, i, 0x81)));
    clock_gettime(CLOCK_MONOTONIC, &b);
    return (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
}

/* The waveform and golden vector closed, the statistics and the verdict printed. */
static void report(rz_t *z, double secs)
{
    const fuzz_opts_t *o = z->o;
    char err[DEV_ERR_LEN];
    if (o->wave)
        dev_trace_close(z->ls.m[0]);
    if (z->golden && rec_close(z->golden, z->t ? z->t - 1 : 0, err, sizeof err))
        fprintf(stderr, "ftsim: %s\n", err);
    print_stats(z, secs);
    if (o->cps)
        *o->cps = secs > 0 ? (double)z->t / secs : 0;
    if (z->failed)
        report_failure(z);
    else
        printf("PASS fuzz %s seed %llu (%llu cycles, %s)\n", fabric_kind(z),
               (unsigned long long)o->seed, (unsigned long long)z->t, z->d->name);
}

int fuzz_sciring(const fuzz_sciring_opts_t *ro)
{
    rz_t *z = calloc(1, sizeof *z);
    if (!z)
        return 2;
    z->o = &ro->base;
    z->debug = getenv("FTSIM_RING_DEBUG") != NULL; /* read once, not in the per-cycle loop */
    z->pull = ro->pull;
    z->nocuts = ro->nocuts;
    prng_seed(&z->rng, ro->base.seed);
    int rc = pick_fabric(z, ro);
    if (rc == 0 && (rc = open_models(z, ro)) == 0) {
        plan_run(z);
        report(z, run_cycles(z));
        rc = z->failed ? 1 : 0;
    }
    ls_close(&z->ls);
    for (unsigned s = 0; s < z->n; s++)
        for (unsigned d = 0; d < z->n; d++)
            free(z->f[s][d].fate);
    free(z->log);
    free(z->in);
    dev_design_release(z->d);
    free(z);
    return rc;
}
