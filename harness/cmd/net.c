/* net.c — `ftsim net`: an RNP network's topology and the distinct paths its wiring gives. */
#include <stdio.h>

#include "cmd.h"
#include "dev.h"
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
    "use wiring seed 1 (rnpnet256: one extra stage).\n";

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

int cmd_net(int argc, char **argv)
{
    uint64_t n = 0, extra = 99, wiring = 1;
    int links = 0;
    const opts_opt_t opts[] = {
        {"endpoints", 0, OPTS_U64, &n, .msg = "takes a number: --endpoints"},
        {"extra", 0, OPTS_U64, &extra, .msg = "takes a number: --extra"},
        {"wiring", 0, OPTS_U64, &wiring, .msg = "takes a number: --wiring"},
        {"links", 0, OPTS_FLAG, &links, .set = 1},
        {0},
    };
    opts_cmd_t c = {.name = "net", .style = OPTS_HINT, .unknown = "unknown argument", .opts = opts};
    int rc = cmd_parse(&c, usage_net, argc, argv, NULL);
    if (rc >= 0)
        return rc;
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
