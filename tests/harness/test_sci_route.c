/*
 * test_sci_route.c - unit tests of the torus routing tables, the tracer and the checks
 * (harness/sci/sci_route.c).
 *
 * TEST RATIONALE: the tracer is checked first against routes worked out by hand from
 * sci_route.md section 2 (and against tables broken on purpose: a lost packet, the paper's
 * Figure 6 scrubber loop, a discard, a misdelivery), so that the all-pairs checks after
 * it rest on a tracer that is known to follow the tables.  Then: fault-free all pairs,
 * every single fault (each X ring, each Y ring, each node) on 2x2, 3x3, 4x4, 5x3, LC3 and
 * P2S, under the reference algorithm (policy SPEC) and the variant of sci_route.md (STEP):
 * reachability, legs, no ring twice, only the nodes the algorithm names change, the queue
 * dependency graph.  Where the algorithm's claim of an acyclic graph is false (an X-ring fault
 * with 3 or more rows; a dead node with 3 or more rows and columns, for every routing: see
 * sci_route.md section 5) the test asserts the cycle the proof predicts, so a checker that
 * stopped seeing it would fail here.  The bad flip must show a cycle from 3 columns up.
 * Double faults are counted and reported, not failed.
 *
 * Prints one line per failing check and ends with "N checks, M failed"; exit 1 on failure.
 */
#include "cmd.h"
#include "sci_route.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct tally {
    unsigned checks, failed;
} tally_t;

static void check(tally_t *t, int line, int ok, const char *what)
{
    t->checks++;
    if (!ok) {
        t->failed++;
        printf("test_sci_route.c:%d: FAILED: %s\n", line, what);
    }
}
#define CHECK(t, cond, ...)                         \
    do {                                            \
        char what_[2048];                           \
        snprintf(what_, sizeof what_, __VA_ARGS__); \
        check((t), __LINE__, (cond) != 0, what_);   \
    } while (0)

static const char *vname(sci_route_variant_t v) { return v == SCI_VAR_P2S ? "P2S" : "LC3"; }
static const char *pname(sci_policy_t p) { return p == SCI_POLICY_STEP ? "step" : "spec"; }

static int build(sci_tables_t *tb, unsigned w, unsigned h, sci_route_variant_t v, sci_policy_t p,
                 const sci_faults_t *f)
{
    sci_torus_t t = {.w = w, .h = h, .var = v, .policy = p};
    char err[128];
    if (sci_route_tables(&t, f, tb, err, sizeof err) < 0) {
        printf("sci_route_tables: %s\n", err);
        exit(1);
    }
    return 0;
}

/* A route as "(x,y).q ..." for comparing with a hand-written one. */
static void route_str(const sci_tables_t *tb, const sci_trace_t *tr, char *buf, size_t len)
{
    size_t k = 0;
    buf[0] = 0;
    for (unsigned i = 0; i < tr->nhops && k + 24 < len; i++) {
        char q[32];
        sci_route_qname(tb, tr->hop[i].node * 4u + tr->hop[i].q, q, sizeof q);
        k += (size_t)snprintf(buf + k, len - k, "%s%s", i ? " " : "", q);
    }
}

static void expect_route(tally_t *t, const sci_tables_t *tb, unsigned sx, unsigned sy, unsigned dx,
                         unsigned dy, sci_trace_status_t st, const char *hops, const char *why)
{
    sci_trace_t tr;
    char got[512];
    sci_route_trace(tb, sci_route_node(&tb->t, sx, sy), sci_route_node(&tb->t, dx, dy), -1, &tr);
    route_str(tb, &tr, got, sizeof got);
    CHECK(t, tr.status == st && !strcmp(got, hops),
          "%s: (%u,%u)->(%u,%u) %s [%s], expected %s [%s]", why, sx, sy, dx, dy,
          sci_route_status_name(tr.status), got, sci_route_status_name(st), hops);
}

/* ---- hand-worked routes (sci_route.md section 2) ---------------------------------------- */

static void test_trace_by_hand(tally_t *t)
{
    sci_faults_t f;
    sci_tables_t tb;
    for (int v = 0; v < 2; v++) {
        memset(&f, 0, sizeof f);
        build(&tb, 3, 3, (sci_route_variant_t)v, SCI_POLICY_SPEC, &f);
        expect_route(t, &tb, 0, 0, 2, 1, SCI_TR_DELIVERED,
                     "(0,0).sendX (2,0).recvX (2,0).sendY (2,1).recvY", "s3 fault-free X-first");
        expect_route(t, &tb, 0, 0, 0, 2, SCI_TR_DELIVERED, "(0,0).sendY (0,2).recvY",
                     "s3 same column: Y only");
        expect_route(t, &tb, 1, 1, 1, 1, SCI_TR_DELIVERED, "", "s3 self: PSB to host");
        /* Lost: the tables of a fault-free torus with a ring that has just gone down. */
        tb.f.xring[0] = 1;
        expect_route(t, &tb, 0, 0, 1, 0, SCI_TR_LOST_DOWN, "(0,0).sendX",
                     "s2 ring down, tables not yet changed");
        tb.f.xring[0] = 0;
        /* Discard and misdelivery: BRT entries broken on purpose. */
        unsigned d = sci_route_node(&tb.t, 2, 1);
        tb.e[((size_t)sci_route_node(&tb.t, 2, 0) * tb.nsets) * tb.n + d].xport = SCI_PORT_DISCARD;
        expect_route(t, &tb, 0, 0, 2, 1, SCI_TR_DISCARDED, "(0,0).sendX (2,0).recvX",
                     "s2 BRT 7 discards");
        tb.e[((size_t)sci_route_node(&tb.t, 2, 0) * tb.nsets) * tb.n + d].xport = SCI_PORT_HOST;
        expect_route(t, &tb, 0, 0, 2, 1, SCI_TR_MISDELIVERED, "(0,0).sendX (2,0).recvX",
                     "BRT host at the wrong node");
        sci_route_free(&tb);

        /* X ring of row 0 down: same-row target via the ty == y-1 entry at (x, 1). */
        memset(&f, 0, sizeof f);
        f.xring[0] = 1;
        build(&tb, 3, 3, (sci_route_variant_t)v, SCI_POLICY_SPEC, &f);
        expect_route(t, &tb, 0, 0, 2, 0, SCI_TR_DELIVERED,
                     "(0,0).sendY (0,1).recvY (0,1).sendX (2,1).recvX (2,1).sendY (2,0).recvY",
                     "s3 X ring down: Y -> X -> Y detour");
        expect_route(t, &tb, 0, 0, 2, 2, SCI_TR_DELIVERED,
                     "(0,0).sendY (0,2).recvY (0,2).sendX (2,2).recvX",
                     "s3 X ring down: other rows Y then X");
        sci_route_free(&tb);

        /* Y ring of column 1 down. */
        memset(&f, 0, sizeof f);
        f.yring[1] = 1;
        build(&tb, 3, 3, (sci_route_variant_t)v, SCI_POLICY_SPEC, &f);
        expect_route(t, &tb, 0, 0, 1, 2, SCI_TR_DELIVERED,
                     "(0,0).sendX (2,0).recvX (2,0).sendY (2,2).recvY (2,2).sendX (1,2).recvX",
                     "s3 Y ring down: (1,0) bypasses, (2,0) picks up");
        expect_route(t, &tb, 2, 0, 1, 2, SCI_TR_DELIVERED,
                     "(2,0).sendY (2,2).recvY (2,2).sendX (1,2).recvX",
                     "s3/s4 downstream X neighbour sends on its Y ring");
        expect_route(t, &tb, 1, 0, 1, 1, SCI_TR_DELIVERED,
                     "(1,0).sendX (2,0).recvX (2,0).sendY (2,1).recvY (2,1).sendX (1,1).recvX",
                     "s3 the node with the dead Y-LC sends on X");
        /* The paper's Figure 6: without the notification, (2,y) sends its packets for column 1
         * round its X ring, and the scrubber removes them. */
        sci_tables_t ff;
        build(&ff, 3, 3, (sci_route_variant_t)v, SCI_POLICY_SPEC, NULL);
        unsigned n20 = sci_route_node(&tb.t, 2, 0);
        for (unsigned s = 0; s < tb.nsets; s++)
            for (unsigned dd = 0; dd < tb.n; dd++)
                tb.e[((size_t)n20 * tb.nsets + s) * tb.n + dd] =
                    ff.e[((size_t)n20 * tb.nsets + s) * tb.n + dd];
        if (tb.asel)
            memcpy(tb.asel + (size_t)n20 * tb.n, ff.asel + (size_t)n20 * tb.n, tb.n);
        expect_route(t, &tb, 2, 0, 1, 2, SCI_TR_SCRUBBED, "(2,0).sendX",
                     "paper Fig. 6: no notification");
        sci_route_free(&ff);
        sci_route_free(&tb);
    }

    /* P2S addresses: Y-first is really Y first; the index layout. */
    build(&tb, 3, 3, SCI_VAR_P2S, SCI_POLICY_SPEC, NULL);
    sci_trace_t tr;
    sci_route_trace(&tb, 0, sci_route_node(&tb.t, 2, 1), 1, &tr);
    CHECK(t,
          tr.status == SCI_TR_DELIVERED && tr.legs == 2 && tr.hop[0].q == SCI_Q_SEND_Y &&
              tr.set == 1,
          "s4 id|0x4000 is routed Y-first");
    CHECK(t, sci_route_index(&tb.t, 1, sci_route_node(&tb.t, 2, 1)) == 0x2012,
          "P2S index set 1 of (2,1)");
    sci_route_free(&tb);
    build(&tb, 3, 3, SCI_VAR_LC3, SCI_POLICY_SPEC, NULL);
    CHECK(t, sci_route_index(&tb.t, 0, sci_route_node(&tb.t, 2, 1)) == 0x12, "LC3 index of (2,1)");
    sci_route_free(&tb);
    sci_torus_t big = {.w = 20, .h = 20, .var = SCI_VAR_P2S};
    CHECK(t, sci_route_id(&big, sci_route_node(&big, 3, 17)) == (3 | 17 << 6),
          "P2S 20x20: 6 bits a dimension");
}

/* ---- fault-free ---------------------------------------------------------------------------- */

static void test_fault_free(tally_t *t)
{
    sci_check_t *c = malloc(sizeof *c);
    for (unsigned w = 2; w <= 5; w++)
        for (unsigned h = 2; h <= 5; h++)
            for (int v = 0; v < 2; v++)
                for (int p = 0; p < 2; p++) {
                    sci_tables_t tb;
                    build(&tb, w, h, (sci_route_variant_t)v, (sci_policy_t)p, NULL);
                    int rc = sci_route_check(&tb, -1, c);
                    CHECK(t, rc == 0 && c->reached == c->pairs && c->max_legs <= 2 && !c->cyclic,
                          "%ux%u %s %s fault-free: %u/%u reached, max legs %u, cyclic %d", w, h,
                          vname((sci_route_variant_t)v), pname((sci_policy_t)p), c->reached,
                          c->pairs, c->max_legs, c->cyclic);
                    if (v == SCI_VAR_P2S) {
                        /* Set 1 on its own: Y-first (spec) or Y step then X-first (step). */
                        sci_route_check(&tb, 1, c);
                        unsigned lim = p == SCI_POLICY_SPEC ? 2 : 3;
                        CHECK(t,
                              c->reached == c->pairs && c->max_legs <= lim && !c->ring_twice &&
                                  (p != SCI_POLICY_SPEC || !c->cyclic),
                              "%ux%u P2S %s set 1 alone: %u/%u reached, max legs %u", w, h,
                              pname((sci_policy_t)p), c->reached, c->pairs, c->max_legs);
                    }
                    sci_route_free(&tb);
                }
    free(c);
}

/* ---- single faults ------------------------------------------------------------------------- */

typedef struct fault {
    int kind; /* 0 xring, 1 yring, 2 node */
    unsigned a, b;
} fault_t;

static unsigned list_faults(unsigned w, unsigned h, fault_t *out)
{
    unsigned k = 0;
    for (unsigned r = 0; r < h; r++)
        out[k++] = (fault_t){0, r, 0};
    for (unsigned c = 0; c < w; c++)
        out[k++] = (fault_t){1, c, 0};
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++)
            out[k++] = (fault_t){2, x, y};
    return k;
}

static void apply(sci_faults_t *f, unsigned w, const fault_t *x)
{
    if (x->kind == 0)
        f->xring[x->a] = 1;
    else if (x->kind == 1)
        f->yring[x->a] = 1;
    else
        f->dead[x->a + x->b * w] = 1;
}

static void fault_name(const fault_t *x, char *buf, size_t len)
{
    if (x->kind == 2)
        snprintf(buf, len, "node:%u,%u", x->a, x->b);
    else
        snprintf(buf, len, "%s:%u", x->kind ? "yring" : "xring", x->a);
}

/* Cycle or not, as sci_route.md section 5 proves it: SPEC X ring with >= 3 rows; a dead node
 * with >= 3 rows and >= 3 columns under every policy. */
static int cycle_expected(sci_policy_t p, unsigned w, unsigned h, int kind)
{
    if (kind == 2)
        return w >= 3 && h >= 3;
    if (kind == 0)
        return p == SCI_POLICY_SPEC && h >= 3;
    return 0;
}

static void test_single_faults(tally_t *t)
{
    static const unsigned sizes[][2] = {{2, 2}, {3, 3}, {4, 4}, {5, 3}};
    sci_check_t *c = malloc(sizeof *c);
    unsigned n_acyc[2] = {0, 0}, n_total[2] = {0, 0};
    for (unsigned si = 0; si < 4; si++) {
        unsigned w = sizes[si][0], h = sizes[si][1];
        fault_t fl[64];
        unsigned nf = list_faults(w, h, fl);
        for (int v = 0; v < 2; v++)
            for (int p = 0; p < 2; p++) {
                sci_tables_t ff;
                build(&ff, w, h, (sci_route_variant_t)v, (sci_policy_t)p, NULL);
                for (unsigned k = 0; k < nf; k++) {
                    sci_faults_t f;
                    memset(&f, 0, sizeof f);
                    apply(&f, w, &fl[k]);
                    sci_tables_t tb;
                    build(&tb, w, h, (sci_route_variant_t)v, (sci_policy_t)p, &f);
                    char fn[32];
                    fault_name(&fl[k], fn, sizeof fn);
                    sci_route_check(&tb, -1, c);
                    const char *vn = vname((sci_route_variant_t)v), *pn = pname((sci_policy_t)p);
                    /* Reachability: every live pair, within 3 legs, no ring twice. */
                    CHECK(t,
                          c->reached == c->pairs && c->max_legs <= 3 && !c->ring_twice &&
                              !c->scrub_twice,
                          "%ux%u %s %s %s: %u/%u reached, max legs %u, ring twice %u", w, h, vn, pn,
                          fn, c->reached, c->pairs, c->max_legs, c->ring_twice);
                    /* Only the named nodes change (and under SPEC every one of them). */
                    uint8_t ch[64], ex[64];
                    sci_route_diff(&ff, &tb, ch);
                    sci_route_expected_changes(&tb.t, &f, ex);
                    int subset = 1, equal = 1;
                    for (unsigned n = 0; n < tb.n; n++) {
                        subset &= !ch[n] || ex[n];
                        equal &= ch[n] == ex[n];
                    }
                    CHECK(t, subset && (p == SCI_POLICY_STEP || equal),
                          "%ux%u %s %s %s: changed nodes differ from the named ones", w, h, vn, pn,
                          fn);
                    /* Queue dependency graph. */
                    int want = cycle_expected((sci_policy_t)p, w, h, fl[k].kind);
                    CHECK(t, c->cyclic == want, "%ux%u %s %s %s: graph %s, expected %s", w, h, vn,
                          pn, fn, c->cyclic ? "cyclic" : "acyclic",
                          want ? "cyclic (proof, sci_route.md s.5)" : "acyclic");
                    n_total[p]++;
                    n_acyc[p] += !c->cyclic;
                    sci_route_free(&tb);
                }
                sci_route_free(&ff);
            }
    }
    printf("single faults (2x2, 3x3, 4x4, 5x3; LC3 and P2S): acyclic under the reference algorithm as written %u of "
           "%u, "
           "under the step variant %u of %u (the rest: dead nodes on 3x3 and up, cyclic under any "
           "routing)\n",
           n_acyc[0], n_total[0], n_acyc[1], n_total[1]);
    free(c);
}

/* ---- the bad flip -------------------------------------------------------------------------- */

static void test_bad_flip(tally_t *t)
{
    static const unsigned sizes[][2] = {{2, 2}, {2, 3}, {3, 2}, {3, 3}, {4, 4}, {5, 3}, {5, 5}};
    sci_check_t *c = malloc(sizeof *c);
    for (unsigned si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
        for (int v = 0; v < 2; v++)
            for (int p = 0; p < 2; p++) {
                unsigned w = sizes[si][0], h = sizes[si][1];
                for (unsigned col = 0; col < w; col++) {
                    sci_faults_t f;
                    memset(&f, 0, sizeof f);
                    f.yring[col] = 1;
                    f.bad_flip = 1;
                    sci_tables_t tb;
                    build(&tb, w, h, (sci_route_variant_t)v, (sci_policy_t)p, &f);
                    sci_route_check(&tb, -1, c);
                    /* Cycles need two columns other than the failed one: from 3 columns up. */
                    CHECK(t, c->reached == c->pairs && c->cyclic == (w >= 3),
                          "%ux%u %s %s bad flip yring:%u: %u/%u reached, cyclic %d", w, h,
                          vname((sci_route_variant_t)v), pname((sci_policy_t)p), col, c->reached,
                          c->pairs, c->cyclic);
                    sci_route_free(&tb);
                }
            }
    free(c);
}

/* ---- double faults (reported) -------------------------------------------------------------- */

/* Are the live nodes still connected through live rings at all (whatever the tables)? */
static int physically_connected(const sci_tables_t *tb)
{
    unsigned n = tb->n, w = tb->t.w, start = n, seen = 0, sp = 0;
    uint8_t vis[1024] = {0};
    unsigned stack[1024];
    for (unsigned i = 0; i < n && start == n; i++)
        if (sci_route_live(tb, i))
            start = i;
    if (start == n)
        return 1;
    vis[start] = 1, stack[sp++] = start;
    while (sp) {
        unsigned a = stack[--sp];
        seen++;
        for (unsigned b = 0; b < n; b++) {
            int same_x = b / w == a / w && sci_route_ring_up(tb, 0, a / w);
            int same_y = b % w == a % w && sci_route_ring_up(tb, 1, a % w);
            if (!vis[b] && sci_route_live(tb, b) && (same_x || same_y))
                vis[b] = 1, stack[sp++] = b;
        }
    }
    unsigned live = 0;
    for (unsigned i = 0; i < n; i++)
        live += (unsigned)sci_route_live(tb, i);
    return seen == live;
}

static void test_double_faults(void)
{
    static const unsigned sizes[][2] = {{2, 2}, {3, 3}, {4, 4}, {5, 3}};
    sci_check_t *c = malloc(sizeof *c);
    printf("double faults (every unordered pair of distinct single faults; 'reach' = every live "
           "pair delivered, <= 3 legs, no ring twice; 'ok' = reach and acyclic):\n");
    for (unsigned si = 0; si < 4; si++) {
        unsigned w = sizes[si][0], h = sizes[si][1];
        fault_t fl[64];
        unsigned nf = list_faults(w, h, fl);
        for (int v = 0; v < 2; v++)
            for (int p = 0; p < 2; p++) {
                unsigned total = 0, conn = 0, reach = 0, acyc = 0, ok = 0, del = 0, pairs = 0;
                for (unsigned i = 0; i < nf; i++)
                    for (unsigned j = i + 1; j < nf; j++) {
                        sci_faults_t f;
                        memset(&f, 0, sizeof f);
                        apply(&f, w, &fl[i]);
                        apply(&f, w, &fl[j]);
                        sci_tables_t tb;
                        build(&tb, w, h, (sci_route_variant_t)v, (sci_policy_t)p, &f);
                        int rc = sci_route_check(&tb, -1, c);
                        int r = c->reached == c->pairs && !c->over_legs && !c->ring_twice;
                        total++;
                        conn += (unsigned)physically_connected(&tb);
                        reach += (unsigned)r;
                        ok += rc == 0;
                        acyc += !c->cyclic;
                        del += c->reached;
                        pairs += c->pairs;
                        sci_route_free(&tb);
                    }
                printf("  %ux%u %s %-4s: %3u double faults, %3u leave the live nodes connected; "
                       "reach %3u, "
                       "acyclic %3u, ok %3u; live pairs delivered %.1f%%\n",
                       w, h, vname((sci_route_variant_t)v), pname((sci_policy_t)p), total, conn,
                       reach, acyc, ok, pairs ? 100.0 * del / pairs : 100.0);
            }
    }
    free(c);
}

/* ---- the command --------------------------------------------------------------------------- */

static int run_main(const char *line)
{
    char buf[256], *argv[32];
    int argc = 0;
    snprintf(buf, sizeof buf, "%s", line);
    for (char *s = strtok(buf, " "); s && argc < 31; s = strtok(NULL, " "))
        argv[argc++] = s;
    argv[argc] = NULL;
    fflush(stdout);
    fflush(stderr);
    int o = dup(1), e = dup(2);
    FILE *nul = fopen("/dev/null", "w");
    if (nul) {
        dup2(fileno(nul), 1);
        dup2(fileno(nul), 2);
    }
    int rc = cmd_route(argc, argv);
    fflush(stdout);
    fflush(stderr);
    dup2(o, 1);
    dup2(e, 2);
    close(o);
    close(e);
    if (nul)
        fclose(nul);
    return rc;
}

static void test_main(tally_t *t)
{
    static const struct {
        const char *args;
        int rc;
    } cases[] = {
        {"--help", 0},
        {"--torus 3x3", 0},
        {"--torus 3x3 --p2s --fault yring:1 --check --deadlock", 0},
        {"--torus 2x2 --fault node:1,0", 0},
        {"--torus 3x3 --fault xring:0 --deadlock", 1},
        {"--torus 3x3 --policy step --fault xring:0", 0},
        {"--torus 3x3 --p2s --policy step --fault xring:2 --check", 0},
        {"--torus 3x3 --fault yring:0 --bad-flip --deadlock", 1},
        {"--torus 3x3 --print 1,1", 0},
        {"--torus 3x3 --trace 0,0:2,1", 0},
        {"", 2},
        {"--torus 3", 2},
        {"--torus 1x3", 2},
        {"--torus 17x2", 2},
        {"--torus 3x3 --fault xring:3", 2},
        {"--torus 3x3 --fault node:1", 2},
        {"--torus 3x3 --bogus", 2},
        {"--torus 3x3 --policy fast", 2},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int rc = run_main(cases[i].args);
        CHECK(t, rc == cases[i].rc, "ftsim route %s: exit %d, expected %d", cases[i].args, rc,
              cases[i].rc);
    }
}

int main(void)
{
    tally_t t = {0, 0};
    test_trace_by_hand(&t);
    test_fault_free(&t);
    test_single_faults(&t);
    test_bad_flip(&t);
    test_main(&t);
    test_double_faults();
    printf("%u passed, %u failed\n", t.checks - t.failed, t.failed);
    return t.failed ? 1 : 0;
}
