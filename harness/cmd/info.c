/* info.c — `ftsim info`: the devices, or one device's ports, registers and config keys. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "cmd.h"
#include "registry.h"
#include "dev.h"
#include "gate.h"

static const char usage_info[] =
    "usage: ftsim info [DEVICE] [--upsets]\n\nLists the devices, or one device's ports, registers "
    "and config keys,\nand the gate-level netlist `play --model gate` would use, with its SHA-256.\n--upsets lists the device's upset map instead: every state element a "
    "vector can flip\n(`@N seu NAME bitB`, `@N seu NAME[I] bitB`) with its width, index range, "
    "the RTL state\nand the C model's field it is, what a value no state uses does, and its site "
    "(where\nan exported testbench or the cocotb replay flips it). A composite's elements are "
    "its\nparts', behind the part's prefix.\n";

/* The upset map of d (a composite: its parts', with the prefixes). */
static void list_upsets(const dev_design_t *d)
{
    const dev_design_t *m = d->part_design ? d->part_design : d;
    if (d->part_design) {
        char first[64], last[64];
        d->part_prefix(d, 0, first, sizeof first);
        d->part_prefix(d, d->nparts - 1, last, sizeof last);
        printf("%s: the upsets of its %u parts, each part a %s: NAME behind the part's prefix, "
               "%s to %s (e.g. %s%s bit0)\n\n",
               d->name, d->nparts, m->name, first, last, first,
               m->nupsets ? m->upsets[0].name : "");
    }
    if (!m->nupsets) {
        printf("%s: no upset map\n", m->name);
        return;
    }
    printf("%s: upset map (%u elements): name, bits, index range, RTL state, C-model field; its "
           "site: where a testbench or cocotb flips it, VAR[BIT] or VAR[WORD][BIT] under the "
           "module (I the index, B the bit)\n",
           m->name, m->nupsets);
    int w = 14; /* the name column: as wide as the longest name */
    for (unsigned i = 0; i < m->nupsets; i++)
        if ((int)strlen(m->upsets[i].name) > w)
            w = (int)strlen(m->upsets[i].name);
    for (unsigned i = 0; i < m->nupsets; i++) {
        const dev_upset_t *u = &m->upsets[i];
        char idx[32] = "";
        if (u->count)
            snprintf(idx, sizeof idx, "[0..0x%X]", u->count - 1);
        printf("  %-*s %2u %-13s %-36s %s\n", w, u->name, u->width, idx, u->rtl,
               u->flags & DEV_UPSET_RTL_ONLY ? "(RTL only)" : u->csim);
        if (u->via_index)
            printf("  %-*s    read through %s (index) and %s (data)\n", w, "", u->via_index,
                   u->via_data);
        if (u->note)
            printf("  %-*s    %s\n", w, "", u->note);
        printf("  %-*s    site: %s\n", w, "", u->tb ? u->tb : "none (no simulator reaches it)");
    }
}

/* The gate-level netlist the design would be played on (--model gate), with its hash. */
static void print_gate(const dev_design_t *d)
{
    gate_info_t gi;
    char err[2048];
    if (gate_info(d, &gi, err, sizeof err) < 0) {
        printf("\ngate-level netlist: none (%s)\n", err);
        return;
    }
    printf("\ngate-level netlist (--model gate): %s\n  sha256 %s\n  model  %s\n", gi.netlist,
           gi.sha256, gi.so);
    if (gi.stale)
        printf("  the netlist has changed since its model was built (or is gone): make gate\n");
}

/* The parametric families, one line each (an instance by name: ftsim info ring8). */
static const char *const families[][2] = {
    {"ringN", "N SCI nodes (lc3node) on one ring, N 2..16, e.g. ring8; p2sringN: P2S"},
    {"torusWxH", "a 2-D SCI torus of lc3node2 nodes, W, H 2..16, e.g. torus3x3; p2storusWxH: P2S, "
                 "to 32x32"},
    {"rnpnetN", "RNP multibutterfly of RN1s, N 16..1024 endpoints; rnpnetNxEwS: E extra stages, "
                "seed S"},
};

static void list_devices(void)
{
    for (const dev_design_t *const *d = registry_catalog.designs; *d; d++)
        printf("%-10s %s\n", (*d)->name, (*d)->summary);
    for (unsigned k = 0; k < sizeof families / sizeof families[0]; k++)
        printf("%-10s %s\n", families[k][0], families[k][1]);
    static const char *const nets[] = {"rnpnet16", "rnpnet64", "rnpnet256"};
    for (unsigned k = 0; k < 3; k++) {
        const dev_design_t *d = dev_catalog_find(&registry_catalog, nets[k]);
        if (d)
            printf("%-10s %s\n", d->name, d->summary);
        dev_design_release(d);
    }
}

int cmd_info(int argc, char **argv)
{
    int upsets = 0;
    const opts_opt_t none[] = {{"upsets", 0, OPTS_FLAG, &upsets, .set = 1}, {0}};
    const char **words = malloc(((size_t)argc + 1) * sizeof *words);
    if (!words)
        return 2;
    opts_cmd_t c = {.name = "info",
                    .style = OPTS_HINT,
                    .unknown = "unknown option",
                    .opts = none,
                    .pos = words,
                    .maxpos = (unsigned)argc};
    unsigned n = 0;
    int rc = cmd_parse(&c, usage_info, argc, argv, &n);
    const char *name = n == 1 ? words[0] : NULL;
    free(words);
    if (rc >= 0)
        return rc;
    if (n > 1) {
        fputs(usage_info, stderr);
        return 2;
    }
    if (!name && upsets) {
        fprintf(stderr, "ftsim info: --upsets needs a DEVICE\n");
        return 2;
    }
    if (!name) {
        list_devices();
        return 0;
    }
    const dev_design_t *d = dev_catalog_find(&registry_catalog, name);
    if (!d) {
        fprintf(stderr, "ftsim info: unknown device '%s'\n", name);
        return 2;
    }
    if (upsets) {
        list_upsets(d);
        dev_design_release(d);
        return 0;
    }
    printf("%s: %s\n\nports (name, direction, width):\n", d->name, d->summary);
    for (unsigned i = 0; i < d->nports; i++)
        printf("  %-8s %-3s %u\n", d->ports[i].name, d->ports[i].dir == DEV_IN ? "in" : "out",
               d->ports[i].width);
    printf("\nregisters (name, address, bits, access, default):\n");
    for (unsigned i = 0; i < d->nregs; i++) {
        const dev_reg_t *r = &d->regs[i];
        printf("  %-10s 0x%02x [%u:%u] %s", r->name, r->addr, r->lsb + r->width - 1, r->lsb,
               r->flags & DEV_REG_CONFIG ? "config"
               : r->flags & DEV_REG_RO   ? "ro"
                                         : "rw");
        if (r->flags & DEV_REG_CONFIG)
            printf(" default 0x%llx", (unsigned long long)r->dflt);
        printf("\n");
    }
    if (d->rtl)
        print_gate(d);
    dev_design_release(d);
    return 0;
}
