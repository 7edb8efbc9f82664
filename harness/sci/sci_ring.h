/* sci_ring.h — N SCI nodes on one ring (N = 2..16), composed in the harness from node models
 * (lc3node / p2snode, rtl/sci_node.md): devices ringN (LC3) and p2sringN (P2S). */
#ifndef FTSIM_SCI_RING_H
#define FTSIM_SCI_RING_H

#include "dev.h"

#define SCI_RING_MAX 16u

/* Ports of node i: kind at i * SCI_RING_NK + kind. */
enum {
    SCI_RP_HIN,
    SCI_RP_HOUT_READY,
    SCI_RP_HIN_READY,
    SCI_RP_HOUT,
    SCI_RP_IRQ,
    SCI_RP_LINK,
    SCI_RP_LINK_SD,
    SCI_RING_NK
};
static inline unsigned sci_ring_port(unsigned node, unsigned kind)
{
    return node * SCI_RING_NK + kind;
}

/* Node i's register a (its node map, rtl/sci_node.md section 4) is at (i << 8) | a. */
static inline uint32_t sci_ring_addr(unsigned node, unsigned a) { return (node << 8) | a; }

/* The family's lookup (dev_lookup_t): ringN / p2sringN; NULL if name is not one. */
const dev_design_t *sci_ring_find_design(const char *name);
/* The design of a ring of n nodes, built for the caller, who releases it (dev_design_release);
 * NULL if n is out of range. */
const dev_design_t *sci_ring_design(int p2s, unsigned n);
int sci_ring_p2s(const dev_design_t *d);

/* The default node id of ring node i (its position). */
static inline uint16_t sci_ring_node_id(unsigned i) { return (uint16_t)i; }

#endif
