/* seu_run.c — the outcomes of an upset campaign's run and the one rule that classifies them
 * (seu_run.h). */
#include "seu_run.h"

#include <string.h>

static const char *const outcome_names[SEU_NOUTCOMES] = {
    "masked", "latent",    "reconverged", "hung",      "selftest",
    "protocol", "scrub", "misrouted",   "corrupted", "latency"};
static const char *const detector_names[SEU_NDETECTORS] = {"none", "watchdog", "selftest",
                                                           "protocol", "scrub"};

const char *seu_outcome_name(seu_outcome_t o)
{
    return (unsigned)o < SEU_NOUTCOMES ? outcome_names[o] : "?";
}

const char *seu_detector_name(seu_detector_t d)
{
    return (unsigned)d < SEU_NDETECTORS ? detector_names[d] : "?";
}

int seu_outcome_of(const char *name)
{
    for (int i = 0; i < SEU_NOUTCOMES; i++)
        if (!strcmp(name, outcome_names[i]))
            return i;
    return -1;
}

seu_outcome_t seu_classify(const seu_result_t *r)
{
    switch (r->first) {
    case SEU_DET_WATCHDOG: return SEU_HUNG;
    case SEU_DET_SELFTEST: return SEU_SELFTEST;
    case SEU_DET_PROTOCOL: return SEU_PROTOCOL;
    case SEU_DET_SCRUB: return SEU_SCRUB;
    default: break;
    }
    if (r->corrupted)
        return SEU_CORRUPTED;
    if (r->misrouted || r->lost)
        return SEU_MISROUTED;
    if (r->late)
        return SEU_LATENCY;
    if (!r->out_differed)
        return r->state_differs ? SEU_LATENT : SEU_MASKED;
    return r->state_differs ? SEU_LATENT : SEU_RECONVERGED;
}
