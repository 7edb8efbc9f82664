/* sci_obs.h — the harness observer in the torus waveform (harness/scisys/obs/sci_obs.v through
 * harness/scisys/sci_obs_rtl.cpp): driver states, holds, table writes and deliveries, per node (the
 * first 16) and per flow (the first 16). */
#ifndef FTSIM_SCI_OBS_H
#define FTSIM_SCI_OBS_H

#include <stdint.h>

#define SCI_OBS_NODES 16u
#define SCI_OBS_FLOWS 16u

typedef struct sci_obs sci_obs_t;
sci_obs_t *sci_obs_new(void);
void sci_obs_free(sci_obs_t *o);
/* Attach to a shared FST (vl_trace.h) before it opens. */
void sci_obs_attach(sci_obs_t *o, void *trace);
/* This cycle's values; they are in the waveform at the cycle's dumps. */
void sci_obs_set(sci_obs_t *o, const uint8_t *drv_state, const uint8_t *held, const uint8_t *tbl_wr,
                 unsigned n, uint16_t deliver, unsigned faults);

#endif
