/* registry.c — the designs `device NAME` can name: each family's fixed designs and lookups, in
 * one catalog that the commands hand to the core (which knows no design by name). */
#include "registry.h"

#include "rn1_dev.h"
#include "rnpnet.h"
#include "sci_dev.h"
#include "sci_ring.h"
#include "sci_torus.h"

static const dev_design_t *const fixed[] = {
    &rn1_design,     &lc3_design,      &p2s_design,      &lc3node_design,
    &p2snode_design, &lc3node2_design, &p2snode2_design, NULL,
};

static const dev_lookup_t lookups[] = {sci_ring_find_design, sci_torus_find_design,
                                       rnpnet_find_design, NULL};

const dev_catalog_t registry_catalog = {
    .designs = fixed,
    .lookups = lookups,
    .families = "SCI rings ringN and p2sringN, N 2 to 16; SCI tori torusWxH (W, H 2 to 16) and "
                "p2storusWxH (2 to 32); RNP networks rnpnetN[xE][wS]: N 16, 64, 256 or 1024 "
                "endpoints, E 0..4 extra stages, wiring seed S",
};
