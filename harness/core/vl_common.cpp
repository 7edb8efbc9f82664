// vl_common.cpp — the one VerilatedContext of an ftsim binary, and its waveforms.
//
// The process's context is the harness's only process-wide object: the models of a run that
// runs on one thread share it, so that one simulation time and one assertion flag serve them
// all (a torus's nodes and the observer in one trace). It is created on first use and lives
// until the process ends. A model may be made in a context of its own (vl_dev.h), for a run
// whose models are evaluated on several threads.
#include "vl_common.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "dev.h"
#include "verilated_fst_c.h"

#ifdef FTSIM_COVERAGE
#include <cstdlib>
#include <mutex>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

#include "verilated_cov.h"
#endif

namespace
{
void coverage_start();
}

VerilatedContext *ftsim_vl_context()
{
    static VerilatedContext *ctx = nullptr; // the one process-wide object (see the top)
    if (!ctx) {
        ctx = new VerilatedContext;
        ctx->traceEverOn(true);
        // A failing assertion must become a reported mismatch with a FAIL line, not an abort
        // that leaves the waveform unclosed: the player polls gotError() after each edge.
        ctx->fatalOnError(false);
        coverage_start();
    }
    return ctx;
}

namespace
{
thread_local VerilatedContext *make_ctx = nullptr; // ftsim_vl_make_in
}

VerilatedContext *ftsim_vl_make_context() { return make_ctx; }

extern "C" void *ftsim_vl_ctx_new(void)
{
    auto *ctx = new VerilatedContext;
    ctx->traceEverOn(true);
    ctx->fatalOnError(false); // as the process's (ftsim_vl_context)
    return ctx;
}

extern "C" void ftsim_vl_ctx_free(void *ctx) { delete static_cast<VerilatedContext *>(ctx); }

extern "C" void ftsim_vl_make_in(void *ctx) { make_ctx = static_cast<VerilatedContext *>(ctx); }

// ---- Coverage (make coverage) ----------------------------------------------------------------
// Built with FTSIM_COVERAGE (the coverage build, build/cov/, whose models are Verilated with
// --coverage), a process whose environment names a folder in FTSIM_COVERAGE_DIR writes the
// coverage counts of its Verilated models there as ftsim-PID-N.dat (Verilator's coverage
// format, merged by verilator_coverage).
//
// Verilator's coverage database holds a pointer to each counter inside its model and offers no
// way to forget one model's points: a model deleted before the database is written would leave
// it reading freed memory. So an ended model is kept (retired), not deleted; once no model is
// alive and enough are retired, the counts are written, the retired models deleted and the
// database cleared. Whatever is left is written when the process exits (exit(), not _exit():
// the forked workers of --jobs write only what they flushed, so the coverage run uses none).
#ifdef FTSIM_COVERAGE
namespace
{

// Retired models written and freed together: a run that makes models over and over (faultcheck,
// experiments) keeps at most this many besides the live ones.
constexpr size_t kRetiredMax = 32;

struct Coverage {
    std::mutex mu;
    std::string dir; // empty: this process does not write coverage
    unsigned live = 0, files = 0;
    bool dirty = false;                                       // counts not yet written
    std::vector<std::pair<void *, void (*)(void *)>> retired; // each model and its delete
};

Coverage &cov()
{
    static Coverage *c = new Coverage; // never destroyed: used by the exit handler
    return *c;
}

void coverage_write(Coverage &c)
{
    if (c.dir.empty() || !c.dirty)
        return;
    std::string path =
        c.dir + "/ftsim-" + std::to_string(getpid()) + "-" + std::to_string(c.files++) + ".dat";
    c.dirty = false;
    // Verilator aborts the process on a file it cannot write: say why and lose the counts.
    FILE *probe = fopen(path.c_str(), "w");
    if (!probe) {
        fprintf(stderr,
                "ftsim: %s: cannot write the coverage counts (%s); FTSIM_COVERAGE_DIR "
                "must name a writable folder\n",
                path.c_str(), strerror(errno));
        return;
    }
    fclose(probe);
    ftsim_vl_context()->coveragep()->write(path.c_str());
}

void coverage_at_exit()
{
    Coverage &c = cov();
    std::lock_guard<std::mutex> lock(c.mu);
    coverage_write(c);
}

void coverage_start()
{
    const char *dir = getenv("FTSIM_COVERAGE_DIR");
    if (dir && *dir) {
        cov().dir = dir;
        atexit(coverage_at_exit);
    }
}

} // namespace

void ftsim_vl_born()
{
    Coverage &c = cov();
    std::lock_guard<std::mutex> lock(c.mu);
    c.live++;
    c.dirty = true;
}

void ftsim_vl_retire(void *model, void (*del)(void *))
{
    Coverage &c = cov();
    std::lock_guard<std::mutex> lock(c.mu);
    c.retired.emplace_back(model, del);
    c.live--;
    if (c.live != 0 || (c.retired.size() < kRetiredMax && !c.dir.empty()))
        return;
    coverage_write(c);
    for (auto &m : c.retired)
        m.second(m.first);
    c.retired.clear();
    ftsim_vl_context()->coveragep()->clear(); // every point left belonged to a retired model
}

#else

namespace
{
void coverage_start() {}
} // namespace

void ftsim_vl_born() {}

void ftsim_vl_retire(void *model, void (*del)(void *)) { del(model); }

#endif

namespace
{
// An upset was taken since the last model was created (see vl_common.h): part of the one
// process-wide runtime, beside its context.
std::atomic<bool> upset_taken{false};
} // namespace

void ftsim_vl_run_start(VerilatedContext *ctx)
{
    VerilatedContext *c = ctx ? ctx : ftsim_vl_context();
    c->gotError(false);
    c->gotFinish(false);
    c->assertOn(true);
    upset_taken.store(false);
}

void ftsim_vl_upset_taken() { upset_taken.store(true); }

int ftsim_vl_internal_error(VerilatedContext *ctx)
{
    VerilatedContext *c = ctx ? ctx : ftsim_vl_context();
    if (!c->gotError())
        return 0;
    if (!upset_taken.load())
        return 1;
    c->assertOn(false);
    c->gotError(false);
    c->gotFinish(false);
    return 2;
}

namespace
{

// Dumps between two flushes of the FST writer's value-change buffer. The writer keeps every
// change since its last flush in one buffer (128 MB by default) and, to flush, walks it once per
// signal; on a buffer that large each step of that walk misses the cache, and the flush costs
// more than the simulation. Blocks of 4096 dumps (2048 cycles) stay in the cache: RN1 with FST
// runs about twice as fast, the file grows by a few percent (each block is compressed alone).
constexpr unsigned kDumpsPerBlock = 4096;

// Every ftsim waveform: Verilator's FST writer, the window of cycles it dumps (in ns, the
// waveform's own time: from_ns..to_ns inclusive) and the dumps since the last flush.
struct Wave : VerilatedFstC {
    uint64_t from_ns = 0, to_ns = UINT64_MAX;
    uint64_t from = 0, to = UINT64_MAX; // the same in cycles (to: the last cycle dumped whole)
    unsigned dumps = 0;
    // A waveform in parts (ftsim_vl_trace_part): each part's own writer, dumped by whoever runs
    // its models; all of them written apart (path.partK) and merged into path at close.
    std::vector<Wave *> parts;
    std::string path;
};

// The file part k of a waveform in parts writes (0: the waveform's own models).
std::string part_path(const std::string &path, size_t k) { return path + ".part" + std::to_string(k); }

Wave *as_wave(void *tr) { return static_cast<Wave *>(static_cast<VerilatedFstC *>(tr)); }

uint64_t ns_of(uint64_t cycle)
{
    return cycle > UINT64_MAX / DEV_NS_PER_CYCLE ? UINT64_MAX : cycle * DEV_NS_PER_CYCLE;
}

} // namespace

extern "C" void *ftsim_vl_trace_new(void)
{
    ftsim_vl_context();
    return static_cast<VerilatedFstC *>(new Wave);
}

extern "C" int ftsim_vl_trace_open(void *tr, const char *path, char *err, size_t errlen)
{
    FILE *probe = fopen(path, "wb");
    if (!probe) {
        snprintf(err, errlen, "%s: cannot write the waveform (%s)", path, strerror(errno));
        return -1;
    }
    fclose(probe);
    Wave *w = as_wave(tr);
    w->path = path;
    std::string own = w->parts.empty() ? std::string(path) : part_path(path, 0);
    for (size_t k = 0; k <= w->parts.size(); k++) {
        Wave *t = k ? w->parts[k - 1] : w;
        t->set_time_unit("1ns");
        t->set_time_resolution("1ns");
        t->open(k ? part_path(path, k).c_str() : own.c_str());
    }
    return 0;
}

extern "C" void *ftsim_vl_trace_part(void *tr, unsigned k)
{
    Wave *w = as_wave(tr);
    while (w->parts.size() <= k) {
        Wave *p = as_wave(ftsim_vl_trace_new());
        p->from = w->from, p->to = w->to, p->from_ns = w->from_ns, p->to_ns = w->to_ns;
        w->parts.push_back(p);
    }
    return static_cast<VerilatedFstC *>(w->parts[k]);
}

extern "C" void ftsim_vl_trace_window(void *tr, uint64_t from, uint64_t to)
{
    Wave *w = as_wave(tr);
    w->from = from;
    w->to = to ? to : UINT64_MAX;
    w->from_ns = ns_of(from);
    // the dump that starts cycle to + 1 ends the window's last cycle
    w->to_ns = w->to == UINT64_MAX ? UINT64_MAX : ns_of(w->to + 1);
    for (Wave *p : w->parts)
        ftsim_vl_trace_window(static_cast<VerilatedFstC *>(p), from, to);
}

extern "C" int ftsim_vl_trace_on(const void *tr, uint64_t cycle)
{
    const Wave *w = static_cast<const Wave *>(static_cast<const VerilatedFstC *>(tr));
    return cycle != UINT64_MAX && cycle >= w->from && (w->to == UINT64_MAX || cycle <= w->to + 1);
}

extern "C" void ftsim_vl_trace_dump(void *tr, uint64_t time_ns)
{
    Wave *w = as_wave(tr);
    if (time_ns < w->from_ns || time_ns > w->to_ns)
        return;
    // A waveform in parts dumps here only its own models (the parts dump theirs), which may
    // change nothing for a whole block: the FST library's flush of a block without a value
    // change writes no block but restarts the time chain, and the file's times then go back
    // (fstWriterFlushContextPrivate). So it is not flushed in blocks.
    if (++w->dumps == kDumpsPerBlock && w->parts.empty()) {
        w->dumps = 0;
        w->flush(); // the block is written at this dump's time change
    }
    w->dump(time_ns);
}

extern "C" void ftsim_vl_trace_close(void *tr)
{
    Wave *w = as_wave(tr);
    w->close();
    std::vector<std::string> files{part_path(w->path, 0)};
    for (Wave *p : w->parts) {
        p->close();
        files.push_back(part_path(w->path, files.size()));
        delete p;
    }
    std::string err;
    if (!w->parts.empty() && !w->path.empty()) {
        if (!ftsim_fst_merge(files, w->path.c_str(), kDumpsPerBlock, err))
            fprintf(stderr, "ftsim: %s: the waveform's parts not merged: %s\n", w->path.c_str(),
                    err.c_str());
        for (const std::string &f : files)
            remove(f.c_str());
    }
    delete w;
}

VerilatedFstC *ftsim_vl_fst_for(const std::function<void(VerilatedFstC *)> &attach,
                                const char *path, char *err, size_t errlen)
{
    void *t = ftsim_vl_trace_new();
    attach(static_cast<VerilatedFstC *>(t));
    if (ftsim_vl_trace_open(t, path, err, errlen) < 0) {
        delete as_wave(t);
        return nullptr;
    }
    return static_cast<VerilatedFstC *>(t);
}
