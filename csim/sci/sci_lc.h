/*
 * sci_lc.h - cycle-accurate C reference model of one SCI link controller
 * (Dolphin LC3, and its dual-address successor P2S).
 *
 * Behaviour: harness/sci/README.md sections 1, 2, 4.  Block contract (link
 * encoding, packet layout, command codes, CRC, controller timing, register
 * map, debug encoding): rtl/sci_lc.md.  Where the contract is silent the
 * choices are listed in sci_lc.c ("Decisions") and marked D<n> in comments.
 *
 * Timing (as rn1.h): sci_lc_t holds the registers.  The output accessors
 * return the values during the current cycle (the registers as left by the
 * last sci_lc_step) and never depend on the inputs of the current cycle.
 * sci_lc_step is one rising edge: it reads the inputs of the current cycle,
 * computes every next value from the current registers, then commits.
 *
 * Storage: the registers live in sci_lc_t, the memories (packet storage
 * and tables) in a sci_lc_ram_t the caller provides at init (a node keeps
 * its LCs' registers together and their memories after them, so what a
 * cycle touches is a few cache lines a node); sci_lc_step allocates
 * nothing and does no I/O.  A step costs what the controller does in that
 * cycle: the registers that change per cycle (sci_lc_state_t, 176 bytes:
 * counters, queue heads, the pool's bit masks) are copied aside as one
 * block and every stage reads that copy while it writes the next values
 * in place; the packet storage (sci_lc_store_t) is written in place, only
 * where the cycle stores a symbol, at entries no other part of the same
 * cycle reads; the tables (LRT and BRT in one byte an entry, 2 x 8192
 * entries on P2S) are out of the per-cycle path.  A controller at rest
 * (idle link, nothing queued or timing) returns at once, and so does a step
 * with the inputs of the last one when that one left the registers as they
 * were (the copy is compared only when the inputs repeat).
 */
#ifndef SCI_LC_H
#define SCI_LC_H

/* A cache-line boundary, in C11 and in the C++ of the RTL shims that include this header. */
#ifndef SCI_ALIGN64
#ifdef __cplusplus
#define SCI_ALIGN64 alignas(64)
#else
#define SCI_ALIGN64 _Alignas(64)
#endif
#endif

#include <stdbool.h>
#include <stdint.h>

/* Link symbols (sci_lc.md section 1). */
#define SCI_RDI_BIT  0x8000u /* ring-down idle: flag 0, 0x8000 | id */
#define SCI_ID_MASK  0x1FFFu /* node id bits [12:0] */
#define SCI_ADDR_SEL 0x4000u /* targetId bit 14: P2S address select */
#define SCI_MARK     0x0080u /* command bit 7: scrubber mark */

/* Packet layout (sci_lc.md section 2). */
#define SCI_HDR_SYMS    4u /* targetId, command, sourceId, tid */
#define SCI_MAX_PAYLOAD 32u
#define SCI_MAX_PKT     (SCI_HDR_SYMS + SCI_MAX_PAYLOAD + 1u) /* 37 */
#define SCI_MIN_PKT     (SCI_HDR_SYMS + 1u)                   /* 5 */

/* Command types (command [15:8]). */
#define SCI_T_DATA         0x01u
#define SCI_T_ACK          0x02u
#define SCI_T_PROBE        0x10u
#define SCI_T_STATUS_READ  0x11u
#define SCI_T_STATUS_REPLY 0x12u
#define SCI_T_NOTIFY       0x13u
#define SCI_T_ECHO_ACCEPT  0x20u
#define SCI_T_ECHO_BUSY    0x21u
#define SCI_T_ECHO_ERROR   0x22u
#define SCI_T_FAIL_REPORT  0x30u

/* FAIL_REPORT reasons. */
#define SCI_FAIL_BUSY     1u
#define SCI_FAIL_TIMEOUT  2u
#define SCI_FAIL_RINGDOWN 3u
#define SCI_FAIL_DISABLED 4u

/* Register map (sci_lc.md section 4). */
#define SCI_REG_CTRL       0x00u
#define SCI_REG_STATUS     0x01u
#define SCI_REG_STATUS_CLR 0x02u
#define SCI_REG_COUNTS     0x03u
#define SCI_REG_TADDR      0x08u
#define SCI_REG_LRT        0x09u
#define SCI_REG_BRT        0x0Au
#define SCI_REG_DBG        0x10u

/* CTRL fields. */
#define SCI_CTRL_ENABLE_BIT   16
#define SCI_CTRL_SCRUB_BIT    17
#define SCI_CTRL_P2SSEL_BIT   18 /* not stored: CTRL has no bit 18 (sci_lc.md section 4) */
#define SCI_CTRL_BUSYLIM_LSB  24
#define SCI_CTRL_RETRYLIM_LSB 32
#define SCI_CTRL_TIMEOUT_LSB  48
#define SCI_CTRL_MASK         0xFFFF00FFFF031FFFull

/* Input parser states (debug [3:0]). */
enum sci_parse {
    SCI_P_IDLE = 0,
    SCI_P_BYPASS = 1,
    SCI_P_TAKE = 2,
    SCI_P_DISCARD = 3,
    SCI_P_ECHO = 4
};

typedef enum sci_variant { SCI_LC3 = 0, SCI_P2S = 1 } sci_variant_t;

/* Sizes inside the controller (harness/sci/README.md s.2, sci_lc.md s.3). */
#define SCI_RXQ           8u
#define SCI_SENDQ         8u
#define SCI_ACTIVE        4u
#define SCI_POOL          (SCI_SENDQ + SCI_ACTIVE) /* D15: send queue and active buffers share 12 */
#define SCI_ECHOQ         8u                       /* D8 */
#define SCI_BYP_CAP       40u /* the contract's bound; the FIFO's storage is SCI_BYP_MEM */
#define SCI_BYP_MEM       64u
#define SCI_PIPE          4u  /* input pipe stages 0..3; the decision is in stage 3 (D1) */
#define SCI_SLOT_SYMS     64u /* a pool slot holds up to 63 symbols of a B-link packet (D10) */
#define SCI_RX_SYMS       64u /* a receive-queue entry: what the RTL's queue memory holds */
#define SCI_SLOT_ADDR     16u /* slot numbers are 4 bits: the storage the RTL addresses */
#define SCI_FAIL_HDR      8u  /* a FAIL_REPORT's symbols before its CRC */
#define SCI_IDX_SAT       62u /* symbol counters saturate here (6-bit, as the RTL) */
#define SCI_RDOWN_CYCLES  4u
#define SCI_RUP_CYCLES    64u
#define SCI_TABLE_ENTRIES 16384u /* P2S: 2 sets x 8192; LC3 uses 256 */
#define SCI_FAIL_PKT      9u     /* FAIL_REPORT: 4 header + 4 payload + CRC */

typedef struct sci_lc_in {
    bool rst_n; /* synchronous active-low reset (D13) */
    /* Link input from upstream. */
    bool link_flag;
    uint16_t link_sym;
    bool link_sd;
    /* B-link toward this LC's send queue: one symbol per cycle, a whole
     * packet including its CRC, last = 1 on the CRC symbol (D10).  A
     * symbol transfers in a cycle where bin_valid and sci_lc_bin_ready. */
    bool bin_valid;
    uint16_t bin_sym;
    bool bin_last;
    /* B-link from this LC's receive queue: the node accepts the symbol on
     * sci_lc_bout_* in a cycle where sci_lc_bout_valid and bout_ready. */
    bool bout_ready;
    /* Register write at this edge (byte strobes as RN1). */
    bool reg_we;
    uint8_t reg_waddr;
    uint64_t reg_wdata;
    uint8_t reg_wstrb;
    /* P2S own-column bypass (rtl/sci_node.md section 6): while fo_byp, a packet the LRT would
     * take is bypassed if its target is in this node's column ((target ^ id) & fo_xmask == 0)
     * and is not this node.  LC3 ignores them. */
    bool fo_byp;
    uint16_t fo_xmask;
} sci_lc_in_t;

/* One packet buffer (receive queue entry): every symbol of a packet being taken is stored, as
 * the RTL's queue memory does, though only 5..37 of a good one are sent on. */
typedef struct sci_pkt {
    uint16_t sym[SCI_RX_SYMS];
    uint8_t len; /* 6 bits */
} sci_pkt_t;

/* An answer (echo) waiting to be inserted: its header fields. */
typedef struct sci_echo {
    uint16_t type;
    uint16_t target; /* the answered packet's sourceId */
    uint16_t tid;
} sci_echo_t;

/* What the link output is inserting (enum values are internal). */
enum sci_ins_kind { SCI_INS_NONE = 0, SCI_INS_ECHO, SCI_INS_SLOT };
/* What the B-link output is sending. */
enum sci_bout_kind { SCI_BO_NONE = 0, SCI_BO_RXQ, SCI_BO_FAIL };

/* The registers that change per cycle (the packet storage apart).  The pool of 12 buffers
 * (D15) is kept as bit masks, bit i for slot i: a slot is filling from the B-link, queued
 * (in the send queue) or active (inserted, waiting for its echo), else free; an active slot
 * may have its echo timer running and a retransmission due.  The first 64 bytes (a cache
 * line: sci_lc_t aligns it) hold everything the output accessors, the node's B-link and a
 * controller at rest look at; the struct has no padding and a size that is a multiple of 8,
 * so a step compares it as one block of 64-bit words. */
typedef struct sci_lc_state {
    /* ---- the first cache line ---- */
    uint32_t pipe[SCI_PIPE]; /* input pipe: pipe[k] is stage k; bit 16 flag, 15:0 sym */
    uint16_t crc;            /* parser: running CRC over the symbols before stage 3 */
    uint16_t out_sym;        /* output register */
    uint16_t m_fill, m_queued, m_active, m_timer, m_rtx; /* pool: slot states (D15) */
    uint8_t parse; /* enum sci_parse applied to the symbol that left stage 3 */
    uint8_t idx;   /* index of the symbol now in stage 3 (saturates) */
    bool resv;     /* a receive-queue slot is reserved by the packet in stage 3 */
    /* Ring monitor. */
    bool sd_q;       /* lin sd registered (STATUS[1]) */
    uint8_t sd_low;  /* consecutive cycles of sd = 0 at the pin, sat. 4 */
    uint8_t sd_high; /* consecutive cycles of sd = 1 at the pin, sat. 127 */
    uint8_t clean;   /* cycles since sd = 0 or a ring-down idle in stage 3, sat. 127 */
    bool ring_up;
    bool irq; /* CableNotOk pending */
    /* Output register and insertion. */
    bool out_flag;
    bool need_idle;   /* the idle after a packet is due */
    uint8_t ins_kind; /* enum sci_ins_kind */
    uint8_t ins_idx, ins_len, ins_slot;
    /* Queues: receive, send (slot numbers in arrival order, below), echo, bypass FIFO. */
    uint8_t rx_head, rx_n;
    uint8_t sq_head, sq_n;
    uint8_t eq_head, eq_n;
    uint8_t byp_head, byp_n;
    /* B-link in: a packet is arriving into slot bi_slot; B-link out. */
    bool bi_fill;
    uint8_t bi_slot, bi_idx;
    uint8_t bo_kind; /* enum sci_bout_kind */
    uint8_t bo_idx, bo_len, bo_port;
    /* Failure pass after a limit. */
    bool fail;
    uint8_t fail_reason;
    /* CTRL's bits. */
    bool enable, scrub;
    /* ---- the rest ---- */
    uint16_t node_id, echo_timeout, taddr;   /* CTRL, TADDR */
    uint16_t p_src, p_tid;                   /* parser: the packet in stage 3 */
    uint16_t timer[SCI_POOL];                /* pool: echo timers (running: m_timer) */
    sci_echo_t ins_echo;                     /* the echo being inserted */
    uint16_t ocrc;                           /* running CRC of the echo being inserted */
    uint16_t bcrc;                           /* running CRC of the FAIL_REPORT being sent */
    uint16_t n_crc, n_scrub, n_busy, n_fail; /* COUNTS (saturating) */
    uint8_t busy_limit, retry_limit;         /* CTRL */
    uint8_t ans;                             /* answer owed at the end (enum in sci_lc.c) */
    uint8_t p_type;
    uint8_t p_slot;          /* echo: the matched pool slot */
    uint8_t len[SCI_POOL];   /* pool: packet lengths */
    uint8_t busy[SCI_POOL];  /* busy retransmissions so far */
    uint8_t retry[SCI_POOL]; /* timeout retransmissions so far */
    uint8_t sq[SCI_SENDQ];
    /* The queues' tails, kept as the RTL keeps them (the counts above are its counts too),
     * so that an upset of a count or a pointer does in both models what it does in one. */
    uint8_t rx_tail, sq_tail, eq_tail, byp_tail;
    uint8_t pad[7]; /* always 0: fills the struct to a multiple of 8 bytes */
} sci_lc_state_t;

/* The packet storage: written in place by a step, read only under the registers' guards
 * (an entry is read only while the registers say it holds a packet). */
typedef struct sci_lc_store {
    sci_pkt_t rxq[SCI_RXQ];
    /* The pool's packets, by slot number (4 bits: 12..15 name no buffer, but an upset slot
     * number can still address their storage, as in the RTL). */
    uint16_t slot[SCI_SLOT_ADDR][SCI_SLOT_SYMS];
    /* Each pool slot's targetId, sourceId and tid, copied as its symbols 0, 2, 3 arrive: echo
     * matches and failure reports read these, the insertion reads the packet (as the RTL). */
    uint16_t sl_tgt[SCI_POOL], sl_src[SCI_POOL], sl_tid[SCI_POOL];
    sci_echo_t echoq[SCI_ECHOQ];
    uint32_t byp[SCI_BYP_MEM]; /* bit 16 last symbol of its packet, 15:0 sym */
    uint16_t fr[SCI_FAIL_HDR]; /* the FAIL_REPORT being sent, but its CRC (bcrc) */
} sci_lc_store_t;

/* What the last edge did to the state: left it as it was, or (perhaps) changed it. */
enum sci_edge_effect { SCI_EDGE_SAME = 0, SCI_EDGE_CHANGED };

/* The controller's memories: the packet storage, then the tables.  The LRT, read at every
 * packet's decision, is a bit array (a 32x32 torus's ids fill 8 cache lines of it); the BRT,
 * read only for packets taken, a byte an entry. */
typedef struct sci_lc_ram {
    sci_lc_store_t st;
    uint8_t lrt[SCI_TABLE_ENTRIES / 8u]; /* take bit of entry i: bit i % 8 of byte i / 8 */
    uint8_t brt[SCI_TABLE_ENTRIES];      /* B-link port */
} sci_lc_ram_t;

typedef struct sci_lc {
    SCI_ALIGN64 sci_lc_state_t s; /* the registers, their first cache line first */
    sci_variant_t variant;
    /* What a step knows of the steps before it (none of it is state of the controller): the
     * last edge's effect (SCI_EDGE_SAME only when known: by a comparison, made when the
     * next edge may be the same one again, or because the controller was at rest); that the
     * edge with the inputs last_in is known to leave the state as it is; that every register
     * but CTRL and TADDR holds its reset value; that the packet storage is all zero. */
    bool stable, fresh, store_clean;
    uint8_t effect; /* enum sci_edge_effect */
    sci_lc_in_t last_in;
    sci_lc_ram_t *ram; /* its memories (sci_lc_init) */
} sci_lc_t;

/* Power-on: as a reset, the memories ram (which the controller uses from now on) cleared,
 * tables 0. */
void sci_lc_init(sci_lc_t *lc, sci_lc_ram_t *ram, sci_variant_t v);
/* One edge; returns false when it was known to change nothing (at rest, or the inputs of the
 * last edge, which changed nothing) and did not run, true when it ran. */
bool sci_lc_step(sci_lc_t *lc, const sci_lc_in_t *in);
/* Whether the last edge is known to have left every state (registers, packet storage, tables)
 * as it was (a false answer may be wrong; a true one never is). */
bool sci_lc_settled(const sci_lc_t *lc);
/* The outputs that are registers, read where a node or a fabric reads them every cycle. */
/* A register write with byte strobes (as RN1's): byte k of wdata replaces byte k of old where
 * bit k of wstrb is set. The controller's and the node's registers both write this way. */
static inline uint64_t sci_wstrb_merge(uint64_t old, uint64_t wdata, uint8_t wstrb)
{
    uint64_t mask = 0;
    for (unsigned k = 0; k < 8u; k++)
        if (wstrb >> k & 1u)
            mask |= (uint64_t)0xFFu << (8u * k);
    return (old & ~mask) | (wdata & mask);
}

static inline bool sci_lc_link_flag(const sci_lc_t *lc) { return lc->s.out_flag; }
static inline uint16_t sci_lc_link_sym(const sci_lc_t *lc) { return lc->s.out_sym; }
/* Always 1: a powered-down node is the harness's. */
static inline bool sci_lc_link_sd(const sci_lc_t *lc)
{
    (void)lc;
    return true;
}
static inline bool sci_lc_irq(const sci_lc_t *lc) { return lc->s.irq; }
/* Down (rtl/sci_node.md section 6): STATUS[0] (ring up) is 0 or STATUS[2] (disabled) is 1. */
static inline bool sci_lc_down(const sci_lc_t *lc) { return !lc->s.ring_up || !lc->s.enable; }
bool sci_lc_bin_ready(const sci_lc_t *lc);
bool sci_lc_bout_valid(const sci_lc_t *lc);
uint16_t sci_lc_bout_sym(const sci_lc_t *lc);
bool sci_lc_bout_last(const sci_lc_t *lc);
uint8_t sci_lc_bout_port(const sci_lc_t *lc); /* BRT of the head packet (D11) */
uint64_t sci_lc_reg_read(const sci_lc_t *lc, uint8_t addr);
uint64_t sci_lc_debug(const sci_lc_t *lc); /* DBG register */
/* Whether two blocks of n bytes (a multiple of 8) are equal: the registers' compare. */
bool sci_same_words(const void *a, const void *b, unsigned n);

/* The controller's state elements, as its upset map names them (rtl/sci_lc.md section 8): one
 * per register or flip-flop group of rtl/sci_lc.v, in that map's order. */
enum sci_lc_elem {
    SCI_E_NODE,
    SCI_E_ENABLE,
    SCI_E_SCRUB,
    SCI_E_BUSYLIM,
    SCI_E_RETRYLIM,
    SCI_E_TIMEOUT,
    SCI_E_TADDR,
    SCI_E_LRT,
    SCI_E_BRT,
    SCI_E_NCRC,
    SCI_E_NSCRUB,
    SCI_E_NBUSY,
    SCI_E_NFAIL,
    SCI_E_IRQ,
    SCI_E_RINGUP,
    SCI_E_CABLE,
    SCI_E_PARSER,
    SCI_E_PIPE,
    SCI_E_PIDX,
    SCI_E_PCRC,
    SCI_E_PANS,
    SCI_E_PSRC,
    SCI_E_PTID,
    SCI_E_PTYPE,
    SCI_E_PSLOT,
    SCI_E_PRESV,
    SCI_E_RXHEAD,
    SCI_E_RXTAIL,
    SCI_E_RXCNT,
    SCI_E_RXLEN,
    SCI_E_RXMEM,
    SCI_E_POOLST,
    SCI_E_POOLLEN,
    SCI_E_POOLBUSY,
    SCI_E_POOLRETRY,
    SCI_E_POOLTMR,
    SCI_E_POOLRUN,
    SCI_E_POOLRTX,
    SCI_E_POOLTGT,
    SCI_E_POOLSRC,
    SCI_E_POOLTID,
    SCI_E_POOLMEM,
    SCI_E_SQ,
    SCI_E_SQHEAD,
    SCI_E_SQTAIL,
    SCI_E_SQCNT,
    SCI_E_BIFILL,
    SCI_E_BISLOT,
    SCI_E_BIIDX,
    SCI_E_EQ,
    SCI_E_EQHEAD,
    SCI_E_EQTAIL,
    SCI_E_EQCNT,
    SCI_E_BYPMEM,
    SCI_E_BYPHEAD,
    SCI_E_BYPTAIL,
    SCI_E_BYPCNT,
    SCI_E_LOUT,
    SCI_E_IDLEDUE,
    SCI_E_INSKIND,
    SCI_E_INSIDX,
    SCI_E_INSLEN,
    SCI_E_INSSLOT,
    SCI_E_INSTYPE,
    SCI_E_INSTID,
    SCI_E_INSCRC,
    SCI_E_BOKIND,
    SCI_E_BOIDX,
    SCI_E_BOLEN,
    SCI_E_BOREP,
    SCI_E_BOCRC,
    SCI_E_BOPORT,
    SCI_E_FAIL,
    SCI_E_FAILRSN,
    SCI_E_SDLOW,
    SCI_E_SDHIGH,
    SCI_E_CLEAN,
    SCI_E_N
};

/* An upset: bit `bit` of entry `index` (0 for one register) of element `elem` flips, now,
 * between two edges: the outputs and registers read from now on show it. */
void sci_lc_upset(sci_lc_t *lc, unsigned elem, unsigned index, unsigned bit);
/* In which entries bit `bit` of element `elem` holds a live value now: one a later cycle reads
 * before it is overwritten (a queued packet's symbols, an active buffer's counts, the answer
 * owed by the packet in stage 3). Up to `max` indices into idx; returns how many there are (an
 * element with one entry: 1 or 0), or -1 for an element whose every bit is read every cycle.
 * A search aid for upset checks: a flip where nothing is live is overwritten unread. */
int sci_lc_live(const sci_lc_t *lc, unsigned elem, unsigned bit, uint32_t *idx, unsigned max);

/* Pure helpers. */
uint16_t sci_crc16(const uint16_t *sym, unsigned n);
/* Build a packet into out[SCI_MAX_PKT]; returns its symbol count (5..37),
 * 0 if npay > 32.  command = type << 8 (mark 0). */
unsigned sci_packet_build(uint16_t *out, uint16_t target, uint8_t type, uint16_t source,
                          uint16_t tid, const uint16_t *payload, unsigned npay);
unsigned sci_lc_table_index(const sci_lc_t *lc, uint16_t target_id);
/* The table entry a register write of `reg` (SCI_REG_LRT or SCI_REG_BRT, byte 0 enabled) with
 * TADDR = taddr sets, set to what that write would store, without a clock edge: the tables
 * are RAMs, and a harness loading thousands of entries at creation writes them directly.
 * The registers, TADDR included, are untouched. */
void sci_lc_table_load(sci_lc_t *lc, uint16_t taddr, uint8_t reg, uint64_t value);

#endif /* SCI_LC_H */
