// vl_fst_merge.cpp — several FST files written side by side (the parts of a waveform whose models
// run in several Verilator contexts, vl_trace.h) made into one, through the FST library that
// ships with Verilator (gtkwave/fstapi.h, compiled into its FST writer).
//
// The hierarchy is each input's in turn, scopes, variables (aliases kept) and attributes (enum
// tables renumbered), so the merged file declares what one writer would have declared had it
// held every input's models in that order: the same scopes and the same handles. The value
// changes are every input's, in time order. An input is read a window of time at a time (the
// library reads only by callback, one file at a time): each input's changes in the window are
// gathered, sorted by time and handle (stably: an input's own order kept), and written. A value
// written again unchanged is dropped: the library hands back, besides the changes, the values
// at the start of a block it skipped to, and a Verilated writer never writes a value unchanged
// (the first dump, full, gives every signal once). A block is written every `block` times, as
// the Verilated writers do (vl_common.cpp: a flush every so many dumps, each dump a time).
#include "vl_common.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "gtkwave/fstapi.h"

namespace
{

struct Change {
    uint64_t t;
    fstHandle h;   // in the merged file
    uint32_t off;  // of its value in the window's arena
};

struct Input {
    void *r = nullptr;
    std::vector<fstHandle> map; // the input's handle -> the merged file's
};

struct Window {
    const Input *in;
    uint64_t from, to; // [from, to)
    const std::vector<uint32_t> *len;
    std::vector<Change> ch;
    std::string arena;
};

bool is_real(unsigned char typ)
{
    return typ == FST_VT_VCD_REAL || typ == FST_VT_VCD_REAL_PARAMETER ||
           typ == FST_VT_VCD_REALTIME || typ == FST_VT_SV_SHORTREAL;
}

void take(void *user, uint64_t t, fstHandle h, const unsigned char *v)
{
    Window *w = static_cast<Window *>(user);
    if (t < w->from || t >= w->to || h >= w->in->map.size() || !w->in->map[h])
        return;
    fstHandle nh = w->in->map[h];
    w->ch.push_back(Change{t, nh, static_cast<uint32_t>(w->arena.size())});
    w->arena.append(reinterpret_cast<const char *>(v), (*w->len)[nh]);
}

// Input k's hierarchy into the writer wr; false (message in err) on what a merge cannot carry.
bool copy_hier(void *wr, Input &in, const char *path, std::vector<uint32_t> &len,
               std::vector<uint64_t> &enums, std::string &err)
{
    std::vector<uint64_t> emap; // the input's enum table numbers -> the merged file's
    fstReaderIterateHierRewind(in.r);
    while (fstHier *h = fstReaderIterateHier(in.r)) {
        switch (h->htyp) {
        case FST_HT_SCOPE:
            fstWriterSetScope(wr, static_cast<fstScopeType>(h->u.scope.typ), h->u.scope.name,
                              h->u.scope.component);
            break;
        case FST_HT_UPSCOPE: fstWriterSetUpscope(wr); break;
        case FST_HT_VAR: {
            const auto &v = h->u.var;
            if (v.typ == FST_VT_GEN_STRING) {
                err = std::string(path) + ": " + v.name + ": a variable-length signal; not merged";
                return false;
            }
            if (v.handle >= in.map.size())
                in.map.resize(v.handle + 1, 0);
            fstHandle alias = v.is_alias ? in.map[v.handle] : 0;
            fstHandle nh = fstWriterCreateVar(wr, static_cast<fstVarType>(v.typ),
                                              static_cast<fstVarDir>(v.direction), v.length, v.name,
                                              alias);
            if (!v.is_alias) {
                in.map[v.handle] = nh;
                if (nh >= len.size())
                    len.resize(nh + 1, 0);
                len[nh] = is_real(v.typ) ? 8 : v.length;
            }
            break;
        }
        case FST_HT_ATTRBEGIN: {
            const auto &a = h->u.attr;
            uint64_t arg = a.arg;
            const char *name = a.name_length ? a.name : nullptr;
            if (a.typ == FST_AT_MISC && a.subtype == FST_MT_ENUMTABLE) {
                if (name) { // a table: numbered anew
                    if (a.arg >= emap.size())
                        emap.resize(a.arg + 1, 0);
                    emap[a.arg] = arg = enums.size() + 1;
                    enums.push_back(arg);
                } else { // a reference to one
                    arg = a.arg < emap.size() ? emap[a.arg] : 0;
                }
            }
            fstWriterSetAttrBegin(wr, static_cast<fstAttrType>(a.typ), a.subtype, name, arg);
            break;
        }
        case FST_HT_ATTREND: fstWriterSetAttrEnd(wr); break;
        default: break;
        }
    }
    return true;
}

} // namespace

bool ftsim_fst_merge(const std::vector<std::string> &in_paths, const char *out, unsigned block,
                     std::string &err)
{
    std::vector<Input> in(in_paths.size());
    void *wr = nullptr;
    auto done = [&](bool ok) {
        for (Input &i : in)
            if (i.r)
                fstReaderClose(i.r);
        if (wr)
            fstWriterClose(wr);
        return ok;
    };
    uint64_t start = UINT64_MAX, end = 0;
    for (size_t k = 0; k < in.size(); k++) {
        if (!(in[k].r = fstReaderOpen(in_paths[k].c_str()))) {
            err = in_paths[k] + ": cannot read this FST";
            return done(false);
        }
        if (!fstReaderGetVarCount(in[k].r))
            continue; // a part with no signals: no times either
        start = std::min(start, fstReaderGetStartTime(in[k].r));
        end = std::max(end, fstReaderGetEndTime(in[k].r));
    }
    if (!(wr = fstWriterCreate(out, 1))) {
        err = std::string(out) + ": cannot write the waveform";
        return done(false);
    }
    fstWriterSetPackType(wr, FST_WR_PT_LZ4); // as Verilator's writer
    if (!in.empty())
        fstWriterSetTimescale(wr, fstReaderGetTimescale(in[0].r));
    std::vector<uint32_t> len(1, 0);
    std::vector<uint64_t> enums;
    for (size_t k = 0; k < in.size(); k++)
        if (!copy_hier(wr, in[k], in_paths[k].c_str(), len, enums, err))
            return done(false);
    for (Input &i : in) {
        fstReaderSetFacProcessMaskAll(i.r);
        fstReaderIterBlocksSetNativeDoublesOnCallback(i.r, 1);
    }
    // Windows of time, sized to hold some millions of changes.
    const size_t want = 1u << 21;
    uint64_t step = 20480; // ns: 2048 cycles, a block of the Verilated writer's (vl_common.cpp)
    std::vector<std::string> last(len.size());
    std::vector<bool> seen(len.size(), false);
    uint64_t cur = UINT64_MAX;
    unsigned times = 0;
    for (uint64_t from = start; start != UINT64_MAX && from <= end;) {
        uint64_t to = end - from < step ? end + 1 : from + step;
        Window w{nullptr, from, to, &len, {}, {}};
        for (Input &i : in) {
            if (!fstReaderGetVarCount(i.r))
                continue;
            w.in = &i;
            fstReaderSetLimitTimeRange(i.r, from, to - 1);
            fstReaderIterBlocks(i.r, take, &w, nullptr);
        }
        std::stable_sort(w.ch.begin(), w.ch.end(), [](const Change &a, const Change &b) {
            return a.t != b.t ? a.t < b.t : a.h < b.h;
        });
        for (size_t j = 0; j < w.ch.size(); j++) {
            const Change &c = w.ch[j];
            if (j + 1 < w.ch.size() && w.ch[j + 1].t == c.t && w.ch[j + 1].h == c.h)
                continue; // the last value an input gave at this time is the one
            const char *v = w.arena.data() + c.off;
            if (seen[c.h] && !memcmp(last[c.h].data(), v, len[c.h]))
                continue;
            if (c.t != cur) {
                if (++times == block) { // a block as the Verilated writers flush them
                    times = 0;
                    fstWriterFlushContext(wr);
                }
                fstWriterEmitTimeChange(wr, cur = c.t);
            }
            fstWriterEmitValueChange(wr, c.h, v);
            last[c.h].assign(v, len[c.h]);
            seen[c.h] = true;
        }
        if (w.ch.size() > 2 * want && step > 10)
            step /= 2;
        else if (w.ch.size() < want / 2 && step < (1ull << 40))
            step *= 2;
        if (to > end)
            break;
        from = to;
    }
    return done(true);
}
