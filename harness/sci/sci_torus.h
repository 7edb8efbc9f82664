/* sci_torus.h — a W x H 2-D SCI torus composed in the harness from torus node models
 * (lc3node2 / p2snode2, rtl/sci_node.md: LC 0 the X-LC, LC 1 the Y-LC): devices torusWxH
 * (LC3, W and H 2..16) and p2storusWxH (P2S, 2..32). The contract is the header of
 * harness/sci/sci_torus.c. */
#ifndef FTSIM_SCI_TORUS_H
#define FTSIM_SCI_TORUS_H

#include "dev.h"
#include "tpool.h"

#define SCI_TORUS_MAX_LC3 16u
#define SCI_TORUS_MAX_P2S 32u

/* Ports of node (x, y) (index y * W + x): kind at index * SCI_TORUS_NK + kind. Inputs: hin,
 * hout.ready; outputs: hin.ready (idle 1), hout, irq.x, irq.y, and the link words the node's
 * X-LC and Y-LC send, as the downstream node receives them: lx, lx.sd, ly, ly.sd (sd idle 1). */
enum {
    SCI_TP_HIN,
    SCI_TP_HOUT_READY,
    SCI_TP_HIN_READY,
    SCI_TP_HOUT,
    SCI_TP_IRQ_X,
    SCI_TP_IRQ_Y,
    SCI_TP_LX,
    SCI_TP_LX_SD,
    SCI_TP_LY,
    SCI_TP_LY_SD,
    SCI_TORUS_NK
};

/* The family's lookup (dev_lookup_t): torusWxH / p2storusWxH; NULL if name is not one (or
 * its size is out of range). */
const dev_design_t *sci_torus_find_design(const char *name);
/* The design for a variant and size, built for the caller, who releases it
 * (dev_design_release); NULL if out of range. */
const dev_design_t *sci_torus_design(int p2s, unsigned w, unsigned h);
/* W * H and the dimensions of a torus design; 0 (and *w = *h = 0) if d is not a torus. */
unsigned sci_torus_dims(const dev_design_t *d, unsigned *w, unsigned *h);
int sci_torus_p2s(const dev_design_t *d); /* 1 P2S, 0 LC3 or not a torus */

/* A control of a W x H torus named `name` (the header of sci_torus.c): *op one of SCI_CTL_*, *dim
 * the ring (0 X, 1 Y; cut and restore), *node its node's index. Returns 0, or -1 with a message
 * (sci_torus_ctl.c). */
enum { SCI_CTL_CUT, SCI_CTL_RESTORE, SCI_CTL_OFF, SCI_CTL_ON, SCI_CTL_RESET };
int sci_torus_parse_ctl(unsigned w, unsigned h, const char *name, const char *text, int *op,
                        unsigned *dim, unsigned *node, char *err, size_t errlen);

/* Node index of (x, y): y * W + x. */
static inline unsigned sci_torus_index(unsigned w, unsigned x, unsigned y) { return y * w + x; }
/* Port number of kind SCI_TP_* of node (x, y) of torus d. */
unsigned sci_torus_port(const dev_design_t *d, unsigned x, unsigned y, unsigned kind);
/* Node (x, y)'s register a (its node map, rtl/sci_node.md section 4) is at ((y*W + x) << 8) | a. */
uint32_t sci_torus_addr(const dev_design_t *d, unsigned x, unsigned y, unsigned a);
/* The node id of (x, y): sci_route_id() of the torus (x = bits [3:0], y = bits [7:4]; P2S tori
 * wider or taller than 16: x = bits [5:0], y = bits [11:6]). It is the default of the node's
 * config keys x.node, y.node and psb.node. */
uint16_t sci_torus_node_id(const dev_design_t *d, unsigned x, unsigned y);

/* Put the torus RTL (device d, opened with DEV_IMPL_RTL) into the shared FST tr (vl_trace.h)
 * that the caller opens and that also holds its own models (the harness observer); from then
 * on the torus dumps it at each cycle's edges as with its own waveform, and dev_trace_close
 * closes it. An RTL in parts goes into tr's parts (ftsim_vl_trace_part), after the caller's
 * models in the merged file. Returns 0, or -1 with a message. */
int sci_torus_trace_share(device_t *d, void *tr, char *err, size_t errlen);

/* Step the nodes of torus device d on the threads of pool (NULL: on the calling thread), from
 * the next edge on; the results are the same for every thread count (the header of
 * sci_torus.c says why). The C model's nodes one by one; an RTL torus's in the parts of
 * sci_torus_set_rtl_parts, each part on one thread at a time (Verilator evaluates a context on
 * one thread at a time); an RTL torus in one part stays on the calling thread. The pool must
 * outlive its use by d. Returns 0, or -1 with a message. */
int sci_torus_set_pool(device_t *d, tpool_t *pool, char *err, size_t errlen);
/* The RTL of the torus devices opened from design d from now on (d built for the caller by
 * sci_torus_design) in `parts` parts of whole rows (at most H), each part's node models in a
 * Verilator context of its own, so that sci_torus_set_pool can step the parts side by side (0
 * or 1 parts: the process's context). Its waveform is written in as many parts, each by the
 * thread that steps the part, and merged into one FST when it closes (vl_trace.h): the same
 * signals and values as in one part. NULL or a design that is not a torus: nothing. */
void sci_torus_set_rtl_parts(const dev_design_t *d, unsigned parts);

#endif
