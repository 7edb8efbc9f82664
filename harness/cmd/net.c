/* net.c — `ftsim net`: an RNP network's topology and the distinct paths its wiring gives. */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "dev.h"
#include "lockstep.h"
#include "rnp_upset.h"
#include "rnpnet.h"

static const char usage_net[] =
    "usage: ftsim net --endpoints N [--extra E] [--wiring S] [--links]\n"
    "\n"
    "Builds an RNP network of RN1s as `ftsim fuzz --device rnpnet` and the rnpnetN devices\n"
    "do, and shows that the wiring gives every source several distinct paths to every\n"
    "destination: per stage the routers, then over all source-destination pairs the\n"
    "number of distinct link-level paths (injection port x extra-stage digits x dilation\n"
    "choices) and the fewest routers any stage of a pair's paths offers. --links prints\n"
    "every link (router.backward-port -> router.forward-port). Devices rnpnet16/64/256\n"
    "use wiring seed 1 (rnpnet256: one extra stage).\n"
    "\n"
    "Debug (the monitor of harness/rnp/rnp_upset.h, for the tests): --monitor-run SITE runs one\n"
    "upset-campaign run (SITE as 'r5.lfsr bit3', or none) with --at N (after the warmup)\n"
    "[--warmup N] [--window N] [--load X] [--t-wd N] [--t-st N] [--no-selftest]\n"
    "[--no-watchdog] [--model csim|both] [--seed S] and prints its result and the monitor's\n"
    "counts as key=value lines; --sites COLUMN (config, lfsr, port, all) counts a column's\n"
    "sites and prints the first and last.\n";

static void print_topology(const rnpnet_topo_t *t, uint64_t wiring, int links)
{
    printf("RNP network: %u endpoints, %u stages (%u extra, SWALLOW on stages", t->n, t->stages,
           t->extra);
    int any = 0;
    for (unsigned s = 0; s < t->stages; s++)
        if (rnpnet_swallows(s))
            printf(" %u", s), any = 1;
    printf("%s), %u routers (%u per stage), wiring seed %llu\n", any ? "" : " none", t->nrouters,
           t->per_stage, (unsigned long long)wiring);
    for (unsigned s = 0; s < t->stages; s++)
        printf("  stage %u: r%u..r%u%s\n", s, s * t->per_stage, (s + 1) * t->per_stage - 1,
               s < t->extra ? " (extra: any direction)" : "");
    if (links) {
        for (unsigned e = 0; e < t->n; e++)
            for (unsigned k = 0; k < 2; k++)
                printf("  s%u.%u -> r%u.f%u\n", e, k, t->inj[e * 2 + k] / 8, t->inj[e * 2 + k] % 8);
        for (unsigned r = 0; r < t->nrouters; r++)
            for (unsigned j = 0; j < 8; j++) {
                int32_t to = t->down[r * 8 + j];
                if (to >= 0)
                    printf("  r%u.b%u -> r%u.f%u\n", r, j, (unsigned)to / 8, (unsigned)to % 8);
                else
                    printf("  r%u.b%u -> d%u.%u\n", r, j, (unsigned)(-to - 1) / 2,
                           (unsigned)(-to - 1) % 2);
            }
    }
}

/* Over every source-destination pair: the distinct paths and the routers they use per stage. */
static void print_paths(const rnpnet_topo_t *t)
{
    unsigned pmin = ~0u, pmax = 0;
    double psum = 0, rsum[8] = {0};
    unsigned rmin[8];
    for (unsigned s = 0; s < 8; s++)
        rmin[s] = ~0u;
    unsigned pairs = 0;
    for (unsigned s = 0; s < t->n; s++)
        for (unsigned d = 0; d < t->n; d++) {
            if (s == d)
                continue;
            rnpnet_paths_t p;
            rnpnet_count_paths(t, s, d, &p);
            pmin = p.paths < pmin ? p.paths : pmin;
            pmax = p.paths > pmax ? p.paths : pmax;
            for (unsigned st = 0; st < t->stages && st < 8; st++) {
                rsum[st] += p.routers[st];
                rmin[st] = p.routers[st] < rmin[st] ? p.routers[st] : rmin[st];
            }
            psum += p.paths;
            pairs++;
        }
    printf("over all %u source-destination pairs: distinct link-level paths min %u, mean %.1f, "
           "max %u\nrouters those paths use, per stage (mean, min over pairs):",
           pairs, pmin, psum / pairs, pmax);
    for (unsigned st = 0; st < t->stages && st < 8; st++)
        printf(" %.1f/%u", rsum[st] / pairs, rmin[st]);
    printf(
        "\n(a destination hangs off one last-stage router: a dead one cuts its four endpoints)\n");
}

static void print_upset(const upset_result_t *r, const rnp_upset_stats_t *st, unsigned n)
{
    printf("site=%s\nat=%llu\noutcome=%s\nfirst=%s\n", r->site, (unsigned long long)r->at,
           upset_outcome_name(r->outcome), upset_detector_name(r->first));
    for (int d = 1; d < UPSET_NDETECTORS; d++)
        printf("det_%s=%llu\n", upset_detector_name((upset_detector_t)d),
               (unsigned long long)r->det_cycle[d]);
#define P(name, v) printf("%s=%llu\n", name, (unsigned long long)(v))
    P("detect_latency", r->detect_latency);
    P("recover_latency", r->recover_latency);
    P("recoveries", r->recoveries);
    P("generated", r->generated);
    P("delivered", r->delivered);
    P("lost", r->lost);
    P("duplicated", r->duplicated);
    P("corrupted", r->corrupted);
    P("misrouted", r->misrouted);
    P("late", r->late);
    P("asserted", r->asserted);
    P("diverged", r->diverged);
    P("out_differed", r->out_differed);
    P("state_differs", r->state_differs);
    P("data_msgs", st->data_msgs);
    P("data_attempts", st->data_attempts);
    P("test_msgs", st->test_msgs);
    P("test_attempts", st->test_attempts);
    P("reprobes", st->reprobes);
    P("resets", st->resets);
    P("rewrites", st->rewrites);
    P("refused", st->refused);
    P("golden_max_latency", st->golden_max_latency);
    P("late_bound", st->late_bound);
    P("test_max_latency", st->test_max_latency);
    P("golden_detections", st->golden_detections);
    P("drain_cycles", st->drain_cycles);
    P("drained", st->drained);
#undef P
    printf("accepted=%.5f\n", st->cycles ? (double)st->delivered_by_end / (double)st->cycles / n
                                         : 0.0);
}

static int monitor_run(const char *site, const char *column, const rnp_upset_cfg_t *c, uint64_t at)
{
    char err[DEV_ERR_LEN], buf[64];
    if (column) {
        unsigned n = rnp_upset_site(c, column, 0, buf, sizeof buf);
        if (!n) {
            fprintf(stderr, "ftsim net: no sites in column '%s'\n", column);
            return 2;
        }
        printf("sites=%u\nfirst=%s\n", n, buf);
        rnp_upset_site(c, column, n - 1, buf, sizeof buf);
        printf("last=%s\n", buf);
        /* every site as the network's upset map resolves it, each one once */
        const dev_design_t *d = rnpnet_design(c->endpoints, c->endpoints >= 256 ? 1 : 0, 1, err,
                                              sizeof err);
        unsigned ok = 0;
        dev_upset_bit_t prev = {0};
        for (unsigned k = 0; d && k < n; k++) {
            dev_upset_bit_t s;
            char *sp;
            rnp_upset_site(c, column, k, buf, sizeof buf);
            if (!(sp = strrchr(buf, ' ')))
                break;
            *sp = 0;
            if (dev_upset_find(d, buf, sp + 1, &s, err, sizeof err) < 0) {
                fprintf(stderr, "ftsim net: site %u: %s\n", k, err);
                break;
            }
            ok += k == 0 || s.part != prev.part || s.entry != prev.entry || s.index != prev.index ||
                  s.bit != prev.bit;
            prev = s;
        }
        dev_design_release(d);
        printf("resolved=%u\n", ok);
        return ok == n ? 0 : 1;
    }
    upset_result_t r;
    rnp_upset_stats_t st;
    if (rnp_upset_run_stats(c, site, at, &r, &st, err, sizeof err) < 0) {
        fprintf(stderr, "ftsim net: %s\n", err);
        return 2;
    }
    print_upset(&r, &st, c->endpoints);
    return 0;
}

int cmd_net(int argc, char **argv)
{
    uint64_t n = 0, extra = 99, wiring = 1, at = 0;
    int links = 0, no_st = 0, no_wd = 0;
    const char *site = NULL, *column = NULL;
    rnp_upset_cfg_t sc;
    rnp_upset_cfg_default(&sc);
    const opts_opt_t opts[] = {
        {"endpoints", 0, OPTS_U64, &n, .msg = "takes a number: --endpoints"},
        {"extra", 0, OPTS_U64, &extra, .msg = "takes a number: --extra"},
        {"wiring", 0, OPTS_U64, &wiring, .msg = "takes a number: --wiring"},
        {"links", 0, OPTS_FLAG, &links, .set = 1},
        {"monitor-run", 0, OPTS_STR, &site, .msg = "takes a site: --monitor-run"},
        {"sites", 0, OPTS_STR, &column, .msg = "takes a column: --sites"},
        {"at", 0, OPTS_U64, &at, .msg = "takes a number: --at"},
        {"warmup", 0, OPTS_U64, &sc.warmup, .msg = "takes a number: --warmup"},
        {"window", 0, OPTS_U64, &sc.window, .msg = "takes a number: --window"},
        {"t-wd", 0, OPTS_U64, &sc.t_wd, .msg = "takes a number: --t-wd"},
        {"t-st", 0, OPTS_U64, &sc.t_st, .msg = "takes a number: --t-st"},
        {"seed", 0, OPTS_U64, &sc.seed, .msg = "takes a number: --seed"},
        {"load", 0, OPTS_DBL, &sc.load, .msg = "takes a number in [0, 2]: --load", .min = 0,
         .max = 2},
        {"model", 0, OPTS_FN, &sc.models, .fn = cmd_models},
        {"no-selftest", 0, OPTS_FLAG, &no_st, .set = 1},
        {"no-watchdog", 0, OPTS_FLAG, &no_wd, .set = 1},
        {0},
    };
    opts_cmd_t c = {.name = "net", .style = OPTS_HINT, .unknown = "unknown argument", .opts = opts};
    int rc = cmd_parse(&c, usage_net, argc, argv, NULL);
    if (rc >= 0)
        return rc;
    if (site || column) {
        sc.endpoints = n ? (unsigned)n : 64;
        sc.selftest = !no_st;
        sc.watchdog = !no_wd;
        return monitor_run(site, column, &sc, at);
    }
    if (extra == 99)
        extra = n >= 256 ? 1 : 0;
    char err[DEV_ERR_LEN];
    rnpnet_topo_t t;
    /* out-of-range sizes reach the builder as sizes it refuses, so it words the message */
    if (rnpnet_topo_build(&t, n > 100000 ? 0 : (unsigned)n, extra > 4 ? 5 : (unsigned)extra, wiring,
                          err, sizeof err) < 0) {
        fprintf(stderr, "ftsim net: %s\n", n ? err : "--endpoints N is required");
        return 2;
    }
    print_topology(&t, wiring, links);
    print_paths(&t);
    rnpnet_topo_free(&t);
    return 0;
}
