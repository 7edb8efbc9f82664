/*
 * sci_sys_internal.h — inside the running torus (sci_sys.h is its interface): the system's state and
 * what its parts call of each other. The parts, one file each:
 *   sci_sys.c         the system: creation, faults, the per-cycle loop and idle skipping;
 *   sci_sys_param.c   the named parameters of sci_sys.md section 3;
 *   sci_sys_host.c    the host agents: flows, go-back-N, the delivery ledger;
 *   sci_sys_driver.c  the driver of sci_sys.md section 3 (CableNotOk, ReadyToGo, table loads,
 *                     probes, watchdog, NOTIFY) and the register write port it shares;
 *   sci_sys_static.c  the static front end (sci_sys.md section 3's baseline);
 *   sci_sys_stats.c   what was measured: per-flow counts and gaps, the time series;
 *   sci_sys_tables.c  reading the tables in force back from the hardware;
 *   sci_sys_obs.c     the harness observer's feed into the waveform;
 *   sci_sys_threads.c     the cycle's per-node phases on the threads of cfg.threads;
 *   sci_ftdrb.c       FT-DRB (Zarza et al.) in the hosts (cfg.ftdrb; harness/scisys/ftdrb_sci.md).
 * The contract is harness/scisys/sci_sys.md.
 */
#ifndef FTSIM_SCI_SYS_INT_H
#define FTSIM_SCI_SYS_INT_H

#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lockstep.h"
#include "sci_dev.h"
#include "sci_lc.h"
#include "sci_node.h"
#include "sci_obs.h"
#include "sci_route.h"
#include "sci_sys.h"
#include "sci_torus.h"
#include "tpool.h"

#define PQ         64u  /* driver packets and ACKs waiting in a host (ahead of data) */
#define MAXW       64u  /* the largest window */
#define NTID       256u /* tids remembered per host (low 8 bits) */
#define MAX_FAULTS 64u
#define GIVE_UP    4u /* FAIL_REPORTs in a row before a source rests a flow (10 x rtx) */

enum { TK_NONE = 0, TK_DATA, TK_READ, TK_PROBE, TK_NOTIFY };

typedef struct pkt {
    uint8_t len; /* first: a host's cur.len sits with its other per-cycle fields */
    uint16_t sym[SCI_MAX_PKT];
} pkt_t;

typedef struct flow {
    char name[32];
    unsigned src, dst, npay, bytes;
    uint64_t interval, start, stop_at; /* stop_at: UINT64_MAX while generating */
    uint32_t gen_stop;                 /* messages generated in all, once stopped */
    uint32_t gen;                      /* messages generated so far (interval > 0) */
    uint64_t next_gen_at;              /* when the next one is due (interval > 0) */
    uint64_t blocked_from;             /* the write blocked on a full window was due then (0:
                                          none: flows start after the boot, never at cycle 0) */
    /* source: seq < base acked; base <= next <= sent_hi; messages generated so far: gen() */
    uint32_t base, next, sent_hi;
    uint64_t rtx_at;        /* go back to base at this cycle (0: no timer) */
    unsigned fail_streak;   /* rounds the oldest message failed in a row */
    uint64_t quiet_until;   /* given up on the destination for now: no sends */
    uint64_t backoff;       /* the last rest (doubles, 0 when an ACK comes) */
    bool probing;           /* after a rest: one message at a time until an ACK */
    uint64_t rto_at;        /* rtx_at as the timeout set it (not a FAIL_REPORT) */
    uint64_t tmo_rounds;    /* go-backs on a timeout: losses no FAIL_REPORT told of */
    bool abandoned;         /* sends nothing more (sci_sys_abandon_flow) */
    uint64_t t_first[MAXW]; /* first send of seq, at seq % window */
    uint64_t t_offer[MAXW]; /* when the application offered seq (0: a saturating flow's), at
                               seq % window; written by the source, read by the destination at
                               the delivery, in another phase of the cycle */
    /* destination */
    uint32_t expect;
    uint64_t held;            /* FT-DRB: messages after `expect` that came ahead of it by another
                                 path, held for in-order delivery (bit seq % window) */
    uint64_t held_t0[MAXW];   /* ... their first send */
    bool resync;     /* the no-host-state ablation: the receiver lost `expect` */
    uint64_t dup_dl; /* ... and so delivered a message twice */
    /* measurements */
    uint64_t sent, delivered, acked, dups, fails, bytes_dl;
    double lat_sum;
    uint64_t last_dl, gap_from, max_gap, max_gap_at;
    uint64_t wait_max, wait_max_at; /* the longest gap from the source's view (sci_sys.md 2) */
    uint32_t *bin_msgs;             /* messages delivered per time bin (cfg.bin_cycles) */
    unsigned nbin_msgs;
} flow_t;

/* A host. What every cycle looks at comes first (a torus of 1024 hosts is a cycle's walk
 * through them): the packet being sent, the queue and receive counts, whether it is dead, and
 * data_wake: no flow of it can have a DATA packet to send before that cycle unless something
 * happens to its flows (an ACK, a FAIL_REPORT, a hold or release, a fault, a flow added,
 * stopped, abandoned or repaced), and each of those sets it to 0 (scisys_host_wake). */
typedef struct host {
    bool dead;
    unsigned pqh, pqn;
    unsigned pos; /* next symbol of cur; cur.len 0: none */
    unsigned rxn;
    uint64_t data_wake;
    pkt_t cur;
    uint16_t tid;
    unsigned *flows, nflows, rr; /* flows this host sources */
    uint8_t *held;               /* per destination node: held by the driver */
    unsigned nheld;
    uint64_t acks_dropped; /* ACKs dropped on a full queue (a blocked PSB FIFO) */
    /* packets handed whole to the PSB's send FIFO, and the count and tid of the last
     * STATUS_READ among them (the self-test sees its read leave the node: sci_sys.md 8) */
    uint32_t handed, read_n;
    uint16_t read_tid;
    uint16_t rx[SCI_MAX_PKT + 8];
    pkt_t pq[PQ];
    struct {
        uint8_t kind;
        uint32_t flow, seq;
    } tidmap[NTID];
} host_t;

typedef struct wr {
    uint32_t addr;
    uint64_t data, mask;
} wr_t;

/* A driver; what every cycle looks at first (drv_quiet). */
typedef struct drv {
    int state;         /* sci_drv_state_t */
    unsigned wqn;      /* register writes queued (wq below) */
    uint8_t broken[2]; /* own LC k disabled by this driver (0 X, 1 Y) */
    uint8_t irq_seen;  /* P2S: the LCs' interrupt outputs as last seen (bit k: LC k) */
    bool again;        /* a new interrupt during the CableNotOk wait */
    bool remote_y;     /* the upstream X neighbour's Y ring: broken */
    uint64_t t_until;  /* the running timer's end */
    uint64_t wd_next;  /* the next watchdog tick */
    /* remote status read of the upstream X neighbour's Y-LC */
    uint64_t rr_send_at; /* 0: none scheduled */
    uint16_t rr_tid;
    int rr_state;    /* 0 none, 1 sent, 2 up, 3 broken */
    bool rr_in_pass; /* the read belongs to the running ReadyToGo */
    bool rerun;      /* knowledge changed while in a pass: run ReadyToGo again */
    /* register writes */
    wr_t *wq;
    unsigned wqh, wqcap;
    uint64_t wnext;      /* the next write may go at this cycle */
    sci_entry_t *shadow; /* LC3: the tables loaded (set 0, per target) */
    sci_drv_stats_t st;
} drv_t;

typedef struct fault {
    uint64_t at;
    char what[64];
} fault_t;

/* Detection and recovery at one node (sci_sys_recovery.c): what its driver does for sci_sys.md
 * section 8, beside the SCI paper's passes. */
enum { REC_NONE = 0, REC_REQUESTED, REC_DISABLE, REC_RESET, REC_RELOAD, REC_PROBE };
typedef struct ftn {
    /* self-test */
    uint64_t st_next;     /* the next round starts */
    unsigned st_idx;      /* destination being tested in this round (of st_dst) */
    bool st_wait;         /* a test read is out */
    uint16_t st_tid;      /* its tid */
    uint64_t st_deadline; /* no reply by then: failed */
    unsigned *st_dst, st_ndst; /* the round's destinations (in use by this host's flows) */
    uint64_t st_sent;     /* the test read went at */
    bool st_left;         /* ... and has left its own node (clause "left"): st_deadline runs */
    uint64_t blocked_at;  /* the last watchdog sample that found an LC of the node full (0: none) */
    uint64_t st_poll;     /* the next look at the PSB for it */
    uint32_t *st_base;    /* per destination: the path's round trip, learnt fault-free (0: not yet) */
    uint16_t *st_low;     /* ... its ST_KEEP shortest learning round trips, ascending (0: none) */
    bool st_calib;        /* still learning (the first rounds) */
    unsigned st_rounds, st_late;
    uint64_t st_retest;   /* a late path is tested again from then */
    uint32_t *st_dmax;    /* per destination: the longest DATA round trip (send to ACK)
                             acknowledged since the path's last verdict */
    uint32_t st_rng;      /* the pacing's jitter (xorshift; from the run's seed and the node) */
    /* watchdog */
    uint64_t wd_next;
    uint64_t sig[3];     /* X-LC, Y-LC, PSB: what was read at the last sample */
    uint8_t still[3];    /* ... samples in a row it held work and showed the same */
    uint32_t crc_seen;   /* LC CRC errors at the last tick (both LCs) */
    /* scrub */
    uint64_t sc_next;
    unsigned sc_idx;     /* entry being read back (table index of the host's copy) */
    bool sc_wait;        /* its TADDR writes are queued */
    /* recovery */
    int rec;             /* REC_* */
    uint64_t rec_at;     /* the current step's time (REC_REQUESTED: when the request arrives) */
    bool reset_done;     /* REC_RESET: the reset control was applied */
    bool hold;           /* the host holds all its traffic */
} ftn_t;

typedef struct scisys_ft {
    ftn_t *n;            /* per node */
    uint64_t c_st, c_scrub, c_mgmt, c_hang, c_probe;
    uint64_t out_digest; /* every output of every cycle */
    uint64_t st_quiet;   /* no self-test before then (the end of the last recovery's backlog) */
    sci_ft_stats_t st;
} scisys_ft_t;

/* The static front end: only sci_sys_static.c reads or writes it. */
typedef struct scisys_fe {
    int state; /* 0 watching, 1 drain, 2 loading `node`, 3 probe wait */
    uint64_t until, next_poll;
    unsigned node;
    sci_faults_t known;
    bool halt;
    unsigned done; /* reconfigurations the front end completed */
} scisys_fe_t;

/* The waveform's harness observer and what it shows of the current cycle: only
 * sci_sys_obs.c reads or writes it. */
typedef struct scisys_obs {
    sci_obs_t *obs; /* NULL: no waveform */
    void *trace;    /* the waveform (the torus RTL's and the observer's) */
    uint8_t *wr;    /* per node: a register write this cycle */
    uint16_t dl;    /* flows (the first 16) delivering this cycle */
} scisys_obs_t;

typedef struct scisys_tctx scisys_tctx_t; /* sci_sys_threads.c */
typedef struct scisys_fd scisys_fd_t;     /* sci_ftdrb.c */

struct sci_sys {
    sci_sys_cfg_t cfg;
    const dev_design_t *d; /* the torus's design: ours, released by sci_sys_free */
    lockstep_t ls;
    unsigned w, h, n;
    uint64_t now;
    uint64_t *in;
    host_t *host;
    drv_t *drv;
    flow_t *flow;
    unsigned nflow, capflow;
    fault_t fault[MAX_FAULTS];
    unsigned nfault;
    uint16_t *id;    /* node ids */
    sci_tables_t ff; /* fault-free tables */
    uint64_t c_cnok, c_rtg, c_wd, c_rtx, c_compute, c_write;
    unsigned wr_rr, pending_writes;
    scisys_fe_t fe;
    /* time series */
    uint64_t *bin_bytes, *bin_latn;
    double *bin_lat;
    unsigned nbins, capbins;
    uint64_t skip_tries, skip_hits, skipped; /* idle skipping: attempts, successes, cycles */
    unsigned skip_wait, skip_backoff;
    scisys_obs_t obs;
    /* cfg.threads > 1: the threads the C model's nodes step on, and the hosts' (sci_sys_threads.c) */
    tpool_t *pool, *hpool;
    scisys_tctx_t *tctx; /* per thread of hpool: what the nodes' work collects in a phase */
    unsigned ntctx;
    bool par;         /* a per-node phase is under way */
    bool joined;      /* steps 3 to 5 in one loop (scisys_par_joined) */
    /* per node: steps 3 to 5 do nothing before this cycle while its outputs show no symbol
     * for the host and no interrupt (sci_sys_threads.c; 0: look; scisys_host_wake clears it) */
    uint64_t *idle_until;
    bool idle_ok; /* ... used: the one loop, without FT-DRB and without the failover log */
    atomic_bool busy; /* a host had something under way (scisys_par_tx) */
    unsigned faults_applied;
    scisys_ft_t ft; /* detection and recovery (cfg.ft) */
    scisys_fd_t *fd; /* FT-DRB in the hosts (cfg.ftdrb; sci_ftdrb.c), NULL when off */
    char err[400];
    bool failed;
};

/* ---- sci_sys.c: failing, logging, device access ---- */
/* The first failure of the run, with the cycle; later ones are dropped. */
void scisys_fail(sci_sys_t *s, const char *fmt, ...);
/* A line of the driver and fault log (cfg.log); node UINT32_MAX: the system. */
void scisys_log(sci_sys_t *s, unsigned node, const char *fmt, ...);
/* The text of a failure ("cycle N: ...") and of a log line, as the two above write them. */
void scisys_fail_format(const sci_sys_t *s, char *buf, size_t len, const char *fmt, va_list ap);
void scisys_log_to(const sci_sys_t *s, FILE *f, unsigned node, const char *fmt, va_list ap);

static inline unsigned xn(const sci_sys_t *s, unsigned i) { return i % s->w; }
static inline unsigned yn(const sci_sys_t *s, unsigned i) { return i / s->w; }

static inline uint64_t reg_read(sci_sys_t *s, unsigned node, unsigned a)
{
    return dev_reg_read(s->ls.m[0], ((uint32_t)node << 8) | a);
}

/* Node i's port of kind SCI_TP_*: at i * SCI_TORUS_NK + kind (harness/sci/sci_torus.h). */
static inline unsigned tport(unsigned node, unsigned kind) { return node * SCI_TORUS_NK + kind; }

static inline uint64_t out_port(const sci_sys_t *s, unsigned node, unsigned kind)
{
    return s->ls.out[0][tport(node, kind)];
}

/* Something happened to the flows host i sources: look for data again (host_t.data_wake). */
static inline void scisys_host_wake(sci_sys_t *s, unsigned i)
{
    s->host[i].data_wake = 0;
    s->idle_until[i] = 0;
}

/* The node of an id, UINT32_MAX if none. */
static inline unsigned node_of_id(const sci_sys_t *s, uint16_t id)
{
    for (unsigned i = 0; i < s->n; i++)
        if (s->id[i] == (id & SCI_ID_MASK))
            return i;
    return UINT32_MAX;
}

/* ---- sci_sys_host.c ---- */
/* A driver packet or an ACK from host i, ahead of data; its tid into *tid_out (may be NULL). */
void scisys_host_post(sci_sys_t *s, unsigned i, uint16_t target, uint8_t type, uint8_t kind,
                      const uint16_t *pay, unsigned npay, uint16_t *tid_out);
/* Messages of flow f generated so far (brings a paced flow's generator up to now). */
uint32_t scisys_flow_gen(const sci_sys_t *s, flow_t *f);
/* Whether flow f's application is blocked now in a write that is due (a full window). */
bool scisys_flow_blocked(const sci_sys_t *s, flow_t *f);
/* Host i takes this cycle's symbol from its PSB (a whole packet goes to its handler). */
void scisys_host_rx(sci_sys_t *s, unsigned i);
/* Host i's input word this cycle; `ready`: the PSB takes it. */
uint64_t scisys_host_tx(sci_sys_t *s, unsigned i, bool ready);
/* A whole packet (CRC last) reaching host i: to its handler. */
void scisys_host_packet(sci_sys_t *s, unsigned i, const uint16_t *p, unsigned len);
/* A fresh tid of host i for a packet that is not a DATA. */
uint16_t scisys_host_new_tid(sci_sys_t *s, unsigned i);
/* Host i's packet `tid` failed: a DATA goes back after the back-off; `streak`: the round
 * counts towards resting its flow; `probe`: the flow then sends one message at a time until
 * an ACK (FT-DRB, ftdrb_sci.md section 2). */
void scisys_host_fail_tid(sci_sys_t *s, unsigned i, uint16_t tid, unsigned reason, bool streak,
                          bool probe);

/* ---- sci_sys_driver.c ---- */
void scisys_drv_cycle(sci_sys_t *s, unsigned i);
/* Exactly when scisys_drv_cycle would do nothing for driver i this cycle: dead, or idle with
 * no remote read due, no watchdog tick due and no new interrupt to answer (or, in the static
 * mode, no interrupts looked at). A torus's drivers are nearly all so nearly always. */
static inline bool drv_quiet(const sci_sys_t *s, unsigned i)
{
    const drv_t *d = &s->drv[i];
    if (d->state == SCI_DRV_DEAD)
        return true;
    if (d->state != SCI_DRV_IDLE || (d->rr_send_at && s->now >= d->rr_send_at))
        return false;
    if (s->cfg.mode != SCI_SYS_DYNAMIC)
        return true;
    bool fresh = ((out_port(s, i, SCI_TP_IRQ_X) & 1u) && !d->broken[0]) ||
                 ((out_port(s, i, SCI_TP_IRQ_Y) & 1u) && !d->broken[1]);
    return s->now < d->wd_next && !(fresh && d->wqn == 0);
}
/* P2S: the hardware failover as node i's host sees it, into the log. An LC's interrupt rises
 * in the cycle its ring goes down (rtl/sci_lc.md), which is when the PSB starts redirecting
 * (rtl/sci_node.md section 6); with a log, scisys_fo_watch is called every cycle from step 3. */
void scisys_fo_down(sci_sys_t *s, unsigned i, unsigned rose);
static inline void scisys_fo_watch(sci_sys_t *s, unsigned i)
{
    drv_t *d = &s->drv[i];
    unsigned irq = (out_port(s, i, SCI_TP_IRQ_X) & 1u) | (out_port(s, i, SCI_TP_IRQ_Y) & 1u) << 1;
    if (irq == d->irq_seen)
        return;
    unsigned rose = irq & ~(unsigned)d->irq_seen;
    d->irq_seen = (uint8_t)irq;
    if (rose && d->state != SCI_DRV_DEAD)
        scisys_fo_down(s, i, rose);
}
/* A STATUS_REPLY or a NOTIFY reached host i: its driver's. */
void scisys_drv_got_reply(sci_sys_t *s, unsigned i, const uint16_t *p, unsigned len);
void scisys_drv_got_notify(sci_sys_t *s, unsigned i, const uint16_t *p, unsigned len);
/* Queue a register write of node i's driver (or of the front end for it). */
void scisys_wq_push(sci_sys_t *s, unsigned i, unsigned a, uint64_t data, uint64_t mask);
/* The device's register port this cycle: at most one queued write. */
void scisys_drv_write(sci_sys_t *s);
/* Recompute host i's holds (a pass's, a recovery's) and release what is no longer held. */
void scisys_drv_holds(sci_sys_t *s, unsigned i);

/* ---- sci_sys_recovery.c: detection and recovery (sci_sys.md section 8) ---- */
int scisys_ft_open(sci_sys_t *s, char *err, size_t errlen);
void scisys_ft_free(sci_sys_t *s);
/* Start of the cycle, after the faults: resets due now. */
void scisys_ft_begin(sci_sys_t *s);
/* After the hosts and drivers (step 4): every node's detectors and recovery. */
void scisys_ft_cycle(sci_sys_t *s);
/* The earliest cycle the detectors or a recovery have something to do (UINT64_MAX: never). */
uint64_t scisys_ft_next(const sci_sys_t *s);
/* A STATUS_REPLY reached host i: 1 when it was a self-test read's (taken), else 0. */
int scisys_ft_reply(sci_sys_t *s, unsigned i, const uint16_t *p, unsigned len);
/* An ACK reached host i for a flow to dst: its newest message's round trip (first send to
 * ACK), the self-test's sign that the path's data moves. */
void scisys_ft_acked(sci_sys_t *s, unsigned i, unsigned dst, uint64_t rtt);
/* A FAIL_REPORT (reason) of host i's own packet `tid`: a self-test read's LC gave it up. */
void scisys_ft_fail_report(sci_sys_t *s, unsigned i, uint16_t tid, unsigned reason);
/* A protocol detector event at node i (a FAIL_REPORT or bad CRC reached its host, a
 * CableNotOk pass). */
void scisys_ft_protocol(sci_sys_t *s, unsigned i);
/* Node i's host holds everything while it recovers. */
static inline bool scisys_ft_holds(const sci_sys_t *s, unsigned i)
{
    return s->ft.n && s->ft.n[i].hold;
}

/* ---- sci_ftdrb.c: FT-DRB in the hosts (harness/scisys/ftdrb_sci.md); only with s->fd ---- */
#define SCI_FD_T_RELAY 0x03u /* a message on a multistep path (ftdrb_sci.md section 5) */
#define SCI_FD_T_NOTE  0x04u /* FT-DRB's special ACK: a ring that failed a packet */
int scisys_ftdrb_open(sci_sys_t *s, char *err, size_t errlen);
void scisys_ftdrb_free(sci_sys_t *s);
/* Flow k's DATA just built into p: its path; through intermediates it becomes a RELAY. */
void scisys_ftdrb_data(sci_sys_t *s, unsigned k, pkt_t *p);
/* Host i (a destination) acknowledges flow k up to `expect`, `data` the DATA that caused it. */
void scisys_ftdrb_ack(sci_sys_t *s, unsigned i, const uint16_t *data, unsigned k, uint32_t expect);
/* An ACK of flow k reached its source i (its latency and path clear the path's entries). */
void scisys_ftdrb_acked(sci_sys_t *s, unsigned i, unsigned k, const uint16_t *p, unsigned len);
/* The flow an FT-DRB ACK (packet p) is for (its first word carries path bits above it). */
unsigned scisys_ftdrb_ack_flow(const uint16_t *p);
/* A FAIL_REPORT reached host i: true when FT-DRB took it (always). */
bool scisys_ftdrb_fail(sci_sys_t *s, unsigned i, const uint16_t *p, unsigned len);
/* A RELAY or a NOTE reached host i: true when it was one. */
bool scisys_ftdrb_rx(sci_sys_t *s, unsigned i, const uint16_t *p, unsigned len);
/* Host i's next relayed packet, after driver packets and ACKs: false when none. */
bool scisys_ftdrb_tx(sci_sys_t *s, unsigned i, pkt_t *out);
bool scisys_ftdrb_pending(const sci_sys_t *s, unsigned i);
/* A flow was added (its metapath, ftdrb_sci.md section 4): 0, or -1 out of memory. */
int scisys_ftdrb_flow_added(sci_sys_t *s);
/* Host i held a message for in-order delivery (counted). */
void scisys_ftdrb_held(sci_sys_t *s, unsigned i);
/* Node i powered off: its relay buffer is lost. */
void scisys_ftdrb_dead(sci_sys_t *s, unsigned i);

/* ---- sci_sys_static.c ---- */
void scisys_fe_init(sci_sys_t *s);
void scisys_fe_cycle(sci_sys_t *s);
/* The front end's next event: a cycle, s->now when it has work now, UINT64_MAX for none. */
uint64_t scisys_fe_next(const sci_sys_t *s);
/* In a reconfiguration (not watching). */
bool scisys_fe_busy(const sci_sys_t *s);

/* ---- sci_sys_stats.c ---- */
/* Flow k delivered a message in order, `lat` cycles after its first send. Returns -1 (the
 * system failed) when the time series cannot grow. */
int scisys_stats_delivery(sci_sys_t *s, unsigned k, double lat);
/* Flow k's delivery into the time series of every flow and the waveform. */
void scisys_stats_series(sci_sys_t *s, unsigned k, double lat);

/* ---- sci_sys_threads.c: the per-node phases of the cycle ---- */
int scisys_par_open(sci_sys_t *s, char *err, size_t errlen);
void scisys_par_free(sci_sys_t *s);
/* Steps 3 and 4 of the cycle: every host takes its symbol, every driver its turn (the static
 * front end between them). */
void scisys_par_hosts(sci_sys_t *s);
/* Step 5: every host offers its symbol (into s->in). True when no host had anything under
 * way (nothing to send or take, no interrupt unseen): the fabric may be idle. */
bool scisys_par_tx(sci_sys_t *s);
/* Steps 3 to 5 in one loop over the nodes, when scisys_par_joined says nothing runs between
 * them (sci_sys_threads.c gives the argument): the same result as the three calls above,
 * with one barrier. Returns what scisys_par_tx returns. */
bool scisys_par_joined(const sci_sys_t *s);
bool scisys_par_cycle(sci_sys_t *s);
/* While a phase runs (s->par), what reaches beyond a node goes here, merged after it in the
 * one-thread order: a failure, a log line, a delivery for the time series, a queued write. */
void scisys_par_fail(sci_sys_t *s, const char *fmt, va_list ap);
void scisys_par_log(sci_sys_t *s, unsigned node, const char *fmt, va_list ap);
void scisys_par_delivery(sci_sys_t *s, unsigned flow, double lat);
void scisys_par_pending(sci_sys_t *s);

/* ---- sci_sys_obs.c ---- */
/* With cfg.wave: one FST of the torus RTL and the harness observer. Returns 0 or -1. */
int scisys_obs_open(sci_sys_t *s, char *err, size_t errlen);
/* The run starts (the boot is done): cfg.wave_from/wave_to placed on the cycles from now. */
void scisys_obs_window(sci_sys_t *s);
void scisys_obs_free(sci_sys_t *s);
void scisys_obs_write(sci_sys_t *s, unsigned node);
void scisys_obs_delivery(sci_sys_t *s, unsigned flow);
/* The harness's state of this cycle, into the waveform next to the RTL's. */
void scisys_obs_cycle(sci_sys_t *s);

#endif
