/*
 * sci_sys.h — a running 2-D SCI torus system: the torus device (harness/sci/sci_torus.c, RTL, C
 * model or both in lockstep), and around it, in the harness, what the SCI paper puts in the
 * hosts: per node a traffic agent with named flows and a delivery ledger, and the driver (host
 * software) that handles CableNotOk, ReadyToGo, the LC3 remote probe and the watchdog; or, in
 * static mode, one central front end that halts, recomputes and reloads everything. Faults
 * (cables, node power) are injected at given cycles. The contract is harness/scisys/sci_sys.md.
 */
#ifndef FTSIM_SCI_SYS_H
#define FTSIM_SCI_SYS_H

#include <stdint.h>
#include <stdio.h>

/* The named parameters of sci_sys.md section 3, with their defaults (sci_sys_params_default). */
typedef struct sci_sys_params {
    double clock_mhz;      /* link clock: 100 MHz (one cycle 10 ns) */
    double cablenotok_ms;  /* CableNotOk timer: 50 ms */
    double readytogo_ms;   /* ReadyToGo probe timer: 200 ms */
    double watchdog_ms;    /* watchdog period: 1000 ms */
    double host_rtx_ms;    /* host retransmission timeout (no ACK, no FAIL_REPORT): 10 ms */
    double compute_ms;     /* the driver's table computation before its first write: 1 ms */
    double reg_write_us;   /* one register write across the host bus (PCI): 1 us */
    double time_scale;     /* every ms/us timer above is divided by it (tests: 5000) */
    unsigned echo_timeout; /* LC echo timeout, cycles: 2000 */
    unsigned busy_limit;   /* LC busy-retry limit: 8 */
    unsigned retry_limit;  /* LC timeout-retry limit: 4 */
    unsigned rsr_timeout;  /* PSB remote-read timeout, cycles: 20000 (200 us) */
    unsigned fail_backoff; /* host back-off after a FAIL_REPORT, cycles: 1000 */
    unsigned window;       /* messages a flow may have unacknowledged: 8 */
    /* detection and recovery (sci_sys.md section 8; used when cfg.ft is set) */
    double selftest_ms;    /* self-test interval: 500 ms (FTGM's 0.5 s; it tried 0.5-5 s) */
    double scrub_ms;       /* table read-back scrub interval (SCI_FT_SCRUB): 500 ms */
    double mgmt_us;        /* a request from one host's driver to another's, out of band: 50 us */
    unsigned hang_cycles;  /* watchdog period; 0: the contract's longest legal stall */
} sci_sys_params_t;

void sci_sys_params_default(sci_sys_params_t *p);
/* One parameter from "NAME=VALUE" (the field names above). Returns 0, or -1 with a message. */
int sci_sys_param_set(sci_sys_params_t *p, const char *nv, char *err, size_t errlen);
/* Cycles of a timer of `ms` milliseconds under p (time scale applied, at least `floor`). */
uint64_t sci_sys_ms(const sci_sys_params_t *p, double ms);

typedef enum { SCI_SYS_DYNAMIC = 0, SCI_SYS_STATIC = 1 } sci_sys_mode_t;

typedef struct sci_sys_cfg {
    unsigned w, h;
    int p2s;
    unsigned models; /* LS_RTL, LS_CSIM or LS_BOTH (lockstep) */
    sci_sys_mode_t mode;
    sci_sys_params_t par;
    uint64_t seed;       /* the static front end's first poll; with ft the self-test's pacing */
    const char *wave;    /* FST path (RTL) or NULL */
    uint64_t wave_from;  /* ... dumping only cycles wave_from..wave_to of the run (counted as */
    uint64_t wave_to;    /* the run's times are, from the end of the boot; wave_to 0: to the end) */
    uint64_t bin_cycles; /* time-series bin width (0: none) */
    int quiet;           /* no driver log on stderr */
    int no_skip;         /* step every edge (no idle skipping): speed comparisons */
    FILE *log;           /* driver and fault events, one line each (NULL: none) */
    unsigned threads;    /* the C model's nodes step on this many threads (0, 1: one) */
    unsigned ft;         /* SCI_FT_*: detection and recovery of upsets in the drivers (0: none) */
    int out_digest;      /* with ft: keep a running digest of every output (an upset campaign's
                            comparison with its golden run; a cost every cycle, off by default) */
    int ftdrb;           /* FT-DRB (Zarza et al.) in the hosts (scisys/ftdrb_sci.md; 0: off,
                            SCI_FTDRB_NO_SPREAD: on, one path per pair, the metapath's ablation) */
} sci_sys_cfg_t;

#define SCI_FTDRB_NO_SPREAD 2 /* cfg.ftdrb: FT-DRB with metapaths of one member (ftdrb_sci.md 4) */

/* Detection and recovery (sci_sys.md section 8). */
enum {
    SCI_FT_WATCHDOG = 1u << 0,  /* a block that holds work and makes no progress: hung */
    SCI_FT_SELFTEST = 1u << 1,  /* test reads over the paths in use, every selftest_ms */
    SCI_FT_RECOVER = 1u << 2,   /* on a detection: disable, reset, reload, enable, probe */
    SCI_FT_SCRUB = 1u << 3,     /* whole tables read back against the host's copy */
    SCI_FT_TOLERANT = 1u << 4,  /* the ledger counts a misrouted or corrupted packet (an upset's
                                   doing) instead of failing the run */
    SCI_FT_NO_HOST_STATE = 1u << 5, /* ablation: a recovered node's hosts lose their protocol
                                       state (sequence numbers, windows, held copies) */
    SCI_FT_ON = SCI_FT_WATCHDOG | SCI_FT_SELFTEST | SCI_FT_RECOVER | SCI_FT_TOLERANT,
};

typedef struct sci_sys sci_sys_t;

/* Opens and resets the torus, boots the drivers. NULL with a message on error. */
sci_sys_t *sci_sys_new(const sci_sys_cfg_t *cfg, char *err, size_t errlen);
void sci_sys_free(sci_sys_t *s);

/* A flow from node src to node dst (indices y * W + x): messages of `bytes` payload bytes
 * (10..64), one every `interval` cycles (0: as fast as the window allows), from cycle `start`.
 * Returns the flow index, or -1 with a message. */
int sci_sys_add_flow(sci_sys_t *s, const char *name, unsigned src, unsigned dst, unsigned bytes,
                     uint64_t interval, uint64_t start, char *err, size_t errlen);
/* Stop generating new messages on every flow (what is outstanding is still sent and acked). */
void sci_sys_stop_flows(sci_sys_t *s);
/* The flow sends nothing more, not even retransmissions (traffic to a node known dead). */
void sci_sys_abandon_flow(sci_sys_t *s, unsigned flow);
/* Set a flow's interval from now on (0: saturating). */
void sci_sys_set_interval(sci_sys_t *s, unsigned flow, uint64_t interval);

/* A fault at cycle `at` (>= now): "cut x X,Y", "restore x X,Y", "cut y X,Y", "restore y X,Y",
 * "off X,Y", "on X,Y" (sci_torus.c's controls), or an upset "seu NAME bitB" / "seu NAME[I]
 * bitB" (vectors' statement: one stored bit of a node flips, in every model). Returns 0, or -1
 * with a message. */
int sci_sys_fault(sci_sys_t *s, uint64_t at, const char *what, char *err, size_t errlen);

/* Run until cycle `until`. Returns 0, or -1 with a message (lockstep divergence, RTL
 * assertion, protocol violation in the ledger). */
int sci_sys_run(sci_sys_t *s, uint64_t until, char *err, size_t errlen);
/* Run until every driver is idle (no pass under way, nothing held) and every flow has
 * nothing outstanding, or until `limit`. Returns 1 when settled, 0 at the limit, -1 on error. */
int sci_sys_settle(sci_sys_t *s, uint64_t limit, char *err, size_t errlen);
uint64_t sci_sys_now(const sci_sys_t *s);
/* A line of the system's own in the log (cfg.log), stamped with the cycle, between steps. */
void sci_sys_note(sci_sys_t *s, const char *text);
/* Static mode: how many reconfigurations the front end has completed (it finds a fault only
 * at its next poll, so "no pass under way" does not mean "done"). */
unsigned sci_sys_static_done(const sci_sys_t *s);

/* ---- what was measured ---- */
/* The counts and gaps, defined in sci_sys.md section 2. */
typedef struct sci_flow_stats {
    char name[32];
    unsigned src, dst;
    uint64_t generated;  /* messages the application wrote */
    uint64_t offered;    /* generated, and the write it is blocked in on a full window */
    uint64_t first_sent; /* messages sent at least once */
    uint64_t held;       /* offered - first_sent: offered, never sent */
    uint64_t sent;       /* DATA packets sent: first sends and retransmissions */
    uint64_t retx;       /* retransmissions: sent - first_sent */
    uint64_t delivered;  /* delivered in order at the destination (once each) */
    uint64_t acked, dups, fail_reports;
    uint64_t tmo_rounds;    /* go-back rounds a timeout started (no FAIL_REPORT told of it) */
    uint64_t bytes;         /* payload bytes delivered */
    double lat_sum;         /* cycles, first send to delivery, over delivered messages */
    uint64_t last_delivery; /* cycle (0: none yet) */
    uint64_t max_gap;       /* longest gap between deliveries since the last gap reset */
    uint64_t max_gap_at;    /* the cycle that gap ended */
    uint64_t wait_max;      /* longest gap seen from the source since the last gap reset */
    uint64_t wait_max_at;   /* the cycle that gap ended */
    uint64_t outstanding;   /* generated, not yet acked */
} sci_flow_stats_t;

unsigned sci_sys_nflows(const sci_sys_t *s);
void sci_sys_flow_stats(const sci_sys_t *s, unsigned flow, sci_flow_stats_t *st);
/* Start measuring gaps afresh from now (the gap open now counts from now). */
void sci_sys_reset_gaps(sci_sys_t *s);
/* Include the gaps open now in max_gap (since the last delivery, for flows with messages
 * generated and not delivered) and wait_max (also for a flow blocked in a write). */
void sci_sys_close_gaps(sci_sys_t *s);

/* Driver state of a node, for waves and logs. */
typedef enum {
    SCI_DRV_IDLE = 0,
    SCI_DRV_CNOK,
    SCI_DRV_COMPUTE,
    SCI_DRV_LOAD,
    SCI_DRV_PROBE,
    SCI_DRV_DEAD,
    SCI_DRV_HALT
} sci_drv_state_t;
typedef struct sci_drv_stats {
    unsigned cnok_passes, rtg_passes, extra_passes, watchdog_restores, table_writes;
    unsigned notifies_sent, notifies_got, remote_reads, remote_broken, read_timeouts;
    int state;
} sci_drv_stats_t;
void sci_sys_driver_stats(const sci_sys_t *s, unsigned node, sci_drv_stats_t *st);
/* Non-zero while any driver (or the static front end) is in a pass or holds traffic. */
int sci_sys_busy(const sci_sys_t *s);

/* Time series (cfg.bin_cycles): for bin b, payload bytes delivered (all flows) and the
 * latency sum and count of the messages delivered in it. */
unsigned sci_sys_bins(const sci_sys_t *s, const uint64_t **bytes, const double **lat_sum,
                      const uint64_t **lat_n);

/* Messages flow `flow` delivered in time bin `bin` (cfg.bin_cycles). */
uint32_t sci_sys_flow_bin(const sci_sys_t *s, unsigned flow, unsigned bin);

/* What detection and recovery saw (cfg.ft). Detector indices as upset_run.h's upset_detector_t:
 * 1 watchdog, 2 self-test, 3 protocol, 4 scrub. */
typedef struct sci_ft_stats {
    uint64_t first[5], count[5]; /* the cycle each detector first fired (0: never), how often */
    uint64_t prot_events;        /* protocol detector events: FAIL_REPORTs reaching a host, bad
                                    CRCs reaching a host, CableNotOk passes, LC CRC errors */
    uint64_t recoveries;         /* node recoveries completed */
    uint64_t rec_start, rec_end; /* the first recovery's request and the last one's end */
    /* the first recovery's phases (Figure 10): the request reached the node, its LCs were
     * disabled, the reset ended, the tables were reloaded, the probe ended (traffic released) */
    uint64_t ph_req, ph_disabled, ph_reset, ph_reloaded, ph_released;
    uint64_t misrouted, corrupted, crc_host; /* packets the tolerant ledger counted */
    uint64_t st_tests, st_fails, st_symbols; /* self-test reads sent, failed, symbols sent */
    uint64_t lost_state;                     /* messages given up by the no-host-state ablation */
    uint64_t dup_delivered;                  /* messages delivered twice (that ablation only) */
    unsigned recovering;                     /* nodes in recovery now */
} sci_ft_stats_t;
void sci_sys_ft_stats(const sci_sys_t *s, sci_ft_stats_t *st);
/* A digest of the state every node shows (debug words), for comparing two runs. */
uint64_t sci_sys_state_digest(sci_sys_t *s);
/* What FT-DRB did (cfg.ftdrb; harness/scisys/ftdrb_sci.md), summed over the hosts. */
typedef struct sci_ftdrb_stats {
    uint64_t notes_sent, notes_got; /* NOTEs (FT-DRB's special ACK) sent and received */
    uint64_t msp_sent;              /* messages a source sent through intermediates */
    uint64_t relayed;               /* RELAYs an intermediate sent on */
    uint64_t relay_drops;           /* RELAYs dropped on a full relay buffer, nobody told */
    uint64_t relay_busy;            /* RELAYs refused, the source told (a busy NOTE) */
    uint64_t relay_max;             /* the most packets a relay buffer held */
    uint64_t busy_got;              /* busy NOTEs a source received (and backed off on) */
    uint64_t mp_added, mp_dropped;  /* metapath members added (latency grew), dropped (failed) */
    uint64_t held;                  /* messages held at a destination for in-order delivery */
    uint64_t note_drops;            /* NOTEs and re-sent ACKs dropped on a full relay buffer */
    uint64_t superseded;            /* relayed ACKs and NOTEs a newer one superseded there (R4) */
    uint64_t trials;                /* paths with non-permanent entries tried (attempt 10) */
    uint64_t no_path;               /* selections that found no usable path (sent direct) */
    uint64_t entries, permanent;    /* fault-table entries at the end, and permanent ones */
    uint64_t last_latency;          /* the last latency ACK that cleared entries (cycles) */
} sci_ftdrb_stats_t;
void sci_sys_ftdrb_stats(const sci_sys_t *s, sci_ftdrb_stats_t *out);
/* Flow k's metapath (ftdrb_sci.md section 4): up to SCI_FTDRB_MPMAX members, each its
 * intermediates (-1: none), latency (cycles, the ACKs' running mean; 0: none yet) and messages
 * sent on it since sci_sys_ftdrb_mark. Returns the member count (0: FT-DRB off or no metapath). */
#define SCI_FTDRB_MPMAX 4
typedef struct sci_ftdrb_member {
    int in1, in2;
    unsigned lat;
    uint64_t sent;
} sci_ftdrb_member_t;
unsigned sci_sys_ftdrb_metapath(const sci_sys_t *s, unsigned k, sci_ftdrb_member_t *m);
/* Every metapath member's message count back to 0 (a measurement window starts). */
void sci_sys_ftdrb_mark(sci_sys_t *s);

/* A running digest of every output of every cycle so far (cfg.ft and cfg.out_digest; 0
 * otherwise). */
uint64_t sci_sys_out_digest(const sci_sys_t *s);

/* Scrubbed packets, summed over every LC (COUNTS), now. */
uint64_t sci_sys_scrubbed(sci_sys_t *s);
/* The torus device under test (lockstep_t *) for register reads. */
void *sci_sys_lockstep(sci_sys_t *s);

/* ---- the checks of the tables in force ---- */
/* Reads every live node's tables back through the register port (TADDR, LRT, BRT, ASEL) and,
 * on P2S, applies the failover state the hardware shows (LC down, FOCOL), into tb (an
 * sci_tables_t *, freed by the caller with sci_route_free). Costs register cycles: run it when
 * the system is settled. Returns 0, or -1 with a message. */
int sci_sys_read_tables(sci_sys_t *s, void *tb, char *err, size_t errlen);

#endif
