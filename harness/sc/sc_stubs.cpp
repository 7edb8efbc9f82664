// sc_stubs.cpp — the commands still to come, refused with a message.
#include <cstdio>

#include "sc_main.h"

static int later(const char *cmd)
{
    fprintf(stderr, "ftsim-sc: %s: not in this build yet\n", cmd);
    return 2;
}
int cmd_sc_platform(int, char **) { return later("platform"); }
