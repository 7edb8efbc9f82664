/*
 * lockstep.h — one or two implementations of a design driven with the same inputs, compared
 * every cycle: every output, and the design's debug state (dev_design_t.debug_addrs), so a
 * divergence is caught in the cycle and signal where it starts. The player and the fuzzer
 * drive designs only through this.
 */
#ifndef FTSIM_LOCKSTEP_H
#define FTSIM_LOCKSTEP_H

#include "dev.h"

/* The models: a mask. m[0] is the RTL or the gate-level netlist (never both), m[1] the C
 * model. */
enum { LS_RTL = 1u, LS_CSIM = 2u, LS_BOTH = 3u, LS_GATE = 4u, LS_GATE_BOTH = 6u };

typedef struct lockstep {
    const dev_design_t *d;
    device_t *m[2];
    unsigned n;       /* 1 or 2 models; with 2, m[0] is rtl (or gate) and m[1] csim */
    uint64_t *out[2]; /* outputs of the current cycle, per model (nports) */
    uint64_t *dbg[2]; /* debug state, per model (ndebug) */
    /* An RTL assertion after an upset (dev_ops_t.internal_error 2): an observation, not a
     * mismatch; the first one's cycle. */
    int asserted;
    uint64_t assert_cycle;
} lockstep_t;

/* Parse --model rtl|csim|both|gate|gate-both. Returns 0 and the mask, or -1. */
int ls_parse_models(const char *s, unsigned *mask);

/* What a mask runs, as messages name it: "rtl+csim lockstep", "gate", ... */
const char *ls_models_name(unsigned models);

int ls_open(lockstep_t *ls, const dev_design_t *d, unsigned models, char *err, size_t errlen);
void ls_close(lockstep_t *ls);
void ls_reset(lockstep_t *ls, const dev_write_t *w, unsigned n);
void ls_set_inputs(lockstep_t *ls, const uint64_t *in);
void ls_reg_write(lockstep_t *ls, const dev_write_t *w);
/* An upset in every model, at the start of the current cycle. -1 with a message if one
 * refuses it. */
int ls_upset(lockstep_t *ls, const dev_upset_bit_t *s, char *err, size_t errlen);
/* Read every model's outputs of the current cycle (and debug state with two models). */
void ls_sample(lockstep_t *ls);
/* With two models: 1 and a message naming the first differing port or debug field. */
int ls_diverged(const lockstep_t *ls, char *msg, size_t len);
/* End the cycle in every model. Returns 1 (message in msg) if a model flagged an internal
 * error such as a failing RTL assertion; one after an upset sets `asserted` instead. */
int ls_tick(lockstep_t *ls, char *msg, size_t len);
/* Up to max cycles with the inputs held (dev_skip): with one model, as many as it can tell
 * change nothing; with two, always one (ls_tick). Returns the cycles done, 0 on an internal
 * error (message in msg). */
uint64_t ls_skip(lockstep_t *ls, uint64_t max, char *msg, size_t len);

#endif
