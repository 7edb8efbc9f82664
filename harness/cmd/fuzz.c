/* fuzz.c — `ftsim fuzz`: random traffic on the device named, models in lockstep. Each design
 * family's fuzzer has its own options; the command line is read with the options of the
 * family --device names, so another family's option is refused, not ignored. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "registry.h"
#include "dev.h"
#include "fuzz_rnp.h"
#include "fuzz_sci.h"
#include "lockstep.h"

static const char usage_fuzz[] =
    "usage: ftsim fuzz --device rn1 [--seed S] [--cycles N] [--model rtl|csim|both|gate|gate-both]\n"
    "                  [--out DIR] [--record FILE.vec] [--wave FILE.fst] [--quiet]\n"
    "       ftsim fuzz --device rnpnet --endpoints N [--faults K] [--extra E] [--backchan]\n"
    "                  [--no-lft] [--retries R] [--gap G] [--seed S] [--cycles C] [--model M]\n"
    "                  [--wave FILE.fst] [--out DIR]\n"
    "       ftsim fuzz --device lc3|p2s [--seed S] [--cycles N] [--model M] [--out DIR]\n"
    "       ftsim fuzz --device ring [--nodes N] [--lc3|--p2s] [--gap G] [--pull I | --no-cuts]\n"
    "       ftsim fuzz --device torus --torus WxH [--lc3|--p2s] [--gap G] [--no-cuts]\n"
    "                  [--seed S] [--cycles C] [--model M] [--wave FILE.fst] [--out DIR]\n"
    "\n"
    "lc3, p2s: one SCI link controller; the stimulus plays the ring and the node around it\n"
    "(traffic, its own packets back, echoes for what it inserts, corrupt and marked packets,\n"
    "ring-down idles, signal detect lost, B-link packets, register writes). Passes when the\n"
    "models never diverge.\n"
    "\n"
    "ring: N nodes on one SCI ring (default: size and variant from the seed). The hosts run the\n"
    "end-to-end protocol of harness/sci/README.md section 1 (sequence numbers per flow, acknowledgements,\n"
    "retransmission with a new tid on a timeout or a failure report, give-up after 10 tries)\n"
    "while cables are pulled and restored at random; a message every ~G cycles per flow. A\n"
    "ledger checks that every message is delivered once and in order, or its source gave it\n"
    "up; that nothing is delivered corrupt or unsent; and, after a drain, that nothing is left.\n"
    "--pull I: instead of random pulls, the cable out of node I is pulled at a fifth of the run\n"
    "and put back (at most 20000 cycles later); every LC must report its ring down and up again\n"
    "within the bounds of rtl/sci_lc.md section 3 (a table per node). --no-cuts: no pulls.\n"
    "torus: the same hosts and ledger on a W x H torus (up to 16 nodes) with its fault-free\n"
    "tables and random X and Y cable pulls; nothing reroutes yet, so messages across a pulled\n"
    "ring are given up by their sources, and the ledger checks they know.\n"
    "\n"
    "rnpnet: an RNP network of RN1s (N = 16, 64, 256 or 1024 endpoints; E extra front stages,\n"
    "default 1 from 256 endpoints, so SWALLOW is used; wiring from the seed). Endpoints send\n"
    "messages (one every ~G cycles each), read every router's STATUS/CHECKSUM, diagnose and\n"
    "retry; the link fault table masks what they locate. K random faults (dead router, dead\n"
    "link, control bit stuck at 1, stuck data bit, transient and intermittent bit flips) are\n"
    "injected at random times. Passes when the models never diverge, every message is\n"
    "delivered exactly once or its source gave up with no fault-free path left, nothing\n"
    "corrupt or unsent is delivered, and every located fault is a real one. A failure prints\n"
    "the command that reproduces it (with a waveform from shortly before) and, for runs up to\n"
    "400 000 cycles, writes a reproducer vector and its FST under --out.\n"
    "\n"
    "rn1:\n"
    "Endpoint models on every port open random connections (directions, lengths, HOLDs,\n"
    "TURNs back and forth, DROPs and IDLE from either end, invalid words, contention,\n"
    "random swallow/disable masks, both modes, configuration written mid-run) while the\n"
    "models run in lockstep; a scoreboard checks delivery and every STATUS/CHECKSUM end to\n"
    "end. The seed is printed (default: from the clock). On a failure it writes a\n"
    "reproducer vector and its FST waveform under --out (default build/fuzz) and says where.\n"
    "Defaults: --cycles 100000, --model both. --model gate and gate-both run the design's\n"
    "synthesized netlist (rn1, lc3, p2s: ftsim play --help) instead of its RTL.\n"
    "\n"
    "Each device takes the options shown for it (and --seed, --cycles, --model, --out,\n"
    "--record, --wave, --wave-from, --wave-to, --quiet); an option of another device is\n"
    "refused. --wave-from N and --wave-to M: the --wave waveform has only cycles N to M (on the\n"
    "run's time axis, cycle N at N*10 ns; nothing is dumped or spent on dumps outside).\n";

/* What a fuzz command line sets, before it is known which family it is for. */
typedef struct fuzz_cmd {
    const char *device;
    int seeded;
    fuzz_opts_t base;
    fuzz_rnpnet_opts_t net;
    fuzz_sciring_opts_t ring;
} fuzz_cmd_t;

static uint64_t clock_seed(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x =
        (uint64_t)ts.tv_sec * 1000000007ull ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 20);
    return x % 1000000000ull;
}

/* --torus WxH of the ring fuzz: 2 to 16 nodes. */
static int ring_torus(void *dst, const char *val, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    fuzz_sciring_opts_t *r = dst;
    unsigned w = 0, h = 0;
    char c;
    if (sscanf(val, "%ux%u%c", &w, &h, &c) != 2 || w < 2 || h < 2 || w * h > 16)
        return -1;
    r->torus_w = w;
    r->torus_h = h;
    return 0;
}

static int in_table(const opts_opt_t *t, const char *name, size_t len)
{
    for (; t->kind != OPTS_END; t++)
        if (t->name && strlen(t->name) == len && !strncmp(t->name, name, len))
            return 1;
    return 0;
}

/* An option of another family's fuzzer gets a message that says whose it is. */
static int foreign(const char *word, const char *device, const opts_opt_t *net,
                   const opts_opt_t *ring)
{
    if (strncmp(word, "--", 2))
        return 0;
    size_t len = strcspn(word + 2, "=");
    int in_net = in_table(net, word + 2, len), in_ring = in_table(ring, word + 2, len);
    if (!in_net && !in_ring)
        return 0;
    fprintf(stderr,
            "ftsim fuzz: --%.*s is an option of --device %s%s%s, not %s\n"
            "(ftsim fuzz --help)\n",
            (int)len, word + 2, in_net ? "rnpnet" : "", in_net && in_ring ? ", " : "",
            in_ring ? "ring and torus" : "", device);
    return 1;
}

/* The checks that need the whole command line: -1 to go on, else the exit status. */
static int fuzz_check(const fuzz_cmd_t *k)
{
    const char *dev = k->device;
    unsigned n = k->net.endpoints;
    if (!strcmp(dev, "rnpnet")) {
        if (n != 16 && n != 64 && n != 256 && n != 1024)
            return cmd_bad("fuzz", "--device rnpnet needs --endpoints 16, 64, 256 or 1024", NULL);
        if (k->net.faults > 64)
            return cmd_bad("fuzz", "--faults takes 0 to 64", NULL);
    } else if (!strcmp(dev, "torus")) {
        if (!k->ring.torus_w)
            return cmd_bad("fuzz", "--device torus needs --torus WxH (2x2 up to 16 nodes)", NULL);
    } else if (strcmp(dev, "rn1") && strcmp(dev, "lc3") && strcmp(dev, "p2s") &&
               strcmp(dev, "ring")) {
        fprintf(stderr,
                "ftsim fuzz: no fuzz for device '%s' yet (devices with fuzz: rn1, rnpnet, "
                "lc3, p2s, ring, torus)\n",
                dev);
        return 2;
    }
    if (k->base.wave && k->base.models == LS_CSIM)
        return cmd_bad("fuzz", "--wave traces the RTL: use --model rtl or both", NULL);
    return cmd_wave_window("fuzz", k->base.wave, k->base.wave_from, k->base.wave_to);
}

static int fuzz_run(fuzz_cmd_t *k)
{
    const char *dev = k->device;
    if (!k->seeded)
        k->base.seed = clock_seed();
    if (!strcmp(dev, "rnpnet")) {
        k->net.base = k->base;
        return fuzz_rnpnet(&k->net);
    }
    if (!strcmp(dev, "lc3") || !strcmp(dev, "p2s")) {
        fuzz_scilc_opts_t lc = {
            .base = k->base,
            .design = dev_catalog_find(&registry_catalog, dev)} /* fixed: nothing to release */;
        return fuzz_scilc(&lc);
    }
    if (!strcmp(dev, "ring") || !strcmp(dev, "torus")) {
        k->ring.base = k->base;
        return fuzz_sciring(&k->ring);
    }
    fuzz_rn1_opts_t rn1 = {.base = k->base};
    return fuzz_rn1(&rn1);
}

/* The union of two tables (a name in both: the first's), into out (room for both). */
static void union_of(const opts_opt_t *a, const opts_opt_t *b, opts_opt_t *out)
{
    unsigned n = 0;
    for (const opts_opt_t *o = a; o->kind != OPTS_END; o++)
        out[n++] = *o;
    for (const opts_opt_t *o = b; o->kind != OPTS_END; o++)
        if (!in_table(a, o->name, strlen(o->name)))
            out[n++] = *o;
    out[n] = (opts_opt_t){0};
}

int cmd_fuzz(int argc, char **argv)
{
    fuzz_cmd_t k = {.device = "rn1",
                    .base = {.cycles = 100000, .models = LS_BOTH},
                    .net = {.extra = -1},
                    .ring = {.p2s = -1, .pull = -1}};
    fuzz_opts_t *b = &k.base;
    const opts_opt_t common[] = {
        {"device", 0, OPTS_STR, &k.device, .msg = "--device takes a name"},
        {"seed", 0, OPTS_U64, &b->seed, .given = &k.seeded, .flags = OPTS_SHOW,
         .msg = "--seed takes a non-negative number"},
        {"cycles", 0, OPTS_U64, &b->cycles, .min = 1, .max = 0x1p40, .flags = OPTS_SHOW,
         .msg = "--cycles takes a number from 1 to 2^40"},
        {"model", 0, OPTS_FN, &b->models, .fn = cmd_models_gate, .flags = OPTS_SHOW,
         .msg = "--model takes rtl, csim, both, gate or gate-both"},
        {"out", 0, OPTS_STR, &b->outdir, .msg = "--out takes a directory"},
        {"record", 0, OPTS_STR, &b->record, .msg = "--record takes a file name"},
        {"wave", 0, OPTS_STR, &b->wave, .msg = "--wave takes a file name"},
        {"wave-from", 0, OPTS_U64, &b->wave_from, .flags = OPTS_SHOW,
         .msg = "--wave-from takes a cycle number"},
        {"wave-to", 0, OPTS_U64, &b->wave_to, .min = 1, .max = 0x1p60, .flags = OPTS_SHOW,
         .msg = "--wave-to takes a cycle number from 1"},
        {"quiet", 0, OPTS_FLAG, &b->quiet, .set = 1},
        {0},
    };
    const opts_opt_t net[] = {
        {"endpoints", 0, OPTS_UINT, &k.net.endpoints, .max = 1000000,
         .msg = "takes a number: --endpoints"},
        {"faults", 0, OPTS_UINT, &k.net.faults, .max = 1000000, .msg = "takes a number: --faults"},
        {"extra", 0, OPTS_INT, &k.net.extra, .max = 1000000, .msg = "takes a number: --extra"},
        {"retries", 0, OPTS_UINT, &k.net.retries, .max = 1000000,
         .msg = "takes a number: --retries"},
        {"gap", 0, OPTS_UINT, &k.net.gap, .max = 1000000, .msg = "takes a number: --gap"},
        {"backchan", 0, OPTS_FLAG, &k.net.backchan, .set = 1},
        {"no-lft", 0, OPTS_FLAG, &k.net.no_lft, .set = 1},
        {0},
    };
    const opts_opt_t ring[] = {
        {"p2s", 0, OPTS_FLAG, &k.ring.p2s, .set = 1},
        {"lc3", 0, OPTS_FLAG, &k.ring.p2s, .set = 0},
        {"torus", 0, OPTS_FN, &k.ring, .fn = ring_torus, .flags = OPTS_SHOW,
         .msg = "--torus takes WxH, 2 to 16 nodes (e.g. 3x3)"},
        {"no-cuts", 0, OPTS_FLAG, &k.ring.nocuts, .set = 1},
        {"pull", 0, OPTS_INT, &k.ring.pull, .max = 15, .flags = OPTS_SHOW,
         .msg = "--pull takes a node number, 0 to 15"},
        {"nodes", 0, OPTS_UINT, &k.ring.nodes, .min = 2, .max = 16, .flags = OPTS_SHOW,
         .msg = "--nodes takes 2 to 16"},
        {"gap", 0, OPTS_UINT, &k.ring.gap, .max = 1000000, .msg = "takes a number: --gap"},
        {0},
    };
    opts_opt_t any[sizeof net / sizeof net[0] + sizeof ring / sizeof ring[0]];
    union_of(net, ring, any);
    /* A device not known is read with every family's options, so that its values are checked
     * before the device is refused. */
    opts_cmd_t c = {.name = "fuzz",
                    .style = OPTS_HINT,
                    .unknown = "unknown argument",
                    .opts = common,
                    .more = any};
    const char *dev = opts_peek(&c, argc, argv, "device");
    dev = dev ? dev : "rn1";
    if (!strcmp(dev, "rnpnet"))
        c.more = net;
    else if (!strcmp(dev, "ring") || !strcmp(dev, "torus"))
        c.more = ring;
    else if (!strcmp(dev, "rn1") || !strcmp(dev, "lc3") || !strcmp(dev, "p2s"))
        c.more = NULL;
    opts_res_t r;
    int rc = opts_parse(&c, argc, argv, &r);
    if (rc == OPTS_HELP) {
        fputs(usage_fuzz, stdout);
        return 0;
    }
    if (rc == OPTS_UNKNOWN && foreign(argv[r.at], dev, net, ring))
        return 2;
    if (rc != OPTS_OK) {
        fputs(r.msg, stderr);
        return 2;
    }
    rc = fuzz_check(&k);
    return rc >= 0 ? rc : fuzz_run(&k);
}
