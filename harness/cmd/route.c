/* route.c — `ftsim route`: the SCI torus routing tables under faults (sci/sci_route.c), checked
 * for reachability and deadlock. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "sci_route.h"

static const char usage_route[] =
    "usage: ftsim route --torus WxH [--p2s] [--policy spec|step] [--fault xring:R | yring:C |\n"
    "                   node:X,Y ...] [--check] [--deadlock] [--bad-flip] [--print X,Y]\n"
    "                   [--trace X,Y:X,Y]\n"
    "\n"
    "Computes the routing tables of a W x H SCI torus (LC3, or P2S with --p2s) under the given\n"
    "faults (sci.md sections 3-4; --policy step: the variant of harness/sci/sci_route.md), then:\n"
    "  --check      traces every live ordered pair hop by hop: pairs reached, most ring legs\n"
    "               (at most 3), rings used twice, and the nodes whose tables differ from the\n"
    "               fault-free ones against the nodes sci_route.md names\n"
    "  --deadlock   builds the queue dependency graph (LC send and receive queues; an edge for\n"
    "               each consecutive pair of queues on every traced route) and prints\n"
    "               'acyclic (V vertices, E edges)' or one cycle\n"
    "  --bad-flip   deliberately wrong tables: for a failed column every source flips to\n"
    "               Y-first (makes queue cycles from 3x3 up)\n"
    "  --print X,Y  dumps node (X,Y)'s tables;  --trace S:D traces one packet\n"
    "Node ids: x = bits [3:0], y = bits [7:4] (P2S wider than 16: 6 bits each). Faults can be\n"
    "repeated; a dead node breaks both its rings. No check option: --check --deadlock.\n"
    "Exit status: 0 every check passed, 1 a check failed, 2 bad arguments.\n";

typedef struct route_opts {
    sci_torus_t t;
    sci_faults_t f;
    int have_torus, p2s, check, deadlock, print, trace;
    unsigned px, py, sx, sy, dx, dy;
    const char *fault_args[64];
    unsigned nfault_args;
} route_opts_t;

static int policy(void *dst, const char *val, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    if (strcmp(val, "spec") && strcmp(val, "step"))
        return -1;
    *(sci_policy_t *)dst = !strcmp(val, "step") ? SCI_POLICY_STEP : SCI_POLICY_SPEC;
    return 0;
}

/* --fault, read once the torus is known. */
static int fault_arg(void *dst, const char *val, char *err, size_t errlen)
{
    route_opts_t *o = dst;
    if (o->nfault_args == 64) {
        snprintf(err, errlen, "too many --fault options");
        return -1;
    }
    o->fault_args[o->nfault_args++] = val;
    return 0;
}

/* --print X,Y into o->px, o->py. */
static int print_arg(void *dst, const char *val, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    route_opts_t *o = dst;
    return sci_route_parse_xy(val, &o->px, &o->py, '\0');
}

/* --trace SX,SY:DX,DY into o->sx .. o->dy. */
static int trace_arg(void *dst, const char *val, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    route_opts_t *o = dst;
    const char *e = strchr(val, ':');
    if (!e || sci_route_parse_xy(val, &o->sx, &o->sy, ':') < 0 ||
        sci_route_parse_xy(e + 1, &o->dx, &o->dy, '\0') < 0)
        return -1;
    return 0;
}

/* The options, checked against the torus: -1 to go on, else the exit status. */
static int route_args(route_opts_t *o, int argc, char **argv)
{
    const opts_opt_t opts[] = {
        {"torus", 0, OPTS_FN, &(cmd_size_t){&o->t.w, &o->t.h}, .fn = cmd_size,
         .given = &o->have_torus, .flags = OPTS_SHOW, .msg = "--torus takes WxH, e.g. 3x3"},
        {"p2s", 0, OPTS_FLAG, &o->p2s, .set = 1},
        {"policy", 0, OPTS_FN, &o->t.policy, .fn = policy, .flags = OPTS_SHOW,
         .msg = "--policy takes spec or step"},
        {"fault", 0, OPTS_FN, o, .fn = fault_arg,
         .msg = "--fault takes xring:R, yring:C or node:X,Y"},
        {"check", 0, OPTS_FLAG, &o->check, .set = 1},
        {"deadlock", 0, OPTS_FLAG, &o->deadlock, .set = 1},
        {"bad-flip", 0, OPTS_FLAG, &o->f.bad_flip, .set = 1},
        {"print", 0, OPTS_FN, o, .fn = print_arg, .given = &o->print, .flags = OPTS_SHOW,
         .msg = "--print takes X,Y"},
        {"trace", 0, OPTS_FN, o, .fn = trace_arg, .given = &o->trace, .flags = OPTS_SHOW,
         .msg = "--trace takes SX,SY:DX,DY"},
        {0},
    };
    opts_cmd_t c = {.name = "route", .style = OPTS_HINT, .unknown = "unknown option", .opts = opts};
    int rc = cmd_parse(&c, usage_route, argc, argv, NULL);
    if (rc >= 0)
        return rc;
    if (o->p2s)
        o->t.var = SCI_VAR_P2S;
    if (!o->have_torus)
        return cmd_bad("route", "--torus WxH is required", NULL);
    char err[128];
    if (sci_route_check_torus(&o->t, err, sizeof err) < 0)
        return cmd_bad("route", err, NULL);
    for (unsigned k = 0; k < o->nfault_args; k++)
        if (sci_route_parse_fault(&o->t, o->fault_args[k], &o->f) < 0)
            return cmd_bad("route",
                           "bad --fault (xring:R with R < H, yring:C with C < W, node:X,Y)",
                           o->fault_args[k]);
    if ((o->print && (o->px >= o->t.w || o->py >= o->t.h)) ||
        (o->trace && (o->sx >= o->t.w || o->sy >= o->t.h || o->dx >= o->t.w || o->dy >= o->t.h)))
        return cmd_bad("route", "node outside the torus", NULL);
    if (!o->check && !o->deadlock && !o->print && !o->trace)
        o->check = o->deadlock = 1;
    return -1;
}

static int route_report(const route_opts_t *o, const sci_tables_t *tb, const sci_tables_t *ff)
{
    int fail = 0;
    sci_check_t *c = malloc(sizeof *c);
    uint8_t *ch = malloc(tb->n), *ex = malloc(tb->n);
    if (!c || !ch || !ex) {
        free(c), free(ch), free(ex);
        fprintf(stderr, "ftsim route: out of memory\n");
        return 1;
    }
    if (sci_route_check(tb, -1, c) < 0) {
        fprintf(stderr, "ftsim route: out of memory\n");
        fail = 1;
    } else {
        if (o->check) {
            printf("pairs reached: %u of %u; max legs %u; over 3 legs %u; a ring used twice %u; "
                   "scrubbed %u\n",
                   c->reached, c->pairs, c->max_legs, c->over_legs, c->ring_twice, c->scrub_twice);
            if (c->reached < c->pairs || c->over_legs || c->ring_twice) {
                sci_trace_t tr;
                sci_route_trace(tb, c->first_bad_src, c->first_bad_dst, -1, &tr);
                printf("first failing pair (%u,%u) -> (%u,%u): ", c->first_bad_src % tb->t.w,
                       c->first_bad_src / tb->t.w, c->first_bad_dst % tb->t.w,
                       c->first_bad_dst / tb->t.w);
                sci_route_print_trace(tb, &tr, stdout);
                fail = 1;
            }
            unsigned nch = sci_route_diff(ff, tb, ch);
            sci_route_expected_changes(&tb->t, &tb->f, ex);
            unsigned extra = 0;
            printf("changed nodes (%u):", nch);
            for (unsigned n = 0; n < tb->n; n++)
                if (ch[n]) {
                    printf(" (%u,%u)%s", n % tb->t.w, n / tb->t.w, ex[n] ? "" : "!");
                    extra += !ex[n];
                }
            printf("%s\n", nch ? "" : " none");
            if (extra) {
                printf("%u changed node(s) marked ! are not among those sci_route.md names\n", extra);
                fail = 1;
            }
        }
        if (o->deadlock) {
            sci_route_print_cycle(tb, c, stdout);
            fail |= c->cyclic;
        }
    }
    free(c), free(ch), free(ex);
    return fail;
}

int cmd_route(int argc, char **argv)
{
    route_opts_t o;
    memset(&o, 0, sizeof o);
    int rc = route_args(&o, argc, argv);
    if (rc >= 0)
        return rc;
    sci_tables_t tb, ff;
    char err[128];
    sci_faults_t none;
    memset(&none, 0, sizeof none);
    if (sci_route_tables(&o.t, &o.f, &tb, err, sizeof err) < 0)
        return cmd_bad("route", err, NULL);
    if (sci_route_tables(&o.t, &none, &ff, err, sizeof err) < 0) {
        sci_route_free(&tb);
        return cmd_bad("route", err, NULL);
    }
    printf("%ux%u %s torus, policy %s, faults:", o.t.w, o.t.h,
           o.t.var == SCI_VAR_P2S ? "P2S" : "LC3", o.t.policy == SCI_POLICY_STEP ? "step" : "spec");
    for (unsigned k = 0; k < o.nfault_args; k++)
        printf(" %s", o.fault_args[k]);
    printf("%s%s\n", o.nfault_args ? "" : " none", o.f.bad_flip ? " (bad flip)" : "");
    int fail = 0;
    if (o.print)
        sci_route_print_node(&tb, sci_route_node(&o.t, o.px, o.py), stdout);
    if (o.trace) {
        sci_trace_t tr;
        unsigned s = sci_route_node(&o.t, o.sx, o.sy), d = sci_route_node(&o.t, o.dx, o.dy);
        printf("(%u,%u) -> (%u,%u): ", o.sx, o.sy, o.dx, o.dy);
        sci_route_trace(&tb, s, d, -1, &tr);
        sci_route_print_trace(&tb, &tr, stdout);
        fail |= tr.status != SCI_TR_DELIVERED && s != d && sci_route_live(&tb, d);
    }
    if (o.check || o.deadlock)
        fail |= route_report(&o, &tb, &ff);
    sci_route_free(&tb);
    sci_route_free(&ff);
    return fail ? 1 : 0;
}
