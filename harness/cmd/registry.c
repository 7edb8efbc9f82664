/* registry.c — the designs `device NAME` can name: each family's lookup, in one table. */
#include "dev.h"

#include "rnpnet.h"
#include "sci_dev.h"
#include "sci_ring.h"
#include "sci_torus.h"

#include <string.h>
#include <strings.h>

extern const dev_design_t rn1_design, lc3_design, p2s_design;

static const dev_design_t *designs[8];

const dev_design_t *const *dev_designs(void)
{
    if (!designs[0]) {
        unsigned k = 0;
        designs[k++] = &rn1_design;
        designs[k++] = &lc3_design;
        designs[k++] = &p2s_design;
        for (unsigned nlc = 1; nlc <= 2; nlc++)
            for (int p2s = 0; p2s <= 1; p2s++)
                designs[k++] = sci_node_design(p2s, nlc);
    }
    return designs;
}

const dev_design_t *dev_find_design(const char *name)
{
    const dev_design_t *const *ds = dev_designs();
    for (unsigned i = 0; ds[i]; i++)
        if (strcasecmp(ds[i]->name, name) == 0)
            return ds[i];
    const dev_design_t *d = sci_ring_find_design(name);
    if (!d)
        d = sci_torus_find_design(name);
    return d ? d : rnpnet_find_design(name);
}

