/* campaign.h — many independent runs of one command, on several processes or machines.
 *
 * A campaign is R independent runs, known by their index 0..R-1 (a fault of a faultcheck, a
 * run of an experiment). Each run leaves a record: one line of JSON, written with the
 * campaign_w_* calls. The report is made from the records alone, taken in run order, so it
 * does not matter where or in which order the runs ran:
 *   - every run here, on `jobs` worker processes (fork: the Verilated models share one
 *     process-wide context, so a run cannot have a thread of its own); the records are taken
 *     in run order as they arrive, and what a run writes on stdout or stderr is shown in run
 *     order too, so the output is the output of one process;
 *   - a shard (--shard K/N): only the runs with index % N == K-1, their records written on
 *     stdout as a shard file with a header naming the campaign (ftsim's revision, the command,
 *     its arguments and every parameter that affects the results, R, N and K); no report;
 *   - merged (ftsim merge): the records of all N shards, checked to be one campaign, taken
 *     in run order: the report of the campaign, byte for byte.
 * Knows no design. */
#ifndef FTSIM_CAMPAIGN_H
#define FTSIM_CAMPAIGN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* What the command line asks: --jobs J and --shard K/N. */
typedef struct campaign_opts {
    unsigned jobs;             /* worker processes; 0 or 1: the runs in this process */
    unsigned shard_k, shard_n; /* 0: every run, with the report; else that shard's runs */
} campaign_opts_t;

/* An OPTS_FN handler for --shard K/N (1 <= K <= N <= 100000) into a campaign_opts_t. */
int campaign_parse_shard(void *dst, const char *val, char *err, size_t errlen);

/* A record being written: a JSON object (json-c), one member per call. Numbers are written so
 * that reading them back gives the same bits (doubles in their shortest exact text; NaN as
 * null); campaign_w_end gives its text, one line (malloc'ed). */
struct json_object;
typedef struct campaign_w {
    struct json_object *o;
} campaign_w_t;
void campaign_w_begin(campaign_w_t *w);
char *campaign_w_end(campaign_w_t *w);
void campaign_w_u64(campaign_w_t *w, const char *key, uint64_t v);
void campaign_w_dbl(campaign_w_t *w, const char *key, double v);
void campaign_w_str(campaign_w_t *w, const char *key, const char *s);
void campaign_w_u64s(campaign_w_t *w, const char *key, const uint64_t *v, unsigned n);
void campaign_w_dbls(campaign_w_t *w, const char *key, const double *v, unsigned n);

/* A record read back: its members, looked up by key. A member missing or of the wrong kind
 * reads as 0 (or "", or no elements) and leaves its key in `bad`; a taker checks it once. */
typedef struct campaign_rec {
    struct json_object *o; /* the record, parsed */
    const char *bad;       /* the first key missing or misread, or NULL */
} campaign_rec_t;
/* Parses a record (strings read from it last until campaign_rec_free). 0, or -1 with a
 * message. */
int campaign_rec_parse(campaign_rec_t *r, const char *text, char *err, size_t errlen);
int campaign_rec_has(const campaign_rec_t *r, const char *key);
uint64_t campaign_rec_u64(campaign_rec_t *r, const char *key);
double campaign_rec_dbl(campaign_rec_t *r, const char *key);
const char *campaign_rec_str(campaign_rec_t *r, const char *key);
/* An array of numbers: its length, and (if out) up to max elements into out. */
unsigned campaign_rec_u64s(campaign_rec_t *r, const char *key, uint64_t *out, unsigned max);
unsigned campaign_rec_dbls(campaign_rec_t *r, const char *key, double *out, unsigned max);
void campaign_rec_free(campaign_rec_t *r);

/* What a command gives the campaign. */
typedef struct campaign_hooks {
    /* Run i and write its record (a failed run is a record saying so). -1 with a message
     * when the campaign cannot go on (out of memory). Runs in a worker process when jobs > 1:
     * it must change nothing the taker reads, and start any threads it needs itself (a
     * forked worker has only the thread that forked it). */
    int (*run)(void *ctx, unsigned i, campaign_w_t *rec, char *err, size_t errlen);
    /* Take record i, in run order, into the report: 0 on, 1 the report ends here (later
     * runs are not needed: a failed run that stops the command), -1 with a message. */
    int (*take)(void *ctx, unsigned i, const char *rec, char *err, size_t errlen);
    /* When the runs are in worker processes: run `done` of `total` of this process's share
     * has its record (the command's own progress display, if any; may be NULL). */
    void (*progress)(void *ctx, unsigned done, unsigned total);
} campaign_hooks_t;

typedef struct campaign campaign_t;

/* A campaign of `command` (argv: its words after the command's name, --jobs and --shard
 * among them or not) run by this ftsim, of revision `revision`. NULL with a message when o
 * asks for what cannot be (a shard file cannot be written). */
campaign_t *campaign_new(const campaign_opts_t *o, const char *revision, const char *command,
                         int argc, char *const *argv, char *err, size_t errlen);
/* The campaign of shard files paths[0..n-1], checked to be all the shards of one campaign of
 * this revision; every refusal is "FILE:LINE: message" (or "FILE: message"). */
campaign_t *campaign_merge(const char *const *paths, unsigned n, const char *revision, char *err,
                           size_t errlen);
void campaign_free(campaign_t *c);

/* A merged campaign's command, and its arguments (without --jobs and --shard). */
const char *campaign_command(const campaign_t *c);
char **campaign_args(const campaign_t *c, int *argc);

/* A parameter that affects the results, under its name (in the order given; before
 * campaign_exec). A shard's header lists them; a merge checks its shards' are these. */
void campaign_param(campaign_t *c, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Is there a report to print (every run here, or merged shards)? Not in a shard. */
int campaign_reporting(const campaign_t *c);
/* Do the runs happen in worker processes (their progress is the campaign's hook's, then)? */
int campaign_parallel(const campaign_t *c);
/* Did the runs happen elsewhere (merged shards: nothing runs here)? */
int campaign_merged(const campaign_t *c);
/* How many runs were done here (by this process or its workers) so far. */
unsigned campaign_ran(const campaign_t *c);
/* Wall seconds the runs took: since campaign_exec began, or the sum of the merged shards'. */
long long campaign_seconds(const campaign_t *c);

/* Runs (or, merged, takes) the campaign's `runs` runs: 0 every record taken (or, in a shard,
 * written), 1 the taker ended the report early, -1 with a message. */
int campaign_exec(campaign_t *c, unsigned runs, const campaign_hooks_t *h, void *ctx, char *err,
                  size_t errlen);

#endif
