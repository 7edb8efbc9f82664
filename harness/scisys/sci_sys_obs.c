/*
 * sci_sys_obs.c — the harness in the waveform: the observer (harness/scisys/obs/sci_obs.v)
 * shares the torus RTL's FST, and every cycle gets the drivers' states, the holds, the
 * register writes and the deliveries, so that they show next to the signals they cause.
 */
#include "sci_sys_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vl_trace.h"

int scisys_obs_open(sci_sys_t *s, char *err, size_t errlen)
{
    if (!(s->cfg.models & LS_RTL)) {
        snprintf(err, errlen, "a waveform needs the RTL (--model rtl or both)");
        return -1;
    }
    void *tr = ftsim_vl_trace_new();
    s->obs.obs = sci_obs_new();
    s->obs.wr = calloc(s->n, 1);
    if (!s->obs.wr) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    sci_obs_attach(s->obs.obs, tr);
    if (sci_torus_trace_share(s->ls.m[0], tr, err, errlen) < 0 ||
        ftsim_vl_trace_open(tr, s->cfg.wave, err, errlen) < 0)
        return -1;
    s->obs.trace = tr;
    if (s->cfg.wave_from || s->cfg.wave_to)
        ftsim_vl_trace_window(tr, UINT64_MAX, 0); /* nothing until the run places the window */
    return 0;
}

void scisys_obs_window(sci_sys_t *s)
{
    if (s->obs.trace && (s->cfg.wave_from || s->cfg.wave_to))
        ftsim_vl_trace_window(s->obs.trace, s->now + s->cfg.wave_from,
                              s->cfg.wave_to ? s->now + s->cfg.wave_to : 0);
}

void scisys_obs_free(sci_sys_t *s)
{
    sci_obs_free(s->obs.obs);
    free(s->obs.wr);
}

void scisys_obs_write(sci_sys_t *s, unsigned node)
{
    if (s->obs.wr)
        s->obs.wr[node] = 1;
}

void scisys_obs_delivery(sci_sys_t *s, unsigned flow)
{
    if (flow < 16)
        s->obs.dl |= (uint16_t)(1u << flow);
}

void scisys_obs_cycle(sci_sys_t *s)
{
    if (!s->obs.obs)
        return;
    if (!ftsim_vl_trace_on(s->obs.trace, s->now)) { /* outside the window: nothing to show */
        memset(s->obs.wr, 0, s->n);
        s->obs.dl = 0;
        return;
    }
    uint8_t st[SCI_OBS_NODES], held[SCI_OBS_NODES];
    for (unsigned i = 0; i < s->n && i < SCI_OBS_NODES; i++) {
        st[i] = (uint8_t)s->drv[i].state;
        held[i] = s->host[i].nheld != 0;
    }
    sci_obs_set(s->obs.obs, st, held, s->obs.wr, s->n, s->obs.dl, s->faults_applied);
    memset(s->obs.wr, 0, s->n);
    s->obs.dl = 0;
}
