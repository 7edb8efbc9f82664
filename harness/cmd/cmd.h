/* cmd.h — ftsim's commands, one file each in harness/cmd/, and what they share. */
#ifndef FTSIM_CMD_H
#define FTSIM_CMD_H

#include <stddef.h>
#include <stdint.h>

#include "campaign.h"
#include "opts.h"

/* Each takes the words after its name and returns the exit status: 0 pass, 1 mismatch or a
 * failed check, 2 bad input or bad arguments. */
int cmd_play(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_fuzz(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_stim(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_net(int argc, char **argv);
int cmd_route(int argc, char **argv);
int cmd_torus(int argc, char **argv);
int cmd_faultcheck(int argc, char **argv);
int cmd_experiment(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_export_tb(int argc, char **argv);
int cmd_vec_json(int argc, char **argv);
int cmd_upsetcheck(int argc, char **argv);
int cmd_upset(int argc, char **argv);

/* The commands that run campaigns (harness/core/campaign.h), with the campaign of merged
 * shards to report (ftsim merge), or NULL: their own, from --jobs and --shard. */
int cmd_faultcheck_with(int argc, char **argv, campaign_t *merged);
int cmd_experiment_with(int argc, char **argv, campaign_t *merged);
int cmd_upset_with(int argc, char **argv, campaign_t *merged);
/* The campaign a command runs: `merged` if given, else a new one of --jobs and --shard (co)
 * for `cmd` and its words argv (NULL: said why on stderr). */
campaign_t *cmd_campaign(campaign_t *merged, const campaign_opts_t *co, const char *cmd, int argc,
                         char **argv);
/* This ftsim's revision: the build's `git describe`, or "unknown". */
const char *cmd_revision(void);

/* opts_parse with the outcome printed: -1 to go on; otherwise the exit status, the usage on
 * stdout for --help (0) or the refusal on stderr (2; in the OPTS_VALUE style an unknown option
 * or a missing value is followed by the usage). *npos (if given): the positional words. */
int cmd_parse(const opts_cmd_t *c, const char *usage, int argc, char **argv, unsigned *npos);
/* cmd_parse for a command whose positional words are files (play, vec-json, merge): the options
 * opts, the files into *files (allocated: the caller frees it when this returns -1) and their
 * count into *nfiles; none given is refused as "ftsim NAME: NONE". Returns -1 to go on, or the
 * exit status (nothing left to free). */
int cmd_parse_files(const char *name, const char *usage, const opts_opt_t *opts, const char *none,
                    int argc, char **argv, const char ***files, unsigned *nfiles);
/* "ftsim CMD: MSG[: ARG]" and the --help hint, on stderr, as the OPTS_HINT style says it;
 * returns 2. */
int cmd_bad(const char *cmd, const char *msg, const char *arg);
/* An OPTS_FN handler for --model rtl|csim|both: the LS_* mask into *(unsigned *)dst. */
int cmd_models(void *dst, const char *val, char *err, size_t errlen);
/* The same with the gate-level netlist too (gate.h): --model gate (alone) or gate-both (in
 * lockstep with the C model), for the commands that play vectors. */
int cmd_models_gate(void *dst, const char *val, char *err, size_t errlen);
/* An OPTS_FN handler for a torus size WxH (sci_route_parse_size) into a cmd_size_t. */
typedef struct cmd_size {
    unsigned *w, *h;
} cmd_size_t;
int cmd_size(void *dst, const char *val, char *err, size_t errlen);

/* --wave-from F --wave-to T (a window of the --wave waveform; T 0: not given), checked the
 * same way by every command that traces: -1 to go on, else 2 (said why). */
int cmd_wave_window(const char *cmd, const char *wave, uint64_t from, uint64_t to);

/* bench.c: replay a captured rn1 fuzz stimulus (16 input words a cycle) on a set of models,
 * an FST written if wave is given; simulated cycles per second. *sig, if given, gets the
 * output signature tests/icarus/tb_rn1_replay.sv computes, of the last model. */
double bench_replay(const uint16_t *cap, uint64_t cycles, unsigned models, const char *wave,
                    uint64_t *sig);
/* The same on the devices of design d (RN1's ports: the SystemC harness's RN1). */
struct dev_design;
double bench_replay_on(const struct dev_design *d, const uint16_t *cap, uint64_t cycles,
                       unsigned models, const char *wave, uint64_t *sig);

#endif
