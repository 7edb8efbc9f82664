/*
 * sci_node.h - cycle-accurate C reference model of one SCI node: the PSB
 * (host adapter), the B-link and 1 or 2 link controllers (csim/sci/sci_lc.h).
 *
 * Block contract: rtl/sci_node.md (this model) and rtl/sci_lc.md (the LCs).
 * Where sci_node.md is silent the choices are listed in sci_node.c
 * ("Decisions", D<n>).
 *
 * Timing (as sci_lc.h): sci_node_t holds the registers.  The output
 * accessors return the values during the current cycle (the registers as
 * left by the last sci_node_step) and never depend on the inputs of the
 * current cycle.  sci_node_step is one rising edge: it reads the inputs of
 * the current cycle, evaluates the node-internal B-link (combinational
 * between the blocks, sci_node.md section 3) from the current registers,
 * steps every LC with its B-link inputs, computes the PSB's next state and
 * commits.
 *
 * Storage: everything lives inside sci_node_t: first the registers that
 * change per cycle (the PSB's, then both LCs'), then the memories (the
 * PSB's FIFOs, the LCs' packet storage and tables, the PSB's BRT of 16384
 * entries and ASEL of 8192); the LCs point at their memories in it, so a
 * sci_node_t is not copied.  sci_node_step allocates nothing and does no
 * I/O.  As in the LC, a step copies aside
 * only the PSB's per-cycle registers (sci_psb_state_t, 48 bytes), writes
 * its FIFOs' packets in place, keeps the tables after both, and returns at
 * once with the inputs of the last step when that one changed nothing; an
 * LC at rest inside a running node costs a few comparisons.
 */
#ifndef SCI_NODE_H
#define SCI_NODE_H

#include <stdbool.h>
#include <stdint.h>

#include "sci_lc.h"

#define SCI_NODE_MAX_LC 2u

/* PSB sizes (sci_node.md section 2). */
#define SCI_PSB_SENDQ        8u /* host send FIFO, packets */
#define SCI_PSB_RECVQ        8u /* receive FIFO toward the host, packets */
#define SCI_PSB_REPLYQ       2u /* reply buffer, packets */
#define SCI_PSB_ASEL_ENTRIES 8192u
#define SCI_REPLY_PKT        7u /* STATUS_REPLY: 4 header + 2 payload + CRC */

/* Node register map (sci_node.md section 4). */
#define SCI_NODE_LC_BASE(k)   ((uint8_t)(0x20u * (k)))
#define SCI_PSB_CTRL          0x80u
#define SCI_PSB_STATUS        0x81u
#define SCI_PSB_TADDR         0x88u
#define SCI_PSB_BRT           0x8Au
#define SCI_PSB_ASEL          0x8Bu
#define SCI_PSB_DBG           0x90u
#define SCI_PSB_FOCOL         0x84u /* P2S failover: [0] valid, [13:8] failed column */
#define SCI_PSB_NTGT          0x85u /* P2S failover: [12:0] where the NOTIFY goes */
#define SCI_PSB_CTRL_FOEN_BIT 16    /* hardware failover on (P2S, two LCs) */
#define SCI_PSB_CTRL_XW_BIT   17    /* id layout: 0 x[3:0] y[7:4]; 1 x[5:0] y[11:6] */

/* PSB CTRL fields. */
#define SCI_PSB_CTRL_TIMEOUT_LSB  32
#define SCI_PSB_CTRL_MASK         0x0000FFFF00031FFFull
#define SCI_PSB_RSR_TIMEOUT_RESET 2000u

/* B-link owners (PSB DBG [2:0]). */
enum sci_blink_owner {
    SCI_OWN_FREE = 0,
    SCI_OWN_LC0 = 1,
    SCI_OWN_LC1 = 2,
    SCI_OWN_REPLY = 3,
    SCI_OWN_HOST = 4
};

/* Number of debug words (sci_node.md section 5) of a node with nlc LCs. */
#define SCI_NODE_DEBUG_WORDS(nlc) (3u * (nlc) + 2u)

/* (Wide fields first: 32 bytes.) */
typedef struct sci_node_in {
    /* Register write at this edge (byte strobes as the LC): reg_we, reg_waddr, reg_wstrb below. */
    uint64_t reg_wdata;
    /* Link inputs of LC k: lin_flag, lin_sd below. */
    uint16_t lin_sym[SCI_NODE_MAX_LC];
    /* Host -> PSB send FIFO: a symbol moves when hin_valid and sci_node_hin_ready. */
    uint16_t hin_sym;
    bool hin_valid;
    bool hin_last;
    bool lin_flag[SCI_NODE_MAX_LC];
    bool lin_sd[SCI_NODE_MAX_LC];
    /* PSB receive FIFO -> host: a symbol moves when sci_node_hout_valid and hout_ready. */
    bool hout_ready;
    bool rst_n; /* synchronous active-low reset, to the PSB and every LC */
    bool reg_we;
    uint8_t reg_waddr;
    uint8_t reg_wstrb;
} sci_node_in_t;

/* One PSB packet buffer (the LC's buffer types are its own business). */
typedef struct sci_node_pkt {
    uint16_t sym[SCI_MAX_PKT];
    uint8_t len;
} sci_node_pkt_t;

/* Everything of the PSB that changes per cycle (the packets and the tables are apart).  Wide
 * fields first and a size that is a multiple of 8: no padding, a step compares it as one
 * block of 64-bit words. */
typedef struct sci_psb_state {
    /* CTRL, TADDR. */
    uint16_t node_id;
    uint16_t rsr_timeout;
    uint16_t taddr;
    /* Remote-read timer. */
    uint16_t rr_timer; /* cycles left; 0 when disarmed or expired */
    uint16_t rr_tid, rr_target, rr_lc;
    /* STATUS.discarded (saturating). */
    uint16_t discarded;
    uint16_t ntgt; /* P2S failover: the NOTIFY target */
    /* Host send FIFO; sf_fill: symbols of the packet arriving from the host. */
    uint8_t sf_head, sf_n, sf_fill;
    /* Receive FIFO; rf_fill: symbols of the packet arriving on the B-link,
     * rf_pos: symbols of the head already taken by the host. */
    uint8_t rf_head, rf_n, rf_fill, rf_pos;
    /* Reply buffer. */
    uint8_t rb_head, rb_n;
    bool rb_tmo[SCI_PSB_REPLYQ]; /* a timeout reply: to port 0 as it is */
    /* B-link: the packet under way (owner SCI_OWN_FREE when none). */
    uint8_t own;   /* enum sci_blink_owner */
    uint8_t port;  /* its destination port */
    uint8_t moved; /* symbols of it moved */
    bool rr_armed;
    /* P2S hardware failover (sci_node.md section 6). */
    bool fo_en, xw;
    bool focol_valid;
    uint8_t focol;  /* failed column */
    bool ydown_q;   /* LC 1 down, registered (reset 1) */
    bool yup_seen;  /* LC 1 has been up since reset */
    bool nt_owed;   /* a NOTIFY is owed (it carries ydown_q: the state of the latest change) */
    uint8_t pad[8]; /* always 0: fills the struct to a multiple of 8 bytes */
} sci_psb_state_t;

/* The PSB's packets: written in place by a step, read only while the registers say an entry
 * holds a packet. */
typedef struct sci_psb_store {
    sci_node_pkt_t sf[SCI_PSB_SENDQ];
    sci_node_pkt_t rf[SCI_PSB_RECVQ];
    sci_node_pkt_t rb[SCI_PSB_REPLYQ];
} sci_psb_store_t;

typedef struct sci_node {
    sci_variant_t variant;
    unsigned nlc;
    /* What a step knows of the steps before it, as the LC's (sci_lc.h): the last edge's
     * effect on the node (enum sci_edge_effect), that the edge with the inputs last_in leaves
     * it as it is; that every PSB register but the kept configuration holds its reset value;
     * that the PSB's packet storage is all zero. */
    bool stable, fresh, store_clean;
    uint8_t effect;
    sci_node_in_t last_in;
    sci_psb_state_t s; /* the PSB's registers */
    sci_lc_t lc[SCI_NODE_MAX_LC];
    /* The memories. */
    sci_psb_store_t st;
    sci_lc_ram_t lc_ram[SCI_NODE_MAX_LC];
    uint8_t brt[SCI_TABLE_ENTRIES];     /* PSB BRT: B-link port */
    uint8_t asel[SCI_PSB_ASEL_ENTRIES]; /* PSB address select (P2S) */
} sci_node_t;

void sci_node_init(sci_node_t *n, sci_variant_t v, unsigned nlc); /* nlc 1 or 2; tables 0 */
/* One edge; returns false when it was known to change nothing (the inputs of the last edge,
 * which changed nothing) and did not run, true when it ran. */
bool sci_node_step(sci_node_t *n, const sci_node_in_t *in);
/* Whether the last edge is known to have left every state of the node (PSB, LCs, storage,
 * tables) as it was (a false answer may be wrong; a true one never is). */
bool sci_node_settled(const sci_node_t *n);

/* The outputs, registers all, read where a device reads them after every edge. Ports of a
 * missing LC (k >= NLC): link flag 0, sym 0, sd 0, irq 0 (D19). */
static inline bool sci_node_link_flag(const sci_node_t *n, unsigned k)
{
    return k < n->nlc && sci_lc_link_flag(&n->lc[k]);
}
static inline uint16_t sci_node_link_sym(const sci_node_t *n, unsigned k)
{
    return k < n->nlc ? sci_lc_link_sym(&n->lc[k]) : 0;
}
static inline bool sci_node_link_sd(const sci_node_t *n, unsigned k)
{
    return k < n->nlc && sci_lc_link_sd(&n->lc[k]);
}
static inline bool sci_node_irq(const sci_node_t *n, unsigned k)
{
    return k < n->nlc && sci_lc_irq(&n->lc[k]);
}
static inline bool sci_node_hin_ready(const sci_node_t *n) { return n->s.sf_n < SCI_PSB_SENDQ; }
static inline bool sci_node_hout_valid(const sci_node_t *n) { return n->s.rf_n != 0; }
static inline uint16_t sci_node_hout_sym(const sci_node_t *n)
{
    return n->s.rf_n ? n->st.rf[n->s.rf_head].sym[n->s.rf_pos] : 0;
}
static inline bool sci_node_hout_last(const sci_node_t *n)
{
    return n->s.rf_n && n->s.rf_pos + 1u >= n->st.rf[n->s.rf_head].len;
}
uint64_t sci_node_reg_read(const sci_node_t *n, uint8_t addr); /* sci_node.md section 4 */

/* The debug words of sci_node.md section 5 into w[SCI_NODE_DEBUG_WORDS(nlc)]:
 * per LC k STATUS, COUNTS, DBG, then PSB STATUS, PSB DBG.  Returns the count. */
unsigned sci_node_debug(const sci_node_t *n, uint64_t *w);

/* A table entry loaded without a clock edge, as sci_lc_table_load: `reg` is a table's data
 * register in the node's map (LC k's LRT or BRT at 0x20 k, PSB BRT or ASEL), taddr the TADDR a
 * configuration cycle would have written before it. Registers are untouched. */
void sci_node_table_load(sci_node_t *n, uint8_t reg, uint16_t taddr, uint64_t value);

/* The PSB's state elements as the node's upset map names them (rtl/sci_node.md section 8), in
 * its order: those this model keeps as the RTL does, then those it keeps otherwise (the FIFOs,
 * the reply buffer, the B-link and the packet arriving for port 0: RTL-only elements, which it
 * neither flips nor runs), then P2S's address select, then the failover registers (P2S with
 * two LCs). A map lists the first three groups, ASEL on P2S, failover with it. */
enum sci_psb_elem {
    SCI_PE_NODE,
    SCI_PE_TIMEOUT,
    SCI_PE_TADDR,
    SCI_PE_BRT,
    SCI_PE_DISC,
    SCI_PE_ARMED,
    SCI_PE_TMR,
    SCI_PE_RTID,
    SCI_PE_RTGT,
    SCI_PE_RLC,
    SCI_PE_OWN,
    SCI_PE_DPORT,
    SCI_PE_BCNT,
    SCI_PE_SFHEAD,
    SCI_PE_SFTAIL,
    SCI_PE_SFCNT,
    SCI_PE_SFLEN,
    SCI_PE_SFFILL,
    SCI_PE_SFWIDX,
    SCI_PE_SFMEM,
    SCI_PE_RFHEAD,
    SCI_PE_RFTAIL,
    SCI_PE_RFCNT,
    SCI_PE_RFLEN,
    SCI_PE_RFMEM,
    SCI_PE_HOIDX,
    SCI_PE_RBKIND,
    SCI_PE_RB,
    SCI_PE_RBHEAD,
    SCI_PE_RBTAIL,
    SCI_PE_RBCNT,
    SCI_PE_RXTYPE,
    SCI_PE_RXSRC,
    SCI_PE_RXTID,
    SCI_PE_RXLC,
    SCI_PE_ASEL,
    SCI_PE_FOEN,
    SCI_PE_XW,
    SCI_PE_FOVALID,
    SCI_PE_FOCOL,
    SCI_PE_NTGT,
    SCI_PE_YDOWN,
    SCI_PE_YSEEN,
    SCI_PE_NTOWED,
    SCI_PE_N
};
#define SCI_PE_FIRST_RTL SCI_PE_OWN /* SCI_PE_OWN .. SCI_PE_RXLC: RTL-only */

/* An upset of LC k's element `elem` (csim/sci/sci_lc.h), or of the PSB's (k == nlc): bit `bit`
 * of entry `index` flips now, between two edges. Returns -1 for an RTL-only PSB element. */
int sci_node_upset(sci_node_t *n, unsigned k, unsigned elem, unsigned index, unsigned bit);
/* Where bit `bit` of LC k's element (or the PSB's, k == nlc) holds a live value now, as
 * sci_lc_live (for an RTL-only PSB element, where the state this model keeps for it does). */
int sci_node_live(const sci_node_t *n, unsigned k, unsigned elem, unsigned bit, uint32_t *idx,
                  unsigned max);

#endif /* SCI_NODE_H */
