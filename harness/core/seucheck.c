/* seucheck.c — every element of an upset map checked against a stimulus (seucheck.h). */
#include "seucheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lockstep.h"
#include "prng.h"

/* One stimulus: its vector, last cycle and the run without an upset. */
typedef struct stim {
    const vec_t *v;
    uint64_t end;
    uint64_t *clean; /* per cycle: the observation's hash without an upset */
} stim_t;

typedef struct ctx {
    stim_t *st; /* the stimuli, tried in turn */
    unsigned nst;
    const vec_t *v; /* the stimulus of the run under way, and its end and clean hashes */
    uint64_t end;
    uint64_t *clean;
    const dev_design_t *d; /* the device (of the first stimulus: all are one design) */
    const seu_check_opts_t *o;
    uint32_t *xaddr;   /* registers read every cycle besides the debug words */
    unsigned nx, nobs; /* nobs: words an observation holds (outputs, debug, reads) */
    uint64_t *obs[2];  /* per model: this cycle's observation */
    prng_t rng;
    unsigned asserted; /* bits whose tries fired an RTL assertion */
    uint64_t tries;
} ctx_t;

/* What one try established about one bit. */
typedef struct result {
    int seen;       /* the flip was seen from outside */
    int failed;     /* the models diverged, or a front-door read was wrong */
    int asserted;   /* an RTL assertion fired after the flip */
    char why[1024]; /* the failure */
} result_t;

/* A table's front door: its index and data registers. */
typedef struct via {
    const dev_reg_t *index, *data;
} via_t;

/* Every register address that is not a debug word, once: read every cycle (CFG of RN1, CTRL
 * and the table registers of an SCI controller). */
static int extra_addrs(ctx_t *c)
{
    const dev_design_t *d = c->d;
    c->xaddr = calloc(d->nregs ? d->nregs : 1, sizeof *c->xaddr);
    if (!c->xaddr)
        return -1;
    for (unsigned i = 0; i < d->nregs; i++) {
        uint32_t a = d->regs[i].addr;
        int seen = 0;
        for (unsigned k = 0; k < d->ndebug && !seen; k++)
            seen = d->debug_addrs[k] == a;
        for (unsigned k = 0; k < c->nx && !seen; k++)
            seen = c->xaddr[k] == a;
        if (!seen)
            c->xaddr[c->nx++] = a;
    }
    return 0;
}

/* Model m's outputs, debug words and register reads of this cycle into w; their hash. */
static uint64_t observe(const ctx_t *c, device_t *m, uint64_t *w)
{
    const dev_design_t *d = c->d;
    memset(w, 0, c->nobs * sizeof *w);
    dev_get_outputs(m, w);
    for (unsigned p = 0; p < d->nports; p++)
        if (d->ports[p].dir != DEV_OUT)
            w[p] = 0;
    dev_debug(m, w + d->nports);
    for (unsigned k = 0; k < c->nx; k++)
        w[d->nports + d->ndebug + k] = dev_reg_read(m, c->xaddr[k]);
    uint64_t h = 0xCBF29CE484222325ull; /* FNV-1a over the words */
    for (unsigned k = 0; k < c->nobs; k++) {
        h ^= w[k];
        h *= 0x100000001B3ull;
    }
    return h;
}

/* The first word where the two models' observations differ, named. */
static void name_difference(const ctx_t *c, char *buf, size_t len)
{
    const dev_design_t *d = c->d;
    for (unsigned k = 0; k < c->nobs; k++) {
        if (c->obs[0][k] == c->obs[1][k])
            continue;
        if (k < d->nports) {
            char a[48], b[48];
            dev_format_port_word(d, k, c->obs[0][k], 0, a, sizeof a);
            dev_format_port_word(d, k, c->obs[1][k], 0, b, sizeof b);
            snprintf(buf, len, "output %s: rtl %s, csim %s", d->ports[k].name, a, b);
        } else {
            uint32_t a = k < d->nports + d->ndebug ? d->debug_addrs[k - d->nports]
                                                   : c->xaddr[k - d->nports - d->ndebug];
            snprintf(buf, len, "register 0x%x: rtl 0x%llx, csim 0x%llx", a,
                     (unsigned long long)c->obs[0][k], (unsigned long long)c->obs[1][k]);
        }
        return;
    }
    snprintf(buf, len, "(no difference)");
}

/* One run of the stimulus: without an upset (s NULL: the clean hashes are recorded), or with s
 * at cycle n, through n + window. */
static int run(ctx_t *c, const dev_seu_t *s, uint64_t n, const via_t *via, result_t *r)
{
    const vec_t *v = c->v;
    const dev_design_t *d = c->d;
    int rtl_only = s && (s->u->flags & DEV_SEU_RTL_ONLY);
    lockstep_t ls;
    char err[DEV_ERR_LEN], msg[480];
    memset(r, 0, sizeof *r);
    d = v->design;
    if (ls_open(&ls, d, rtl_only ? LS_RTL : LS_BOTH, err, sizeof err) < 0) {
        snprintf(r->why, sizeof r->why, "cannot run: %s", err);
        r->failed = 1;
        return -1;
    }
    uint64_t *in = calloc(d->nports, sizeof *in);
    if (!in) {
        ls_close(&ls);
        snprintf(r->why, sizeof r->why, "out of memory");
        r->failed = 1;
        return -1;
    }
    ls_reset(&ls, v->init, v->ninit);
    vec_writer_t wr;
    vec_writer_init(&wr, v);
    uint64_t last = s ? (n + c->o->window < c->end ? n + c->o->window : c->end) : c->end;
    uint64_t v0[2] = {0, 0};
    size_t i = 0;
    for (uint64_t cyc = 0; cyc <= last && !r->failed; cyc++) {
        const dev_write_t *w = NULL;
        dev_write_t wfull;
        for (; i < v->nev && v->ev[i].cycle == cyc; i++) {
            const vec_ev_t *e = &v->ev[i];
            if (e->kind == VEC_SEU)
                (void)ls_upset(&ls, &e->seu, err, sizeof err);
            else if (e->kind == VEC_DRIVE)
                in[e->idx] = e->value;
            else if (e->kind == VEC_CONFIG)
                w = &e->wr;
            else if (e->kind == VEC_CONTROL)
                for (unsigned k = 0; k < ls.n; k++)
                    (void)dev_control(ls.m[k], e->text, err, sizeof err);
        }
        if (s && cyc == n && ls_upset(&ls, s, err, sizeof err) < 0) {
            snprintf(r->why, sizeof r->why, "the upset is refused: %s", err);
            r->failed = 1;
            break;
        }
        ls_set_inputs(&ls, in);
        if (w) {
            wfull = vec_writer_write(&wr, w);
            ls_reg_write(&ls, &wfull);
        } else if (via && cyc + 2 == n) {
            dev_write_t t = {via->index->addr, (uint64_t)s->index << via->index->lsb,
                             dev_field_mask(via->index)};
            ls_reg_write(&ls, &t);
        }
        uint64_t h = 0;
        for (unsigned k = 0; k < ls.n; k++)
            h = observe(c, ls.m[k], c->obs[k]);
        if (via && (cyc + 1 == n || cyc == n)) {
            for (unsigned k = 0; k < ls.n; k++) {
                uint64_t x = dev_field_get(via->data, dev_reg_read(ls.m[k], via->data->addr));
                if (cyc + 1 == n) {
                    v0[k] = x;
                } else if (x != (v0[k] ^ (1ull << s->bit))) {
                    snprintf(r->why, sizeof r->why,
                             "cycle %llu: %s reads %s 0x%llx through %s = 0x%x, 0x%llx before the "
                             "flip",
                             (unsigned long long)cyc, dev_impl_name(ls.m[k]->impl), via->data->name,
                             (unsigned long long)x, via->index->name, s->index,
                             (unsigned long long)v0[k]);
                    r->failed = 1;
                } else {
                    r->seen = 1;
                }
            }
        }
        if (ls.n == 2 && memcmp(c->obs[0], c->obs[1], c->nobs * sizeof *c->obs[0]) != 0) {
            name_difference(c, msg, sizeof msg);
            snprintf(r->why, sizeof r->why, "cycle %llu: the models diverge: %s",
                     (unsigned long long)cyc, msg);
            r->failed = 1;
            break;
        }
        if (!s)
            c->clean[cyc] = h;
        else if (!via && cyc >= n && h != c->clean[cyc])
            r->seen = 1;
        if (ls_tick(&ls, msg, sizeof msg)) {
            snprintf(r->why, sizeof r->why, "cycle %llu: %s", (unsigned long long)cyc, msg);
            r->failed = 1;
        }
    }
    r->asserted = ls.asserted;
    vec_writer_free(&wr);
    free(in);
    ls_close(&ls);
    return 0;
}

/* A register of d by the name of a part's register (prefix + name), or NULL. */
static const dev_reg_t *reg_named(const dev_design_t *d, const char *prefix, const char *name)
{
    char full[128];
    snprintf(full, sizeof full, "%s%s", prefix, name);
    int k = dev_reg_index(d, full);
    return k < 0 ? NULL : &d->regs[k];
}

/* Whether the stimulus writes a register in cycle cyc (a table's front door needs the port). */
static int writes_in(const vec_t *v, uint64_t cyc)
{
    for (size_t i = 0; i < v->nev; i++)
        if (v->ev[i].cycle == cyc && v->ev[i].kind == VEC_CONFIG)
            return 1;
    return 0;
}

/* Check one bit of element u: tries at random cycles until one sees it or one fails. */
static int check_bit(ctx_t *c, const char *prefix, const dev_upset_t *u, unsigned bit,
                     const via_t *via, char *why, size_t len, unsigned *ntries, int *asserted)
{
    uint64_t lo = via ? 3 : 1;
    for (unsigned t = 0; t < c->o->tries; t++) {
        const stim_t *st = &c->st[t % c->nst];
        c->v = st->v;
        c->end = st->end;
        c->clean = st->clean;
        if (c->end <= lo) {
            snprintf(why, len, "%s is too short (%llu cycles)", c->v->path,
                     (unsigned long long)c->end + 1);
            return -1;
        }
        uint64_t n = lo + prng_below(&c->rng, (uint32_t)(c->end - lo));
        if (via && writes_in(c->v, n - 2))
            continue;
        uint32_t index = u->count ? prng_below(&c->rng, u->count) : 0;
        char target[160], bits[16], err[DEV_ERR_LEN];
        snprintf(target, sizeof target, u->count ? "%s%s[%u]" : "%s%s", prefix, u->name, index);
        snprintf(bits, sizeof bits, "bit%u", bit);
        dev_seu_t s;
        if (dev_upset_find(c->v->design, target, bits, &s, err, sizeof err) < 0) {
            snprintf(why, len, "%s %s: %s", target, bits, err);
            return -1;
        }
        result_t r;
        c->tries++;
        (*ntries)++;
        run(c, &s, n, via, &r);
        *asserted |= r.asserted;
        char stmt[200];
        dev_upset_format(c->v->design, &s, stmt, sizeof stmt);
        if (r.failed) {
            snprintf(why, len, "%s: @%llu seu %s: %s", c->v->path, (unsigned long long)n, stmt,
                     r.why);
            return -1;
        }
        if (r.seen) {
            if (c->o->verbose)
                printf("    @%llu seu %s: seen%s\n", (unsigned long long)n, stmt,
                       r.asserted ? " (an RTL assertion fired)" : "");
            return 0;
        }
    }
    snprintf(why, len, "bit %u never seen from outside in %u tries (window %llu cycles)", bit,
             c->o->tries, (unsigned long long)c->o->window);
    return -1;
}

/* Check every chosen bit of element u. Returns 0 pass, 1 fail. */
static int check_element(ctx_t *c, const char *prefix, const dev_upset_t *u)
{
    via_t via = {0}, *vp = NULL;
    char why[1400] = "";
    if (u->via_index && u->via_data) {
        via.index = reg_named(c->d, prefix, u->via_index);
        via.data = reg_named(c->d, prefix, u->via_data);
        if (!via.index || !via.data) {
            printf("  FAIL %s%s: its front door %s/%s is not a register of %s\n", prefix, u->name,
                   u->via_index, u->via_data, c->d->name);
            return 1;
        }
        vp = &via;
    }
    unsigned nbits = u->width, tries = 0;
    if (c->o->max_bits && nbits > c->o->max_bits)
        nbits = c->o->max_bits;
    int asserted = 0, bad = 0;
    for (unsigned k = 0; k < nbits && !bad; k++) {
        unsigned bit = nbits == u->width ? k : (nbits < 2 ? 0 : k * (u->width - 1u) / (nbits - 1u));
        bad = check_bit(c, prefix, u, bit, vp, why, sizeof why, &tries, &asserted) < 0;
    }
    c->asserted += asserted != 0;
    char what[64];
    if (u->count)
        snprintf(what, sizeof what, "[%u] x %u bits", u->count, u->width);
    else
        snprintf(what, sizeof what, "%u bits", u->width);
    if (bad) {
        printf("  FAIL %s%s (%s, %s): %s\n", prefix, u->name, what, u->rtl, why);
        return 1;
    }
    printf("  ok   %s%s (%s%s): %u bit%s seen in %u tr%s%s%s\n", prefix, u->name, what,
           u->flags & DEV_SEU_RTL_ONLY ? ", RTL only" : "", nbits, nbits == 1 ? "" : "s", tries,
           tries == 1 ? "y" : "ies", vp ? " through its front door" : "",
           asserted ? ", an RTL assertion fired" : "");
    return 0;
}

int seu_check(const vec_t *const *stim, unsigned nstim, const seu_check_opts_t *o)
{
    const dev_design_t *d = stim[0]->design;
    const dev_design_t *map = d->part_design ? d->part_design : d;
    ctx_t c = {.d = d, .o = o, .nst = nstim};
    char prefix[64] = "";
    for (unsigned k = 1; k < nstim; k++)
        if (strcasecmp(stim[k]->design->name, d->name) != 0) {
            printf("seucheck: %s is a vector of %s, %s of %s: one device at a time\n",
                   stim[0]->path, d->name, stim[k]->path, stim[k]->design->name);
            return 2;
        }
    if (!map->nupsets) {
        printf("seucheck: %s has no upset map\n", d->name);
        return 2;
    }
    if (d->part_design) {
        if (o->part >= d->nparts) {
            printf("seucheck: %s has parts 0 to %u, not %u\n", d->name, d->nparts - 1, o->part);
            return 2;
        }
        d->part_prefix(d, o->part, prefix, sizeof prefix);
    }
    if (o->only) {
        int found = 0;
        for (unsigned e = 0; e < map->nupsets && !found; e++)
            found = strcasecmp(map->upsets[e].name, o->only) == 0;
        if (!found) {
            printf("seucheck: '%s' is not in the upset map of %s (ftsim info %s --upsets)\n",
                   o->only, map->name, map->name);
            return 2;
        }
    }
    int rc = 2;
    c.st = calloc(nstim, sizeof *c.st);
    if (!c.st || extra_addrs(&c) < 0) {
        printf("seucheck: out of memory\n");
        goto out;
    }
    c.nobs = d->nports + d->ndebug + c.nx;
    c.obs[0] = calloc(c.nobs, sizeof *c.obs[0]);
    c.obs[1] = calloc(c.nobs, sizeof *c.obs[1]);
    if (!c.obs[0] || !c.obs[1]) {
        printf("seucheck: out of memory\n");
        goto out;
    }
    uint64_t cycles = 0;
    for (unsigned k = 0; k < nstim; k++) {
        stim_t *st = &c.st[k];
        st->v = stim[k];
        st->end = vec_end_cycle(stim[k]);
        st->clean = calloc(st->end + 1, sizeof *st->clean);
        if (!st->clean) {
            printf("seucheck: out of memory\n");
            goto out;
        }
        c.v = st->v;
        c.end = st->end;
        c.clean = st->clean;
        result_t r;
        run(&c, NULL, 0, NULL, &r);
        if (r.failed) {
            printf("seucheck: %s: the stimulus itself does not run clean: %s\n", stim[k]->path,
                   r.why);
            goto out;
        }
        cycles += st->end + 1;
    }
    prng_seed(&c.rng, o->seed);
    printf("seucheck %s%s: the upset map against %u stimul%s (%llu cycles), window %llu, up to "
           "%u tries a bit, seed %llu\n",
           d->name, prefix, nstim, nstim == 1 ? "us" : "i", (unsigned long long)cycles,
           (unsigned long long)o->window, o->tries, (unsigned long long)o->seed);
    unsigned pass = 0, fail = 0;
    for (unsigned e = 0; e < map->nupsets; e++) {
        const dev_upset_t *u = &map->upsets[e];
        if (o->only && strcasecmp(u->name, o->only) != 0)
            continue;
        if (check_element(&c, prefix, u))
            fail++;
        else
            pass++;
        fflush(stdout);
    }
    printf("seucheck %s%s: %llu tries, %u element%s with an RTL assertion after the flip\n",
           d->name, prefix, (unsigned long long)c.tries, c.asserted, c.asserted == 1 ? "" : "s");
    printf("%u passed, %u failed\n", pass, fail);
    rc = fail ? 1 : 0;
out:
    for (unsigned k = 0; c.st && k < nstim; k++)
        free(c.st[k].clean);
    free(c.st);
    free(c.obs[0]);
    free(c.obs[1]);
    free(c.xaddr);
    return rc;
}
