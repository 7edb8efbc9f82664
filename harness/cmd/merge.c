/* merge.c — `ftsim merge`: the shards of a campaign (harness/core/campaign.h) into the report
 * the campaign gives when run whole, by the command that ran it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

static const char usage[] =
    "usage: ftsim merge SHARD-FILE... [-o OUT]\n"
    "\n"
    "The shard files of one campaign (ftsim faultcheck or ftsim experiment, each shard run\n"
    "with --shard K/N and its stdout kept in a file) into the report of the campaign: checked\n"
    "to be all N shards of one campaign (the same ftsim revision, which must be this one; the\n"
    "same command line but for --shard and --jobs; every run once), the report is made from\n"
    "their records in run order, byte for byte the output of the command run whole (and its\n"
    "CSV and JSON files, where its options put them). -o OUT: the report into OUT instead of\n"
    "stdout. Exit status: the command's (0, or 1 for a failed check); 2 when the files are\n"
    "not the shards of one campaign, each refusal as FILE:LINE: what is wrong; a shard that\n"
    "failed (its file empty, cut short or broken: its job was killed or failed) or is missing\n"
    "is named with its K and the command that runs it again, every such shard, one a line.\n";

/* The commands whose campaigns a merge reports. */
static const struct {
    const char *name;
    int (*with)(int argc, char **argv, campaign_t *merged);
} merge_cmds[] = {
    {"faultcheck", cmd_faultcheck_with},
    {"experiment", cmd_experiment_with},
    {"upset", cmd_upset_with},
};

int cmd_merge(int argc, char **argv)
{
    const char *out = NULL;
    const opts_opt_t opts[] = {
        {NULL, 'o', OPTS_STR, &out, .msg = "-o takes a file name"},
        {0},
    };
    const char **files;
    unsigned nfiles;
    int rc = cmd_parse_files("merge", usage, opts, "no shard files", argc, argv, &files, &nfiles);
    if (rc >= 0)
        return rc;
    char err[16384]; /* a line for each shard that failed */
    campaign_t *m = campaign_merge(files, nfiles, cmd_revision(), err, sizeof err);
    free(files);
    if (!m) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    rc = -1;
    for (unsigned k = 0; k < sizeof merge_cmds / sizeof merge_cmds[0]; k++)
        if (!strcmp(campaign_command(m), merge_cmds[k].name)) {
            if (out && !freopen(out, "w", stdout)) {
                fprintf(stderr, "ftsim merge: -o %s: cannot write\n", out);
                rc = 2;
                break;
            }
            int n;
            char **args = campaign_args(m, &n);
            rc = merge_cmds[k].with(n, args, m);
            break;
        }
    if (rc < 0) {
        fprintf(stderr, "ftsim merge: command '%s' runs no campaign\n", campaign_command(m));
        rc = 2;
    }
    campaign_free(m);
    return rc;
}
