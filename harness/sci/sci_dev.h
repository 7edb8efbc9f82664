/* sci_dev.h — LC3/P2S and the SCI nodes as ftsim devices: port numbering, register lists and
 * what both implementations share. All six are fixed designs (dev.h): static constants. */
#ifndef FTSIM_SCI_DEV_H
#define FTSIM_SCI_DEV_H

#include "dev.h"
#include "sci_lc.h"

/* Port numbers in the lc3/p2s designs (the order of their port table). */
enum {
    SCI_P_LIN,
    SCI_P_LIN_SD,
    SCI_P_BIN,
    SCI_P_BOUT_READY,
    SCI_P_LOUT,
    SCI_P_LOUT_SD,
    SCI_P_BIN_READY,
    SCI_P_BOUT,
    SCI_P_BOUT_PORT,
    SCI_P_IRQ,
    SCI_P_N
};

extern const dev_design_t lc3_design, p2s_design;

/* The LC's registers (rtl/sci_lc.md) as dev_reg_t initializers: one list for the lc3/p2s
 * designs and for the nodes that hold one or two LCs, whose names take the prefix PRE ("", or
 * "x." and "y." in a torus node) and whose addresses are offset by OFF (the LC's place in the
 * node's map). */
/* A table fragment, one entry a line. */
// clang-format off
#define SCI_LC_REGS(PRE, OFF)                                              \
    {PRE "node", (OFF) + 0x00, 0, 13, DEV_REG_CONFIG, 0, NULL},            \
    {PRE "enable", (OFF) + 0x00, 16, 1, DEV_REG_CONFIG, 1, NULL},          \
    {PRE "scrubber", (OFF) + 0x00, 17, 1, DEV_REG_CONFIG, 0, NULL},        \
    {PRE "busy_limit", (OFF) + 0x00, 24, 8, DEV_REG_CONFIG, 8, NULL},      \
    {PRE "retry_limit", (OFF) + 0x00, 32, 8, DEV_REG_CONFIG, 4, NULL},     \
    {PRE "echo_timeout", (OFF) + 0x00, 48, 16, DEV_REG_CONFIG, 200, NULL}, \
    {PRE "ring_up", (OFF) + 0x01, 0, 1, DEV_REG_RO, 0, NULL},              \
    {PRE "cable_ok", (OFF) + 0x01, 1, 1, DEV_REG_RO, 0, NULL},             \
    {PRE "disabled", (OFF) + 0x01, 2, 1, DEV_REG_RO, 0, NULL},             \
    {PRE "irq_pending", (OFF) + 0x01, 3, 1, DEV_REG_RO, 0, NULL},          \
    {PRE "active", (OFF) + 0x01, 4, 4, DEV_REG_RO, 0, NULL},               \
    {PRE "sendq", (OFF) + 0x01, 8, 4, DEV_REG_RO, 0, NULL},                \
    {PRE "rxq", (OFF) + 0x01, 12, 4, DEV_REG_RO, 0, NULL},                 \
    {PRE "irq_clear", (OFF) + 0x02, 3, 1, 0, 0, NULL},                     \
    {PRE "crc_errors", (OFF) + 0x03, 0, 16, DEV_REG_RO, 0, NULL},          \
    {PRE "scrubbed", (OFF) + 0x03, 16, 16, DEV_REG_RO, 0, NULL},           \
    {PRE "busy_sent", (OFF) + 0x03, 32, 16, DEV_REG_RO, 0, NULL},          \
    {PRE "failures", (OFF) + 0x03, 48, 16, DEV_REG_RO, 0, NULL},           \
    {PRE "taddr", (OFF) + 0x08, 0, 14, 0, 0, NULL},                        \
    {PRE "lrt", (OFF) + 0x09, 0, 1, 0, 0, NULL},                           \
    {PRE "brt", (OFF) + 0x0A, 0, 3, 0, 0, NULL},                           \
    {PRE "parser", (OFF) + 0x10, 0, 4, DEV_REG_RO, 0, NULL},               \
    {PRE "bypass_level", (OFF) + 0x10, 4, 6, DEV_REG_RO, 0, NULL},         \
    {PRE "dbg", (OFF) + 0x10, 0, 64, DEV_REG_RO, 0, NULL}
// clang-format on

/* The LC's upset map (rtl/sci_lc.md section 8): one entry per element of csim/sci/sci_lc.h's
 * enum sci_lc_elem, in its order, names prefixed as the registers (PRE), tables of T entries
 * (256 on LC3, 16384 on P2S). The notes say what a value no state uses does. */
#define SCI_NOTE_PARSER                                                                        \
    "codes 5 to 15: the packet's symbols are neither bypassed nor taken nor answered (lost), " \
    "until the next idle"
#define SCI_NOTE_SLOTNO                                                                        \
    "12 to 15 name no buffer: an echo acts on none, an insertion reads length 0 (64 symbols) " \
    "and ids 0 from storage no buffer uses"
#define SCI_NOTE_COUNT                                                                       \
    "beyond the queue's size: the queue acts as holding that many (it sends stale entries, " \
    "takes or answers only below its size; assertions QueueNoOverflow_A, BypassFifoBound_A)"
#define SCI_NOTE_LEN "0 is 64: the 6-bit count wraps"
#define SCI_NOTE_STATE                                                                       \
    "every code is a state: 0 free, 1 filling, 2 queued (not in the send queue: it stays), " \
    "3 active (assertions SendQueueIsQueued_A, ActiveBufBound_A)"
#define SCI_NOTE_INSKIND "3: inserts a buffer's symbols as 2 does, but loads no echo timer"
#define SCI_NOTE_BOKIND \
    "3: sends the receive queue's head as 1 does, but does not take it from the queue"
#define SCI_NOTE_SDLOW \
    "5 to 7: not originating; it counts on while signal detect is 0 and wraps to 0"
/* A table fragment, one entry a line. */
// clang-format off
#define SCI_LC_UPSETS(PRE, T, SCOPE)                                                                \
    {PRE "node", 13, 0, 0, "cfg_q[12:0]", "node_id", NULL, NULL, NULL, SCOPE "u_ctrl.q_o[B]"},      \
    {PRE "enable", 1, 0, 0, "cfg_q[16]", "enable", NULL, NULL, NULL, SCOPE "u_ctrl.q_o[16+B]"},     \
    {PRE "scrubber", 1, 0, 0, "cfg_q[17]", "scrub", NULL, NULL, NULL, SCOPE "u_ctrl.q_o[17+B]"},    \
    {PRE "busy_limit", 8, 0, 0, "cfg_q[31:24]", "busy_limit", NULL, NULL, NULL,                     \
     SCOPE "u_ctrl.q_o[24+B]"},                                                                     \
    {PRE "retry_limit", 8, 0, 0, "cfg_q[39:32]", "retry_limit", NULL, NULL, NULL,                   \
     SCOPE "u_ctrl.q_o[32+B]"},                                                                     \
    {PRE "echo_timeout", 16, 0, 0, "cfg_q[63:48]", "echo_timeout", NULL, NULL, NULL,                \
     SCOPE "u_ctrl.q_o[48+B]"},                                                                     \
    {PRE "taddr", 14, 0, 0, "taddr_q", "taddr", NULL, NULL, NULL, SCOPE "u_taddr.q_o[B]"},          \
    {PRE "lrt", 1, 0, T, "lrt_mem", "ram.lrt (a bit an entry)", NULL, PRE "taddr", PRE "lrt",       \
     SCOPE "lrt_mem[I][B]"},                                                                        \
    {PRE "brt", 3, 0, T, "brt_mem", "ram.brt", NULL, PRE "taddr", PRE "brt",                        \
     SCOPE "brt_mem[I][B]"},                                                                        \
    {PRE "crc_errors", 16, 0, 0, "cnt_crc_q", "n_crc", NULL, NULL, NULL, SCOPE "cnt_crc_q[B]"},     \
    {PRE "scrubbed", 16, 0, 0, "cnt_scrub_q", "n_scrub", NULL, NULL, NULL,                          \
     SCOPE "cnt_scrub_q[B]"},                                                                       \
    {PRE "busy_sent", 16, 0, 0, "cnt_busy_q", "n_busy", NULL, NULL, NULL, SCOPE "cnt_busy_q[B]"},   \
    {PRE "failures", 16, 0, 0, "cnt_fail_q", "n_fail", NULL, NULL, NULL, SCOPE "cnt_fail_q[B]"},    \
    {PRE "irq_pending", 1, 0, 0, "irq_q", "irq", NULL, NULL, NULL, SCOPE "irq_q[B]"},               \
    {PRE "ring_up", 1, 0, 0, "ring_up_q", "ring_up", NULL, NULL, NULL, SCOPE "ring_up_q[B]"},       \
    {PRE "cable_ok", 1, 0, 0, "sd_in_q", "sd_q", NULL, NULL, NULL, SCOPE "sd_in_q[B]"},             \
    {PRE "parser", 4, 0, 0, "ps_q", "parse", SCI_NOTE_PARSER, NULL, NULL, SCOPE "ps_q[B]"},         \
    {PRE "pipe", 17, 0, 4, "p0_q .. p3_q", "pipe[I]", NULL, NULL, NULL, SCOPE "p{I}_q[B]"},         \
    {PRE "pkt.idx", 6, 0, 0, "idx_q", "idx", "63 wraps to 0", NULL, NULL, SCOPE "idx_q[B]"},        \
    {PRE "pkt.crc", 16, 0, 0, "crc_q", "crc", NULL, NULL, NULL, SCOPE "crc_q[B]"},                  \
    {PRE "pkt.answer", 2, 0, 0, "pk_ans_q", "ans", NULL, NULL, NULL, SCOPE "pk_ans_q[B]"},          \
    {PRE "pkt.src", 16, 0, 0, "pk_src_q", "p_src", NULL, NULL, NULL, SCOPE "pk_src_q[B]"},          \
    {PRE "pkt.tid", 16, 0, 0, "pk_tid_q", "p_tid", NULL, NULL, NULL, SCOPE "pk_tid_q[B]"},          \
    {PRE "pkt.type", 8, 0, 0, "pk_type_q", "p_type", NULL, NULL, NULL, SCOPE "pk_type_q[B]"},       \
    {PRE "pkt.slot", 4, 0, 0, "pk_slot_q", "p_slot", SCI_NOTE_SLOTNO, NULL, NULL,                   \
     SCOPE "pk_slot_q[B]"},                                                                         \
    {PRE "pkt.resv", 1, 0, 0, "resv_q", "resv", NULL, NULL, NULL, SCOPE "resv_q[B]"},               \
    {PRE "rxq.head", 3, 0, 0, "rq_head_q", "rx_head", NULL, NULL, NULL, SCOPE "rq_head_q[B]"},      \
    {PRE "rxq.tail", 3, 0, 0, "rq_tail_q", "rx_tail", NULL, NULL, NULL, SCOPE "rq_tail_q[B]"},      \
    {PRE "rxq.count", 4, 0, 0, "rq_cnt_q", "rx_n", SCI_NOTE_COUNT, NULL, NULL,                      \
     SCOPE "rq_cnt_q[B]"},                                                                          \
    {PRE "rxq.len", 6, 0, 8, "rq_len_q[I*6 +: 6]", "st.rxq[I].len", SCI_NOTE_LEN, NULL, NULL,       \
     SCOPE "rq_len_q[I*6+B]"},                                                                      \
    {PRE "rxq.mem", 16, 0, 512, "rq_mem (64 a packet)", "st.rxq[I/64].sym[I%64]", NULL, NULL,       \
     NULL, SCOPE "rq_mem[I][B]"},                                                                   \
    {PRE "pool.state", 2, 0, 12, "sl_q[I*42+40 +: 2]", "m_fill, m_queued, m_active",                \
     SCI_NOTE_STATE, NULL, NULL, SCOPE "sl_q[I*42+40+B]"},                                          \
    {PRE "pool.len", 6, 0, 12, "sl_q[I*42+34 +: 6]", "len[I]", SCI_NOTE_LEN, NULL, NULL,            \
     SCOPE "sl_q[I*42+34+B]"},                                                                      \
    {PRE "pool.busy", 8, 0, 12, "sl_q[I*42+26 +: 8]", "busy[I]", NULL, NULL, NULL,                  \
     SCOPE "sl_q[I*42+26+B]"},                                                                      \
    {PRE "pool.retry", 8, 0, 12, "sl_q[I*42+18 +: 8]", "retry[I]", NULL, NULL, NULL,                \
     SCOPE "sl_q[I*42+18+B]"},                                                                      \
    {PRE "pool.timer", 16, 0, 12, "sl_q[I*42+2 +: 16]", "timer[I]", NULL, NULL, NULL,               \
     SCOPE "sl_q[I*42+2+B]"},                                                                       \
    {PRE "pool.run", 1, 0, 12, "sl_q[I*42+1]", "m_timer bit I", NULL, NULL, NULL,                   \
     SCOPE "sl_q[I*42+1+B]"},                                                                       \
    {PRE "pool.rtx", 1, 0, 12, "sl_q[I*42]", "m_rtx bit I", NULL, NULL, NULL,                       \
     SCOPE "sl_q[I*42+B]"},                                                                         \
    {PRE "pool.target", 16, 0, 12, "sl_tgt_q[I*16 +: 16]", "st.sl_tgt[I]", NULL, NULL, NULL,        \
     SCOPE "sl_tgt_q[I*16+B]"},                                                                     \
    {PRE "pool.source", 16, 0, 12, "sl_src_q[I*16 +: 16]", "st.sl_src[I]", NULL, NULL, NULL,        \
     SCOPE "sl_src_q[I*16+B]"},                                                                     \
    {PRE "pool.tid", 16, 0, 12, "sl_tid_q[I*16 +: 16]", "st.sl_tid[I]", NULL, NULL, NULL,           \
     SCOPE "sl_tid_q[I*16+B]"},                                                                     \
    {PRE "pool.mem", 16, 0, 1024, "pm_mem (64 a slot number)", "st.slot[I/64][I%64]", NULL, NULL,   \
     NULL, SCOPE "pm_mem[I][B]"},                                                                   \
    {PRE "sendq", 4, 0, 8, "sq_q[I*4 +: 4]", "sq[I]", SCI_NOTE_SLOTNO, NULL, NULL,                  \
     SCOPE "sq_q[I*4+B]"},                                                                          \
    {PRE "sendq.head", 3, 0, 0, "sq_head_q", "sq_head", NULL, NULL, NULL, SCOPE "sq_head_q[B]"},    \
    {PRE "sendq.tail", 3, 0, 0, "sq_tail_q", "sq_tail", NULL, NULL, NULL, SCOPE "sq_tail_q[B]"},    \
    {PRE "sendq.count", 4, 0, 0, "sq_cnt_q", "sq_n", SCI_NOTE_COUNT, NULL, NULL,                    \
     SCOPE "sq_cnt_q[B]"},                                                                          \
    {PRE "blin.fill", 1, 0, 0, "bi_fill_q", "bi_fill", NULL, NULL, NULL, SCOPE "bi_fill_q[B]"},     \
    {PRE "blin.slot", 4, 0, 0, "bi_slot_q", "bi_slot", SCI_NOTE_SLOTNO, NULL, NULL,                 \
     SCOPE "bi_slot_q[B]"},                                                                         \
    {PRE "blin.idx", 6, 0, 0, "bi_idx_q", "bi_idx", "63 wraps to 0", NULL, NULL,                    \
     SCOPE "bi_idx_q[B]"},                                                                          \
    {PRE "echoq", 40, 0, 8, "eq_q[I*40 +: 40] {type, target, tid}", "st.echoq[I]", NULL, NULL,      \
     NULL, SCOPE "eq_q[I*40+B]"},                                                                   \
    {PRE "echoq.head", 3, 0, 0, "eq_head_q", "eq_head", NULL, NULL, NULL, SCOPE "eq_head_q[B]"},    \
    {PRE "echoq.tail", 3, 0, 0, "eq_tail_q", "eq_tail", NULL, NULL, NULL, SCOPE "eq_tail_q[B]"},    \
    {PRE "echoq.count", 4, 0, 0, "eq_cnt_q", "eq_n", SCI_NOTE_COUNT, NULL, NULL,                    \
     SCOPE "eq_cnt_q[B]"},                                                                          \
    {PRE "bypass.mem", 17, 0, 64, "bf_mem {last, sym}", "st.byp[I]", NULL, NULL, NULL,              \
     SCOPE "bf_mem[I][B]"},                                                                         \
    {PRE "bypass.head", 6, 0, 0, "bf_head_q", "byp_head", NULL, NULL, NULL, SCOPE "bf_head_q[B]"},  \
    {PRE "bypass.tail", 6, 0, 0, "bf_tail_q", "byp_tail", NULL, NULL, NULL, SCOPE "bf_tail_q[B]"},  \
    {PRE "bypass.count", 7, 0, 0, "bf_cnt_q", "byp_n", SCI_NOTE_COUNT, NULL, NULL,                  \
     SCOPE "bf_cnt_q[B]"},                                                                          \
    {PRE "lout", 17, 0, 0, "lout_q {flag, sym}", "out_flag, out_sym", NULL, NULL, NULL,             \
     SCOPE "lout_q[B]"},                                                                            \
    {PRE "out.idle_due", 1, 0, 0, "need_idle_q", "need_idle", NULL, NULL, NULL,                     \
     SCOPE "need_idle_q[B]"},                                                                       \
    {PRE "ins.kind", 2, 0, 0, "ins_kind_q", "ins_kind", SCI_NOTE_INSKIND, NULL, NULL,               \
     SCOPE "ins_kind_q[B]"},                                                                        \
    {PRE "ins.idx", 6, 0, 0, "ins_idx_q", "ins_idx", NULL, NULL, NULL, SCOPE "ins_idx_q[B]"},       \
    {PRE "ins.len", 6, 0, 0, "ins_len_q", "ins_len", SCI_NOTE_LEN, NULL, NULL,                      \
     SCOPE "ins_len_q[B]"},                                                                         \
    {PRE "ins.slot", 4, 0, 0, "ins_slot_q", "ins_slot", SCI_NOTE_SLOTNO, NULL, NULL,                \
     SCOPE "ins_slot_q[B]"},                                                                        \
    {PRE "ins.type", 8, 0, 0, "ins_e_q[23:16]", "ins_echo.type", NULL, NULL, NULL,                  \
     SCOPE "ins_e_q[16+B]"},                                                                        \
    {PRE "ins.tid", 16, 0, 0, "ins_e_q[15:0]", "ins_echo.tid", NULL, NULL, NULL,                    \
     SCOPE "ins_e_q[B]"},                                                                           \
    {PRE "ins.crc", 16, 0, 0, "ocrc_q", "ocrc", NULL, NULL, NULL, SCOPE "ocrc_q[B]"},               \
    {PRE "bout.kind", 2, 0, 0, "bo_kind_q", "bo_kind", SCI_NOTE_BOKIND, NULL, NULL,                 \
     SCOPE "bo_kind_q[B]"},                                                                         \
    {PRE "bout.idx", 6, 0, 0, "bo_idx_q", "bo_idx", NULL, NULL, NULL, SCOPE "bo_idx_q[B]"},         \
    {PRE "bout.len", 6, 0, 0, "bo_len_q", "bo_len", SCI_NOTE_LEN, NULL, NULL,                       \
     SCOPE "bo_len_q[B]"},                                                                          \
    {PRE "bout.report", 16, 0, 8, "fr_q[(7-I)*16 +: 16]", "st.fr[I]", NULL, NULL, NULL,             \
     SCOPE "fr_q[(7-I)*16+B]"},                                                                     \
    {PRE "bout.crc", 16, 0, 0, "bcrc_q", "bcrc", NULL, NULL, NULL, SCOPE "bcrc_q[B]"},              \
    {PRE "bout.port", 3, 0, 0, "bo_port_q", "bo_port", NULL, NULL, NULL, SCOPE "bo_port_q[B]"},     \
    {PRE "fail", 1, 0, 0, "fail_q", "fail", NULL, NULL, NULL, SCOPE "fail_q[B]"},                   \
    {PRE "fail.reason", 3, 0, 0, "fail_rsn_q", "fail_reason", NULL, NULL, NULL,                     \
     SCOPE "fail_rsn_q[B]"},                                                                        \
    {PRE "ring.sd_low", 3, 0, 0, "sd0_q", "sd_low", SCI_NOTE_SDLOW, NULL, NULL, SCOPE "sd0_q[B]"},  \
    {PRE "ring.sd_high", 7, 0, 0, "sd1_q", "sd_high", NULL, NULL, NULL, SCOPE "sd1_q[B]"},          \
    {PRE "ring.clean", 7, 0, 0, "since_q", "clean", NULL, NULL, NULL, SCOPE "since_q[B]"}
// clang-format on

/* The PSB's upset map (rtl/sci_node.md section 8), csim/sci/sci_node.h's enum sci_psb_elem in its
 * order: what the C model keeps as the RTL does, then the RTL-only elements, then ASEL (P2S),
 * then failover (P2S with two LCs). T: the BRT's entries. */
#define SCI_RO DEV_UPSET_RTL_ONLY
#define SCI_NOTE_PSBCNT                                                                         \
    "beyond the FIFO's size: it acts as holding that many (sends what its entries hold, takes " \
    "a packet only below 8; assertion FifoNoOverflow_A)"
#define SCI_NOTE_OWN                                                                              \
    "5 to 7 name no source: the B-link carries symbols of 0, never the last, to the port of the " \
    "packet under way, until a reset (2 with one LC: it waits for the missing LC)"
/* A table fragment, one entry a line. */
// clang-format off
#define SCI_PSB_UPSETS(T)                                                                           \
    {"psb.node", 13, 0, 0, "u_psb.cfg_q[12:0]", "s.node_id", NULL, NULL, NULL,                      \
     "u_psb.u_ctrl.q_o[B]"},                                                                        \
    {"psb.rsr_timeout", 16, 0, 0, "u_psb.cfg_q[47:32]", "s.rsr_timeout", NULL, NULL, NULL,          \
     "u_psb.u_ctrl.q_o[32+B]"},                                                                     \
    {"psb.taddr", 14, 0, 0, "u_psb.taddr_q", "s.taddr", NULL, NULL, NULL, "u_psb.u_taddr.q_o[B]"},  \
    {"psb.brt", 3, 0, T, "u_psb.brt_mem", "brt", NULL, "psb.taddr", "psb.brt",                      \
     "u_psb.brt_mem[I][B]"},                                                                        \
    {"psb.discarded", 16, 0, 0, "u_psb.disc_q", "s.discarded", NULL, NULL, NULL,                    \
     "u_psb.disc_q[B]"},                                                                            \
    {"psb.rsr.armed", 1, 0, 0, "u_psb.rsr_arm_q", "s.rr_armed", NULL, NULL, NULL,                   \
     "u_psb.rsr_arm_q[B]"},                                                                         \
    {"psb.rsr.timer", 16, 0, 0, "u_psb.rsr_tmr_q", "s.rr_timer",                                    \
     "0 or 1 while armed: the timer runs out at the next edge", NULL, NULL, "u_psb.rsr_tmr_q[B]"},  \
    {"psb.rsr.tid", 16, 0, 0, "u_psb.rsr_tid_q", "s.rr_tid", NULL, NULL, NULL,                      \
     "u_psb.rsr_tid_q[B]"},                                                                         \
    {"psb.rsr.target", 16, 0, 0, "u_psb.rsr_tgt_q", "s.rr_target", NULL, NULL, NULL,                \
     "u_psb.rsr_tgt_q[B]"},                                                                         \
    {"psb.rsr.lc", 15, 0, 0, "u_psb.rsr_lc_q", "s.rr_lc", NULL, NULL, NULL, "u_psb.rsr_lc_q[B]"},   \
    {"psb.blink.owner", 3, SCI_RO, 0, "u_psb.own_q", NULL, SCI_NOTE_OWN, NULL, NULL,                \
     "u_psb.own_q[B]"},                                                                             \
    {"psb.blink.port", 3, SCI_RO, 0, "u_psb.dport_q", NULL, NULL, NULL, NULL, "u_psb.dport_q[B]"},  \
    {"psb.blink.moved", 6, SCI_RO, 0, "u_psb.bcnt_q", NULL, "stops at 63", NULL, NULL,              \
     "u_psb.bcnt_q[B]"},                                                                            \
    {"psb.sf.head", 3, SCI_RO, 0, "u_psb.sf_head_q", NULL, NULL, NULL, NULL,                        \
     "u_psb.sf_head_q[B]"},                                                                         \
    {"psb.sf.tail", 3, SCI_RO, 0, "u_psb.sf_tail_q", NULL, NULL, NULL, NULL,                        \
     "u_psb.sf_tail_q[B]"},                                                                         \
    {"psb.sf.count", 4, SCI_RO, 0, "u_psb.sf_cnt_q", NULL, SCI_NOTE_PSBCNT, NULL, NULL,             \
     "u_psb.sf_cnt_q[B]"},                                                                          \
    {"psb.sf.len", 6, SCI_RO, 8, "u_psb.sf_len_q[I*6 +: 6]", NULL, "0 is 64", NULL, NULL,           \
     "u_psb.sf_len_q[I*6+B]"},                                                                      \
    {"psb.sf.fill", 1, SCI_RO, 0, "u_psb.sf_fill_q", NULL, NULL, NULL, NULL,                        \
     "u_psb.sf_fill_q[B]"},                                                                         \
    {"psb.sf.widx", 6, SCI_RO, 0, "u_psb.sf_widx_q", NULL, NULL, NULL, NULL,                        \
     "u_psb.sf_widx_q[B]"},                                                                         \
    {"psb.sf.mem", 16, SCI_RO, 512, "u_psb.sf_mem (64 a packet)", NULL, NULL, NULL, NULL,           \
     "u_psb.sf_mem[I][B]"},                                                                         \
    {"psb.rf.head", 3, SCI_RO, 0, "u_psb.rf_head_q", NULL, NULL, NULL, NULL,                        \
     "u_psb.rf_head_q[B]"},                                                                         \
    {"psb.rf.tail", 3, SCI_RO, 0, "u_psb.rf_tail_q", NULL, NULL, NULL, NULL,                        \
     "u_psb.rf_tail_q[B]"},                                                                         \
    {"psb.rf.count", 4, SCI_RO, 0, "u_psb.rf_cnt_q", NULL, SCI_NOTE_PSBCNT, NULL, NULL,             \
     "u_psb.rf_cnt_q[B]"},                                                                          \
    {"psb.rf.len", 6, SCI_RO, 8, "u_psb.rf_len_q[I*6 +: 6]", NULL, "0 is 64", NULL, NULL,           \
     "u_psb.rf_len_q[I*6+B]"},                                                                      \
    {"psb.rf.mem", 16, SCI_RO, 512, "u_psb.rf_mem (64 a packet)", NULL, NULL, NULL, NULL,           \
     "u_psb.rf_mem[I][B]"},                                                                         \
    {"psb.hout.idx", 6, SCI_RO, 0, "u_psb.ho_idx_q", NULL, NULL, NULL, NULL, "u_psb.ho_idx_q[B]"},  \
    {"psb.reply.kind", 2, SCI_RO, 2, "u_psb.rb_q[I*98+96 +: 2] {notify, direct}", NULL, NULL,       \
     NULL, NULL, "u_psb.rb_q[I*98+96+B]"},                                                          \
    {"psb.reply", 16, SCI_RO, 12, "u_psb.rb_q, record I/6, word I%6 (tgt src tid p0 p1 crc)",       \
     NULL, NULL, NULL, NULL, "u_psb.rb_q[(I/6)*98+(5-I%6)*16+B]"},                                  \
    {"psb.reply.head", 1, SCI_RO, 0, "u_psb.rb_head_q", NULL, NULL, NULL, NULL,                     \
     "u_psb.rb_head_q[B]"},                                                                         \
    {"psb.reply.tail", 1, SCI_RO, 0, "u_psb.rb_tail_q", NULL, NULL, NULL, NULL,                     \
     "u_psb.rb_tail_q[B]"},                                                                         \
    {"psb.reply.count", 2, SCI_RO, 0, "u_psb.rb_cnt_q", NULL,                                       \
     "3: the buffer acts as holding 3 (sends a stale record; assertion FifoNoOverflow_A)", NULL,    \
     NULL, "u_psb.rb_cnt_q[B]"},                                                                    \
    {"psb.rx.type", 8, SCI_RO, 0, "u_psb.rx_type_q", NULL, NULL, NULL, NULL,                        \
     "u_psb.rx_type_q[B]"},                                                                         \
    {"psb.rx.src", 16, SCI_RO, 0, "u_psb.rx_src_q", NULL, NULL, NULL, NULL, "u_psb.rx_src_q[B]"},   \
    {"psb.rx.tid", 16, SCI_RO, 0, "u_psb.rx_tid_q", NULL, NULL, NULL, NULL, "u_psb.rx_tid_q[B]"},   \
    {"psb.rx.lc", 16, SCI_RO, 0, "u_psb.rx_lc_q", NULL, NULL, NULL, NULL, "u_psb.rx_lc_q[B]"}
#define SCI_PSB_ASEL_UPSET                                                                          \
    {"psb.asel", 1, 0, 8192, "u_psb.gen_asel.asel_mem", "asel", NULL, "psb.taddr", "psb.asel",      \
     "u_psb.gen_asel.asel_mem[I][B]"}
#define SCI_PSB_FO_UPSETS                                                                           \
    {"psb.fo_en", 1, 0, 0, "u_psb.cfg_q[16]", "s.fo_en", NULL, NULL, NULL,                          \
     "u_psb.u_ctrl.q_o[16+B]"},                                                                     \
    {"psb.xw", 1, 0, 0, "u_psb.cfg_q[17]", "s.xw", NULL, NULL, NULL, "u_psb.u_ctrl.q_o[17+B]"},     \
    {"psb.focol.valid", 1, 0, 0, "u_psb.focol_q[0]", "s.focol_valid", NULL, NULL, NULL,             \
     "u_psb.u_focol.q_o[B]"},                                                                       \
    {"psb.focol.col", 6, 0, 0, "u_psb.focol_q[13:8]", "s.focol", NULL, NULL, NULL,                  \
     "u_psb.u_focol.q_o[8+B]"},                                                                     \
    {"psb.ntgt", 13, 0, 0, "u_psb.ntgt_q", "s.ntgt", NULL, NULL, NULL, "u_psb.u_ntgt.q_o[B]"},      \
    {"psb.ydown", 1, 0, 0, "u_psb.ydown_q", "s.ydown_q", NULL, NULL, NULL, "u_psb.ydown_q[B]"},     \
    {"psb.yup_seen", 1, 0, 0, "u_psb.yseen_q", "s.yup_seen", NULL, NULL, NULL,                      \
     "u_psb.yseen_q[B]"},                                                                           \
    {"psb.notify.owed", 1, 0, 0, "u_psb.nt_owed_q", "s.nt_owed", NULL, NULL, NULL,                  \
     "u_psb.nt_owed_q[B]"}
// clang-format on

#define SCI_NDEBUG 3u
/* The register address of debug word k (STATUS, COUNTS, DBG). */
uint32_t sci_debug_addr(unsigned k);

/* The Verilated RTL (harness/sci/sci_rtl.cpp): p2s 0 LC3, 1 P2S. */
void *sci_rtl_create(int p2s, const char *instance, const dev_ops_t **ops, char *err,
                     size_t errlen);

/* ---- SCI nodes (rtl/sci_node.md): designs lc3node, p2snode (one LC), lc3node2, p2snode2
 * (an X-LC and a Y-LC). Ports: per LC k, kinds LIN..IRQ at 5 k + kind; then the host ports. */
enum {
    SCI_NP_LIN,
    SCI_NP_LIN_SD,
    SCI_NP_LOUT,
    SCI_NP_LOUT_SD,
    SCI_NP_IRQ,
    SCI_NP_HIN,
    SCI_NP_HOUT_READY,
    SCI_NP_HIN_READY,
    SCI_NP_HOUT
};
#define SCI_NODE_PER_LC 5u
#define SCI_NODE_HOST   4u
static inline unsigned sci_node_port(unsigned nlc, unsigned kind, unsigned k)
{
    return kind < SCI_NODE_PER_LC ? SCI_NODE_PER_LC * k + kind
                                  : SCI_NODE_PER_LC * nlc + kind - SCI_NODE_PER_LC;
}
/* Debug words: per LC STATUS, COUNTS, DBG; then PSB STATUS and DBG. */
static inline unsigned sci_node_ndebug(unsigned nlc) { return 3u * nlc + 2u; }
uint32_t sci_node_debug_addr(unsigned nlc, unsigned k);
/* Register map (rtl/sci_node.md section 4; addresses in csim/sci/sci_node.h): LC k at 0x20 k. */
#define SCI_NODE_LC_STRIDE 0x20u

extern const dev_design_t lc3node_design, p2snode_design, lc3node2_design, p2snode2_design;
/* A node's upset map entry: LC k's element (csim/sci/sci_lc.h), or the PSB's (k == nlc,
 * csim/sci/sci_node.h enum sci_psb_elem). */
static inline void sci_node_entry(unsigned nlc, uint32_t entry, unsigned *k, unsigned *elem)
{
    *k = entry / SCI_E_N < nlc ? entry / SCI_E_N : nlc;
    *elem = *k < nlc ? entry % SCI_E_N : entry - nlc * SCI_E_N;
}
/* The node design for a variant and LC count, NULL if none. */
const dev_design_t *sci_node_design(int p2s, unsigned nlc);
int sci_node_design_p2s(const dev_design_t *d); /* d one of the four node designs */
unsigned sci_node_design_nlc(const dev_design_t *d);

/* The Verilated node (harness/sci/sci_node_rtl.cpp): p2s 0 LC3, 1 P2S; nlc LCs. Its
 * dev_ops_t has trace_attach and phase, for a ring's or a torus's shared waveform. */
void *sci_node_rtl_create(int p2s, unsigned nlc, const char *instance, const dev_ops_t **ops);
/* A node's C model (and only that): the table entry `reg` (a table's data register in the
 * node's map) at TADDR `taddr` loaded without a clock edge (csim/sci/sci_node.h
 * sci_node_table_load). Returns -1 for any other device. */
int sci_node_csim_table_load(device_t *d, uint32_t reg, uint32_t taddr, uint64_t value);
/* A two-LC node's C model stepped by a fabric of many (harness/sci/sci_torus.c) without the
 * input port array: its inputs packed into one word (sci_node_pack_in), one edge as skip with
 * max 2 (dev.h: true when the edge may have changed its state, and then its output ports into
 * out). The same edge, state and outputs as set_inputs, skip and get_outputs of the device
 * whose self it is: a fabric saves the calls and a copy, a node's edge at a time. */
bool sci_node_csim_step_packed(void *self, uint64_t in, uint64_t *out);
/* The packed inputs: per LC k its link word lin {flag, sym} [16:0] and signal detect at bit
 * 17, from bit 18 k; hin {last, valid, sym} at 36; hout.ready at 54. */
static inline uint64_t sci_node_pack_in(uint64_t lin0, uint64_t sd0, uint64_t lin1, uint64_t sd1,
                                        uint64_t hin, uint64_t hout_ready)
{
    return (lin0 & 0x1FFFFull) | (sd0 & 1u) << 17 | (lin1 & 0x1FFFFull) << 18 | (sd1 & 1u) << 35 |
           (hin & 0x3FFFFull) << 36 | (hout_ready & 1u) << 54;
}


#endif
