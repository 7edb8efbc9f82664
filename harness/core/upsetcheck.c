/* upsetcheck.c — every element of an upset map checked against stimuli (upsetcheck.h). */
#include "upsetcheck.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lockstep.h"
#include "prng.h"

#define NCAND   256u  /* flip candidates kept per stimulus and element */
#define MAXLIVE 1024u /* live entries asked of the design per cycle */

/* A place to flip: a cycle and a table entry. */
typedef struct cand {
    uint64_t cycle;
    uint32_t index;
} cand_t;

/* One stimulus: its vector, last cycle, the run without an upset, and for the element being
 * checked where it is live (or `uniform`: the design has no opinion, any cycle will do). */
typedef struct stim {
    const vec_t *v;
    uint64_t end;
    uint64_t *clean; /* per cycle: the observation's hash without an upset */
    cand_t cand[NCAND];
    unsigned ncand;
    uint64_t nlive; /* live (cycle, entry) pairs seen: ncand is a uniform sample of them */
    int uniform;
    int masked; /* the design says nothing of it reads the element (DEV_UPSET_MASKED) */
} stim_t;

typedef struct ctx {
    stim_t *st; /* the stimuli, tried in turn */
    unsigned nst;
    const stim_t *cur;     /* the stimulus of the run under way */
    const dev_design_t *d; /* the device (of the first stimulus: all are one design) */
    const upset_check_opts_t *o;
    uint32_t *xaddr;   /* registers read every cycle besides the debug words */
    unsigned nx, nobs; /* nobs: words an observation holds (outputs, debug, reads) */
    uint64_t *obs[2];  /* per model: this cycle's observation */
    uint32_t *live;    /* MAXLIVE live entries, asked of the design */
    prng_t rng;
    unsigned asserted; /* elements whose tries fired an RTL assertion */
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

/* The stimulus's events of cycle cyc from event *i on: its own upsets and controls applied to
 * ls, its drives into in; its register write, made by the vector's writer, into *w (returns
 * w, or NULL for none). As `ftsim play` does. */
static const dev_write_t *stim_cycle(const vec_t *v, size_t *i, uint64_t cyc, lockstep_t *ls,
                                     uint64_t *in, vec_writer_t *wr, dev_write_t *w)
{
    const dev_write_t *x = NULL;
    char err[DEV_ERR_LEN];
    for (; *i < v->nev && v->ev[*i].cycle == cyc; (*i)++) {
        const vec_ev_t *e = &v->ev[*i];
        if (e->kind == VEC_UPSET)
            (void)ls_upset(ls, &e->seu, err, sizeof err);
        else if (e->kind == VEC_DRIVE)
            in[e->idx] = e->value;
        else if (e->kind == VEC_CONFIG)
            x = &e->wr;
        else if (e->kind == VEC_CONTROL)
            for (unsigned k = 0; k < ls->n; k++)
                (void)dev_control(ls->m[k], e->text, err, sizeof err);
    }
    if (!x)
        return NULL;
    *w = vec_writer_write(wr, x);
    return w;
}

/* One run of the stimulus c->cur: without an upset (s NULL: the clean hashes are recorded), or
 * with s at cycle n, through n + window. */
static int run(ctx_t *c, const dev_upset_bit_t *s, uint64_t n, const via_t *via, result_t *r)
{
    const stim_t *st = c->cur;
    const vec_t *v = st->v;
    const dev_design_t *d = v->design;
    int rtl_only = s && (s->u->flags & DEV_UPSET_RTL_ONLY);
    lockstep_t ls;
    char err[DEV_ERR_LEN], msg[480];
    memset(r, 0, sizeof *r);
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
    uint64_t last = s ? (n + c->o->window < st->end ? n + c->o->window : st->end) : st->end;
    uint64_t v0[2] = {0, 0};
    size_t i = 0;
    for (uint64_t cyc = 0; cyc <= last && !r->failed; cyc++) {
        dev_write_t wbuf;
        const dev_write_t *w = stim_cycle(v, &i, cyc, &ls, in, &wr, &wbuf);
        if (s && cyc == n && ls_upset(&ls, s, err, sizeof err) < 0) {
            snprintf(r->why, sizeof r->why, "the upset is refused: %s", err);
            r->failed = 1;
            break;
        }
        ls_set_inputs(&ls, in);
        if (w) {
            ls_reg_write(&ls, w);
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
            st->clean[cyc] = h;
        else if (!via && cyc >= n && h != st->clean[cyc])
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

/* Where bit `bit` of element `entry` (of part `part`) is live in stimulus st, asked of the
 * design cycle by cycle on the C model: a uniform sample of (cycle, entry) pairs from cycle lo
 * on. */
static void collect_live(ctx_t *c, stim_t *st, uint32_t part, uint32_t entry, unsigned bit,
                         uint64_t lo)
{
    const vec_t *v = st->v;
    const dev_design_t *d = v->design;
    st->ncand = 0;
    st->nlive = 0;
    st->uniform = 1;
    st->masked = 0;
    if (!d->upset_live)
        return;
    lockstep_t ls;
    char err[DEV_ERR_LEN];
    uint64_t *in = calloc(d->nports, sizeof *in);
    if (!in || ls_open(&ls, d, LS_CSIM, err, sizeof err) < 0) {
        free(in);
        return;
    }
    ls_reset(&ls, v->init, v->ninit);
    vec_writer_t wr;
    vec_writer_init(&wr, v);
    size_t i = 0;
    st->uniform = 0;
    for (uint64_t cyc = 0; cyc <= st->end; cyc++) {
        dev_write_t wbuf;
        const dev_write_t *w = stim_cycle(v, &i, cyc, &ls, in, &wr, &wbuf);
        ls_set_inputs(&ls, in);
        if (w)
            ls_reg_write(&ls, w);
        int n = d->upset_live(ls.m[0], part, entry, bit, c->live, MAXLIVE);
        if (n == DEV_UPSET_MASKED) {
            st->masked = 1; /* checked anywhere: it must never be seen */
            break;
        }
        if (n < 0) {
            st->uniform = 1;
            break;
        }
        for (unsigned k = 0; cyc >= lo && k < (unsigned)n && k < MAXLIVE; k++) {
            cand_t x = {cyc, c->live[k]};
            if (st->nlive < NCAND)
                st->cand[st->ncand++] = x;
            else {
                uint64_t j = prng_next(&c->rng) % (st->nlive + 1);
                if (j < NCAND)
                    st->cand[j] = x;
            }
            st->nlive++;
        }
        char msg[200];
        (void)ls_tick(&ls, msg, sizeof msg);
    }
    vec_writer_free(&wr);
    free(in);
    ls_close(&ls);
}

/* A register of d by the name of a part's register (prefix + name), or NULL. */
static const dev_reg_t *reg_named(const dev_design_t *d, const char *prefix, const char *name)
{
    char full[128];
    snprintf(full, sizeof full, "%s%s", prefix, name);
    int k = dev_reg_index(d, full);
    return k < 0 ? NULL : &d->regs[k];
}

/* Whether a vector writes a register in cycle cyc (a table's front door needs the port). */
static int writes_in(const vec_t *v, uint64_t cyc)
{
    for (size_t i = 0; i < v->nev; i++)
        if (v->ev[i].cycle == cyc && v->ev[i].kind == VEC_CONFIG)
            return 1;
    return 0;
}

/* Check one bit of element u: tries at cycles where it is live (or anywhere, when the design
 * cannot say) until one sees it or one fails. */
static int check_bit(ctx_t *c, const char *prefix, uint32_t part, uint32_t e, const dev_upset_t *u,
                     unsigned bit, const via_t *via, char *why, size_t len, unsigned *ntries,
                     int *asserted)
{
    uint64_t lo = via ? 3 : 1;
    unsigned live_somewhere = 0;
    for (unsigned k = 0; k < c->nst; k++) {
        if (via)
            c->st[k].uniform = 1, c->st[k].ncand = 0, c->st[k].masked = 0;
        else
            collect_live(c, &c->st[k], part, e, bit, lo);
        live_somewhere +=
            c->st[k].uniform || c->st[k].masked ? c->st[k].end > lo : c->st[k].ncand != 0;
    }
    if (!live_somewhere) {
        snprintf(why, len, "never live in %s stimul%s, so never checked",
                 c->nst == 1 ? "the" : "any", c->nst == 1 ? "us" : "i");
        return -1;
    }
    int masked = c->st[0].masked;
    unsigned tries = masked ? 4u : c->o->tries; /* a masked bit: a few tries, none may show */
    for (unsigned t = 0, done = 0; done < tries && t < 4u * tries; t++) {
        const stim_t *st = &c->st[t % c->nst];
        uint64_t n;
        uint32_t index;
        if (st->uniform || st->masked) {
            if (st->end <= lo)
                continue;
            n = lo + prng_below(&c->rng, (uint32_t)(st->end - lo));
            index = u->count ? prng_below(&c->rng, u->count) : 0;
        } else if (st->ncand) {
            const cand_t *x = &st->cand[prng_below(&c->rng, st->ncand)];
            n = x->cycle;
            index = x->index;
        } else {
            continue;
        }
        if (via && writes_in(st->v, n - 2))
            continue;
        done++;
        c->cur = st;
        char target[160], bits[16], err[DEV_ERR_LEN];
        snprintf(target, sizeof target, u->count ? "%s%s[%u]" : "%s%s", prefix, u->name, index);
        snprintf(bits, sizeof bits, "bit%u", bit);
        dev_upset_bit_t s;
        if (dev_upset_find(st->v->design, target, bits, &s, err, sizeof err) < 0) {
            snprintf(why, len, "%s %s: %s", target, bits, err);
            return -1;
        }
        result_t r;
        c->tries++;
        (*ntries)++;
        run(c, &s, n, via, &r);
        *asserted |= r.asserted;
        char stmt[200];
        dev_upset_format(st->v->design, &s, stmt, sizeof stmt);
        if (r.failed) {
            snprintf(why, len, "%s: @%llu seu %s: %s", st->v->path, (unsigned long long)n, stmt,
                     r.why);
            return -1;
        }
        if (r.seen && masked) {
            snprintf(why, len,
                     "%s: @%llu seu %s is seen from outside, though the design says nothing of it "
                     "reads %s",
                     st->v->path, (unsigned long long)n, stmt, u->name);
            return -1;
        }
        if (r.seen) {
            if (c->o->verbose)
                printf("    %s: @%llu seu %s: seen%s\n", st->v->path, (unsigned long long)n, stmt,
                       r.asserted ? " (an RTL assertion fired)" : "");
            return 0;
        }
    }
    if (masked)
        return 1; /* never seen, as the design says: lockstep clean every try */
    snprintf(why, len, "bit %u never seen from outside in %u tries (window %llu cycles)", bit,
             c->o->tries, (unsigned long long)c->o->window);
    return -1;
}

/* Check every chosen bit of element u (entry e of the map). Returns 0 pass, 1 fail. */
static int check_element(ctx_t *c, const char *prefix, uint32_t part, uint32_t e,
                         const dev_upset_t *u)
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
    unsigned masked = 0;
    for (unsigned k = 0; k < nbits && !bad; k++) {
        unsigned bit = nbits == u->width ? k : (nbits < 2 ? 0 : k * (u->width - 1u) / (nbits - 1u));
        int r = check_bit(c, prefix, part, e, u, bit, vp, why, sizeof why, &tries, &asserted);
        bad = r < 0;
        masked += r > 0;
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
    if (masked) {
        printf("  ok   %s%s (%s): masked here (nothing of %s reads it): %u bit%s flipped in %u "
               "tr%s, never seen, lockstep clean\n",
               prefix, u->name, what, c->d->name, nbits, nbits == 1 ? "" : "s", tries,
               tries == 1 ? "y" : "ies");
        return 0;
    }
    printf("  ok   %s%s (%s%s): %u bit%s seen in %u tr%s%s%s\n", prefix, u->name, what,
           u->flags & DEV_UPSET_RTL_ONLY ? ", RTL only" : "", nbits, nbits == 1 ? "" : "s", tries,
           tries == 1 ? "y" : "ies", vp ? " through its front door" : "",
           asserted ? ", an RTL assertion fired" : "");
    return 0;
}

/* Whether name is one of a comma-separated list (case-insensitive). */
static int in_list(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *w = list; *w;) {
        size_t len = strcspn(w, ",");
        if (len == n && strncasecmp(w, name, n) == 0)
            return 1;
        w += len + (w[len] == ',');
    }
    return 0;
}

int upset_check(const vec_t *const *stim, unsigned nstim, const upset_check_opts_t *o)
{
    const dev_design_t *d = stim[0]->design;
    const dev_design_t *map = d->part_design ? d->part_design : d;
    ctx_t c = {.d = d, .o = o, .nst = nstim};
    char prefix[64] = "";
    for (unsigned k = 1; k < nstim; k++)
        if (strcasecmp(stim[k]->design->name, d->name) != 0) {
            printf("upsetcheck: %s is a vector of %s, %s of %s: one device at a time\n",
                   stim[0]->path, d->name, stim[k]->path, stim[k]->design->name);
            return 2;
        }
    if (!map->nupsets) {
        printf("upsetcheck: %s has no upset map\n", d->name);
        return 2;
    }
    if (d->part_design) {
        if (o->part >= d->nparts) {
            printf("upsetcheck: %s has parts 0 to %u, not %u\n", d->name, d->nparts - 1, o->part);
            return 2;
        }
        d->part_prefix(d, o->part, prefix, sizeof prefix);
    }
    for (const char *w = o->only; w && *w;) {
        size_t len = strcspn(w, ",");
        int found = 0;
        for (unsigned e = 0; e < map->nupsets && !found; e++)
            found =
                strlen(map->upsets[e].name) == len && strncasecmp(map->upsets[e].name, w, len) == 0;
        if (!found) {
            printf("upsetcheck: '%.*s' is not in the upset map of %s (ftsim info %s --upsets)\n",
                   (int)len, w, map->name, map->name);
            return 2;
        }
        w += len + (w[len] == ',');
    }
    int rc = 2;
    c.st = calloc(nstim, sizeof *c.st);
    c.live = calloc(MAXLIVE, sizeof *c.live);
    if (!c.st || !c.live || extra_addrs(&c) < 0) {
        printf("upsetcheck: out of memory\n");
        goto out;
    }
    c.nobs = d->nports + d->ndebug + c.nx;
    c.obs[0] = calloc(c.nobs, sizeof *c.obs[0]);
    c.obs[1] = calloc(c.nobs, sizeof *c.obs[1]);
    if (!c.obs[0] || !c.obs[1]) {
        printf("upsetcheck: out of memory\n");
        goto out;
    }
    uint64_t cycles = 0;
    for (unsigned k = 0; k < nstim; k++) {
        stim_t *st = &c.st[k];
        st->v = stim[k];
        st->end = vec_end_cycle(stim[k]);
        st->clean = calloc(st->end + 1, sizeof *st->clean);
        if (!st->clean) {
            printf("upsetcheck: out of memory\n");
            goto out;
        }
        c.cur = st;
        result_t r;
        run(&c, NULL, 0, NULL, &r);
        if (r.failed) {
            printf("upsetcheck: %s: the stimulus itself does not run clean: %s\n", stim[k]->path,
                   r.why);
            goto out;
        }
        cycles += st->end + 1;
    }
    prng_seed(&c.rng, o->seed);
    printf("upsetcheck %s%s%s%s: the upset map against %u stimul%s (%llu cycles), window %llu, up to "
           "%u tries a bit, seed %llu\n",
           d->name, *prefix ? " (" : "", prefix, *prefix ? ")" : "", nstim, nstim == 1 ? "us" : "i",
           (unsigned long long)cycles, (unsigned long long)o->window, o->tries,
           (unsigned long long)o->seed);
    unsigned pass = 0, fail = 0;
    for (unsigned e = 0; e < map->nupsets; e++) {
        const dev_upset_t *u = &map->upsets[e];
        if (o->only && !in_list(o->only, u->name))
            continue;
        if (check_element(&c, prefix, o->part, e, u))
            fail++;
        else
            pass++;
        fflush(stdout);
    }
    printf("upsetcheck %s%s%s%s: %llu tries, %u element%s with an RTL assertion after the flip\n",
           d->name, *prefix ? " (" : "", prefix, *prefix ? ")" : "", (unsigned long long)c.tries,
           c.asserted, c.asserted == 1 ? "" : "s");
    printf("%u passed, %u failed\n", pass, fail);
    rc = fail ? 1 : 0;
out:
    for (unsigned k = 0; c.st && k < nstim; k++)
        free(c.st[k].clean);
    free(c.st);
    free(c.live);
    free(c.obs[0]);
    free(c.obs[1]);
    free(c.xaddr);
    return rc;
}
