/* gate.c — finding and loading the gate-level model of a design (gate.h). */
#include "gate.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The folder of loadable models: $FTSIM_GATE_DIR, else gate/ beside the running binary. */
static void gate_dir(char *buf, size_t len)
{
    const char *env = getenv("FTSIM_GATE_DIR");
    if (env && *env) {
        snprintf(buf, len, "%s", env);
        return;
    }
    char exe[PATH_MAX / 2];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
        snprintf(buf, len, "gate");
        return;
    }
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (slash)
        *slash = 0;
    snprintf(buf, len, "%s/gate", exe);
}

typedef void *(*gate_create_fn)(const char *, const dev_ops_t **, char *, size_t);

/* The loaded models, by design: loaded once, never unloaded (a Verilated model's code may hold
 * static state past its last instance). */
#define GATE_MAX 32
static struct {
    char design[64];
    void *h;
} loaded[GATE_MAX];
static unsigned nloaded;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static const char how[] = "make synth writes the netlists (build/synth/NAME.v), make gate builds "
                          "their models";

static void *gate_load(const dev_design_t *d, char *so, size_t solen, char *err, size_t errlen)
{
    char dir[PATH_MAX / 2 + 8];
    gate_dir(dir, sizeof dir);
    snprintf(so, solen, "%s/%s.so", dir, d->name);
    pthread_mutex_lock(&lock);
    void *h = NULL;
    for (unsigned k = 0; k < nloaded && !h; k++)
        if (!strcmp(loaded[k].design, d->name))
            h = loaded[k].h;
    if (!h) {
        if (access(so, R_OK) != 0) {
            snprintf(err, errlen, "%s: no gate-level model (%s not built; %s)", d->name, so, how);
            goto out;
        }
        h = dlopen(so, RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            snprintf(err, errlen, "%s: cannot load its gate-level model: %s", d->name, dlerror());
            goto out;
        }
        const unsigned *abi = dlsym(h, "ftsim_gate_abi");
        const char *name = dlsym(h, "ftsim_gate_design");
        if (!abi || *abi != GATE_ABI || !name || strcmp(name, d->name) != 0 ||
            !dlsym(h, "ftsim_gate_create") || !dlsym(h, "ftsim_gate_netlist") ||
            !dlsym(h, "ftsim_gate_sha256")) {
            snprintf(err, errlen,
                     "%s: %s is not a gate-level model of %s for this binary (%s; make gate "
                     "builds it again)",
                     d->name, so, d->name,
                     !abi || !name ? "not one" : *abi != GATE_ABI ? "built against other headers"
                                                                 : "another design's");
            dlclose(h);
            h = NULL;
            goto out;
        }
        if (nloaded < GATE_MAX) {
            snprintf(loaded[nloaded].design, sizeof loaded[nloaded].design, "%s", d->name);
            loaded[nloaded++].h = h;
        }
    }
out:
    pthread_mutex_unlock(&lock);
    return h;
}

int gate_info(const dev_design_t *d, gate_info_t *gi, char *err, size_t errlen)
{
    memset(gi, 0, sizeof *gi);
    void *h = gate_load(d, gi->so, sizeof gi->so, err, errlen);
    if (!h)
        return -1;
    snprintf(gi->netlist, sizeof gi->netlist, "%s", (const char *)dlsym(h, "ftsim_gate_netlist"));
    snprintf(gi->sha256, sizeof gi->sha256, "%s", (const char *)dlsym(h, "ftsim_gate_sha256"));
    struct stat sn, ss;
    gi->stale = stat(gi->netlist, &sn) != 0 || stat(gi->so, &ss) != 0 ||
                sn.st_mtim.tv_sec > ss.st_mtim.tv_sec;
    return 0;
}

void *gate_create(const dev_design_t *d, const char *instance, const dev_ops_t **ops, char *err,
                  size_t errlen)
{
    char so[PATH_MAX];
    void *h = gate_load(d, so, sizeof so, err, errlen);
    if (!h)
        return NULL;
    gate_create_fn create = (gate_create_fn)dlsym(h, "ftsim_gate_create");
    return create(instance, ops, err, errlen);
}
