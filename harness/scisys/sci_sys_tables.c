/*
 * sci_sys_tables.c — reading the tables in force back from the hardware, for the checks of
 * harness/scisys/sci_sys.md section 5.
 */
#include "sci_sys_internal.h"

#include <stdio.h>

/* One register cycle: a write, then an edge with the inputs as they are. */
static int reg_cycle(sci_sys_t *s, unsigned i, unsigned a, uint64_t v, uint64_t mask)
{
    char msg[300];
    dev_write_t w = {((uint32_t)i << 8) | a, v, mask};
    ls_sample(&s->ls);
    ls_reg_write(&s->ls, &w);
    ls_set_inputs(&s->ls, s->in);
    if (ls_tick(&s->ls, msg, sizeof msg)) {
        scisys_fail(s, "%s", msg);
        return -1;
    }
    s->now++;
    return 0;
}

int sci_sys_read_tables(sci_sys_t *s, void *tbv, char *err, size_t errlen)
{
    sci_tables_t *tb = tbv;
    if (sci_route_tables(&s->ff.t, NULL, tb, err, errlen) < 0) /* a dead node's: fault-free */
        return -1;
    for (unsigned i = 0; i < s->n; i++)
        tb->f.dead[i] = s->host[i].dead;
    /* quiet inputs while the port is used */
    for (unsigned i = 0; i < s->n; i++)
        s->in[tport(i, SCI_TP_HIN)] = 0;
    for (unsigned i = 0; i < s->n; i++) {
        if (s->host[i].dead)
            continue;
        for (unsigned set = 0; set < tb->nsets; set++)
            for (unsigned d = 0; d < s->n; d++) {
                uint64_t idx = sci_route_index(&tb->t, set, d);
                if (reg_cycle(s, i, SCI_REG_TADDR, idx, 0x3FFF) < 0 ||
                    reg_cycle(s, i, SCI_NODE_LC_STRIDE + SCI_REG_TADDR, idx, 0x3FFF) < 0 ||
                    reg_cycle(s, i, SCI_PSB_TADDR, idx, 0x3FFF) < 0) {
                    snprintf(err, errlen, "%s", s->err);
                    return -1;
                }
                sci_entry_t *e = (sci_entry_t *)sci_route_entry(tb, i, set, d);
                e->xtake = (uint8_t)(reg_read(s, i, SCI_REG_LRT) & 1u);
                e->xport = (uint8_t)(reg_read(s, i, SCI_REG_BRT) & 7u);
                e->ytake = (uint8_t)(reg_read(s, i, SCI_NODE_LC_STRIDE + SCI_REG_LRT) & 1u);
                e->yport = (uint8_t)(reg_read(s, i, SCI_NODE_LC_STRIDE + SCI_REG_BRT) & 7u);
                e->pport = (uint8_t)(reg_read(s, i, SCI_PSB_BRT) & 7u);
                if (set == 0 && tb->asel) {
                    if (reg_cycle(s, i, SCI_PSB_TADDR, s->id[d], 0x3FFF) < 0) {
                        snprintf(err, errlen, "%s", s->err);
                        return -1;
                    }
                    tb->asel[(size_t)i * s->n + d] = (uint8_t)(reg_read(s, i, SCI_PSB_ASEL) & 1u);
                }
            }
    }
    if (s->cfg.p2s) /* the failover the hardware shows now */
        for (unsigned i = 0; i < s->n; i++) {
            if (s->host[i].dead)
                continue;
            uint64_t sx = reg_read(s, i, SCI_REG_STATUS),
                     sy = reg_read(s, i, SCI_NODE_LC_STRIDE + SCI_REG_STATUS);
            uint64_t fc = reg_read(s, i, SCI_PSB_FOCOL);
            sci_route_p2s_failover(tb, i, !(sx & 1u) || (sx & 4u), !(sy & 1u) || (sy & 4u),
                                   (int)(fc & 1u), (unsigned)(fc >> 8 & 0x3Fu));
        }
    /* the rings as they are, for the tracer */
    for (unsigned i = 0; i < s->n; i++) {
        if (s->host[i].dead)
            continue;
        if (!(reg_read(s, i, SCI_REG_STATUS) & 1u))
            tb->f.xring[yn(s, i)] = 1;
        if (!(reg_read(s, i, SCI_NODE_LC_STRIDE + SCI_REG_STATUS) & 1u))
            tb->f.yring[xn(s, i)] = 1;
    }
    return 0;
}
