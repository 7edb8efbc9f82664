// sc_regs.cpp — `ftsim-sc regs`: every register of a design written and read through its TLM-2.0
// target socket (sc_tlm.h), each access compared with the same access on the register port of
// the C harness's model (dev_reg_write, dev_reg_read), cycle for cycle.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <tlm_utils/simple_initiator_socket.h>
#include <vector>

#include "sc_main.h"
#include "sc_tlm.h"

extern "C" {
#include "cmd.h"
#include "registry.h"
}

using namespace sc_core;

namespace
{

const char usage_regs[] =
    "usage: ftsim-sc regs [--device NAME]\n"
    "\n"
    "Writes and reads every register of the design (default p2snode2; rn1, lc3, p2s and the\n"
    "nodes) through the TLM-2.0 target socket of its SystemC modules (register a at byte\n"
    "address 8a): whole registers, byte enables, halves and single bytes, and the debug\n"
    "transport of the C model's module. The RTL module and the C model module are each run\n"
    "beside the C harness's model of the same kind (the Verilated --cc RTL, the C model),\n"
    "clocked together from reset, and every access is compared with the same access on the\n"
    "C harness's register port. Ends with PASS or FAIL. Exit: 0 pass, 1 a difference, 2 bad\n"
    "arguments.\n";

// Two units (RTL, C model) of one design on one clock, each behind a TLM target, and beside
// each the C harness's model of the same kind stepped on the same edges.
struct RegsBench : sc_module {
    SC_HAS_PROCESS(RegsBench);
    RegsBench(sc_module_name n, const dev_design_t *orig, device_t *const unit[2],
              device_t *const ref[2])
        : sc_module(n), orig_(orig)
    {
        for (unsigned k = 0; k < 2; k++) {
            unit_[k] = unit[k];
            ref_[k] = ref[k];
            const dev_ops_t *ops = nullptr;
            void *model = nullptr;
            sc_dev_csim_model(unit[k], &ops, &model);
            std::string tn = std::string("target_") + (k ? "csim" : "rtl");
            tgt_[k] = new ftsim_sc::RegTarget(tn.c_str(), sc_dev_reg_pins(unit[k]), ops, model);
            init_[k] = new tlm_utils::simple_initiator_socket<RegsBench>(
                (std::string("cpu_") + (k ? "csim" : "rtl")).c_str());
            init_[k]->bind(tgt_[k]->socket);
        }
        SC_THREAD(clock);
        SC_METHOD(edge);
        sensitive << sc_dev_reg_pins(unit[0]).clk_i.posedge_event();
        dont_initialize();
        SC_THREAD(cpu);
    }
    unsigned compared = 0, differ = 0;

  private:
    // One clock for both units: 10 ns, high first (dev.h).
    void clock()
    {
        for (;;) {
            for (unsigned k = 0; k < 2; k++)
                sc_dev_reg_pins(unit_[k]).clk_i.write(false);
            wait(5, SC_NS);
            for (unsigned k = 0; k < 2; k++)
                sc_dev_reg_pins(unit_[k]).clk_i.write(true);
            wait(5, SC_NS);
        }
    }
    // The C harness's models take the same edges once the units leave reset (they were reset by
    // dev_reset: two edges in reset, then released, as the units are here).
    void edge()
    {
        if (++edges_ <= 2)
            return;
        for (unsigned k = 0; k < 2; k++)
            dev_tick(ref_[k]);
    }

    // One access through the socket; the C harness's model given the same access in this cycle.
    uint64_t access(unsigned k, bool write, uint64_t addr, unsigned len, uint64_t data,
                    const unsigned char *be, unsigned belen, bool dbg)
    {
        tlm::tlm_generic_payload t;
        unsigned char buf[8] = {0};
        for (unsigned i = 0; i < len; i++)
            buf[i] = static_cast<unsigned char>(data >> (8 * i));
        t.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
        t.set_address(addr);
        t.set_data_ptr(buf);
        t.set_data_length(len);
        t.set_streaming_width(len);
        t.set_byte_enable_ptr(const_cast<unsigned char *>(be));
        t.set_byte_enable_length(be ? belen : 0);
        t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        uint32_t reg = static_cast<uint32_t>(addr / 8), off = static_cast<uint32_t>(addr % 8);
        uint64_t mask = 0;
        for (unsigned i = 0; i < len; i++)
            if (!be || be[i % belen] == TLM_BYTE_ENABLED)
                mask |= 0xFFull << (8 * (off + i));
        if (write) {
            dev_write_t w = {reg, data << (8 * off), mask};
            dev_reg_write(ref_[k], &w);
        }
        if (dbg) {
            if ((*init_[k])->transport_dbg(t) != len)
                report(k, reg, "the debug transport moved no bytes", 0, 0);
        } else {
            sc_time delay = SC_ZERO_TIME;
            (*init_[k])->b_transport(t, delay);
            if (t.get_response_status() != tlm::TLM_OK_RESPONSE)
                report(k, reg, t.get_response_string().c_str(), 0, 0);
        }
        uint64_t got = 0;
        for (unsigned i = 0; i < len; i++)
            got |= static_cast<uint64_t>(buf[i]) << (8 * (off + i));
        if (!write) {
            uint64_t want = dev_reg_read(ref_[k], reg) & mask;
            compared++;
            if ((got & mask) != want)
                report(k, reg, "read", got & mask, want);
        }
        return got;
    }

    void report(unsigned k, uint32_t reg, const char *what, uint64_t got, uint64_t want)
    {
        if (differ++ < 10)
            printf("regs: %s: %s register 0x%02x: %s: TLM 0x%016llx, C harness 0x%016llx\n",
                   orig_->name, k ? "csim" : "rtl", reg, what, (unsigned long long)got,
                   (unsigned long long)want);
    }

    void cpu()
    {
        for (unsigned k = 0; k < 2; k++)
            sc_dev_reg_pins(unit_[k]).rst_ni.write(false);
        for (int i = 0; i < 2; i++)
            wait(sc_dev_reg_pins(unit_[0]).clk_i.posedge_event());
        for (unsigned k = 0; k < 2; k++)
            sc_dev_reg_pins(unit_[k]).rst_ni.write(true);
        std::vector<uint32_t> regs;
        for (unsigned r = 0; r < orig_->nregs; r++)
            regs.push_back(orig_->regs[r].addr);
        std::sort(regs.begin(), regs.end());
        regs.erase(std::unique(regs.begin(), regs.end()), regs.end());
        static const unsigned char odd_bytes[8] = {0, 0xFF, 0, 0, 0, 0xFF, 0, 0};
        for (uint32_t a : regs)
            for (unsigned k = 0; k < 2; k++) {
                uint64_t base = 8ull * a, p = 0x0123456789ABCDEFull ^ (a * 0x1111111111111111ull);
                access(k, false, base, 8, 0, nullptr, 0, false); // after reset
                access(k, true, base, 8, p, nullptr, 0, false);  // whole
                access(k, false, base, 8, 0, nullptr, 0, false);
                access(k, true, base, 8, ~p, odd_bytes, 8, false); // bytes 1 and 5
                access(k, false, base, 8, 0, nullptr, 0, false);
                access(k, true, base + 4, 4, 0xFFFFFFFFull, nullptr, 0, false); // the upper half
                access(k, false, base, 4, 0, nullptr, 0, false);
                access(k, false, base + 4, 4, 0, nullptr, 0, false);
                for (unsigned b = 0; b < 8; b++)
                    access(k, false, base + b, 1, 0, nullptr, 0, false);
                if (k == 1)
                    access(k, false, base, 8, 0, nullptr, 0, true); // debug transport
            }
        // An address past the map is refused.
        tlm::tlm_generic_payload t;
        unsigned char buf[8];
        t.set_command(tlm::TLM_READ_COMMAND);
        t.set_address(8ull * ftsim_sc::RegTarget::kRegs);
        t.set_data_ptr(buf);
        t.set_data_length(8);
        t.set_streaming_width(8);
        sc_time delay = SC_ZERO_TIME;
        (*init_[0])->b_transport(t, delay);
        if (t.get_response_status() != tlm::TLM_ADDRESS_ERROR_RESPONSE)
            report(0, 0x100, "an address past the map was not refused", 0, 0);
        printf("regs: %s: %zu registers, %u reads compared on the RTL and the C model modules, "
               "%u differ\n",
               orig_->name, regs.size(), compared, differ);
        sc_stop();
    }

    const dev_design_t *orig_;
    device_t *unit_[2], *ref_[2];
    ftsim_sc::RegTarget *tgt_[2];
    tlm_utils::simple_initiator_socket<RegsBench> *init_[2];
    unsigned edges_ = 0;
};

} // namespace

int cmd_sc_regs(int argc, char **argv)
{
    const char *name = "p2snode2";
    opts_opt_t opts[2] = {};
    opts[0] = {"device", 0, OPTS_STR, &name};
    opts[0].msg = "--device takes a design name";
    opts_cmd_t c = {};
    c.name = "regs";
    c.style = OPTS_HINT;
    c.unknown = "unknown option";
    c.opts = opts;
    int rc = cmd_parse(&c, usage_regs, argc, argv, nullptr);
    if (rc >= 0)
        return rc;
    const dev_design_t *orig = dev_catalog_find(&registry_catalog, name);
    const dev_design_t *sd = orig ? sc_design_for(orig) : nullptr;
    if (!sd) {
        dev_design_release(orig);
        return cmd_bad("regs",
                       "--device takes rn1, lc3, p2s, lc3node, p2snode, lc3node2 or "
                       "p2snode2",
                       name);
    }
    char err[DEV_ERR_LEN];
    device_t *unit[2] = {}, *ref[2] = {};
    const dev_impl_t impl[2] = {DEV_IMPL_RTL, DEV_IMPL_CSIM};
    for (unsigned k = 0; k < 2; k++) {
        unit[k] = dev_open(sd, impl[k], err, sizeof err);
        ref[k] = unit[k] ? dev_open(orig, impl[k], err, sizeof err) : nullptr;
        if (!ref[k]) {
            fprintf(stderr, "ftsim-sc: %s\n", err);
            for (unsigned j = 0; j <= k; j++) {
                dev_close(unit[j]);
                dev_close(j < k ? ref[j] : nullptr);
            }
            return 2;
        }
        dev_reset(ref[k], nullptr, 0);
    }
    RegsBench bench("regs", orig, unit, ref);
    sc_start();
    int fail = bench.differ || !bench.compared;
    for (unsigned k = 0; k < 2; k++) {
        dev_close(ref[k]);
        dev_close(unit[k]);
    }
    printf("%s regs %s\n", fail ? "FAIL" : "PASS", sd->name);
    return fail ? 1 : 0;
}
