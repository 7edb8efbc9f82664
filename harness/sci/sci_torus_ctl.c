/* sci_torus_ctl.c — the torus's controls as text (`cut x X,Y`, `restore y X,Y`, `off X,Y`,
 * `on X,Y`, `reset X,Y`): their parse, for the device (harness/sci/sci_torus.c, whose header
 * says what each does) and for the checks of a vector or a scenario before it runs. */
#include "sci_torus.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

int sci_torus_parse_ctl(unsigned w, unsigned h, const char *name, const char *text, int *op,
                        unsigned *dim, unsigned *node, char *err, size_t errlen)
{
    char word[16], dimc[4], rest[64];
    const char *usage = "want 'cut x X,Y', 'restore x X,Y', 'cut y X,Y', 'restore y X,Y', "
                        "'off X,Y', 'on X,Y' or 'reset X,Y'";
    if (sscanf(text, "%15s", word) != 1) {
        snprintf(err, errlen, "'%s': %s", text, usage);
        return -1;
    }
    const char *p = strstr(text, word) + strlen(word);
    if (!strcasecmp(word, "cut") || !strcasecmp(word, "restore")) {
        *op = !strcasecmp(word, "cut") ? SCI_CTL_CUT : SCI_CTL_RESTORE;
        int used = 0;
        if (sscanf(p, " %3s%n", dimc, &used) != 1 ||
            (strcasecmp(dimc, "x") && strcasecmp(dimc, "y"))) {
            snprintf(err, errlen, "'%s': %s needs the ring dimension x or y first (%s)", text, word,
                     usage);
            return -1;
        }
        *dim = (dimc[0] | 0x20) == 'y';
        p += used;
    } else if (!strcasecmp(word, "off") || !strcasecmp(word, "on") || !strcasecmp(word, "reset")) {
        *op = !strcasecmp(word, "off") ? SCI_CTL_OFF : !strcasecmp(word, "on") ? SCI_CTL_ON : SCI_CTL_RESET;
        *dim = 0;
    } else {
        snprintf(err, errlen, "unknown control '%s' (%s)", word, usage);
        return -1;
    }
    unsigned x, y;
    int used = 0;
    if (sscanf(p, " %u , %u%n", &x, &y, &used) != 2 || sscanf(p + used, " %63s", rest) == 1) {
        snprintf(err, errlen, "'%s': want the node as X,Y after '%s' (%s)", text, word, usage);
        return -1;
    }
    if (x >= w || y >= h) {
        snprintf(err, errlen, "'%s': node (%u,%u) does not exist (%s has x 0..%u, y 0..%u)", text,
                 x, y, name, w - 1, h - 1);
        return -1;
    }
    *node = sci_torus_index(w, x, y);
    return 0;
}

