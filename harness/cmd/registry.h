/* registry.h — the designs `device NAME` can name in ftsim: every family's, in one catalog. */
#ifndef FTSIM_REGISTRY_H
#define FTSIM_REGISTRY_H

#include "dev.h"

/* The fixed designs (listed by `ftsim info`), then the lookups of the parametric families:
 * SCI rings, SCI tori, RNP networks. Constant: a design it looks up belongs to the caller. */
extern const dev_catalog_t registry_catalog;

#endif
