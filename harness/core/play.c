/* play.c — play a vector on one model or two in lockstep, checking its expectations. */
#include "play.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SHOW_MAX_CYCLES 400u

/* The first upset of an element the C model does not keep, or NULL. */
static const vec_ev_t *rtl_only_upset(const vec_t *v)
{
    for (size_t i = 0; i < v->nev; i++)
        if (v->ev[i].kind == VEC_UPSET && (v->ev[i].seu.u->flags & DEV_UPSET_RTL_ONLY))
            return &v->ev[i];
    return NULL;
}

/* The first upset of the vector, or NULL. */
static const vec_ev_t *first_upset(const vec_t *v)
{
    for (size_t i = 0; i < v->nev; i++)
        if (v->ev[i].kind == VEC_UPSET)
            return &v->ev[i];
    return NULL;
}

typedef struct run {
    const vec_t *v;
    const play_opts_t *o;
    lockstep_t ls;
    unsigned fails;
    int quiet;       /* a model alone after a divergence: keep only the first message */
    int diverged;    /* the models diverged (lockstep) */
    char first[800]; /* the first message, without the file and line */
    unsigned first_line;
    uint64_t first_cycle;
    uint64_t *tab; /* --show: every port's word, per cycle (SHOW_MAX_CYCLES x nports) */
    uint64_t ntab;
    vec_writer_t sh;     /* the vector's own copy of what it wrote */
    unsigned seu_line;   /* the line of the last upset applied (0: none yet) */
    int assert_reported; /* an assertion after an upset has been reported */
} run_t;

/* Short names for a table cell: . for idle, the byte for c=1 words. */
static void cell(const dev_design_t *d, unsigned p, uint64_t w, char *buf, size_t len)
{
    if (w == 0) {
        snprintf(buf, len, ".");
        return;
    }
    char full[48];
    dev_format_port_word(d, p, w, 0, full, sizeof full);
    const char *colon = strchr(full, ':');
    snprintf(buf, len, "%s", colon && strncmp(full, "DATA:", 5) == 0 ? colon + 1 : full);
}

/* The run as a picture: a row a cycle, a column a port that carried anything. */
static void show_table(const run_t *r)
{
    const dev_design_t *d = r->v->design;
    unsigned np = d->nports, n = 0;
    unsigned *cols = calloc(np, sizeof *cols);
    if (!cols)
        return;
    for (unsigned p = 0; p < np; p++)
        for (uint64_t c = 0; c < r->ntab; c++)
            if (r->tab[c * np + p]) {
                cols[n++] = p;
                break;
            }
    printf("\n%6s", "cycle");
    for (unsigned k = 0; k < n; k++)
        printf(" %6s%s", d->ports[cols[k]].name, d->ports[cols[k]].dir == DEV_IN ? "<" : ">");
    printf("\n");
    for (uint64_t c = 0; c < r->ntab; c++) {
        printf("%6llu", (unsigned long long)c);
        for (unsigned k = 0; k < n; k++) {
            char b[48];
            cell(d, cols[k], r->tab[c * np + cols[k]], b, sizeof b);
            printf(" %7s", b);
        }
        printf("\n");
    }
    printf("(< into the device, > out of it; . idle; hex bytes are c=1 words)\n\n");
    free(cols);
}

/* Every message of a run: "file:line: cycle N: ...", line the statement line of cycle N. */
static void mismatch(run_t *r, unsigned line, uint64_t cyc, const char *fmt, ...)
{
    char msg[sizeof r->first];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (r->fails++ == 0) {
        snprintf(r->first, sizeof r->first, "%s", msg);
        r->first_line = line;
        r->first_cycle = cyc;
    }
    if (r->quiet)
        return;
    if (r->fails > r->o->max_msgs) {
        if (r->fails == r->o->max_msgs + 1)
            printf("%s: more mismatches follow; only the first %u are shown\n", r->v->path,
                   r->o->max_msgs);
        return;
    }
    printf("%s:%u: cycle %llu: %s\n", r->v->path, line, (unsigned long long)cyc, msg);
}

/* The line a message about cycle cyc cites: the first statement of that cycle; else the last
 * statement before it; else the `device` line. From event i on, the vector's events are in
 * cycle order. */
static unsigned line_of(const vec_t *v, size_t i, unsigned last, uint64_t cyc)
{
    if (i < v->nev && v->ev[i].cycle == cyc)
        return v->ev[i].line;
    return last ? last : v->device_line;
}

static const char *who(const lockstep_t *ls)
{
    if (ls->n == 2)
        return ls->m[0]->impl == DEV_IMPL_GATE ? "gate and csim" : "rtl and csim";
    return dev_impl_name(ls->m[0]->impl);
}

static void check_port(run_t *r, const vec_ev_t *e, uint64_t cyc)
{
    const dev_design_t *d = r->v->design;
    uint64_t seen = r->ls.out[0][e->idx];
    if (((seen ^ e->value) & e->care) == 0)
        return;
    char exp[48], got[48];
    dev_format_port_word(d, e->idx, e->value, e->hint, exp, sizeof exp);
    dev_format_port_word(d, e->idx, seen, e->hint, got, sizeof got);
    mismatch(r, e->line, cyc, "%s: expected %s, %s saw %s", d->ports[e->idx].name, exp, who(&r->ls),
             got);
}

static void check_reg(run_t *r, const vec_ev_t *e, uint64_t cyc)
{
    const dev_reg_t *reg = &r->v->design->regs[e->idx];
    for (unsigned k = 0; k < r->ls.n; k++) {
        uint64_t got = dev_field_get(reg, dev_reg_read(r->ls.m[k], reg->addr));
        if (got == e->value)
            continue;
        char exp[64], val[64];
        dev_format_value(reg, e->value, exp, sizeof exp);
        dev_format_value(reg, got, val, sizeof val);
        mismatch(r, e->line, cyc, "reg %s: expected %s, %s reads %s", reg->name, exp,
                 dev_impl_name(r->ls.m[k]->impl), val);
    }
}

static void check_strict(run_t *r, const unsigned char *named, unsigned line, uint64_t cyc)
{
    const dev_design_t *d = r->v->design;
    for (unsigned p = 0; p < d->nports; p++) {
        if (d->ports[p].dir != DEV_OUT || named[p] || r->ls.out[0][p] == d->ports[p].idle)
            continue;
        char got[48];
        dev_format_port_word(d, p, r->ls.out[0][p], 0, got, sizeof got);
        mismatch(r, line, cyc,
                 "%s: %s saw %s where nothing is expected (check strict: an output "
                 "not named must be idle)",
                 d->ports[p].name, who(&r->ls), got);
    }
}

/* Long runs (a far `end @N` is a typo away from a near one): the cycle count said at the
 * start, then where the run is, on stderr. A run of more than PROGRESS_CYCLES cycles takes
 * seconds even on the fastest model; a terminal gets one line rewritten in place twice a
 * second, anything else (a log) a plain line every PROGRESS_PLAIN_S seconds. The clock is read
 * every 65536 cycles only. */
#define PROGRESS_CYCLES  4000000u
#define PROGRESS_PLAIN_S 10.0

typedef struct progress {
    uint64_t end;
    int on, tty;
    double t0, next;
} progress_t;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void progress_start(progress_t *p, const vec_t *v, uint64_t end, int quiet)
{
    p->end = end;
    p->on = end >= PROGRESS_CYCLES;
    p->tty = isatty(2);
    p->t0 = now_s();
    p->next = p->t0 + (p->tty ? 0.5 : PROGRESS_PLAIN_S);
    if (!p->on || quiet)
        return;
    unsigned line = v->has_end ? v->end_line : v->nev ? v->ev[v->nev - 1].line : 0;
    fprintf(stderr,
            "%s:%u: note: %llu cycles to simulate (%s @%llu); progress follows on stderr, "
            "--max-cycles N refuses a vector that runs longer\n",
            v->path, line, (unsigned long long)end + 1, v->has_end ? "end" : "the last event",
            (unsigned long long)(v->has_end ? v->end : v->last_cycle));
}

static void progress(progress_t *p, uint64_t cyc)
{
    if (!p->on || (cyc & 0xFFFF) != 0)
        return;
    double t = now_s();
    if (t < p->next)
        return;
    p->next = t + (p->tty ? 0.5 : PROGRESS_PLAIN_S);
    double rate = (double)cyc / (t - p->t0), left = rate > 0 ? (double)(p->end - cyc) / rate : 0;
    fprintf(stderr, "%s  cycle %llu of %llu (%.1f%%), %.0f cycles/s, about %.0f s left%s",
            p->tty ? "\r" : "", (unsigned long long)cyc, (unsigned long long)p->end,
            100.0 * (double)cyc / (double)p->end, rate, left, p->tty ? "   " : "\n");
}

static void progress_end(progress_t *p)
{
    if (p->on && p->tty && now_s() > p->t0 + 0.5)
        fputc('\n', stderr);
}

/* The cycle loop. Returns 0, or 1 when a divergence or an internal error stopped it. */
static int run_cycles(run_t *r)
{
    const vec_t *v = r->v;
    const dev_design_t *d = v->design;
    uint64_t *in = calloc(d->nports, sizeof *in);
    unsigned char *named = calloc(d->nports, 1);
    uint64_t end = vec_end_cycle(v);
    int rc = 0;
    if (!in || !named) {
        printf("%s: out of memory\n", v->path);
        free(in);
        free(named);
        r->fails++;
        return 1;
    }
    size_t i = 0;
    unsigned line = 0;
    char msg[600];
    progress_t prog;
    progress_start(&prog, v, end, r->quiet);
    vec_writer_init(&r->sh, v);
    for (uint64_t cyc = 0;; cyc++) {
        progress(&prog, cyc);
        const dev_write_t *wr = NULL;
        dev_write_t wfull;
        for (; i < v->nev && v->ev[i].cycle == cyc && v->ev[i].kind == VEC_UPSET; i++) {
            line = r->seu_line = v->ev[i].line;
            if (ls_upset(&r->ls, &v->ev[i].seu, msg, sizeof msg) < 0)
                mismatch(r, line, cyc, "%s", msg);
        }
        for (; i < v->nev && v->ev[i].cycle == cyc && v->ev[i].kind <= VEC_CONFIG; i++) {
            line = v->ev[i].line;
            if (v->ev[i].kind == VEC_DRIVE)
                in[v->ev[i].idx] = v->ev[i].value;
            else
                wr = &v->ev[i].wr;
        }
        if (wr) {
            wfull = vec_writer_write(&r->sh, wr);
            wr = &wfull;
        }
        for (; i < v->nev && v->ev[i].cycle == cyc && v->ev[i].kind == VEC_CONTROL; i++) {
            line = v->ev[i].line;
            for (unsigned k = 0; k < r->ls.n; k++)
                if (dev_control(r->ls.m[k], v->ev[i].text, msg, sizeof msg) < 0)
                    mismatch(r, line, cyc, "%s", msg);
        }
        ls_set_inputs(&r->ls, in);
        if (wr)
            ls_reg_write(&r->ls, wr);
        ls_sample(&r->ls);
        if (r->tab && cyc < SHOW_MAX_CYCLES) {
            for (unsigned p = 0; p < d->nports; p++)
                r->tab[cyc * d->nports + p] = d->ports[p].dir == DEV_IN ? in[p] : r->ls.out[0][p];
            r->ntab = cyc + 1;
        }
        if (ls_diverged(&r->ls, msg, sizeof msg)) {
            r->diverged = 1;
            mismatch(r, line_of(v, i, line, cyc), cyc, "the models diverge (first difference): %s",
                     msg);
            rc = 1;
            break;
        }
        memset(named, 0, d->nports);
        for (; i < v->nev && v->ev[i].cycle == cyc; i++) {
            const vec_ev_t *e = &v->ev[i];
            line = e->line;
            if (e->kind == VEC_EXPECT) {
                named[e->idx] = 1;
                check_port(r, e, cyc);
            } else {
                check_reg(r, e, cyc);
            }
        }
        if (v->strict)
            check_strict(r, named, line_of(v, i, line, cyc), cyc);
        if (ls_tick(&r->ls, msg, sizeof msg)) {
            mismatch(r, line_of(v, i, line, cyc), cyc, "%s", msg);
            rc = 1;
            break;
        }
        if (r->ls.asserted && !r->assert_reported) {
            r->assert_reported = 1;
            if (!r->quiet)
                printf("%s:%u: cycle %llu: note: an RTL assertion fired after the upset on line "
                       "%u: an observation of the run, not a mismatch (the RTL's assertions are "
                       "off from here)\n",
                       v->path, line_of(v, i, line, cyc), (unsigned long long)r->ls.assert_cycle,
                       r->seu_line);
        }
        if (cyc == end)
            break;
    }
    progress_end(&prog);
    vec_writer_free(&r->sh);
    free(in);
    free(named);
    return rc;
}

/* After a divergence: the vector played on each model alone, so the message says which model
 * breaks the spec (its first failing expectation) and not only that the two differ. */
static void verdicts(const vec_t *v, unsigned models)
{
    const unsigned alone[2] = {models & (LS_RTL | LS_GATE), LS_CSIM};
    for (unsigned k = 0; k < 2; k++) {
        unsigned m = alone[k];
        play_opts_t qo = {.models = m, .max_msgs = 1};
        run_t q = {.v = v, .o = &qo, .quiet = 1};
        char err[DEV_ERR_LEN];
        const char *name = ls_models_name(m);
        if (ls_open(&q.ls, v->design, m, err, sizeof err) < 0) {
            printf("%s: %s alone: cannot run (%s)\n", v->path, name, err);
            continue;
        }
        ls_reset(&q.ls, v->init, v->ninit);
        run_cycles(&q);
        ls_close(&q.ls);
        if (q.fails)
            printf("%s:%u: cycle %llu: %s alone fails the vector first here: %s\n", v->path,
                   q.first_line, (unsigned long long)q.first_cycle, name, q.first);
        else
            printf("%s: %s alone passes every expectation of the vector\n", v->path, name);
    }
}

int play_run(const vec_t *v, const play_opts_t *o)
{
    run_t r = {.v = v, .o = o};
    char err[DEV_ERR_LEN];
    const vec_ev_t *ro = rtl_only_upset(v);
    play_opts_t alone;
    if (o->max_cycles && vec_end_cycle(v) >= o->max_cycles) {
        unsigned line = v->has_end ? v->end_line : v->nev ? v->ev[v->nev - 1].line : 0;
        printf("%s:%u: the vector runs %llu cycles (%s @%llu), more than --max-cycles %llu\nFAIL "
               "%s\n",
               v->path, line, (unsigned long long)vec_end_cycle(v) + 1,
               v->has_end ? "end" : "its last event at",
               (unsigned long long)(v->has_end ? v->end : v->last_cycle),
               (unsigned long long)o->max_cycles, v->path);
        return 2;
    }
    const vec_ev_t *seu = first_upset(v);
    if (seu && (o->models & LS_GATE)) {
        printf("%s:%u: an upset (seu) names a register of the RTL, and a synthesized netlist's "
               "flip-flops have lost those names: play this vector with --model rtl or both\nFAIL "
               "%s\n",
               v->path, seu->line, v->path);
        return 2;
    }
    if (ro && o->models == LS_CSIM) {
        char what[128];
        dev_upset_format(v->design, &ro->seu, what, sizeof what);
        printf("%s:%u: the C model keeps no %s (an RTL-only element of the upset map): play this "
               "vector with --model rtl\nFAIL %s\n",
               v->path, ro->line, what, v->path);
        return 2;
    }
    if (ro && o->models == LS_BOTH) {
        /* Lockstep cannot follow an upset that only one model can take: the RTL runs alone,
         * against the vector's expectations. */
        printf("%s:%u: note: an upset of an RTL-only element: the vector plays on the RTL alone\n",
               v->path, ro->line);
        alone = *o;
        alone.models = LS_RTL;
        r.o = o = &alone;
    }
    if (ls_open(&r.ls, v->design, o->models, err, sizeof err) < 0) {
        fprintf(stderr, "ftsim: %s\n", err);
        return 2;
    }
    ls_reset(&r.ls, v->init, v->ninit);
    if (o->wave) {
        if (r.ls.m[0]->impl == DEV_IMPL_CSIM) {
            fprintf(stderr, "ftsim: --wave traces the RTL or the netlist: use --model rtl, both, "
                            "gate or gate-both\n");
            ls_close(&r.ls);
            return 2;
        }
        if (dev_trace_open_window(r.ls.m[0], o->wave, o->wave_from, o->wave_to, err, sizeof err) <
            0) {
            fprintf(stderr, "ftsim: %s\n", err);
            ls_close(&r.ls);
            return 2;
        }
    }
    if (o->show)
        r.tab = calloc((size_t)SHOW_MAX_CYCLES * v->design->nports, sizeof *r.tab);
    run_cycles(&r);
    if (r.diverged)
        verdicts(v, o->models);
    if (r.tab) {
        show_table(&r);
        if (vec_end_cycle(v) >= SHOW_MAX_CYCLES)
            printf("(--show stops at cycle %u)\n", SHOW_MAX_CYCLES - 1);
        free(r.tab);
    }
    if (o->wave)
        dev_trace_close(r.ls.m[0]);
    ls_close(&r.ls);
    if (r.fails) {
        printf("%s: %u mismatch%s (models: %s)\n", v->path, r.fails, r.fails == 1 ? "" : "es",
               ls_models_name(o->models));
        if (o->wave)
            printf("%s: waveform: %s\n", v->path, o->wave);
        else if (o->models == LS_RTL || o->models == LS_BOTH)
            printf("%s: to see it: make wave V=%s\n", v->path, v->path);
        printf("FAIL %s\n", v->path);
        return 1;
    }
    printf("PASS %s\n", v->path);
    return 0;
}

/* ---- golden vectors ---------------------------------------------------------------------- */

struct rec {
    FILE *f;
    char *path;
    const dev_design_t *d;
    int outputs;
    uint64_t *in;
    uint64_t regs[16];
    int have_regs;
};

rec_t *rec_open(const char *path, const dev_design_t *d, const dev_write_t *init, unsigned ninit,
                const char *header, int outputs, char *err, size_t errlen)
{
    rec_t *r = calloc(1, sizeof *r);
    if (!r || !(r->path = strdup(path))) {
        free(r);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    r->in = calloc(d->nports, sizeof *r->in);
    r->f = r->in ? fopen(path, "w") : NULL;
    if (!r->f) {
        free(r->in);
        snprintf(err, errlen, "%s: cannot write (%s)", path, strerror(errno));
        free(r->path);
        free(r);
        return NULL;
    }
    r->d = d;
    r->outputs = outputs;
    fputs(header, r->f);
    fprintf(r->f, "device %s\n", d->name);
    if (ninit)
        vec_print_config(r->f, d, init, ninit, "");
    else
        fputs("config reset-values\n", r->f); /* a bare reset: the device's own values */
    fprintf(r->f, "check %s\n", outputs ? "strict" : "loose");
    return r;
}

static void rec_regs(rec_t *r, uint64_t cycle, device_t *m)
{
    const dev_design_t *d = r->d;
    for (unsigned k = 0; d->record_regs && d->record_regs[k] && k < 16; k++) {
        int i = dev_reg_index(d, d->record_regs[k]);
        if (i < 0)
            continue;
        uint64_t v = dev_field_get(&d->regs[i], dev_reg_read(m, d->regs[i].addr));
        if (r->have_regs && v == r->regs[k])
            continue;
        r->regs[k] = v;
        char val[64];
        dev_format_value(&d->regs[i], v, val, sizeof val);
        fprintf(r->f, "@%llu reg %s -> %s\n", (unsigned long long)cycle, d->regs[i].name, val);
    }
    r->have_regs = 1;
}

/* A register write as the vector language says it: config keys on one `config` line, any
 * other field as `reg NAME <- VALUE`. */
static void rec_write(rec_t *r, uint64_t cycle, const dev_write_t *wr)
{
    const dev_design_t *d = r->d;
    int cfg = 0;
    for (unsigned i = 0; i < d->nregs; i++) {
        const dev_reg_t *g = &d->regs[i];
        if (g->addr != wr->addr || !(wr->mask & dev_field_mask(g)))
            continue;
        if (g->flags & DEV_REG_CONFIG) {
            cfg = 1;
            continue;
        }
        if ((wr->mask & dev_field_mask(g)) != dev_field_mask(g) || g->width >= 32)
            continue; /* a raw view of a wider field: named by the field itself */
        char val[64];
        dev_format_value(g, dev_field_get(g, wr->data), val, sizeof val);
        fprintf(r->f, "@%llu reg %s <- %s\n", (unsigned long long)cycle, g->name, val);
    }
    if (cfg) {
        char at[32];
        snprintf(at, sizeof at, "@%llu ", (unsigned long long)cycle);
        vec_print_config(r->f, d, wr, 1, at);
    }
}

void rec_cycle(rec_t *r, uint64_t cycle, const uint64_t *in, const dev_write_t *wr,
               const uint64_t *out, device_t *model)
{
    const dev_design_t *d = r->d;
    char w[48];
    for (unsigned p = 0; p < d->nports; p++) {
        if (d->ports[p].dir != DEV_IN || in[p] == r->in[p])
            continue;
        r->in[p] = in[p];
        dev_format_port_word(d, p, in[p], 0, w, sizeof w);
        fprintf(r->f, "@%llu %s <- %s\n", (unsigned long long)cycle, d->ports[p].name, w);
    }
    if (wr)
        rec_write(r, cycle, wr);
    if (!r->outputs)
        return;
    for (unsigned p = 0; p < d->nports; p++) {
        if (d->ports[p].dir != DEV_OUT || out[p] == d->ports[p].idle)
            continue;
        dev_format_port_word(d, p, out[p], 0, w, sizeof w);
        fprintf(r->f, "@%llu %s -> %s\n", (unsigned long long)cycle, d->ports[p].name, w);
    }
    if (model)
        rec_regs(r, cycle, model);
}

void rec_control(rec_t *r, uint64_t cycle, const char *text)
{
    fprintf(r->f, "@%llu %s\n", (unsigned long long)cycle, text);
}

void rec_upset(rec_t *r, uint64_t cycle, const dev_upset_bit_t *s)
{
    char t[160];
    dev_upset_format(r->d, s, t, sizeof t);
    fprintf(r->f, "@%llu seu %s\n", (unsigned long long)cycle, t);
}

int rec_close(rec_t *r, uint64_t end, char *err, size_t errlen)
{
    fprintf(r->f, "end @%llu\n", (unsigned long long)end);
    int bad = ferror(r->f);
    if (fclose(r->f) != 0)
        bad = 1;
    if (bad && err)
        snprintf(err, errlen, "%s: write error", r->path);
    free(r->in);
    free(r->path);
    free(r);
    return bad ? 2 : 0;
}

int record_run(const vec_t *v, dev_impl_t impl, const char *out_path)
{
    char err[DEV_ERR_LEN];
    const vec_ev_t *ro = rtl_only_upset(v);
    if (ro && impl == DEV_IMPL_CSIM) {
        char what[128];
        dev_upset_format(v->design, &ro->seu, what, sizeof what);
        fprintf(stderr,
                "%s:%u: the C model keeps no %s (an RTL-only element of the upset map): "
                "record it with --model rtl\n",
                v->path, ro->line, what);
        return 2;
    }
    device_t *m = dev_open(v->design, impl, err, sizeof err);
    if (!m) {
        fprintf(stderr, "ftsim: %s\n", err);
        return 2;
    }
    char header[1024];
    snprintf(
        header, sizeof header,
        "# GOLDEN VECTOR, recorded by `ftsim record` from the stimulus of %s on the %s model.\n"
        "# It records behaviour for regression; it is not the oracle. Regenerate it with\n"
        "# `make vectors` and review the diff; never edit it by hand.\n",
        v->path, dev_impl_name(impl));
    rec_t *r = rec_open(out_path, v->design, v->init, v->ninit, header, 1, err, sizeof err);
    if (!r) {
        dev_close(m);
        fprintf(stderr, "ftsim: %s\n", err);
        return 2;
    }
    dev_reset(m, v->init, v->ninit);
    uint64_t *in = calloc(v->design->nports, sizeof *in);
    uint64_t *out = calloc(v->design->nports, sizeof *out);
    uint64_t end = vec_end_cycle(v);
    if (!in || !out) {
        fprintf(stderr, "ftsim: out of memory\n");
        free(in);
        free(out);
        dev_close(m);
        rec_close(r, 0, NULL, 0);
        return 2;
    }
    size_t i = 0;
    vec_writer_t sh;
    vec_writer_init(&sh, v);
    for (uint64_t cyc = 0;; cyc++) {
        const dev_write_t *wr = NULL;
        for (; i < v->nev && v->ev[i].cycle == cyc; i++) {
            char msg[DEV_ERR_LEN];
            if (v->ev[i].kind == VEC_DRIVE)
                in[v->ev[i].idx] = v->ev[i].value;
            else if (v->ev[i].kind == VEC_CONFIG)
                wr = &v->ev[i].wr;
            else if (v->ev[i].kind == VEC_CONTROL) {
                dev_control(m, v->ev[i].text, msg, sizeof msg);
                rec_control(r, cyc, v->ev[i].text);
            } else if (v->ev[i].kind == VEC_UPSET) {
                dev_upset(m, &v->ev[i].seu, msg, sizeof msg);
                rec_upset(r, cyc, &v->ev[i].seu);
            }
        }
        dev_set_inputs(m, in);
        if (wr) {
            dev_write_t w = vec_writer_write(&sh, wr);
            dev_reg_write(m, &w);
        }
        dev_get_outputs(m, out);
        rec_cycle(r, cyc, in, wr, out, m);
        dev_tick(m);
        if (cyc == end)
            break;
    }
    vec_writer_free(&sh);
    dev_close(m);
    free(in);
    free(out);
    int rc = rec_close(r, end, err, sizeof err);
    if (rc)
        fprintf(stderr, "ftsim: %s\n", err);
    else
        printf("recorded %s (%llu cycles, %s model)\n", out_path, (unsigned long long)end + 1,
               dev_impl_name(impl));
    return rc;
}
