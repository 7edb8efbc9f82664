/* sci_dev.h — LC3/P2S and the SCI nodes as ftsim devices: port numbering, register lists and
 * what both implementations share. All six are fixed designs (dev.h): static constants. */
#ifndef FTSIM_SCI_DEV_H
#define FTSIM_SCI_DEV_H

#include "dev.h"

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
static inline unsigned sci_node_nports(unsigned nlc)
{
    return SCI_NODE_PER_LC * nlc + SCI_NODE_HOST;
}
/* Debug words: per LC STATUS, COUNTS, DBG; then PSB STATUS and DBG. */
static inline unsigned sci_node_ndebug(unsigned nlc) { return 3u * nlc + 2u; }
uint32_t sci_node_debug_addr(unsigned nlc, unsigned k);
/* Register map (rtl/sci_node.md section 4; addresses in csim/sci_node.h): LC k at 0x20 k. */
#define SCI_NODE_LC_STRIDE 0x20u

extern const dev_design_t lc3node_design, p2snode_design, lc3node2_design, p2snode2_design;
/* The node design for a variant and LC count, NULL if none. */
const dev_design_t *sci_node_design(int p2s, unsigned nlc);
int sci_node_design_p2s(const dev_design_t *d); /* d one of the four node designs */
unsigned sci_node_design_nlc(const dev_design_t *d);

/* The Verilated node (harness/sci/sci_node_rtl.cpp). */
/* A node's C model (and only that): the table entry `reg` (a table's data register in the
 * node's map) at TADDR `taddr` loaded without a clock edge (csim/sci_node.h
 * sci_node_table_load). Returns -1 for any other device. */
int sci_node_csim_table_load(device_t *d, uint32_t reg, uint32_t taddr, uint64_t value);

extern const dev_ops_t sci_node_rtl_ops;
void *sci_node_rtl_new(int p2s, unsigned nlc, const char *instance);
void sci_node_rtl_trace_attach(void *self, void *tr);
/* The clock edge in phases a fabric interleaves with the dumps of its shared waveform, as
 * rn1_rtl_phase (harness/core/vl_trace.h): 0 settle, 1 clock low, 2 the edge. */
void sci_node_rtl_phase(void *self, int phase);

#endif
