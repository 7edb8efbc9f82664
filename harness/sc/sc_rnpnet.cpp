// sc_rnpnet.cpp — `ftsim-sc rnpnet`: RN1 in a 16-endpoint RNP network of SystemC modules.
//
//   cpu        a TLM-2.0 initiator playing the host CPU: it writes every router's CFG (its
//              LFSR seed, as the C harness's network gives router r for the network seed) over
//              the router's TLM target socket, and reads ID and CFG back
//   r0..r7     the eight RN1s of rnpnet16 (two stages of four, dilated), the Verilated --sc
//              module or the C model's module, each behind its TLM target, all on one clock
//   wires      the network's links as a process over sc_signals: every router input is the
//              neighbour's output of the wiring harness/rnp/rnpnet.c builds (rnpnet_topo_t:
//              its up/down/inj/ej tables), rotated left by 2 forward and right by 2 backward
//              on router-to-router links, not rotated on endpoint links
//   endpoints  the C harness's network interfaces (harness/rnp/rnpni.c), one SC_METHOD at each
//              rising edge: the network's outputs of the cycle the edge ends in, the inputs of
//              the next cycle out, through sc_signals into the wires
//
// The run: reset, the CPU's configuration, then every endpoint sends M messages to others, and
// every one must be delivered. The same messages on the C harness's rnpnet16 device (C model
// routers, its own wires, the same configuration written at the same cycles) give the
// reference: the run passes when the two deliver the same messages at the same cycles.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <tlm_utils/simple_initiator_socket.h>
#include <vector>

#include "Vscrn1.h"
#include "sc_main.h"
#include "sc_tlm.h"
#include "verilated_fst_c.h"
#include "vl_common.h"

extern "C" {
#include "cmd.h"
#include "lockstep.h"
#include "rn1_dev.h"
#include "rnp_word.h"
#include "rnpni.h"
#include "rnpnet.h"
}

using namespace sc_core;
using ftsim_sc::Pins;
using ftsim_sc::Rn1Fam;

namespace
{

const char usage_rnpnet[] =
    "usage: ftsim-sc rnpnet [--model rtl|csim] [--messages M] [--seed S] [--wave F.fst]\n"
    "\n"
    "RN1 in a 16-endpoint RNP network of SystemC modules: the eight RN1s of rnpnet16 (the\n"
    "C harness's wiring, wiring seed 1) bound to each other through sc_signals under one\n"
    "clock; a TLM-2.0 initiator (the host CPU) writes each router's CFG over its TLM target\n"
    "socket and reads ID and CFG back; the C harness's endpoint models (network interfaces\n"
    "with retries and the STATUS/CHECKSUM checks) each send M messages (default 4, 1 to 64)\n"
    "to other endpoints. Prints the configuration read back, per endpoint the messages sent\n"
    "and received, and the same traffic on the C harness's rnpnet16 device (C model routers);\n"
    "PASS when every message is delivered and both deliver the same messages at the same\n"
    "cycles. --model picks the routers' modules (default rtl, the Verilated --sc ones); --seed\n"
    "the network seed (routers' LFSR seeds) and the endpoints' payloads and backoff (default\n"
    "1); --wave writes the eight RTL routers' FST (net.r0..net.r7, cycle t at 10 t ns).\n"
    "Exit: 0 pass, 1 a check failed, 2 bad arguments.\n";

constexpr unsigned kEndpoints = 16;
constexpr unsigned kGap = 40;          // cycles between one endpoint's messages
constexpr unsigned kMaxCycles = 60000; // the run's limit
constexpr uint32_t kRegId = 0x04;      // ID (rtl/rn1.md), 0x524e3101

using RouterPins = Pins<Rn1Fam>;

// One delivery: the cycle the destination took it (first time), source, destination, sequence.
struct Delivery {
    uint64_t cycle;
    unsigned src, dst, seq;
    bool operator==(const Delivery &o) const
    {
        return cycle == o.cycle && src == o.src && dst == o.dst && seq == o.seq;
    }
};

// The traffic both runs send: at cycle kGap k, endpoint e sends message k to
// e + 1 + (5 k + e) mod 15 (never itself), with 1 to 16 payload bytes.
void traffic(ni_t *ni, uint64_t t, unsigned messages)
{
    if (t % kGap || t / kGap >= messages)
        return;
    unsigned k = static_cast<unsigned>(t / kGap);
    for (unsigned e = 0; e < kEndpoints; e++)
        ni_send(ni, t, e, (e + 1 + (5 * k + e) % 15) % kEndpoints, 1 + (k * 7 + e) % 16);
}

ni_policy_t policy()
{
    ni_policy_t p = {};
    p.retry_limit = 400;
    p.backoff_max = 64;
    p.use_lft = 1;
    p.perm_stage = 3;
    p.trial_attempts = 10;
    return p;
}

void on_rx(void *ctx, uint64_t cycle, const ni_msg_t *m, int delivered)
{
    if (delivered)
        static_cast<std::vector<Delivery> *>(ctx)->push_back({cycle, m->src, m->dst, m->seq});
}

// Every router's CFG as the C harness's network sets it for network seed `netseed` (its
// per-router LFSR seeds): read back from the C harness's own network device.
bool router_cfgs(const dev_design_t *nd, uint16_t netseed, std::vector<uint64_t> &cfg)
{
    char err[DEV_ERR_LEN];
    device_t *n = dev_open(nd, DEV_IMPL_CSIM, err, sizeof err);
    if (!n)
        return false;
    dev_write_t w = {RNPNET_NETCFG, netseed, 0x1FFFF};
    dev_reset(n, &w, 1);
    const rnpnet_topo_t *t = rnpnet_topo_of(nd);
    cfg.assign(t->nrouters, 0);
    for (unsigned r = 0; r < t->nrouters; r++)
        cfg[r] = dev_reg_read(n, r * 256 + RN1_REG_CFG);
    dev_close(n);
    return true;
}

struct Net : sc_module {
    SC_HAS_PROCESS(Net);
    Net(sc_module_name n, const rnpnet_topo_t *t, bool rtl, const std::vector<uint64_t> &cfg,
        uint64_t seed, unsigned messages)
        : sc_module(n), t_(t), cfg_(cfg), messages_(messages),
          ep_in_("ep_in", kEndpoints * 2 * RNPNET_NKIND)
    {
        for (unsigned r = 0; r < t_->nrouters; r++) {
            std::string name = "r" + std::to_string(r);
            auto *p = new RouterPins((name + "_pins").c_str());
            const dev_ops_t *ops = nullptr;
            void *model = nullptr;
            if (rtl) {
                auto *m = new Vscrn1(name.c_str());
                p->bind(*m);
                rtl_.push_back(m);
            } else {
                auto *m = new ftsim_sc::CsimModule<Rn1Fam>(name.c_str(), &rn1_design);
                p->bind(*m);
                ops = m->ops();
                model = m->model();
            }
            ScRegPins rp = {p->clk_i,       p->rst_ni,      p->reg_we_i,    p->reg_waddr_i,
                            p->reg_wdata_i, p->reg_wstrb_i, p->reg_raddr_i, p->reg_rdata_o};
            auto *tg = new ftsim_sc::RegTarget((name + "_regs").c_str(), rp, ops, model);
            auto *s = new tlm_utils::simple_initiator_socket<Net>(("cpu_" + name).c_str());
            s->bind(tg->socket);
            pins_.push_back(p);
            cpu_.push_back(s);
        }
        ni_ = ni_create(t_, &pol_, seed, 0);
        if (!ni_)
            SC_REPORT_FATAL("ftsim", "out of memory");
        ni_set_callbacks(ni_, &got, nullptr, nullptr, on_rx);
        out_.assign(kEndpoints * 2 * RNPNET_NKIND, 0);
        rout_.assign(t_->nrouters, std::vector<uint64_t>(RN1_NPORTS, 0));
        in_.assign(kEndpoints * 2 * RNPNET_NKIND, 0);
        SC_THREAD(clock);
        SC_METHOD(wires);
        for (RouterPins *p : pins_)
            sensitive << p->fwd_o << p->bwd_o << p->fwd_bc_o;
        for (auto &s : ep_in_)
            sensitive << s;
        SC_METHOD(endpoints);
        sensitive << pins_[0]->clk_i.posedge_event();
        dont_initialize();
        SC_THREAD(cpu);
    }
    ~Net() override { ni_free(ni_); }

    bool configured = false;
    uint64_t cycles = 0; // traffic cycles run
    std::vector<uint64_t> id_back, cfg_back;
    std::vector<Delivery> got;
    const ni_stats_t *stats() const { return ni_stats(ni_); }
    unsigned in_flight() const { return ni_in_flight(ni_); }
    std::vector<Vscrn1 *> rtl_;
    VerilatedFstC *tfp = nullptr;

  private:
    // One clock for every router. Traced, the FST takes each settled half period just before
    // the clock moves (nothing else happens at that time yet): cycle t (t from the first
    // traffic cycle) with the clock high at 10 t ns, with it low at 10 t + 5 (dev.h's times).
    void clock()
    {
        for (;;) {
            if (tfp && configured)
                ftsim_vl_trace_dump(tfp, traced_++ * DEV_NS_PER_CYCLE + DEV_NS_PER_CYCLE / 2);
            for (RouterPins *p : pins_)
                p->clk_i.write(true);
            wait(5, SC_NS);
            if (tfp && configured)
                ftsim_vl_trace_dump(tfp, traced_ * DEV_NS_PER_CYCLE);
            for (RouterPins *p : pins_)
                p->clk_i.write(false);
            wait(5, SC_NS);
        }
    }

    // The links: each router's inputs from its neighbours' outputs and the endpoints' words.
    void wires()
    {
        uint64_t rin[RN1_NPORTS] = {0};
        std::vector<std::vector<uint64_t>> &rout = rout_;
        for (unsigned r = 0; r < t_->nrouters; r++)
            Rn1Fam::outs_get(*pins_[r], rout[r].data());
        for (unsigned r = 0; r < t_->nrouters; r++) {
            for (unsigned i = 0; i < 8; i++) { // forward port i: from upstream
                int32_t up = t_->up[r * 8 + i];
                if (up < 0) {
                    unsigned e = static_cast<unsigned>(-up - 1);
                    rin[RN1_P_FIN(i)] = ep_in_[rnpnet_port(e / 2, e % 2, RNPNET_SIN)].read();
                } else {
                    uint64_t x = rout[static_cast<unsigned>(up) / 8]
                                     [RN1_P_BOUT(static_cast<unsigned>(up) % 8)];
                    rin[RN1_P_FIN(i)] = (x & RNP_C) | rnp_rotl2(static_cast<uint8_t>(x));
                }
            }
            for (unsigned j = 0; j < 8; j++) { // backward port j: from downstream
                int32_t dn = t_->down[r * 8 + j];
                if (dn < 0) {
                    unsigned e = static_cast<unsigned>(-dn - 1);
                    rin[RN1_P_BIN(j)] = ep_in_[rnpnet_port(e / 2, e % 2, RNPNET_DIN)].read();
                    rin[RN1_P_BBC(j)] = ep_in_[rnpnet_port(e / 2, e % 2, RNPNET_DBC)].read();
                } else {
                    const std::vector<uint64_t> &o = rout[static_cast<unsigned>(dn) / 8];
                    uint64_t x = o[RN1_P_FOUT(static_cast<unsigned>(dn) % 8)];
                    rin[RN1_P_BIN(j)] = (x & RNP_C) | rnp_rotr2(static_cast<uint8_t>(x));
                    rin[RN1_P_BBC(j)] = o[RN1_P_FBC(static_cast<unsigned>(dn) % 8)];
                }
            }
            Rn1Fam::ins_put(*pins_[r], rin);
        }
    }

    // The endpoints at each rising edge, once the CPU is done: the network's outputs are still
    // those of the cycle the edge ends (registered outputs change a delta later), so they are
    // the outputs the C harness hands its endpoints for that cycle; the inputs written now are
    // the next cycle's.
    void endpoints()
    {
        if (!configured || done_)
            return;
        for (unsigned e = 0; e < kEndpoints; e++)
            for (unsigned k = 0; k < 2; k++) {
                unsigned inj = t_->inj[e * 2 + k], ej = t_->ej[e * 2 + k];
                uint64_t o[RN1_NPORTS];
                Rn1Fam::outs_get(*pins_[inj / 8], o);
                out_[rnpnet_port(e, k, RNPNET_SOUT)] = o[RN1_P_FOUT(inj % 8)];
                out_[rnpnet_port(e, k, RNPNET_SBC)] = o[RN1_P_FBC(inj % 8)];
                Rn1Fam::outs_get(*pins_[ej / 8], o);
                out_[rnpnet_port(e, k, RNPNET_DOUT)] = o[RN1_P_BOUT(ej % 8)];
            }
        traffic(ni_, cycles, messages_);
        dev_write_t wr;
        if (ni_cycle(ni_, cycles, out_.data(), in_.data(), &wr))
            masked_++; // no fault here: the monitor never masks a port (checked at the end)
        for (unsigned p = 0; p < in_.size(); p++)
            ep_in_[p].write(static_cast<uint32_t>(in_[p]));
        cycles++;
        if ((cycles > static_cast<uint64_t>(messages_) * kGap && !ni_in_flight(ni_)) ||
            cycles >= kMaxCycles) {
            done_ = true;
            sc_stop();
        }
    }

    uint64_t io(unsigned r, bool write, uint32_t reg, uint64_t value)
    {
        return ftsim_sc::cpu_access(*cpu_[r], write, reg, value);
    }

    // The host CPU: reset (two edges, as the C harness's), each router's CFG (one write a
    // cycle), ID and CFG read back (no time); the endpoints start at the next edge.
    void cpu()
    {
        for (RouterPins *p : pins_)
            p->rst_ni.write(false);
        wait(pins_[0]->clk_i.posedge_event());
        wait(pins_[0]->clk_i.posedge_event());
        for (RouterPins *p : pins_)
            p->rst_ni.write(true);
        for (unsigned r = 0; r < t_->nrouters; r++)
            io(r, true, RN1_REG_CFG, cfg_[r]);
        for (unsigned r = 0; r < t_->nrouters; r++) {
            id_back.push_back(io(r, false, kRegId, 0));
            cfg_back.push_back(io(r, false, RN1_REG_CFG, 0));
        }
        configured = true;
    }

    const rnpnet_topo_t *t_;
    std::vector<uint64_t> cfg_;
    unsigned messages_;
    sc_vector<sc_signal<uint32_t>> ep_in_; // the endpoints' words into the network
    std::vector<RouterPins *> pins_;
    std::vector<tlm_utils::simple_initiator_socket<Net> *> cpu_;
    ni_policy_t pol_ = policy();
    ni_t *ni_ = nullptr;
    std::vector<uint64_t> out_, in_;
    bool done_ = false;
    unsigned masked_ = 0;
    uint64_t traced_ = 0;
    std::vector<std::vector<uint64_t>> rout_; // the routers' outputs, while the wires compose

  public:
    unsigned masked() const { return masked_; }
};

// The same configuration and traffic on the C harness's rnpnet16 (C model routers, its own
// wires): reset, the CFG writes one a cycle, then the endpoints from cycle 0.
bool reference(const dev_design_t *nd, const std::vector<uint64_t> &cfg, uint64_t seed,
               unsigned messages, uint64_t cycles, std::vector<Delivery> &got)
{
    char err[DEV_ERR_LEN];
    device_t *n = dev_open(nd, DEV_IMPL_CSIM, err, sizeof err);
    if (!n)
        return false;
    dev_reset(n, nullptr, 0);
    for (unsigned r = 0; r < cfg.size(); r++) {
        dev_write_t w = {r * 256 + RN1_REG_CFG, cfg[r], ~0ull};
        dev_reg_write(n, &w);
        dev_tick(n);
    }
    ni_policy_t pol = policy();
    ni_t *ni = ni_create(rnpnet_topo_of(nd), &pol, seed, 0);
    if (!ni) {
        dev_close(n);
        return false;
    }
    ni_set_callbacks(ni, &got, nullptr, nullptr, on_rx);
    std::vector<uint64_t> in(nd->nports, 0), out(nd->nports, 0);
    for (uint64_t t = 0; t < cycles; t++) {
        dev_set_inputs(n, in.data());
        dev_get_outputs(n, out.data());
        traffic(ni, t, messages);
        dev_write_t wr;
        if (ni_cycle(ni, t, out.data(), in.data(), &wr))
            dev_reg_write(n, &wr);
        dev_tick(n);
    }
    ni_free(ni);
    dev_close(n);
    return true;
}

} // namespace

int cmd_sc_rnpnet(int argc, char **argv)
{
    unsigned messages = 4, models = LS_RTL;
    uint64_t seed = 1;
    const char *wave = nullptr;
    opts_opt_t opts[5] = {};
    opts[0] = {"messages", 0, OPTS_UINT, &messages};
    opts[0].min = 1;
    opts[0].max = 64;
    opts[0].msg = "--messages takes a number from 1 to 64";
    opts[1] = {"seed", 0, OPTS_U64, &seed};
    opts[1].msg = "--seed takes a number";
    opts[2] = {"model", 0, OPTS_FN, &models};
    opts[2].fn = cmd_models;
    opts[2].msg = "--model takes rtl or csim";
    opts[3] = {"wave", 0, OPTS_STR, &wave};
    opts[3].msg = "--wave takes a file name";
    opts_cmd_t c = {};
    c.name = "rnpnet";
    c.style = OPTS_HINT;
    c.unknown = "unknown option";
    c.opts = opts;
    int rc = cmd_parse(&c, usage_rnpnet, argc, argv, nullptr);
    if (rc >= 0)
        return rc;
    if (models == LS_BOTH)
        return cmd_bad("rnpnet", "--model takes rtl or csim", "both");
    if (wave && models != LS_RTL)
        return cmd_bad("rnpnet", "--wave traces the RTL routers (--model rtl)", wave);
    const dev_design_t *nd = rnpnet_find_design("rnpnet16");
    // The looked-up network design is ours to release, on every way out (after the network
    // built from its topology is gone: declared before it).
    struct Owned {
        const dev_design_t *d;
        ~Owned() { dev_design_release(d); }
    } owned{nd};
    std::vector<uint64_t> cfg;
    uint16_t netseed = static_cast<uint16_t>(1 + seed % 65535);
    if (!nd || !router_cfgs(nd, netseed, cfg)) {
        fprintf(stderr, "ftsim-sc rnpnet: cannot open the C harness's rnpnet16\n");
        return 1;
    }
    const rnpnet_topo_t *t = rnpnet_topo_of(nd);
    Verilated::threadContextp(ftsim_vl_context());
    Net net("net", t, models == LS_RTL, cfg, seed, messages);
    char err[DEV_ERR_LEN];
    if (wave) {
        sc_start(SC_ZERO_TIME); // elaboration done: Verilator traces an SC model only after it
        net.tfp = ftsim_vl_fst_for(
            [&net](VerilatedFstC *f) {
                for (Vscrn1 *m : net.rtl_)
                    m->trace(f, 99);
            },
            wave, err, sizeof err);
        if (!net.tfp) {
            fprintf(stderr, "ftsim-sc rnpnet: %s\n", err);
            return 1;
        }
    }
    sc_start();
    if (net.tfp)
        ftsim_vl_trace_close(net.tfp);
    printf("rnpnet: %u endpoints, %u stages, %u %s RN1 modules wired through sc_signals (wiring "
           "seed 1)\n",
           t->n, t->stages, t->nrouters, models == LS_RTL ? "rtl" : "csim");
    bool pass = net.configured;
    printf("rnpnet: the CPU wrote each router's CFG over TLM and read back:\n");
    printf("| router | stage | ID | CFG written | CFG read back |\n|---|---:|---|---|---|\n");
    for (unsigned r = 0; r < t->nrouters && net.configured; r++) {
        printf("| r%u | %u | 0x%08llx | 0x%016llx | 0x%016llx |\n", r, rnpnet_stage(t, r),
               (unsigned long long)net.id_back[r], (unsigned long long)cfg[r],
               (unsigned long long)net.cfg_back[r]);
        pass = pass && net.cfg_back[r] == cfg[r];
    }
    const ni_stats_t *s = net.stats();
    unsigned total = kEndpoints * messages;
    printf("rnpnet: %u messages sent (%u per endpoint), %llu delivered, %llu failed, %u in "
           "flight after %llu cycles; %llu attempts (%llu blocked by contention, retried)\n",
           total, messages, (unsigned long long)s->delivered, (unsigned long long)s->failed,
           net.in_flight(), (unsigned long long)net.cycles, (unsigned long long)s->attempts,
           (unsigned long long)s->outcome[NI_BLOCKED]);
    unsigned rx[kEndpoints] = {};
    for (const Delivery &d : net.got)
        rx[d.dst]++;
    printf("| endpoint | sent | received |\n|---:|---:|---:|\n");
    for (unsigned e = 0; e < kEndpoints; e++)
        printf("| %u | %u | %u |\n", e, messages, rx[e]);
    if (net.masked())
        printf("rnpnet: the endpoints' monitor asked for %u port masking writes, which this "
               "platform does not make (no fault is injected here)\n",
               net.masked());
    pass = pass && s->delivered == total && net.got.size() == total && net.masked() == 0;
    std::vector<Delivery> ref;
    bool rok = reference(nd, cfg, seed, messages, net.cycles, ref);
    bool same = rok && ref == net.got;
    size_t first = 0;
    while (first < ref.size() && first < net.got.size() && ref[first] == net.got[first])
        first++;
    printf("rnpnet: the C harness's rnpnet16 (C model routers), same configuration and traffic: "
           "%zu delivered, %s\n",
           ref.size(), same ? "the same messages at the same cycles" : "DIFFERENT");
    if (!same && rok)
        printf("rnpnet: first difference at delivery %zu: SystemC %s, C harness %s\n", first,
               first < net.got.size() ? ("cycle " + std::to_string(net.got[first].cycle)).c_str()
                                      : "none",
               first < ref.size() ? ("cycle " + std::to_string(ref[first].cycle)).c_str() : "none");
    pass = pass && same;
    if (wave && pass)
        printf("rnpnet: waveform %s (cycle 0, the first traffic cycle, at 0 ns)\n", wave);
    printf("%s rnpnet (16 endpoints, %u %s routers)\n", pass ? "PASS" : "FAIL", t->nrouters,
           models == LS_RTL ? "rtl" : "csim");
    return pass ? 0 : 1;
}
