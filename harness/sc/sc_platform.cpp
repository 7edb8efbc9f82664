// sc_platform.cpp — `ftsim-sc platform`: a small virtual platform of ftsim's SystemC modules.
//
//   cpu        a TLM-2.0 initiator playing the host CPU: it configures every node and loads its
//              routing tables with memory-mapped writes (sc_tlm.h: register a at byte 8 a), then
//              watches each node's STATUS.ring_up with memory-mapped reads
//   n0..nN-1   SCI nodes (lc3node: PSB, B-link, one link controller), the Verilated --sc module
//              or the C model's module, each behind its TLM target; node i's link output
//              drives node i+1's link input through sc_signals (a cable per hop)
//   host0..    a host per node on its PSB port: sends packets to the next node, takes what
//              arrives
//
// The run: reset, the CPU's configuration, the ring coming up, ring traffic until every packet
// is delivered, then (the ring idle) the cable out of one node pulled and put back, with the
// cycle each node reports its ring down and up again. The same pull on the C harness's own
// ring of the same nodes (the ringN device, sci_ring.c, C model) gives the reference report;
// the two must agree, and both must keep to the bounds of rtl/sci_lc.md section 3.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <tlm_utils/simple_initiator_socket.h>
#include <vector>

#include "Vsclc3n1.h"
#include "sc_main.h"
#include "sc_tlm.h"
#include "vl_common.h"

extern "C" {
#include "cmd.h"
#include "lockstep.h"
#include "sci_ring.h"
}

using namespace sc_core;
using ftsim_sc::NodeFam;
using ftsim_sc::Pins;

namespace
{

const char usage_platform[] =
    "usage: ftsim-sc platform [--nodes N] [--model rtl|csim] [--pull I] [--packets M]\n"
    "\n"
    "A virtual platform of SystemC modules: a TLM-2.0 initiator (the host CPU) configures N\n"
    "SCI nodes (lc3node; default 4, 2 to 16) and loads their routing tables over their TLM\n"
    "target sockets; the nodes form a ring through sc_signals; each node's host sends M\n"
    "packets (default 4) to the next node and every one must arrive; then, the ring idle, the\n"
    "cable out of node I (default 1) is pulled for 300 cycles and put back. Prints, per node,\n"
    "when it reported its ring down after the pull and up after the restore, beside the C\n"
    "harness's ring of the same nodes under the same pull; PASS when the two agree and keep\n"
    "to the bounds of the link controller (down within 5 + 43 (N - 1) cycles, up within\n"
    "66 + 5 N). --model picks the nodes' modules (default rtl, the Verilated --sc ones).\n"
    "Exit: 0 pass, 1 a check failed, 2 bad arguments.\n";

constexpr unsigned kPullCycles = 300;
constexpr uint32_t kStatus = 0x01;

using NodePins = Pins<NodeFam<1>>;

struct Platform : sc_module {
    SC_HAS_PROCESS(Platform);
    Platform(sc_module_name n, unsigned nodes, bool rtl, unsigned pull, unsigned packets)
        : sc_module(n), n_(nodes), pull_(pull), packets_(packets)
    {
        for (unsigned i = 0; i < n_; i++) {
            std::string name = "n" + std::to_string(i);
            auto *p = new NodePins((name + "_pins").c_str());
            const dev_ops_t *ops = nullptr;
            void *model = nullptr;
            if (rtl) {
                auto *m = new Vsclc3n1(name.c_str());
                p->bind(*m);
            } else {
                auto *m = new ftsim_sc::CsimModule<NodeFam<1>>(name.c_str(), &lc3node_design);
                p->bind(*m);
                ops = m->ops();
                model = m->model();
            }
            ScRegPins rp = {p->clk_i,       p->rst_ni,      p->reg_we_i,    p->reg_waddr_i,
                            p->reg_wdata_i, p->reg_wstrb_i, p->reg_raddr_i, p->reg_rdata_o};
            auto *t = new ftsim_sc::RegTarget((name + "_regs").c_str(), rp, ops, model);
            auto *s = new tlm_utils::simple_initiator_socket<Platform>(("cpu_" + name).c_str());
            s->bind(t->socket);
            pins_.push_back(p);
            cpu_.push_back(s);
            p->hout_ready_i.write(true);
        }
        SC_THREAD(clock);
        SC_METHOD(cables);
        for (NodePins *p : pins_)
            sensitive << p->lout_o << p->lout_sd_o;
        sensitive << cut_ev_;
        SC_METHOD(hosts);
        sensitive << pins_[0]->clk_i.posedge_event();
        dont_initialize();
        SC_THREAD(cpu);
        down_.assign(n_, -1);
        up_.assign(n_, -1);
        got_.assign(n_, 0);
    }

    bool ok = false;
    std::vector<long> down_, up_;
    unsigned delivered() const
    {
        unsigned d = 0;
        for (unsigned g : got_)
            d += g;
        return d;
    }

  private:
    void clock()
    {
        for (;;) {
            for (NodePins *p : pins_)
                p->clk_i.write(true);
            wait(5, SC_NS);
            for (NodePins *p : pins_)
                p->clk_i.write(false);
            wait(5, SC_NS);
        }
    }

    // The cables: node i's link output into node i+1; a pulled cable carries nothing and no
    // signal detect.
    void cables()
    {
        for (unsigned i = 0; i < n_; i++) {
            NodePins *from = pins_[i], *to = pins_[(i + 1) % n_];
            bool cut = cut_ && i == pull_;
            to->lin_i.write(cut ? 0u : from->lout_o.read());
            to->lin_sd_i.write(cut ? false : from->lout_sd_o.read());
        }
        cable_ev_.notify(SC_ZERO_TIME);
    }

    // The hosts, at each rising edge: the node's outputs still those of the cycle the edge
    // ends, so what moved at this edge (a symbol moves where valid and ready are both 1 in the
    // cycle) is known; then the symbol of the cycle the edge starts.
    void hosts()
    {
        cycle_++;
        for (unsigned i = 0; i < n_; i++) {
            NodePins *p = pins_[i];
            Host &h = host_[i];
            if (h.pos < h.words.size() && sending_ && (!h.offered || p->hin_ready_o.read()))
                h.pos++; // a symbol taken, or an idle cycle between packets spent
            uint64_t w = 0;
            if (sending_ && h.pos < h.words.size())
                w = h.words[h.pos];
            h.offered = (w & SCI_FLAG) != 0;
            p->hin_i.write(static_cast<uint32_t>(w & 0x1FFFF));
            p->hin_last_i.write((w & SCI_LAST) != 0);
            // The last symbol of a packet to the host (taken: hout_ready is 1).
            if ((p->hout_o.read() & SCI_FLAG) && p->hout_last_o.read())
                got_[i]++;
        }
    }

    uint64_t io(unsigned node, bool write, uint32_t reg, uint64_t value)
    {
        return ftsim_sc::cpu_access(*cpu_[node], write, reg, value);
    }
    void edge() { wait(pins_[0]->clk_i.posedge_event()); }
    bool ring_up(unsigned i) { return io(i, false, kStatus, 0) & 1u; }

    // The host CPU: configuration and tables over TLM, traffic, the pull.
    void cpu()
    {
        for (NodePins *p : pins_)
            p->rst_ni.write(false);
        edge();
        edge();
        for (NodePins *p : pins_)
            p->rst_ni.write(true);
        edge();
        for (unsigned i = 0; i < n_; i++) {
            // LC CTRL (rtl/sci_lc.md): node id, enable, node 0 the ring's scrubber, busy limit
            // 8, retry limit 4, echo timeout 200; the PSB's: node id, remote-read timeout 2000.
            io(i, true, SCI_REG_CTRL,
               i | 1ull << 16 | (i == 0 ? 1ull << 17 : 0) | 8ull << 24 | 4ull << 32 | 200ull << 48);
            io(i, true, SCI_PSB_CTRL, i | 2000ull << 32);
            // The ring's tables: the LC takes its own id and hands it to its host; the PSB
            // sends its own id to its host, the ring's other ids to the LC, the rest nowhere.
            io(i, true, SCI_REG_TADDR, i);
            io(i, true, SCI_REG_LRT, 1);
            io(i, true, SCI_REG_BRT, 0);
            for (unsigned id = 0; id < 256; id++) {
                io(i, true, SCI_PSB_TADDR, id);
                io(i, true, SCI_PSB_BRT, id == i ? 0 : id < n_ ? 1 : 7);
            }
        }
        unsigned loaded = cycle_;
        bool all = false;
        for (unsigned t = 0; t < 2000 && !all; t++) {
            edge();
            all = true;
            for (unsigned i = 0; i < n_; i++)
                all = all && ring_up(i);
        }
        printf("platform: the CPU configured %u nodes over TLM (%u register writes, by cycle "
               "%u); ring %s at cycle %u\n",
               n_, n_ * 517, loaded, all ? "up" : "NOT up", cycle_);
        if (!all)
            return finish();
        // Traffic: each host sends its packets to the next node.
        for (unsigned i = 0; i < n_; i++)
            host_[i].words = packets(i, (i + 1) % n_);
        sending_ = true;
        unsigned start = cycle_;
        for (unsigned t = 0; t < 20000 && delivered() < n_ * packets_; t++)
            edge();
        printf("platform: ring traffic: %u of %u packets delivered host to host in %u cycles\n",
               delivered(), n_ * packets_, cycle_ - start);
        if (delivered() != n_ * packets_) {
            for (unsigned i = 0; i < n_; i++)
                printf("platform: node %u: host sent %zu of %zu symbols, got %u; LC STATUS 0x%llx "
                       "COUNTS 0x%llx, PSB STATUS 0x%llx\n",
                       i, host_[i].pos, host_[i].words.size(), got_[i],
                       (unsigned long long)io(i, false, kStatus, 0),
                       (unsigned long long)io(i, false, SCI_REG_COUNTS, 0),
                       (unsigned long long)io(i, false, SCI_PSB_STATUS, 0));
            return finish();
        }
        sending_ = false;
        for (unsigned t = 0; t < 500; t++) // the ring idle again (echoes done)
            edge();
        // The pull: in cycle P the cable carries nothing; in cycle P + kPullCycles it is back.
        std::vector<bool> was(n_, true);
        cut_ = true;
        cables_now();
        for (unsigned t = 0; t < kPullCycles + 400; t++) {
            if (t == kPullCycles) {
                cut_ = false;
                cables_now();
            }
            for (unsigned i = 0; i < n_; i++) {
                bool up = ring_up(i);
                if (t < kPullCycles && !up && down_[i] < 0)
                    down_[i] = t;
                if (t >= kPullCycles && up && up_[i] < 0)
                    up_[i] = t - kPullCycles;
            }
            edge();
        }
        ok = true;
        finish();
    }
    void cables_now()
    {
        cut_ev_.notify(SC_ZERO_TIME);
        wait(cable_ev_); // the cable's new words reach the next node in this cycle
    }
    void finish() { sc_stop(); }

    std::vector<uint64_t> packets(unsigned src, unsigned dst)
    {
        std::vector<uint64_t> w;
        unsigned kind = lc3node_design.ports[sci_node_port(1, SCI_NP_HIN, 0)].kind;
        for (unsigned k = 0; k < packets_; k++) {
            char text[160], err[DEV_ERR_LEN];
            uint64_t buf[64];
            snprintf(text, sizeof text, "pkt(target=%u, cmd=DATA, src=%u, tid=%u, data=[%u,%u])",
                     dst, src, k, 0x1000 + src, k);
            int nw = sci_parse_seq(kind, text, buf, 64, err, sizeof err);
            if (nw <= 0)
                SC_REPORT_FATAL("ftsim", err);
            w.insert(w.end(), buf, buf + nw);
            w.insert(w.end(), 4, 0); // a few idle cycles between packets
        }
        return w;
    }

    struct Host {
        std::vector<uint64_t> words;
        size_t pos = 0;
        bool offered = false;
    };

    unsigned n_, pull_, packets_;
    std::vector<NodePins *> pins_;
    std::vector<tlm_utils::simple_initiator_socket<Platform> *> cpu_;
    Host host_[SCI_RING_MAX];
    std::vector<unsigned> got_;
    bool sending_ = false, cut_ = false;
    unsigned cycle_ = 0;
    sc_event cable_ev_, cut_ev_;
};

// The same pull on the C harness's ring of the same nodes (ringN, C model): idle until every
// node reports its ring up, then the cable out of node `pull` for kPullCycles cycles.
bool reference(unsigned n, unsigned pull, std::vector<long> &down, std::vector<long> &up)
{
    const dev_design_t *d = sci_ring_design(0, n);
    char err[DEV_ERR_LEN];
    device_t *r = d ? dev_open(d, DEV_IMPL_CSIM, err, sizeof err) : nullptr;
    if (!r) {
        dev_design_release(d);
        return false;
    }
    dev_write_t w[64];
    unsigned nw = dev_config_defaults(d, w, 64);
    dev_reset(r, w, nw);
    std::vector<uint64_t> in(d->nports, 0);
    dev_set_inputs(r, in.data());
    auto ring_up = [&](unsigned i) { return dev_reg_read(r, sci_ring_addr(i, kStatus)) & 1u; };
    bool all = false;
    for (unsigned t = 0; t < 2000 && !all; t++) {
        dev_tick(r);
        all = true;
        for (unsigned i = 0; i < n; i++)
            all = all && ring_up(i);
    }
    down.assign(n, -1);
    up.assign(n, -1);
    char cmd[32];
    snprintf(cmd, sizeof cmd, "cut %u", pull);
    dev_control(r, cmd, err, sizeof err);
    for (unsigned t = 0; t < kPullCycles + 400; t++) {
        if (t == kPullCycles) {
            snprintf(cmd, sizeof cmd, "restore %u", pull);
            dev_control(r, cmd, err, sizeof err);
        }
        dev_set_inputs(r, in.data());
        for (unsigned i = 0; i < n; i++) {
            bool u = ring_up(i);
            if (t < kPullCycles && !u && down[i] < 0)
                down[i] = t;
            if (t >= kPullCycles && u && up[i] < 0)
                up[i] = t - kPullCycles;
        }
        dev_tick(r);
    }
    dev_close(r);
    dev_design_release(d);
    return all;
}

} // namespace

int cmd_sc_platform(int argc, char **argv)
{
    unsigned nodes = 4, pull = 1, packets = 4, models = LS_RTL;
    opts_opt_t opts[5] = {};
    opts[0] = {"nodes", 0, OPTS_UINT, &nodes};
    opts[0].min = 2;
    opts[0].max = SCI_RING_MAX;
    opts[0].msg = "--nodes takes a number from 2 to 16";
    opts[1] = {"pull", 0, OPTS_UINT, &pull};
    opts[1].max = SCI_RING_MAX - 1;
    opts[1].msg = "--pull takes a node number";
    opts[2] = {"packets", 0, OPTS_UINT, &packets};
    opts[2].min = 1;
    opts[2].max = 8;
    opts[2].msg = "--packets takes a number from 1 to 8";
    opts[3] = {"model", 0, OPTS_FN, &models};
    opts[3].fn = cmd_models;
    opts[3].msg = "--model takes rtl or csim";
    opts_cmd_t c = {};
    c.name = "platform";
    c.style = OPTS_HINT;
    c.unknown = "unknown option";
    c.opts = opts;
    int rc = cmd_parse(&c, usage_platform, argc, argv, nullptr);
    if (rc >= 0)
        return rc;
    if (pull >= nodes)
        return cmd_bad("platform", "--pull takes a node of the ring (0 to N-1)", nullptr);
    if (models == LS_BOTH)
        return cmd_bad("platform", "--model takes rtl or csim", "both");
    Verilated::threadContextp(ftsim_vl_context());
    Platform p("platform", nodes, models == LS_RTL, pull, packets);
    sc_start();
    std::vector<long> rdown, rup;
    bool ref = reference(nodes, pull, rdown, rup);
    unsigned dbound = 5 + 43 * (nodes - 1), ubound = 66 + 5 * nodes;
    printf("platform: the cable out of node %u pulled for %u cycles (bounds, rtl/sci_lc.md section "
           "3: down within %u cycles, up within %u)\n",
           pull, kPullCycles, dbound, ubound);
    printf("| node | down after the pull: SystemC | C harness | up after the restore: SystemC "
           "| C harness |\n|---|---:|---:|---:|---:|\n");
    bool pass = p.ok && ref;
    for (unsigned i = 0; i < nodes; i++) {
        printf("| %u | %ld | %ld | %ld | %ld |\n", i, p.down_[i], rdown[i], p.up_[i], rup[i]);
        pass = pass && p.down_[i] == rdown[i] && p.up_[i] == rup[i] && p.down_[i] >= 0 &&
               p.down_[i] <= (long)dbound && p.up_[i] >= 0 && p.up_[i] <= (long)ubound;
    }
    printf("%s platform (%u %s nodes)\n", pass ? "PASS" : "FAIL", nodes,
           models == LS_RTL ? "rtl" : "csim");
    return pass ? 0 : 1;
}
