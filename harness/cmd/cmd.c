/* cmd.c — what the commands share: printing a parse's outcome, the --model handler. */
#include "cmd.h"

#include <stdio.h>

#include "lockstep.h"
#include "sci_route.h"

int cmd_parse(const opts_cmd_t *c, const char *usage, int argc, char **argv, unsigned *npos)
{
    opts_res_t r;
    int rc = opts_parse(c, argc, argv, &r);
    if (npos)
        *npos = r.npos;
    if (rc == OPTS_OK)
        return -1;
    if (rc == OPTS_HELP) {
        fputs(usage, stdout);
        return 0;
    }
    fputs(r.msg, stderr);
    if (c->style == OPTS_VALUE && (rc == OPTS_UNKNOWN || rc == OPTS_MISSING))
        fputs(usage, stderr);
    return 2;
}

int cmd_bad(const char *cmd, const char *msg, const char *arg)
{
    fprintf(stderr, "ftsim %s: %s%s%s\n(ftsim %s --help)\n", cmd, msg, arg ? ": " : "",
            arg ? arg : "", cmd);
    return 2;
}

int cmd_wave_window(const char *cmd, const char *wave, uint64_t from, uint64_t to)
{
    if ((from || to) && !wave)
        return cmd_bad(cmd, "--wave-from and --wave-to choose what --wave dumps: give --wave",
                       NULL);
    if (to && to < from)
        return cmd_bad(cmd, "--wave-to is before --wave-from", NULL);
    return -1;
}

int cmd_models(void *dst, const char *val, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    return ls_parse_models(val, dst);
}

int cmd_size(void *dst, const char *val, char *err, size_t errlen)
{
    (void)err, (void)errlen;
    const cmd_size_t *s = dst;
    return sci_route_parse_size(val, s->w, s->h);
}
