/* upset_run.c — the outcomes of an upset campaign's run and the one rule that classifies them
 * (upset_run.h). */
#include "upset_run.h"

#include <string.h>

static const char *const outcome_names[UPSET_NOUTCOMES] = {
    "masked", "latent",    "reconverged", "hung",      "selftest",
    "protocol", "scrub", "misrouted",   "corrupted", "latency"};
static const char *const detector_names[UPSET_NDETECTORS] = {"none", "watchdog", "selftest",
                                                           "protocol", "scrub"};

const char *upset_outcome_name(upset_outcome_t o)
{
    return (unsigned)o < UPSET_NOUTCOMES ? outcome_names[o] : "?";
}

const char *upset_detector_name(upset_detector_t d)
{
    return (unsigned)d < UPSET_NDETECTORS ? detector_names[d] : "?";
}

int upset_outcome_of(const char *name)
{
    for (int i = 0; i < UPSET_NOUTCOMES; i++)
        if (!strcmp(name, outcome_names[i]))
            return i;
    return -1;
}

upset_outcome_t upset_classify(const upset_result_t *r)
{
    switch (r->first) {
    case UPSET_DET_WATCHDOG: return UPSET_HUNG;
    case UPSET_DET_SELFTEST: return UPSET_SELFTEST;
    case UPSET_DET_PROTOCOL: return UPSET_PROTOCOL;
    case UPSET_DET_SCRUB: return UPSET_SCRUB;
    default: break;
    }
    if (r->corrupted)
        return UPSET_CORRUPTED;
    if (r->misrouted || r->lost)
        return UPSET_MISROUTED;
    if (r->late)
        return UPSET_LATENCY;
    if (!r->out_differed)
        return r->state_differs ? UPSET_LATENT : UPSET_MASKED;
    return r->state_differs ? UPSET_LATENT : UPSET_RECONVERGED;
}
