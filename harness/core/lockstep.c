/* lockstep.c — drive one or two implementations with the same inputs and compare them. */
#include "lockstep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ls_parse_models(const char *s, unsigned *mask)
{
    if (!strcmp(s, "rtl"))
        *mask = LS_RTL;
    else if (!strcmp(s, "csim"))
        *mask = LS_CSIM;
    else if (!strcmp(s, "both"))
        *mask = LS_BOTH;
    else if (!strcmp(s, "gate"))
        *mask = LS_GATE;
    else if (!strcmp(s, "gate-both"))
        *mask = LS_GATE_BOTH;
    else
        return -1;
    return 0;
}

const char *ls_models_name(unsigned models)
{
    switch (models) {
    case LS_BOTH: return "rtl+csim lockstep";
    case LS_GATE_BOTH: return "gate+csim lockstep";
    case LS_RTL: return "rtl";
    case LS_GATE: return "gate";
    default: return "csim";
    }
}

int ls_open(lockstep_t *ls, const dev_design_t *d, unsigned models, char *err, size_t errlen)
{
    memset(ls, 0, sizeof *ls);
    ls->d = d;
    for (unsigned k = 0; k < 2; k++) {
        ls->out[k] = calloc(d->nports, sizeof *ls->out[k]);
        ls->dbg[k] = calloc(d->ndebug ? d->ndebug : 1, sizeof *ls->dbg[k]);
        if (!ls->out[k] || !ls->dbg[k]) {
            snprintf(err, errlen, "out of memory");
            ls_close(ls);
            return -1;
        }
    }
    static const struct {
        unsigned bit;
        dev_impl_t impl;
    } order[3] = {{LS_RTL, DEV_IMPL_RTL}, {LS_GATE, DEV_IMPL_GATE}, {LS_CSIM, DEV_IMPL_CSIM}};
    for (unsigned k = 0; k < 3; k++) {
        if (!(models & order[k].bit))
            continue;
        device_t *m = dev_open(d, order[k].impl, err, errlen);
        if (!m) {
            ls_close(ls);
            return -1;
        }
        ls->m[ls->n++] = m;
    }
    return 0;
}

void ls_close(lockstep_t *ls)
{
    for (unsigned k = 0; k < ls->n; k++)
        dev_close(ls->m[k]);
    ls->n = 0;
    for (unsigned k = 0; k < 2; k++) {
        free(ls->out[k]);
        free(ls->dbg[k]);
        ls->out[k] = ls->dbg[k] = NULL;
    }
}

void ls_reset(lockstep_t *ls, const dev_write_t *w, unsigned n)
{
    for (unsigned k = 0; k < ls->n; k++)
        dev_reset(ls->m[k], w, n);
}

void ls_set_inputs(lockstep_t *ls, const uint64_t *in)
{
    for (unsigned k = 0; k < ls->n; k++)
        dev_set_inputs(ls->m[k], in);
}

void ls_reg_write(lockstep_t *ls, const dev_write_t *w)
{
    for (unsigned k = 0; k < ls->n; k++)
        dev_reg_write(ls->m[k], w);
}

int ls_upset(lockstep_t *ls, const dev_upset_bit_t *s, char *err, size_t errlen)
{
    for (unsigned k = 0; k < ls->n; k++)
        if (dev_upset(ls->m[k], s, err, errlen) < 0)
            return -1;
    return 0;
}

void ls_sample(lockstep_t *ls)
{
    for (unsigned k = 0; k < ls->n; k++) {
        dev_get_outputs(ls->m[k], ls->out[k]);
        if (ls->n == 2)
            dev_debug(ls->m[k], ls->dbg[k]);
    }
}

/* Name the narrowest register fields at `addr` whose values differ. */
static void describe_debug(const dev_design_t *d, uint32_t addr, uint64_t a, uint64_t b,
                           const char *na, char *msg, size_t len)
{
    size_t n = 0;
    int found = 0;
    for (unsigned w = 1; w <= 64 && !found; w++) {
        for (unsigned i = 0; i < d->nregs; i++) {
            const dev_reg_t *r = &d->regs[i];
            if (r->addr != addr || r->width != w || dev_field_get(r, a) == dev_field_get(r, b))
                continue;
            char va[64], vb[64];
            dev_format_value(r, dev_field_get(r, a), va, sizeof va);
            dev_format_value(r, dev_field_get(r, b), vb, sizeof vb);
            int k = snprintf(msg + n, len - n, "%s%s: %s %s, csim %s", found ? "; " : "", r->name,
                             na, va, vb);
            if (k < 0 || (size_t)k >= len - n)
                return;
            n += (size_t)k;
            found = 1;
        }
    }
    if (!found)
        snprintf(msg, len, "register 0x%x: %s 0x%llx, csim 0x%llx", addr, na, (unsigned long long)a,
                 (unsigned long long)b);
}

int ls_diverged(const lockstep_t *ls, char *msg, size_t len)
{
    if (ls->n < 2)
        return 0;
    const dev_design_t *d = ls->d;
    for (unsigned p = 0; p < d->nports; p++) {
        if (d->ports[p].dir != DEV_OUT || ls->out[0][p] == ls->out[1][p])
            continue;
        char a[48], b[48];
        dev_format_port_word(d, p, ls->out[0][p], 0, a, sizeof a);
        dev_format_port_word(d, p, ls->out[1][p], 0, b, sizeof b);
        snprintf(msg, len, "output %s: %s %s, csim %s", d->ports[p].name,
                 dev_impl_name(ls->m[0]->impl), a, b);
        return 1;
    }
    for (unsigned k = 0; k < d->ndebug; k++) {
        if (ls->dbg[0][k] == ls->dbg[1][k])
            continue;
        char what[400];
        describe_debug(d, d->debug_addrs[k], ls->dbg[0][k], ls->dbg[1][k],
                       dev_impl_name(ls->m[0]->impl), what, sizeof what);
        snprintf(msg, len, "debug state %s", what);
        return 1;
    }
    return 0;
}

/* A model's internal error after the edge that ended cycle c: 1 (message in msg) when it is a
 * mismatch; an assertion after an upset is recorded in ls instead. */
static int ierr(lockstep_t *ls, device_t *m, uint64_t c, char *msg, size_t len)
{
    int e = m->ops->internal_error(m->self);
    if (e == 2) {
        if (!ls->asserted) {
            ls->asserted = 1;
            ls->assert_cycle = c;
        }
        return 0;
    }
    if (e)
        snprintf(msg, len, "%s flagged an internal error (assertion) in cycle %llu",
                 dev_impl_name(m->impl), (unsigned long long)c);
    return e != 0;
}

int ls_tick(lockstep_t *ls, char *msg, size_t len)
{
    int bad = 0;
    for (unsigned k = 0; k < ls->n; k++) {
        uint64_t c = ls->m[k]->cycle;
        dev_tick(ls->m[k]);
        if (!bad)
            bad = ierr(ls, ls->m[k], c, msg, len);
    }
    return bad;
}

uint64_t ls_skip(lockstep_t *ls, uint64_t max, char *msg, size_t len)
{
    if (ls->n != 1 || max <= 1)
        return ls_tick(ls, msg, len) ? 0 : 1;
    uint64_t c = ls->m[0]->cycle;
    uint64_t k = dev_skip(ls->m[0], max);
    return ierr(ls, ls->m[0], c, msg, len) ? 0 : k;
}
