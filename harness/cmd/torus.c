/*
 * torus.c — `ftsim torus`: run a 2-D SCI torus system (harness/scisys/sci_sys.c) with named flows
 * or a standard traffic pattern, faults at given or seeded random times, from the command
 * line or a scenario file, and report per flow at the end of the run: offered, sent,
 * delivered, held, retransmitted, FAIL_REPORTs, the longest gap seen from the source, latency,
 * throughput; the drivers' passes; whether the run ended before the drivers were done; the
 * drain and its verdict; and the simulation speed.
 *
 * Scenario file (one statement a line, `#` comments; times are simulated time: `20ms`,
 * `150us`, `2s`, or a plain number of cycles at the link clock):
 *   torus WxH                   (the torus; --torus, if given too, must say the same)
 *   p2s                         (P2S nodes, as --p2s)
 *   time-scale K                (as --time-scale, which wins when given)
 *   flow NAME SX,SY -> DX,DY [bytes B] [every T]
 *   traffic PATTERN [every T] [bytes B]
 *   fault WHEN CONTROL          (CONTROL: cut x X,Y | restore x X,Y | cut y X,Y |
 *                                restore y X,Y | off X,Y | on X,Y)
 *   random-faults N             (N cable pulls at seeded random times, each put back later)
 *   run T
 * A malformed line is `file:line: message`, exit 2, before anything runs; so is a fault at or
 * after the run's end.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "lockstep.h"
#include "pattern.h"
#include "prng.h"
#include "sci_route.h"
#include "sci_sys.h"
#include "sci_torus.h"
#include "tpool.h"

#define MAXF     4096
#define MAXFAULT 48

typedef struct rflow {
    char name[48];
    unsigned sx, sy, dx, dy, bytes;
    double every_us;
} rflow_t;
typedef struct rfault {
    uint64_t at;
    char what[64];
    const char *arg; /* the --fault argument it came from, or NULL */
    unsigned line;   /* the scenario line it came from, or 0 */
    int left_out;    /* a scenario's fault at or after a shorter --run: not applied */
} rfault_t;

typedef struct ropts {
    unsigned w, h, models, threads;
    int p2s, json, log, stat, no_skip;
    int ft, no_selftest, no_watchdog, no_recovery, scrub, no_host_state;
    int ftdrb; /* seed 001's FT-DRB in the hosts (harness/scisys/ftdrb_sci.md) */
    const char *traffic, *wave, *scenario, *series;
    uint64_t bin;
    double rate_us, time_scale;
    unsigned bytes, random_faults;
    uint64_t seed, run;
    rflow_t *flows;
    unsigned nflows;
    rfault_t faults[MAXFAULT];
    unsigned nfaults;
    sci_sys_params_t par;
    /* as given, read once the torus is known */
    const char *flow_args[64], *fault_args[MAXFAULT];
    unsigned nflow_args, nfault_args;
    uint64_t cli_run;      /* --run, which wins over a scenario's run */
    uint64_t scenario_run; /* the scenario's run (0: none) */
    double cli_time_scale; /* --time-scale (0: not given), which wins over a scenario's */
    unsigned torus_line;   /* the scenario's `torus` line (0: none) */
    char *scn_text;        /* the scenario file, read once */
    size_t scn_len;
    uint64_t wave_from, wave_to; /* --wave-from, --wave-to in cycles (wave_to 0: not given) */
} ropts_t;

static const char usage[] =
    "usage: ftsim torus --torus WxH [--p2s] [--static] [--model csim|rtl|both]\n"
    "                   [--traffic uniform|bitrev|shuffle|butterfly|transpose|complement|hotspot]\n"
    "                   [--every T] [--bytes B] [--flow NAME:SX,SY:DX,DY] ...\n"
    "                   [--fault WHEN:CONTROL] ... [--random-faults N] [--scenario FILE]\n"
    "                   [--run T] [--time-scale K] [--seed S] [--wave FILE.fst] [--log] [--json]\n"
    "                   [--wave-from T] [--wave-to T]\n"
    "                   [--series FILE.csv] [--bin T] [--no-skip] [--param NAME=VALUE] ...\n"
    "                   [--threads N] [--ftdrb]\n"
    "\n"
    "--ftdrb: seed 001's FT-DRB in the hosts (harness/scisys/ftdrb_sci.md): notifications of failed\n"
    "packets to their sources, per-source fault tables, multistep paths relayed by hosts.\n"
    "\n"
    "Runs the torus with its host agents and drivers (LC3) or hardware failover (P2S; --static:\n"
    "the static reconfiguration baseline instead of the drivers) for --run T of simulated time\n"
    "(default 10 ms), then stops the flows and lets them drain. Times (T, WHEN) are simulated\n"
    "time: 20ms, 150us, 2s, or cycles at 100 MHz. The driver's timers are the paper's (a pass\n"
    "takes about 250 ms) divided by --time-scale (default 1). Traffic patterns give every node a\n"
    "flow (uniform: two flows to random destinations, seeded) of one B-byte message (default\n"
    "64) every T (default 20us). --flow NAME:SX,SY:DX,DY adds a flow from node (SX,SY) to\n"
    "(DX,DY); NAME:SX,SY->DX,DY says the same, quoted (unquoted, the shell reads > as a\n"
    "redirection). CONTROL: cut x X,Y | restore x X,Y | cut y X,Y | restore y X,Y | off X,Y |\n"
    "on X,Y; a fault must fall inside the run (WHEN before T), else exit 2 (a scenario's faults\n"
    "past a shorter --run are left out, and the report says so). --random-faults N pulls N\n"
    "random cables at seeded random times and puts each back later.\n"
    "\n"
    "The report, per flow, is taken at the end of the run (the drain is not in it):\n"
    "  offered    messages the application wrote, and the one it is blocked in (a full window)\n"
    "  sent       messages sent at least once\n"
    "  delivered  messages delivered at the destination (in order, once each)\n"
    "  held       offered - sent: at the source, never sent (a full window, a driver's hold)\n"
    "  retrans    retransmissions: DATA packets sent again (go-back-N after a timeout, a\n"
    "             FAIL_REPORT or a driver's release)\n"
    "  fails      FAIL_REPORTs of the flow's packets (an LC gave one up: ring down, retries)\n"
    "  gap ms     the longest time the source had a message offered and nothing new was\n"
    "             delivered: a source that cannot send is in a gap too\n"
    "  lat us     mean latency, first send to delivery; MB/s: payload delivered per second\n"
    "Then the totals and the drivers' passes; a warning when the run ended while a driver was\n"
    "still reconfiguring (the figures are from before the recovery: run longer to see it); the\n"
    "drain: every message of a pair of live nodes delivered once, in order, and acknowledged\n"
    "(PASS), else FAIL (exit 1); simulated cycles per second. --json prints the same as one JSON\n"
    "object on stdout and nothing else (a warning or a failure goes to stderr as well).\n"
    "--log prints the faults, the drivers' steps and, on P2S, the hardware failover (LC\n"
    "redirect, NOTIFY, forced select) on stderr, one line each.\n"
    "\n"
    "--series writes every flow's deliveries and MB/s per --bin (default 1/100 of the run) as\n"
    "CSV. --no-skip steps the C model through every edge (for speed comparisons with the RTL,\n"
    "which has no idle skipping). --threads N runs the C model's nodes, hosts and drivers on N\n"
    "threads, with the same results as on one; it pays from about 8x8 up (the RTL stays on one\n"
    "thread: its models share one Verilator runtime). --param sets one of the driver's\n"
    "parameters (cablenotok_ms readytogo_ms watchdog_ms host_rtx_ms compute_ms reg_write_us\n"
    "clock_mhz echo_timeout busy_limit retry_limit rsr_timeout fail_backoff window; defaults in\n"
    "harness/scisys/sci_sys.md section 3). --wave writes the RTL and the harness's state as\n"
    "FST; --wave-from T and --wave-to T dump only that part of the run (times as --fault's; the\n"
    "waveform keeps the run's time axis; nothing is dumped or spent on dumps outside).\n"
    "\n"
    "Scenario file (--scenario): the same as statements, one a line: torus WxH, p2s,\n"
    "time-scale K, flow NAME SX,SY -> DX,DY [bytes B] [every T], traffic PATTERN [every T]\n"
    "[bytes B], fault WHEN CONTROL, random-faults N, run T (harness/scisys/sci_sys.md section\n"
    "7). --run and --time-scale win over the file's; --torus must agree with its torus.\n";

/* Simulated time to cycles at 100 MHz: "20ms", "150us", "2s", "12345". */
static int parse_time(const char *s, uint64_t *cyc)
{
    char *e;
    double v = strtod(s, &e);
    if (e == s || !isfinite(v) || v < 0)
        return -1;
    double mul = 1;
    if (!strcmp(e, "ms"))
        mul = 100000;
    else if (!strcmp(e, "us"))
        mul = 100;
    else if (!strcmp(e, "s"))
        mul = 100000000;
    else if (*e)
        return -1;
    else if (v != floor(v))
        return -1;
    double c = v * mul;
    if (c > 1e15)
        return -1;
    *cyc = (uint64_t)llround(c);
    return 0;
}

static int parse_xy(const char *s, unsigned w, unsigned h, unsigned *x, unsigned *y)
{
    char c;
    return sscanf(s, "%u,%u%c", x, y, &c) == 2 && *x < w && *y < h ? 0 : -1;
}

static int add_flow(ropts_t *o, const rflow_t *f)
{
    if (o->nflows == MAXF)
        return -1;
    if (!o->flows && !(o->flows = calloc(MAXF, sizeof *o->flows)))
        return -1;
    o->flows[o->nflows++] = *f;
    return 0;
}

static int check_control(const ropts_t *o, const char *c, char *why, size_t whylen)
{
    char op[16], d[4];
    unsigned x, y;
    char tail;
    if (!strncmp(c, "seu ", 4)) { /* an upset: the torus's upset map names it */
        char tgt[48], bit[16], more[8];
        dev_seu_t u;
        const dev_design_t *dd = sci_torus_design(o->p2s, o->w, o->h);
        int ok = dd && sscanf(c + 4, "%47s %15s %7s", tgt, bit, more) == 2;
        if (!ok)
            snprintf(why, whylen, "want 'seu NAME bitB' or 'seu NAME[I] bitB'");
        else
            ok = dev_upset_find(dd, tgt, bit, &u, why, whylen) == 0;
        if (dd)
            dev_design_release(dd);
        return ok ? 0 : -1;
    }
    if (sscanf(c, "%15s %3s %u,%u%c", op, d, &x, &y, &tail) == 4 &&
        (!strcmp(op, "cut") || !strcmp(op, "restore")) && (!strcmp(d, "x") || !strcmp(d, "y")))
        return x < o->w && y < o->h ? 0 : -1;
    if (sscanf(c, "%15s %u,%u%c", op, &x, &y, &tail) == 3 &&
        (!strcmp(op, "off") || !strcmp(op, "on") || !strcmp(op, "reset")))
        return x < o->w && y < o->h ? 0 : -1;
    return -1;
}

static int add_fault(ropts_t *o, uint64_t at, const char *what, const char *arg, unsigned line,
                     char *err, size_t errlen)
{
    char why[200] = "";
    int bad = check_control(o, what, why, sizeof why) < 0;
    if (bad && *why) { /* an upset the map refuses: its reason */
        snprintf(err, errlen, "'%s': %s (`ftsim info torus%ux%u --upsets` lists the names)", what,
                 why, o->w, o->h);
        return -1;
    }
    if (bad) {
        snprintf(err, errlen,
                 "'%s': not a fault of a %ux%u torus (cut x X,Y | restore x X,Y | "
                 "cut y X,Y | restore y X,Y | off X,Y | on X,Y | reset X,Y | seu NAME bitB | "
                 "seu NAME[I] bitB, NAME in `ftsim info torus%ux%u --upsets`)",
                 what, o->w, o->h, o->w, o->h);
        return -1;
    }
    if (o->nfaults == MAXFAULT) {
        snprintf(err, errlen, "more than %u faults", MAXFAULT);
        return -1;
    }
    o->faults[o->nfaults].at = at;
    snprintf(o->faults[o->nfaults].what, sizeof o->faults[0].what, "%s", what);
    o->faults[o->nfaults].arg = arg;
    o->faults[o->nfaults].line = line;
    o->nfaults++;
    return 0;
}

/* "NAME:SX,SY:DX,DY", or "NAME:SX,SY->DX,DY" (which a shell must be given quoted). */
static int parse_flow_arg(ropts_t *o, const char *a, char *err, size_t errlen)
{
    rflow_t f;
    memset(&f, 0, sizeof f);
    const char *colon = strchr(a, ':'), *to = NULL;
    size_t skip = 0;
    if (colon && (to = strstr(colon + 1, "->")))
        skip = 2;
    else if (colon && (to = strchr(colon + 1, ':')))
        skip = 1;
    if (!to || colon == a || (size_t)(colon - a) >= sizeof f.name) {
        snprintf(err, errlen,
                 "--flow %s: NAME:SX,SY:DX,DY or NAME:SX,SY->DX,DY (NAME 1 to %zu characters)", a,
                 sizeof f.name - 1);
        return -1;
    }
    memcpy(f.name, a, (size_t)(colon - a));
    char src[32], dst[32];
    snprintf(src, sizeof src, "%.*s", (int)(to - colon - 1), colon + 1);
    snprintf(dst, sizeof dst, "%s", to + skip);
    if (parse_xy(src, o->w, o->h, &f.sx, &f.sy) < 0 ||
        parse_xy(dst, o->w, o->h, &f.dx, &f.dy) < 0 || (f.sx == f.dx && f.sy == f.dy)) {
        snprintf(err, errlen, "--flow %s: two different nodes of the %ux%u torus", a, o->w, o->h);
        return -1;
    }
    f.bytes = 0;
    f.every_us = 0;
    return add_flow(o, &f) < 0 ? (snprintf(err, errlen, "too many flows"), -1) : 0;
}

/* The statements that say which torus runs (torus, p2s, time-scale), read in a first pass,
 * since the others are read against the torus: a message in msg when malformed. */
static void scenario_setup(ropts_t *o, const char *kw, const char *p, unsigned ln, char *msg,
                           size_t len)
{
    char a1[64], tail[64];
    int k = sscanf(p, "%*s %63s %63s", a1, tail);
    if (!strcmp(kw, "p2s")) {
        if (k > 0)
            snprintf(msg, len, "p2s: no arguments");
        o->p2s = 1;
        return;
    }
    if (!strcmp(kw, "torus")) {
        unsigned w, h;
        if (k != 1 || sci_route_parse_size(a1, &w, &h) < 0)
            snprintf(msg, len, "torus WxH (2x2 to 16x16, P2S to 32x32)");
        else if (o->w && !o->torus_line && (o->w != w || o->h != h))
            snprintf(msg, len, "torus %ux%u, but --torus %ux%u: give one of them, or the same", w,
                     h, o->w, o->h);
        else if (o->torus_line)
            snprintf(msg, len, "a second torus statement (the first on line %u)", o->torus_line);
        else
            o->w = w, o->h = h, o->torus_line = ln;
        return;
    }
    if (!strcmp(kw, "time-scale")) {
        char *e;
        double v = k == 1 ? strtod(a1, &e) : 0;
        if (k != 1 || *e || !(v >= 1 && v <= 1e6))
            snprintf(msg, len, "time-scale K: 1 to 1e6");
        else if (!o->cli_time_scale) /* --time-scale wins */
            o->time_scale = v;
    }
}

/* The scenario file: in pass 0 its torus, p2s and time-scale statements, in pass 1 the rest. */
static int parse_scenario(ropts_t *o, const char *path, int pass, char *err, size_t errlen)
{
    char line[512];
    unsigned ln = 0;
    int rc = 0;
    for (const char *at = o->scn_text; rc == 0 && at < o->scn_text + o->scn_len;) {
        const char *nl = memchr(at, '\n', (size_t)(o->scn_text + o->scn_len - at));
        size_t len = nl ? (size_t)(nl - at) : (size_t)(o->scn_text + o->scn_len - at);
        ln++;
        if (len >= sizeof line) {
            snprintf(err, errlen, "%s:%u: a line longer than %zu characters", path, ln,
                     sizeof line - 1);
            return -1;
        }
        memcpy(line, at, len);
        line[len] = 0;
        at += len + (nl != NULL);
        char *h = strchr(line, '#');
        if (h)
            *h = 0;
        char *p = line;
        while (isspace((unsigned char)*p))
            p++;
        size_t n = strlen(p);
        while (n && isspace((unsigned char)p[n - 1]))
            p[--n] = 0;
        if (!*p)
            continue;
        char kw[16], a1[64], a2[64], a3[64], rest[256];
        char msg[300] = "";
        int k = sscanf(p, "%15s %63s", kw, a1);
        int setup = !strcmp(kw, "torus") || !strcmp(kw, "p2s") || !strcmp(kw, "time-scale");
        if (setup || pass == 0) {
            if (setup && pass == 0)
                scenario_setup(o, kw, p, ln, msg, sizeof msg);
        } else if (k < 2) {
            snprintf(msg, sizeof msg, "'%s': a statement and its arguments", p);
        } else if (!strcmp(kw, "flow")) {
            rflow_t f;
            memset(&f, 0, sizeof f);
            int m = sscanf(p, "flow %31s %63s -> %63s %255[^\n]", f.name, a2, a3, rest);
            if (m < 3 || parse_xy(a2, o->w, o->h, &f.sx, &f.sy) < 0 ||
                parse_xy(a3, o->w, o->h, &f.dx, &f.dy) < 0 || (f.sx == f.dx && f.sy == f.dy)) {
                snprintf(msg, sizeof msg,
                         "flow NAME SX,SY -> DX,DY [bytes B] [every T]: two "
                         "different nodes of the %ux%u torus",
                         o->w, o->h);
            } else {
                char *t = m == 4 ? rest : NULL, *save = NULL;
                for (char *tok = t ? strtok_r(t, " \t", &save) : NULL; tok && !*msg;
                     tok = strtok_r(NULL, " \t", &save)) {
                    char *val = strtok_r(NULL, " \t", &save);
                    uint64_t c;
                    if (!strcmp(tok, "bytes") && val && atoi(val) >= 16 && atoi(val) <= 64)
                        f.bytes = (unsigned)atoi(val);
                    else if (!strcmp(tok, "every") && val && parse_time(val, &c) == 0 && c > 0)
                        f.every_us = (double)c / 100.0;
                    else
                        snprintf(msg, sizeof msg, "flow %s: '%s %s': bytes 16..64 or every T",
                                 f.name, tok, val ? val : "");
                }
                if (!*msg && add_flow(o, &f) < 0)
                    snprintf(msg, sizeof msg, "too many flows");
            }
        } else if (!strcmp(kw, "traffic")) {
            int pat = traffic_pattern_find(a1), ok = pat >= 0;
            if (ok)
                o->traffic = traffic_pattern_names[pat];
            if (!ok)
                snprintf(msg, sizeof msg,
                         "traffic %s: uniform, bitrev, shuffle, butterfly, "
                         "transpose, complement or hotspot",
                         a1);
            char *e = strstr(p, " every ");
            uint64_t c;
            if (ok && e) {
                if (sscanf(e, " every %63s", a2) != 1 || parse_time(a2, &c) < 0 || c == 0)
                    snprintf(msg, sizeof msg, "traffic: every T (a time: 20us, 1ms, cycles)");
                else
                    o->rate_us = (double)c / 100.0;
            }
            char *b = strstr(p, " bytes ");
            if (ok && !*msg && b) {
                int v;
                if (sscanf(b, " bytes %d", &v) != 1 || v < 16 || v > 64)
                    snprintf(msg, sizeof msg, "traffic: bytes 16..64");
                else
                    o->bytes = (unsigned)v;
            }
        } else if (!strcmp(kw, "fault")) {
            uint64_t at;
            if (sscanf(p, "fault %63s %255[^\n]", a1, rest) != 2 || parse_time(a1, &at) < 0)
                snprintf(msg, sizeof msg, "fault WHEN CONTROL (WHEN: 20ms, 150us, cycles)");
            else
                add_fault(o, at, rest, NULL, ln, msg, sizeof msg);
        } else if (!strcmp(kw, "random-faults")) {
            char *e;
            unsigned long v = strtoul(a1, &e, 10);
            if (*e || v > 16)
                snprintf(msg, sizeof msg, "random-faults N: 0 to 16");
            else
                o->random_faults = (unsigned)v;
        } else if (!strcmp(kw, "run")) {
            if (parse_time(a1, &o->run) < 0 || o->run == 0)
                snprintf(msg, sizeof msg, "run T: a time (20ms, 2s, cycles)");
        } else {
            snprintf(msg, sizeof msg,
                     "unknown statement '%s' (torus, p2s, time-scale, flow, traffic, fault, "
                     "random-faults, run)",
                     kw);
        }
        if (*msg) {
            snprintf(err, errlen, "%s:%u: %s", path, ln, msg);
            rc = -1;
        }
    }
    return rc;
}

/* The scenario file, read once (the two passes read it from memory: a pipe reads once). */
static int load_scenario(ropts_t *o, char *err, size_t errlen)
{
    FILE *fp = fopen(o->scenario, "r");
    if (!fp) {
        snprintf(err, errlen, "%s: cannot open", o->scenario);
        return -1;
    }
    size_t cap = 0;
    int rc = 0;
    for (;;) {
        if (o->scn_len == cap) {
            char *b = cap < (1u << 20) ? realloc(o->scn_text, cap ? 2 * cap : 4096) : NULL;
            if (!b) {
                snprintf(err, errlen, "%s: %s", o->scenario,
                         cap ? "larger than 1 MiB" : "out of memory");
                rc = -1;
                break;
            }
            o->scn_text = b;
            cap = cap ? 2 * cap : 4096;
        }
        size_t n = fread(o->scn_text + o->scn_len, 1, cap - o->scn_len, fp);
        o->scn_len += n;
        if (n == 0)
            break;
    }
    if (rc == 0 && ferror(fp)) {
        snprintf(err, errlen, "%s: cannot read", o->scenario);
        rc = -1;
    }
    fclose(fp);
    return rc;
}

/* The pattern's flows (harness/core/pattern.h): uniform gives every node two. */
static int pattern_flows(ropts_t *o, prng_t *rng, char *err, size_t errlen)
{
    unsigned n = o->w * o->h;
    const char *p = o->traffic;
    int pat = traffic_pattern_find(p);
    const char *why = traffic_pattern_unfit(pat, o->w, o->h);
    if (why) {
        snprintf(err, errlen, "--traffic %s %s (%ux%u)", p, why, o->w, o->h);
        return -1;
    }
    for (unsigned s = 0; s < n; s++) {
        unsigned d[2] = {s, s}, nd = pat == TP_UNIFORM ? 2 : 1;
        for (unsigned k = 0; k < nd; k++)
            d[k] = traffic_pattern_dst(pat, o->w, o->h, s, rng);
        for (unsigned k = 0; k < nd; k++) {
            if (d[k] == s)
                continue;
            rflow_t f;
            memset(&f, 0, sizeof f);
            snprintf(f.name, sizeof f.name, "%.10s-%u.%u>%u.%u", p[0] == 'u' ? "uni" : p, s % o->w,
                     s / o->w, d[k] % o->w, d[k] / o->w);
            f.sx = s % o->w, f.sy = s / o->w, f.dx = d[k] % o->w, f.dy = d[k] / o->w;
            if (add_flow(o, &f) < 0) {
                snprintf(err, errlen, "too many flows");
                return -1;
            }
        }
    }
    return 0;
}

/* ---- the command line ------------------------------------------------------------------------ */

/* --every T into microseconds. */
static int every_us(void *dst, const char *val, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    uint64_t c;
    if (parse_time(val, &c) < 0 || c == 0)
        return -1;
    *(double *)dst = (double)c / 100.0;
    return 0;
}

/* A time T (zero too) into cycles. */
static int time_or_zero(void *dst, const char *val, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return parse_time(val, dst);
}

/* A time T (not zero) into cycles. */
static int time_cycles(void *dst, const char *val, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    uint64_t c;
    if (parse_time(val, &c) < 0 || c == 0)
        return -1;
    *(uint64_t *)dst = c;
    return 0;
}

static int flow_arg(void *dst, const char *val, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    ropts_t *o = dst;
    if (o->nflow_args < 64)
        o->flow_args[o->nflow_args++] = val;
    return 0;
}

static int fault_arg(void *dst, const char *val, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    ropts_t *o = dst;
    if (o->nfault_args < MAXFAULT)
        o->fault_args[o->nfault_args++] = val;
    return 0;
}

static int param(void *dst, const char *val, char *err, size_t errlen)
{
    return sci_sys_param_set(dst, val, err, errlen);
}

/* The options into o: -1 to go on, else the exit status. */
static int torus_args(ropts_t *o, int argc, char **argv)
{
    const opts_opt_t opts[] = {
        {"p2s", 0, OPTS_FLAG, &o->p2s, .set = 1},
        {"static", 0, OPTS_FLAG, &o->stat, .set = 1},
        {"json", 0, OPTS_FLAG, &o->json, .set = 1},
        {"log", 0, OPTS_FLAG, &o->log, .set = 1},
        {"no-skip", 0, OPTS_FLAG, &o->no_skip, .set = 1},
        {"ft", 0, OPTS_FLAG, &o->ft, .set = 1},
        {"ftdrb", 0, OPTS_FLAG, &o->ftdrb, .set = 1},
        {"no-selftest", 0, OPTS_FLAG, &o->no_selftest, .set = 1},
        {"no-watchdog", 0, OPTS_FLAG, &o->no_watchdog, .set = 1},
        {"no-recovery", 0, OPTS_FLAG, &o->no_recovery, .set = 1},
        {"scrub", 0, OPTS_FLAG, &o->scrub, .set = 1},
        {"no-host-state", 0, OPTS_FLAG, &o->no_host_state, .set = 1},
        {"torus", 0, OPTS_FN, &(cmd_size_t){&o->w, &o->h}, .fn = cmd_size, .msg = "WxH"},
        {"model", 0, OPTS_FN, &o->models, .fn = cmd_models, .msg = "rtl, csim or both"},
        {"traffic", 0, OPTS_STR, .dst = &o->traffic},
        {"every", 0, OPTS_FN, &o->rate_us, .fn = every_us, .msg = "a time (20us, 1ms, cycles)"},
        {"bytes", 0, OPTS_UINT, &o->bytes, .min = 16, .max = 64, .flags = OPTS_DEC,
         .msg = "16 to 64"},
        {"flow", 0, OPTS_FN, o, .fn = flow_arg},
        {"fault", 0, OPTS_FN, o, .fn = fault_arg},
        {"random-faults", 0, OPTS_UINT, &o->random_faults, .max = 16, .flags = OPTS_DEC,
         .msg = "0 to 16"},
        {"scenario", 0, OPTS_STR, .dst = &o->scenario},
        {"run", 0, OPTS_FN, &o->cli_run, .fn = time_cycles, .msg = "a time (20ms, 2s, cycles)"},
        {"time-scale", 0, OPTS_DBL, &o->cli_time_scale, .min = 1, .max = 1e6, .msg = "1 to 1e6"},
        {"seed", 0, OPTS_U64, &o->seed, .msg = "a number"},
        {"param", 0, OPTS_FN, &o->par, .fn = param},
        {"series", 0, OPTS_STR, .dst = &o->series},
        {"bin", 0, OPTS_FN, &o->bin, .fn = time_cycles, .msg = "a time (100us, 1ms, cycles)"},
        {"wave", 0, OPTS_STR, .dst = &o->wave},
        {"threads", 0, OPTS_UINT, &o->threads, .min = 1, .max = TPOOL_MAX, .flags = OPTS_DEC,
         .msg = "1 to 64"},
        {"wave-from", 0, OPTS_FN, &o->wave_from, .fn = time_or_zero,
         .msg = "a time (2ms, 150us, cycles)"},
        {"wave-to", 0, OPTS_FN, &o->wave_to, .fn = time_cycles,
         .msg = "a time after 0 (3ms, 150us, cycles)"},
        {0},
    };
    opts_cmd_t c = {.name = "torus",
                    .style = OPTS_VALUE,
                    .unknown = "unknown option",
                    .missing = "unknown option or missing value",
                    .opts = opts};
    return cmd_parse(&c, usage, argc, argv, NULL);
}

/* --fault and --flow, read against the torus size. 0, or -1 (said why). */
static int torus_given(ropts_t *o)
{
    char err[600];
    for (unsigned k = 0; k < o->nfault_args; k++) {
        const char *a = o->fault_args[k], *c = strchr(a, ':');
        uint64_t at;
        char when[32];
        if (!c || (size_t)(c - a) >= sizeof when) {
            fprintf(stderr, "ftsim torus: --fault %s: WHEN:CONTROL\n", a);
            return -1;
        }
        snprintf(when, sizeof when, "%.*s", (int)(c - a), a);
        if (parse_time(when, &at) < 0 || add_fault(o, at, c + 1, a, 0, err, sizeof err) < 0) {
            fprintf(stderr, "ftsim torus: --fault %s: %s\n", a,
                    parse_time(when, &at) < 0 ? "WHEN is a time (20ms, 150us, cycles)" : err);
            return -1;
        }
    }
    for (unsigned k = 0; k < o->nflow_args; k++)
        if (parse_flow_arg(o, o->flow_args[k], err, sizeof err) < 0) {
            fprintf(stderr, "ftsim torus: %s\n", err);
            return -1;
        }
    return 0;
}

/* N cable pulls at seeded random times, each put back later if the run lasts. */
static void random_faults(ropts_t *o, prng_t *rng)
{
    char err[600];
    for (unsigned k = 0; k < o->random_faults && o->nfaults + 2 <= MAXFAULT; k++) {
        uint64_t at = o->run / 10 + prng_below(rng, (uint32_t)(o->run / 2));
        uint64_t back = at + o->run / 10 + prng_below(rng, (uint32_t)(o->run / 4));
        char c[32], r[32];
        unsigned x = prng_below(rng, o->w), y = prng_below(rng, o->h);
        const char *d = prng_below(rng, 2) ? "y" : "x";
        snprintf(c, sizeof c, "cut %s %u,%u", d, x, y);
        snprintf(r, sizeof r, "restore %s %u,%u", d, x, y);
        add_fault(o, at, c, NULL, 0, err, sizeof err);
        if (back < o->run)
            add_fault(o, back, r, NULL, 0, err, sizeof err);
    }
}

/* A fault at or after the run's end would never be applied (or would be, in the drain, which
 * is not the run): refused. But a scenario cut short by --run keeps the faults of its own run:
 * those are left out, and the report lists them as such. 0, or -1 (said why). */
static int faults_in_run(ropts_t *o)
{
    for (unsigned k = 0; k < o->nfaults; k++) {
        rfault_t *f = &o->faults[k];
        if (f->at < o->run)
            continue;
        uint64_t own_end = o->scenario_run ? o->scenario_run : 10u * 100000u;
        if (f->line && o->cli_run && f->at < own_end) {
            f->left_out = 1;
            continue;
        }
        char where[600];
        if (f->line)
            snprintf(where, sizeof where, "%s:%u: fault %s", o->scenario, f->line, f->what);
        else
            snprintf(where, sizeof where, "ftsim torus: --fault %s", f->arg ? f->arg : f->what);
        const char *why = o->cli_run        ? "--run"
                          : o->scenario_run ? "the scenario's run"
                                            : "the default; --run T sets it";
        fprintf(stderr,
                "%s: at %.3f ms, not before the run's end (%.3f ms, %s): it would never "
                "happen in the run\n",
                where, (double)f->at / 1e5, (double)o->run / 1e5, why);
        return -1;
    }
    return 0;
}

/* Everything the command line and the scenario say, checked and completed: the torus, the
 * flows, the faults, the run and the bins. 0, or 2 (said why). */
static int torus_plan(ropts_t *o, prng_t *rng)
{
    char err[600];
    if (o->scenario && (load_scenario(o, err, sizeof err) < 0 ||
                        parse_scenario(o, o->scenario, 0, err, sizeof err) < 0)) {
        fprintf(stderr, "ftsim torus: %s\n", err);
        return 2;
    }
    o->time_scale = o->cli_time_scale ? o->cli_time_scale : o->time_scale ? o->time_scale : 1;
    unsigned max = o->p2s ? 32 : 16;
    if (o->w < 2 || o->h < 2 || o->w > max || o->h > max) {
        if (o->torus_line)
            fprintf(stderr, "%s:%u: torus %ux%u: %s tori are 2x2 to %ux%u\n", o->scenario,
                    o->torus_line, o->w, o->h, o->p2s ? "P2S" : "LC3", max, max);
        else
            fprintf(stderr,
                    "ftsim torus: --torus WxH (or a scenario's torus WxH) is required; %s "
                    "tori are 2x2 to %ux%u\n",
                    o->p2s ? "P2S" : "LC3", max, max);
        return 2;
    }
    if (o->traffic && traffic_pattern_find(o->traffic) < 0) {
        fprintf(stderr,
                "ftsim torus: --traffic %s: uniform, bitrev, shuffle, butterfly, "
                "transpose, complement or hotspot\n",
                o->traffic);
        return 2;
    }
    if (torus_given(o) < 0)
        return 2;
    if (o->scenario && parse_scenario(o, o->scenario, 1, err, sizeof err) < 0) {
        fprintf(stderr, "ftsim torus: %s\n", err);
        return 2;
    }
    prng_seed(rng, o->seed);
    if (o->traffic && pattern_flows(o, rng, err, sizeof err) < 0) {
        fprintf(stderr, "ftsim torus: %s\n", err);
        return 2;
    }
    if (!o->nflows) {
        fprintf(stderr, "ftsim torus: no traffic: --traffic, --flow or a scenario with flows\n");
        return 2;
    }
    o->scenario_run = o->run;
    if (o->cli_run)
        o->run = o->cli_run;
    if (!o->run)
        o->run = 10u * 100000u; /* 10 ms */
    if (faults_in_run(o) < 0)
        return 2;
    if (o->bin == 0)
        o->bin = o->run / 100 ? o->run / 100 : 1;
    random_faults(o, rng);
    if (o->series) { /* a file that cannot be written is found before the run, not after */
        FILE *cf = fopen(o->series, "w");
        if (!cf) {
            fprintf(stderr, "ftsim torus: --series %s: cannot write\n", o->series);
            return 2;
        }
        fclose(cf);
    }
    return 0;
}

/* ---- the run ------------------------------------------------------------------------------- */

typedef struct trun {
    sci_sys_t *s;
    sci_sys_cfg_t cfg;
    time_t t0;
    uint64_t base, run_cycles;
    double build_s, run_s;
    int settled;
    char err[600];
    /* at the end of the run, before the drain: the report's figures */
    sci_flow_stats_t *snap;
    unsigned nsnap;
    unsigned busy;                  /* drivers still reconfiguring (or the static front end: 1) */
    char busy_at[160];              /* which: "(0,2) (1,2) ..." */
    uint64_t drain_cycles, drained; /* the drain's length, and the messages it delivered */
} trun_t;

static double since(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0->tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0->tv_nsec);
}

/* The faults the run applies (not those a shorter --run left out). */
static unsigned faults_applied(const ropts_t *o)
{
    unsigned n = 0;
    for (unsigned k = 0; k < o->nfaults; k++)
        n += !o->faults[k].left_out;
    return n;
}

/* The system with its flows and faults: 0, or 2 (said why). */
static int torus_open(const ropts_t *o, prng_t *rng, trun_t *t)
{
    sci_sys_cfg_t *cfg = &t->cfg;
    memset(cfg, 0, sizeof *cfg);
    cfg->w = o->w, cfg->h = o->h, cfg->p2s = o->p2s, cfg->models = o->models;
    cfg->mode = o->stat ? SCI_SYS_STATIC : SCI_SYS_DYNAMIC;
    cfg->par = o->par;
    cfg->par.time_scale = o->time_scale;
    cfg->seed = o->seed;
    cfg->wave = o->wave;
    cfg->wave_from = o->wave_from;
    cfg->wave_to = o->wave_to;
    cfg->bin_cycles = o->bin ? o->bin : o->run / 100 ? o->run / 100 : 1;
    cfg->log = o->log ? stderr : NULL;
    cfg->no_skip = o->no_skip;
    cfg->threads = o->threads;
    cfg->ftdrb = o->ftdrb;
    if (o->ft) {
        cfg->ft = SCI_FT_ON;
        if (o->no_selftest)
            cfg->ft &= ~(unsigned)SCI_FT_SELFTEST;
        if (o->no_watchdog)
            cfg->ft &= ~(unsigned)SCI_FT_WATCHDOG;
        if (o->no_recovery)
            cfg->ft &= ~(unsigned)SCI_FT_RECOVER;
        if (o->scrub)
            cfg->ft |= SCI_FT_SCRUB;
        if (o->no_host_state)
            cfg->ft |= SCI_FT_NO_HOST_STATE;
    }
    t->t0 = time(NULL);
    struct timespec ts0;
    clock_gettime(CLOCK_MONOTONIC, &ts0);
    t->s = sci_sys_new(cfg, t->err, sizeof t->err);
    if (!t->s) {
        fprintf(stderr, "ftsim torus: %s\n", t->err);
        return 2;
    }
    t->build_s = since(&ts0);
    t->base = sci_sys_now(t->s);
    int rc = 0;
    for (unsigned k = 0; k < o->nflows && rc == 0; k++) {
        const rflow_t *f = &o->flows[k];
        double us = f->every_us > 0 ? f->every_us : o->rate_us;
        uint64_t every = (uint64_t)llround(us * 100.0);
        if (sci_sys_add_flow(t->s, f->name, f->sy * o->w + f->sx, f->dy * o->w + f->dx,
                             f->bytes ? f->bytes : o->bytes, every,
                             t->base + prng_below(rng, (uint32_t)(every ? every : 1)), t->err,
                             sizeof t->err) < 0)
            rc = 2;
    }
    for (unsigned k = 0; k < o->nfaults && rc == 0; k++)
        if (!o->faults[k].left_out && sci_sys_fault(t->s, t->base + o->faults[k].at,
                                                    o->faults[k].what, t->err, sizeof t->err) < 0)
            rc = 2;
    if (rc)
        fprintf(stderr, "ftsim torus: %s\n", t->err);
    return rc;
}

/* The report's figures at the end of the run: every flow's, and which drivers are not done. */
static int torus_snapshot(const ropts_t *o, trun_t *t)
{
    t->nsnap = sci_sys_nflows(t->s);
    t->snap = calloc(t->nsnap ? t->nsnap : 1, sizeof *t->snap);
    if (!t->snap) {
        snprintf(t->err, sizeof t->err, "out of memory");
        return -1;
    }
    for (unsigned k = 0; k < t->nsnap; k++)
        sci_sys_flow_stats(t->s, k, &t->snap[k]);
    size_t at = 0;
    for (unsigned i = 0; i < o->w * o->h; i++) {
        sci_drv_stats_t d;
        sci_sys_driver_stats(t->s, i, &d);
        if (d.state == SCI_DRV_IDLE || d.state == SCI_DRV_DEAD)
            continue;
        if (t->busy++ < 8 && at < sizeof t->busy_at)
            at += (size_t)snprintf(t->busy_at + at, sizeof t->busy_at - at, "%s(%u,%u)",
                                   at ? " " : "", i % o->w, i / o->w);
        else if (t->busy == 9 && at < sizeof t->busy_at)
            at += (size_t)snprintf(t->busy_at + at, sizeof t->busy_at - at, " ...");
    }
    if (!t->busy && sci_sys_busy(t->s)) { /* the static front end, or a driver's last write */
        t->busy = 1;
        snprintf(t->busy_at, sizeof t->busy_at, "%s", o->stat ? "the front end" : "a driver");
    }
    return 0;
}

/* The run, then the flows stopped and drained: 0, or 1 (t->err says why). */
static int torus_run(const ropts_t *o, trun_t *t)
{
    if (!o->json) {
        printf("torus %ux%u %s%s, %s, %u flows, %u faults, run %.3f ms (seed %llu, time scale "
               "%g)\n",
               o->w, o->h, o->p2s ? "P2S" : "LC3", o->stat ? " (static reconfiguration)" : "",
               o->models == LS_BOTH  ? "rtl+csim lockstep"
               : o->models == LS_RTL ? "rtl"
                                     : "csim",
               o->nflows, faults_applied(o), (double)o->run / 1e5, (unsigned long long)o->seed,
               o->time_scale);
        for (unsigned k = 0; k < o->nfaults; k++)
            printf("  fault at %.3f ms: %s%s\n", (double)o->faults[k].at / 1e5, o->faults[k].what,
                   o->faults[k].left_out ? " (the scenario's, after --run: left out)" : "");
        fflush(stdout);
    }
    struct timespec ts0;
    clock_gettime(CLOCK_MONOTONIC, &ts0);
    int rc = 0;
    uint64_t end = t->base + o->run, step = o->run / 20 ? o->run / 20 : 1;
    int quiet = !isatty(2) || o->log;
    for (uint64_t now = t->base; now < end && rc == 0;) {
        now = now + step < end ? now + step : end;
        if (sci_sys_run(t->s, now, t->err, sizeof t->err) < 0)
            rc = 1;
        if (!quiet) {
            fprintf(stderr, "\rrunning: %3.0f%%", 100.0 * (double)(now - t->base) / (double)o->run);
            fflush(stderr);
        }
    }
    t->run_cycles = sci_sys_now(t->s) - t->base;
    t->run_s = since(&ts0);
    if (!quiet)
        fprintf(stderr, "\r%20s\r", "");
    sci_sys_close_gaps(t->s);
    if (torus_snapshot(o, t) < 0)
        return 1;
    if (rc == 0) {
        sci_sys_note(t->s, "end of the run: the flows stop, what they have outstanding drains");
        uint64_t t0 = sci_sys_now(t->s), before = 0, after = 0;
        for (unsigned k = 0; k < t->nsnap; k++)
            before += t->snap[k].delivered;
        sci_sys_stop_flows(t->s);
        uint64_t drain = sci_sys_ms(&t->cfg.par, 3000.0) + 2000000u;
        t->settled = sci_sys_settle(t->s, sci_sys_now(t->s) + drain, t->err, sizeof t->err);
        if (t->settled < 0)
            rc = 1;
        t->drain_cycles = sci_sys_now(t->s) - t0;
        for (unsigned k = 0; k < t->nsnap; k++) {
            sci_flow_stats_t st;
            sci_sys_flow_stats(t->s, k, &st);
            after += st.delivered;
        }
        t->drained = after - before;
    }
    return rc;
}

/* --series: every flow's deliveries and MB/s per bin, as CSV. 0, or 2. */
static int torus_series(const ropts_t *o, const trun_t *t)
{
    unsigned nf = sci_sys_nflows(t->s);
    FILE *cf = fopen(o->series, "w");
    if (!cf) {
        fprintf(stderr, "ftsim torus: --series %s: cannot write\n", o->series);
        return 2;
    }
    fprintf(cf, "time_ms");
    for (unsigned k = 0; k < nf; k++) {
        sci_flow_stats_t st;
        sci_sys_flow_stats(t->s, k, &st);
        fprintf(cf, ",%s_msgs,%s_mbs", st.name, st.name);
    }
    fputc('\n', cf);
    unsigned b0 = (unsigned)(t->base / o->bin), b1 = (unsigned)((t->base + o->run) / o->bin);
    for (unsigned b = b0; b < b1; b++) {
        fprintf(cf, "%.4f", ((double)b * (double)o->bin - (double)t->base) / 1e5);
        for (unsigned k = 0; k < nf; k++) {
            uint32_t m = sci_sys_flow_bin(t->s, k, b);
            unsigned by = o->flows[k].bytes ? o->flows[k].bytes : o->bytes;
            fprintf(cf, ",%u,%.4f", m, (double)m * by / ((double)o->bin / 1e8) / 1e6);
        }
        fputc('\n', cf);
    }
    fclose(cf);
    if (!o->json)
        printf("per-flow time series (%.3f ms bins): %s\n", (double)o->bin / 1e5, o->series);
    return 0;
}

typedef struct ttotal {
    uint64_t delivered, bytes, outstanding;
    double lat;
} ttotal_t;

/* A JSON string (a flow's name, a fault, a message: any bytes but NUL). */
static void jstr(const char *v)
{
    putchar('"');
    for (const unsigned char *c = (const unsigned char *)v; *c; c++) {
        if (*c == '"' || *c == '\\')
            printf("\\%c", *c);
        else if (*c < 0x20)
            printf("\\u%04x", *c);
        else
            putchar(*c);
    }
    putchar('"');
}

static const char *model_name(unsigned models)
{
    return models == LS_BOTH ? "rtl+csim lockstep" : models == LS_RTL ? "rtl" : "csim";
}

/* Per flow, as at the end of the run: offered, sent, delivered, held, retransmissions,
 * FAIL_REPORTs, the longest gap seen from the source, latency, MB/s (a table, or the flows of
 * the JSON object). */
static void torus_flows(const ropts_t *o, const trun_t *t, ttotal_t *tot)
{
    unsigned nf = t->nsnap;
    if (!o->json)
        printf("%-22s %8s %8s %9s %6s %8s %6s %9s %8s %8s\n", "flow", "offered", "sent",
               "delivered", "held", "retrans", "fails", "gap ms", "lat us", "MB/s");
    else {
        printf("{\"torus\": \"%ux%u\", \"p2s\": %d, \"static\": %d, \"model\": ", o->w, o->h,
               o->p2s, o->stat);
        jstr(model_name(o->models));
        printf(", \"seed\": %llu, \"time_scale\": %g, \"run_ms\": %.3f, \"faults\": [",
               (unsigned long long)o->seed, o->time_scale, (double)o->run / 1e5);
        for (int out = 0; out < 2; out++) {
            if (out)
                printf("], \"faults_left_out\": [");
            for (unsigned k = 0, n = 0; k < o->nfaults; k++) {
                if (o->faults[k].left_out != out)
                    continue;
                printf("%s{\"at_ms\": %.3f, \"what\": ", n++ ? ", " : "",
                       (double)o->faults[k].at / 1e5);
                jstr(o->faults[k].what);
                putchar('}');
            }
        }
        printf("], \"flows\": [");
    }
    for (unsigned k = 0; k < nf; k++) {
        const sci_flow_stats_t *st = &t->snap[k];
        tot->delivered += st->delivered;
        tot->bytes += st->bytes;
        tot->lat += st->lat_sum;
        double mbs = t->run_cycles ? (double)st->bytes / ((double)t->run_cycles / 1e8) / 1e6 : 0;
        double lus = st->delivered ? st->lat_sum / (double)st->delivered / 100.0 : 0;
        double gap = (double)st->wait_max / 1e5;
        if (o->json) {
            printf("%s{\"name\": ", k ? ", " : "");
            jstr(st->name);
            printf(", \"src\": \"%u,%u\", \"dst\": \"%u,%u\", \"offered\": %llu, \"sent\": %llu, "
                   "\"delivered\": %llu, \"held\": %llu, \"acked\": %llu, \"retransmitted\": %llu, "
                   "\"fail_reports\": %llu, \"max_gap_ms\": %.4f, \"max_gap_end_ms\": %.4f, "
                   "\"latency_us\": %.3f, \"mbs\": %.3f}",
                   st->src % o->w, st->src / o->w, st->dst % o->w, st->dst / o->w,
                   (unsigned long long)st->offered, (unsigned long long)st->first_sent,
                   (unsigned long long)st->delivered, (unsigned long long)st->held,
                   (unsigned long long)st->acked, (unsigned long long)st->retx,
                   (unsigned long long)st->fail_reports, gap,
                   st->wait_max ? (double)(st->wait_max_at - t->base) / 1e5 : 0.0, lus, mbs);
        } else if (nf <= 64 || k < 16)
            printf("%-22s %8llu %8llu %9llu %6llu %8llu %6llu %9.3f %8.2f %8.3f\n", st->name,
                   (unsigned long long)st->offered, (unsigned long long)st->first_sent,
                   (unsigned long long)st->delivered, (unsigned long long)st->held,
                   (unsigned long long)st->retx, (unsigned long long)st->fail_reports, gap, lus,
                   mbs);
        else if (k == 16)
            printf("  ... %u more flows (--json lists them all)\n", nf - 16);
    }
}

/* The warning that the run ended before the drivers were done: into buf ("" when they were). */
static void busy_warning(const ropts_t *o, const trun_t *t, char *buf, size_t len)
{
    *buf = 0;
    if (!t->busy)
        return;
    snprintf(buf, len,
             "the run ended at %.3f ms with %u %s still reconfiguring (%s): the figures are from "
             "before the recovery; a longer --run shows it",
             (double)o->run / 1e5, t->busy,
             o->stat        ? "front end"
             : t->busy == 1 ? "driver"
                            : "drivers",
             t->busy_at);
}

/* The report: flows, series, totals with the drivers' passes, the warning, the drain, the
 * speed, the verdict. Returns the exit status. */
static int torus_report(const ropts_t *o, const trun_t *t, int rc)
{
    ttotal_t tot = {0};
    torus_flows(o, t, &tot);
    int series_rc = o->series ? torus_series(o, t) : 0;
    unsigned passes = 0, extra = 0, restores = 0;
    for (unsigned i = 0; i < o->w * o->h; i++) {
        sci_drv_stats_t d;
        sci_sys_driver_stats(t->s, i, &d);
        passes += d.rtg_passes, extra += d.extra_passes, restores += d.watchdog_restores;
    }
    uint64_t gen = 0, dl = 0;
    for (unsigned k = 0; k < t->nsnap; k++) { /* what the drain left: the verdict's */
        sci_flow_stats_t st;
        sci_sys_flow_stats(t->s, k, &st);
        tot.outstanding += st.outstanding;
        gen += st.generated, dl += st.delivered;
    }
    sci_ft_stats_t ft;
    sci_sys_ft_stats(t->s, &ft);
    /* with detection and recovery: every message generated delivered once (the no-host-state
     * ablation loses and duplicates some: counted here) */
    uint64_t lost = o->ft && t->settled == 1 && gen + ft.dup_delivered > dl
                        ? gen + ft.dup_delivered - dl
                        : 0;
    double cps = t->run_s > 0 ? (double)t->run_cycles / t->run_s : 0;
    char thr[24] = "", warn[400], why[700] = "";
    if (o->threads > 1)
        snprintf(thr, sizeof thr, ", %u threads", o->threads);
    double mbs = t->run_cycles ? (double)tot.bytes / ((double)t->run_cycles / 1e8) / 1e6 : 0;
    double lat = tot.delivered ? tot.lat / (double)tot.delivered / 100.0 : 0;
    double stop_ms = (double)o->run / 1e5, drain_ms = (double)t->drain_cycles / 1e5;
    busy_warning(o, t, warn, sizeof warn);
    if (rc)
        snprintf(why, sizeof why, "%s", t->err);
    else if (t->settled != 1) {
        snprintf(why, sizeof why,
                 "%llu messages of live pairs still unacknowledged %.3f ms after the flows stopped",
                 (unsigned long long)tot.outstanding, drain_ms);
        rc = 1;
    } else if (o->ft && (lost || ft.dup_delivered)) {
        snprintf(why, sizeof why,
                 "%llu messages lost and %llu delivered twice across the recovery (the hosts "
                 "kept no protocol state)",
                 (unsigned long long)lost, (unsigned long long)ft.dup_delivered);
        rc = 1;
    } else if (series_rc) {
        snprintf(why, sizeof why, "--series %s: cannot write", o->series);
        rc = series_rc;
    }
    if (o->json) {
        printf("], \"delivered\": %llu, \"mbs\": %.3f, \"latency_us\": %.3f, "
               "\"readytogo_passes\": %u, \"extra_passes\": %u, \"watchdog_restores\": %u, "
               "\"busy_at_end\": %u, \"warnings\": [",
               (unsigned long long)tot.delivered, mbs, lat, passes, extra, restores, t->busy);
        if (*warn)
            jstr(warn);
        if (o->ft) {
            static const char *const dn[5] = {"", "watchdog", "selftest", "protocol", "scrub"};
            printf("], \"ft\": {");  /* the warnings' array closed here */
            for (unsigned k = 1; k < 5; k++)
                printf("\"%s_first_ms\": %.4f, \"%s_count\": %llu, ", dn[k],
                       ft.first[k] ? (double)(ft.first[k] - t->base) / 1e5 : -1.0, dn[k],
                       (unsigned long long)ft.count[k]);
            /* the first recovery's phases (seed 002's Figure 10), ms from the run's start */
            const uint64_t ph[5] = {ft.ph_req, ft.ph_disabled, ft.ph_reset, ft.ph_reloaded,
                                    ft.ph_released};
            static const char *const pn[5] = {"requested", "disabled", "reset", "reloaded",
                                              "released"};
            printf("\"phases_ms\": {");
            for (unsigned k = 0; k < 5; k++)
                printf("%s\"%s\": %.4f", k ? ", " : "", pn[k],
                       ph[k] ? (double)(ph[k] - t->base) / 1e5 : -1.0);
            printf("}, \"selftest_symbols\": %llu, ", (unsigned long long)ft.st_symbols);
            printf("\"recoveries\": %llu, \"recovery_ms\": %.4f, \"misrouted\": %llu, "
                   "\"corrupted\": %llu, \"crc_at_host\": %llu, \"selftest_reads\": %llu, "
                   "\"selftest_failed\": %llu, \"lost\": %llu, \"delivered_twice\": %llu, "
                   "\"unacknowledged\": %llu}",
                   (unsigned long long)ft.recoveries,
                   ft.rec_end > ft.rec_start ? (double)(ft.rec_end - ft.rec_start) / 1e5 : 0.0,
                   (unsigned long long)ft.misrouted, (unsigned long long)ft.corrupted,
                   (unsigned long long)ft.crc_host, (unsigned long long)ft.st_tests,
                   (unsigned long long)ft.st_fails, (unsigned long long)lost,
                   (unsigned long long)ft.dup_delivered, (unsigned long long)tot.outstanding);
        }
        printf("%s\"drain_ms\": %.3f, \"drain_delivered\": %llu, \"cycles\": %llu, "
               "\"cycles_per_s\": %.0f, \"build_s\": %.2f, \"pass\": %s",
               o->ft ? ", " : "], ", drain_ms, (unsigned long long)t->drained, (unsigned long long)t->run_cycles, cps,
               t->build_s, rc == 0 ? "true" : "false");
        if (*why) {
            printf(", \"error\": ");
            jstr(why);
        }
        printf("}\n");
        if (*warn)
            fprintf(stderr, "ftsim torus: warning: %s\n", warn);
        if (*why)
            fprintf(stderr, "FAIL torus: %s\n", why);
        return rc;
    }
    printf("total: %llu messages delivered, %.1f MB/s, mean latency %.2f us; driver passes %u "
           "(extra %u, watchdog restores %u)\n",
           (unsigned long long)tot.delivered, mbs, lat, passes, extra, restores);
    if (*warn)
        printf("warning: %s\n", warn);
    if (o->ft) {
        static const char *const dn[5] = {"", "watchdog", "self-test", "protocol", "scrub"};
        printf("detection:");
        for (unsigned k = 1; k < 5; k++)
            if (ft.first[k])
                printf(" %s first at %.4f ms (%llu);", dn[k], (double)(ft.first[k] - t->base) / 1e5,
                       (unsigned long long)ft.count[k]);
        printf(" self-test %llu reads, %llu failed\n", (unsigned long long)ft.st_tests,
               (unsigned long long)ft.st_fails);
        printf("recovery: %llu nodes recovered", (unsigned long long)ft.recoveries);
        if (ft.recoveries)
            printf(", from the first request to the last release %.4f ms",
                   (double)(ft.rec_end - ft.rec_start) / 1e5);
        printf("; packets an upset sent astray %llu, corrupted %llu, bad CRC at a host %llu; "
               "messages lost %llu, delivered twice %llu\n",
               (unsigned long long)ft.misrouted, (unsigned long long)ft.corrupted,
               (unsigned long long)ft.crc_host, (unsigned long long)lost,
               (unsigned long long)ft.dup_delivered);
    }
    if (o->ftdrb) {
        sci_ftdrb_stats_t fd;
        sci_sys_ftdrb_stats(t->s, &fd);
        printf("FT-DRB: %llu notifications sent (%llu received), %llu messages sent through "
               "intermediates, %llu relayed, %llu relay drops, %llu trials, %llu selections "
               "with no usable path; fault tables: %llu entries (%llu permanent)\n",
               (unsigned long long)fd.notes_sent, (unsigned long long)fd.notes_got,
               (unsigned long long)fd.msp_sent, (unsigned long long)fd.relayed,
               (unsigned long long)fd.relay_drops, (unsigned long long)fd.trials,
               (unsigned long long)fd.no_path, (unsigned long long)fd.entries,
               (unsigned long long)fd.permanent);
    }
    if (t->settled == 1)
        printf("drain: the flows stopped at %.3f ms; %llu more messages delivered, and at %.3f ms "
               "the drivers were idle and every message of a live pair acknowledged\n",
               stop_ms, (unsigned long long)t->drained, stop_ms + drain_ms);
    printf("speed: %llu cycles in %.2f s = %.0f simulated cycles/s (%s%s; building the torus took "
           "%.2f s; wall %lld s)\n",
           (unsigned long long)t->run_cycles, t->run_s, cps,
           o->models == LS_BOTH  ? "lockstep"
           : o->models == LS_RTL ? "rtl"
                                 : "csim",
           thr, t->build_s, (long long)(time(NULL) - t->t0));
    if (*why)
        printf("FAIL torus: %s\n", why);
    else
        printf("PASS torus: every message of a live pair delivered once, in order, and "
               "acknowledged\n");
    return rc;
}

int cmd_torus(int argc, char **argv)
{
    ropts_t o;
    memset(&o, 0, sizeof o);
    o.models = LS_CSIM;
    o.rate_us = 20;
    o.bytes = 64;
    o.seed = 1;
    sci_sys_params_default(&o.par);
    int rc = torus_args(&o, argc, argv);
    if (rc < 0)
        rc = cmd_wave_window("torus", o.wave, o.wave_from, o.wave_to);
    if (rc >= 0)
        return rc;
    prng_t rng;
    trun_t t;
    memset(&t, 0, sizeof t);
    rc = torus_plan(&o, &rng);
    if (rc == 0)
        rc = torus_open(&o, &rng, &t);
    if (rc == 0)
        rc = torus_report(&o, &t, torus_run(&o, &t));
    if (t.s)
        sci_sys_free(t.s);
    free(t.snap);
    free(o.flows);
    free(o.scn_text);
    return rc;
}
