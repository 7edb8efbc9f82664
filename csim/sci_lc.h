/*
 * sci_lc.h - cycle-accurate C reference model of one SCI link controller
 * (Dolphin LC3, and its dual-address successor P2S).
 *
 * Behaviour: shared/spec/sci.md sections 1, 2 and 4.  Block contract (link
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
 * Storage: everything lives inside sci_lc_t (the P2S tables, 2 x 8192
 * entries of LRT and BRT, included, about 40 KB); sci_lc_step allocates
 * nothing and does no I/O.  The tables are kept apart from the per-cycle
 * state (sci_lc_state_t) so that a step copies only the latter.
 */
#ifndef SCI_LC_H
#define SCI_LC_H

#include <stdbool.h>
#include <stdint.h>

/* Link symbols (sci_lc.md section 1). */
#define SCI_RDI_BIT      0x8000u /* ring-down idle: flag 0, 0x8000 | id */
#define SCI_ID_MASK      0x1FFFu /* node id bits [12:0] */
#define SCI_ADDR_SEL     0x4000u /* targetId bit 14: P2S address select */
#define SCI_MARK         0x0080u /* command bit 7: scrubber mark */

/* Packet layout (sci_lc.md section 2). */
#define SCI_HDR_SYMS     4u  /* targetId, command, sourceId, tid */
#define SCI_MAX_PAYLOAD  32u
#define SCI_MAX_PKT      (SCI_HDR_SYMS + SCI_MAX_PAYLOAD + 1u) /* 37 */
#define SCI_MIN_PKT      (SCI_HDR_SYMS + 1u)                   /* 5 */

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
#define SCI_CTRL_P2SSEL_BIT   18
#define SCI_CTRL_BUSYLIM_LSB  24
#define SCI_CTRL_RETRYLIM_LSB 32
#define SCI_CTRL_TIMEOUT_LSB  48
#define SCI_CTRL_MASK 0xFFFF00FFFF071FFFull

/* Input parser states (debug [3:0]). */
enum sci_parse {
    SCI_P_IDLE = 0,
    SCI_P_BYPASS = 1,
    SCI_P_TAKE = 2,
    SCI_P_DISCARD = 3,
    SCI_P_ECHO = 4
};

typedef enum sci_variant { SCI_LC3 = 0, SCI_P2S = 1 } sci_variant_t;

/* Sizes inside the controller (sci.md section 2, sci_lc.md section 3). */
#define SCI_RXQ      8u
#define SCI_SENDQ    8u
#define SCI_ACTIVE   4u
#define SCI_ECHOQ    8u   /* D8 */
#define SCI_FAILQ    16u  /* D9 */
#define SCI_BYP_CAP  40u
#define SCI_HDR_DELAY 3u  /* D1: header delay line before the decision stage */
#define SCI_RDOWN_CYCLES 4u
#define SCI_RUP_CYCLES   64u
#define SCI_TABLE_ENTRIES 16384u /* P2S: 2 sets x 8192; LC3 uses 256 */
#define SCI_FAIL_PKT 9u /* FAIL_REPORT: 4 header + 4 payload + CRC */

typedef struct sci_lc_in {
    bool     rst_n;     /* synchronous active-low reset (D13) */
    /* Link input from upstream. */
    bool     link_flag;
    uint16_t link_sym;
    bool     link_sd;
    /* B-link toward this LC's send queue: one symbol per cycle, a whole
     * packet including its CRC, last = 1 on the CRC symbol (D10).  A
     * symbol transfers in a cycle where bin_valid and sci_lc_bin_ready. */
    bool     bin_valid;
    uint16_t bin_sym;
    bool     bin_last;
    /* B-link from this LC's receive queue: the node accepts the symbol on
     * sci_lc_bout_* in a cycle where sci_lc_bout_valid and bout_ready. */
    bool     bout_ready;
    /* Register write at this edge (byte strobes as RN1). */
    bool     reg_we;
    uint8_t  reg_waddr;
    uint64_t reg_wdata;
    uint8_t  reg_wstrb;
} sci_lc_in_t;

/* One packet buffer. */
typedef struct sci_pkt {
    uint16_t sym[SCI_MAX_PKT];
    uint8_t  len;
} sci_pkt_t;

/* Active buffer states. */
enum sci_ab_state { SCI_AB_FREE = 0, SCI_AB_SENDING, SCI_AB_WAITING, SCI_AB_RETX };

typedef struct sci_ab {
    sci_pkt_t pkt;
    uint8_t   state;  /* enum sci_ab_state */
    uint16_t  timer;  /* steps since its last symbol went out (WAITING) */
    uint8_t   busy;   /* busy retransmissions so far */
    uint8_t   retry;  /* timeout retransmissions so far */
} sci_ab_t;

/* Everything that changes per cycle. */
typedef struct sci_lc_state {
    /* CTRL. */
    uint16_t node_id;
    bool     enable, scrub, p2s_sel;
    uint8_t  busy_limit, retry_limit;
    uint16_t echo_timeout;
    uint16_t taddr;
    /* Input register and header delay line: bit 16 flag, 15:0 sym. */
    uint32_t in_q;
    bool     sd_q;
    uint32_t dl[SCI_HDR_DELAY]; /* dl[SCI_HDR_DELAY-1] is the decision stage */
    /* Decision stage. */
    uint8_t  parse;      /* enum sci_parse of the packet at the decision stage */
    uint8_t  plen;       /* symbols of it seen so far */
    uint16_t crc;        /* running CRC of it (0 after a good CRC symbol) */
    uint16_t phdr[SCI_HDR_SYMS];
    uint8_t  echo_ab;    /* echo-consume: the matched active buffer */
    uint8_t  rx_slot;    /* take: the reserved receive-queue slot */
    bool     p_scrubbed; /* discard because the scrubber removed it */
    /* Bypass FIFO: bit 16 flag, 15:0 sym. */
    uint32_t byp[SCI_BYP_CAP];
    uint8_t  byp_head, byp_n;
    /* Output register and insertion. */
    bool     out_flag;
    uint16_t out_sym;
    sci_pkt_t ins;       /* the packet being inserted (a copy) */
    uint8_t  ins_pos;    /* next symbol of ins; 0 = not inserting */
    int8_t   ins_ab;     /* active buffer it came from, -1 for an echo */
    bool     need_idle;  /* the idle after an inserted packet is due */
    /* Queues. */
    sci_pkt_t rxq[SCI_RXQ];
    uint8_t  rx_head, rx_n;
    sci_pkt_t sq[SCI_SENDQ];
    uint8_t  sq_head, sq_n, sq_fill; /* sq_fill: symbols of the packet arriving */
    uint16_t echoq[SCI_ECHOQ][SCI_HDR_SYMS]; /* echo header; CRC added on insert */
    uint8_t  eq_head, eq_n;
    uint16_t failq[SCI_FAILQ][SCI_FAIL_PKT];
    uint8_t  fq_head, fq_n;
    uint8_t  fail_reason; /* sticky limit failure still being reported */
    sci_ab_t ab[SCI_ACTIVE];
    /* B-link out. */
    uint8_t  bout_pos;
    uint8_t  bout_src;   /* 1 fail queue, 2 receive queue; valid when bout_pos > 0 */
    /* Ring monitor. */
    uint8_t  sd_low;     /* consecutive cycles of sd = 0 at the input register */
    uint8_t  clean;      /* cycles since sd = 0 or a ring-down idle, sat. 127 */
    bool     orig;       /* originating ring-down idles */
    bool     ring_up;
    bool     irq;        /* CableNotOk pending */
    /* COUNTS (saturating). */
    uint16_t n_crc, n_scrub, n_busy, n_fail;
} sci_lc_state_t;

typedef struct sci_lc {
    sci_variant_t variant;
    uint8_t lrt[SCI_TABLE_ENTRIES]; /* take bit */
    uint8_t brt[SCI_TABLE_ENTRIES]; /* B-link port */
    sci_lc_state_t s;
} sci_lc_t;

void     sci_lc_init(sci_lc_t *lc, sci_variant_t v); /* power-on: as a reset, tables 0 */
void     sci_lc_step(sci_lc_t *lc, const sci_lc_in_t *in);
bool     sci_lc_link_flag(const sci_lc_t *lc);
uint16_t sci_lc_link_sym(const sci_lc_t *lc);
bool     sci_lc_link_sd(const sci_lc_t *lc);   /* always 1: a powered-down node is the harness's */
bool     sci_lc_bin_ready(const sci_lc_t *lc);
bool     sci_lc_bout_valid(const sci_lc_t *lc);
uint16_t sci_lc_bout_sym(const sci_lc_t *lc);
bool     sci_lc_bout_last(const sci_lc_t *lc);
uint8_t  sci_lc_bout_port(const sci_lc_t *lc); /* BRT of the head packet (D11) */
bool     sci_lc_irq(const sci_lc_t *lc);
uint64_t sci_lc_reg_read(const sci_lc_t *lc, uint8_t addr);
uint64_t sci_lc_debug(const sci_lc_t *lc);     /* DBG register */

/* Pure helpers. */
uint16_t sci_crc16_update(uint16_t crc, unsigned pos, uint16_t sym);
uint16_t sci_crc16(const uint16_t *sym, unsigned n);
/* Build a packet into out[SCI_MAX_PKT]; returns its symbol count (5..37),
 * 0 if npay > 32.  command = type << 8 (mark 0). */
unsigned sci_packet_build(uint16_t *out, uint16_t target, uint8_t type,
                          uint16_t source, uint16_t tid,
                          const uint16_t *payload, unsigned npay);
unsigned sci_lc_table_index(const sci_lc_t *lc, uint16_t target_id);

#endif /* SCI_LC_H */
