/*
 * sci_sys_param.c — the named parameters of the SCI system (harness/scisys/sci_sys.md
 * section 3): their defaults, setting one by name, and timers in cycles.
 */
#include "sci_sys_internal.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sci_sys_params_default(sci_sys_params_t *p)
{
    p->clock_mhz = 100.0;
    p->cablenotok_ms = 50.0;
    p->readytogo_ms = 200.0;
    p->watchdog_ms = 1000.0;
    p->host_rtx_ms = 10.0;
    p->compute_ms = 1.0;
    p->reg_write_us = 1.0;
    p->time_scale = 1.0;
    p->echo_timeout = 2000;
    p->busy_limit = 8;
    p->retry_limit = 4;
    p->rsr_timeout = 20000;
    p->fail_backoff = 1000;
    p->window = 8;
    p->selftest_ms = 500.0;
    p->scrub_ms = 500.0;
    p->mgmt_us = 50.0;
    p->hang_cycles = 0;
}

int sci_sys_param_set(sci_sys_params_t *p, const char *nv, char *err, size_t errlen)
{
    static const struct {
        const char *name;
        size_t off;
        int whole;
        double lo, hi;
    } tab[] = {
        {"cablenotok_ms", offsetof(sci_sys_params_t, cablenotok_ms), 0, 0.001, 1e5},
        {"readytogo_ms", offsetof(sci_sys_params_t, readytogo_ms), 0, 0.001, 1e5},
        {"watchdog_ms", offsetof(sci_sys_params_t, watchdog_ms), 0, 0.001, 1e6},
        {"host_rtx_ms", offsetof(sci_sys_params_t, host_rtx_ms), 0, 0.001, 1e5},
        {"compute_ms", offsetof(sci_sys_params_t, compute_ms), 0, 0.0, 1e5},
        {"reg_write_us", offsetof(sci_sys_params_t, reg_write_us), 0, 0.01, 1e5},
        {"clock_mhz", offsetof(sci_sys_params_t, clock_mhz), 0, 1, 10000},
        {"echo_timeout", offsetof(sci_sys_params_t, echo_timeout), 1, 1, 65535},
        {"busy_limit", offsetof(sci_sys_params_t, busy_limit), 1, 0, 255},
        {"retry_limit", offsetof(sci_sys_params_t, retry_limit), 1, 0, 255},
        {"rsr_timeout", offsetof(sci_sys_params_t, rsr_timeout), 1, 1, 65535},
        {"fail_backoff", offsetof(sci_sys_params_t, fail_backoff), 1, 1, 1e7},
        {"window", offsetof(sci_sys_params_t, window), 1, 1, MAXW},
        {"selftest_ms", offsetof(sci_sys_params_t, selftest_ms), 0, 0.001, 1e6},
        {"scrub_ms", offsetof(sci_sys_params_t, scrub_ms), 0, 0.001, 1e6},
        {"mgmt_us", offsetof(sci_sys_params_t, mgmt_us), 0, 0.0, 1e6},
        {"hang_cycles", offsetof(sci_sys_params_t, hang_cycles), 1, 0, 1e9},
    };
    const char *eq = strchr(nv, '=');
    for (unsigned k = 0; eq && k < sizeof tab / sizeof tab[0]; k++) {
        if (strlen(tab[k].name) != (size_t)(eq - nv) || strncmp(nv, tab[k].name, (size_t)(eq - nv)))
            continue;
        char *e;
        double v = strtod(eq + 1, &e);
        if (e == eq + 1 || *e || !(v >= tab[k].lo && v <= tab[k].hi) ||
            (tab[k].whole && v != floor(v))) {
            snprintf(err, errlen, "%s: %s %g to %g", nv, tab[k].whole ? "whole number" : "number",
                     tab[k].lo, tab[k].hi);
            return -1;
        }
        if (tab[k].whole)
            *(unsigned *)((char *)p + tab[k].off) = (unsigned)v;
        else
            *(double *)((char *)p + tab[k].off) = v;
        return 0;
    }
    snprintf(err, errlen,
             "%s: NAME=VALUE, NAME one of cablenotok_ms readytogo_ms watchdog_ms "
             "host_rtx_ms compute_ms reg_write_us clock_mhz echo_timeout busy_limit retry_limit "
             "rsr_timeout fail_backoff window selftest_ms scrub_ms mgmt_us hang_cycles",
             nv);
    return -1;
}

uint64_t sci_sys_ms(const sci_sys_params_t *p, double ms)
{
    double c = ms * p->clock_mhz * 1000.0 / (p->time_scale > 0 ? p->time_scale : 1.0);
    return c < 1.0 ? 1u : (uint64_t)llround(c);
}
