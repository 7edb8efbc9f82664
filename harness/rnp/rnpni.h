/*
 * rnpni.h — the endpoints of an RNP network (rtl/rn1.md section 6; the source-side fault policy of
 * FT-DRB (Zarza et al.)): network interfaces that send messages and retry them, read the
 * STATUS/CHECKSUM pairs of every router on the path and diagnose each failed attempt, a monitor
 * that keeps the link fault table and masks faulty ports through the routers' `disable` registers,
 * and the receivers that check, deduplicate and acknowledge what arrives.
 *
 * A message on the wire: the routing words (one per four stages), then a header (source
 * endpoint, 2 bytes; message sequence number, 2 bytes), the payload, a CRC-32 of header and
 * payload (CRC-8 with ni_policy_t.crc8), and TURN. The source then holds HOLD and reads, per
 * router k of the path, STATUS
 * and CHECKSUM (2k+1 and 2k+2 cycles after its TURN, rotated right by 2k on the way back),
 * then the destination's answer: ACK or NAK, its XOR and count of what it received, and DROP.
 *
 * Diagnosis of an attempt (ni_outcome_t):
 *   delivered       every STATUS routed, every CHECKSUM and count as computed, ACK;
 *   blocked at k    router k's disposition 00 or 01 (then DROP): contention, not a fault;
 *   corrupted at k  the first router whose CHECKSUM or count differs from what the source
 *                   computes for the words that reached it: the link into router k (from
 *                   router k-1's chosen output, or the source's injection link) is named;
 *                   the destination answers with its own XOR and count of what it received
 *                   (as one more router), so a difference there names the ejection link; a
 *                   NAK with every check right is corruption the longitudinal XOR cannot see
 *                   (an even number of flips in one bit column): retried, no place named;
 *                   and a first mismatch right after a SWALLOW stage names nothing either,
 *                   since that check covers one word fewer than the check before it, and
 *                   flips that cancelled before can show there;
 *   dropped at k    IDLE or DROP where router k's STATUS was due: the link into router k, or
 *                   router k itself, is named by the link into it;
 *   collapsed at k  (backward channel) the drop came back on the bc line at the cycle a block
 *                   at stage k gives: blocked, not a fault.
 * The STATUS dispositions name the output each router took, so the source rebuilds the path.
 *
 * Per-source tables (FT-DRB (Zarza et al.), contract harness/rnp/ftdrb_rnp.md): with lft_scope
 * NI_LFT_PER_SOURCE every endpoint keeps its own table, fed by its own diagnoses only, masks
 * nothing in the routers, chooses its injection port and extra-stage digits to avoid what it
 * learnt, and sends around it through relays (endpoints that take the message into memory and
 * send it on). A relayed segment sets bit 15 of the header's source field and carries an
 * 8-byte relay header at the start of its payload (original source, original sequence number,
 * final destination, second intermediate or 0xFFFF); a relay whose buffer is full answers
 * BUSY (0xB5). NI_LFT_GLOBAL, the default, is the monitor's one table and never does either.
 */
#ifndef FTSIM_RNPNI_H
#define FTSIM_RNPNI_H

#include <stdint.h>

#include "dev.h"
#include "prng.h"
#include "rnpnet.h"

#define NI_MAX_PAYLOAD 32
#define NI_MAX_STAGES  8

typedef enum {
    NI_DELIVERED,
    NI_BLOCKED,
    NI_CORRUPTED,
    NI_DROPPED,
    NI_NOUTCOME,
} ni_outcome_t;

/* Who keeps the link fault table (with use_lft). */
typedef enum {
    NI_LFT_GLOBAL,     /* one table, the monitor's, masking ports in the routers (default) */
    NI_LFT_PER_SOURCE, /* one per endpoint, its own diagnoses only (ftdrb_rnp.md) */
} ni_lft_scope_t;

typedef struct ni_policy {
    unsigned retry_limit;    /* attempts before the source reports the message failed */
    unsigned backoff_max;    /* cycles: the random backoff doubles up to this */
    int use_lft;             /* the link fault table masks faulty ports */
    unsigned perm_stage;     /* stage number at which an entry is permanent (FT-DRB: 3) */
    unsigned trial_attempts; /* attempt number at which a non-permanent entry is tried (10) */
    ni_lft_scope_t lft_scope;
    int relays;     /* NI_LFT_PER_SOURCE: multistep paths through relays when no direct choice is
                   clear (ftdrb_rnp.md section 4); 0: the direct choice with the fewest entries */
    int no_spread;  /* ablation: the first rule, no metapath: relay whenever no direct choice is
                       clear, at random over the first PS_SPREAD intermediates, latency unused */
    unsigned relay_buf; /* segments a relay buffer takes (1 to NI_RELAY_BUF; 0: NI_RELAY_BUF) */
    int one_sender; /* ablation: one sender per endpoint for its own messages and the relay
                       buffers (relays first), as first built, not a relay sender of its own */
    int crc8; /* a weakened end-to-end check, CRC-8 instead of the default CRC-32: for the
                 fuzzer's recorded vectors, and to show a corrupted delivery failing a run
                 (every stuck-bit and flip case the campaigns inject gets through it now and
                 then; the CRC-32 default lets none through, ftdrb_rnp.md 6) */
    int dedup_last; /* a mutant for the tests only: with per-source tables, destinations dedup by
                       the last sequence number per source (the global mode's rule), which
                       refuses a relayed message overtaken by a later one; the ledger must see */
} ni_policy_t;

#define NI_RELAY_BUF 8 /* messages per relay buffer, one buffer per step (ftdrb_rnp.md 5) */
#define NI_RELAY_HDR 8 /* bytes of the relay header in a relayed segment's payload */

/* One message's history, for the scoreboard and the measurements. */
typedef struct ni_msg {
    uint32_t id; /* global message number */
    uint16_t src, dst, seq, len;
    uint8_t data[NI_MAX_PAYLOAD];
    uint64_t t_created, t_done;
    uint64_t t_first; /* the first attempt's first word (0: not tried yet) */
    unsigned attempts;
    int state; /* 0 queued/in flight, 1 delivered (ACK seen), 2 failed, 3 in a relay's custody */
    /* Per-source tables only: a relay's segment is a message of its own (src the relay, dst
     * the next hop, seq the relay's), `orig` the message it carries (an original: its id). */
    uint32_t orig;
    uint16_t final_dst, hop2; /* a segment's final destination; second intermediate or NONE */
    uint8_t step;             /* 0 an original, 1 a segment out of R1, 2 out of R2 */
    uint8_t relayed;          /* an original that went through at least one relay */
    uint8_t routed;           /* an original: its path of the metapath chosen (ftdrb_rnp.md 4) */
    uint16_t via1, via2;      /* that path's intermediates (NI_NONE, NI_NONE: the direct path) */
} ni_msg_t;
#define NI_NONE 0xFFFFu

typedef struct ni_stats {
    uint64_t sent, delivered, failed, attempts, outcome[NI_NOUTCOME], located, masked, unmasked,
        cleared, permanent, dup_rx, nak, latency_sum, words_delivered;
    /* per-source tables: originals delivered through a relay, segments a relay took, BUSY
     * answers, attempts sent with no clear choice (the retry the escape), entries refused by a
     * full table, entries in all tables now */
    uint64_t relayed, segments, busy, no_clear, lft_full, lft_entries;
    /* relay buffers: the most segments one buffer held; segments an endpoint's own sender
     * carried (0 with a relay sender: ftdrb_rnp.md 5) */
    uint64_t relay_peak, own_relayed;
} ni_stats_t;

typedef struct ni ni_t;

/* A fault location the sources have named: the link leaving router `router` by backward
 * port `port` (port 8 + k: the injection link of endpoint `router`, port k). */
typedef struct ni_path {
    uint64_t t0;                                        /* the attempt's first word */
    unsigned src, port;                                 /* source endpoint and its injection port */
    unsigned n;                                         /* stages the STATUS words named */
    unsigned router[NI_MAX_STAGES], out[NI_MAX_STAGES]; /* per stage: router, output taken */
} ni_path_t;
typedef void (*ni_diag_fn)(void *ctx, uint64_t cycle, const ni_path_t *path, unsigned router,
                           unsigned port, ni_outcome_t kind);
/* A message delivered to its destination (first time only), or given up by its source. */
typedef void (*ni_done_fn)(void *ctx, uint64_t cycle, const ni_msg_t *m, int delivered);

/* Every finished attempt of a message (after the diagnosis above): its outcome, the path its
 * STATUS words named (path->n routed stages; path->router[path->n] is the router where it
 * stopped, when path->n < stages), and whether the diagnosis named a link. */
typedef void (*ni_attempt_fn)(void *ctx, uint64_t cycle, const ni_msg_t *m, ni_outcome_t out,
                              const ni_path_t *path, int named);
/* A message that arrived whole (its CRC right) at an endpoint it was not sent to: refused
 * with NAK; the source and sequence number its header names. */
typedef void (*ni_misrx_fn)(void *ctx, uint64_t cycle, unsigned src, unsigned seq, unsigned at);

ni_t *ni_create(const rnpnet_topo_t *t, const ni_policy_t *pol, uint64_t seed, int backchan);
void ni_free(ni_t *ni);
void ni_set_callbacks(ni_t *ni, void *ctx, ni_diag_fn diag, ni_done_fn done, ni_done_fn rx);

/* The same context (ni_set_callbacks' ctx) is handed to these; either may be NULL. */
void ni_set_hooks(ni_t *ni, ni_attempt_fn attempt, ni_misrx_fn misrx);

/* Queue a message from src to dst (payload len bytes from the NI's PRNG). NULL when the
 * source's queue is full. The pointer is good until the next send; ni_msg() finds it again. */
const ni_msg_t *ni_send(ni_t *ni, uint64_t cycle, unsigned src, unsigned dst, unsigned len);
/* The same with a payload the caller gives (a self-test's known pattern). */
const ni_msg_t *ni_send_data(ni_t *ni, uint64_t cycle, unsigned src, unsigned dst, unsigned len,
                             const uint8_t *data);
/* Message `id` (ni_msg_t.id), or NULL. */
const ni_msg_t *ni_msg(const ni_t *ni, uint32_t id);

/* One cycle: read the network's outputs of this cycle, write its inputs of the next cycle
 * into `in`, and at most one register write (the monitor's masking) into *wr. Returns 1 when
 * *wr holds a write. */
int ni_cycle(ni_t *ni, uint64_t cycle, const uint64_t *out, uint64_t *in, dev_write_t *wr);

const ni_stats_t *ni_stats(const ni_t *ni);
/* Link fault table entries masked now. */
unsigned ni_masked_now(const ni_t *ni);
/* Messages not yet delivered or failed. */
unsigned ni_in_flight(const ni_t *ni);
/* Print the link fault table. */
void ni_print_lft(const ni_t *ni);

#endif
