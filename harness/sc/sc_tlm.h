// sc_tlm.h — a design's register port as a TLM-2.0 target socket, so that a virtual platform's
// CPU model configures a router with ordinary memory-mapped transactions.
//
// Memory map: register a (dev.h, the design's register addresses 0x00..0xFF) at byte address
// 8 a, little-endian, 64 bits wide. A transaction stays inside one register (8 a + offset,
// offset + length <= 8); byte enables (TLM's 0xFF per enabled byte, the pattern repeated over
// the length) select the bytes.
//
//   b_transport, write  a register write with byte strobes: reg_we_i, reg_waddr_i, reg_wdata_i
//                       and reg_wstrb_i driven until the next rising clock edge, which takes it
//                       (one write a cycle, as the port has); returns after that edge
//   b_transport, read   reg_raddr_i driven, the register read after the module settles (delta
//                       cycles, no clock edge): the register's value in the current cycle
//   transport_dbg       the same access with no time and no wait. A C model target reads and
//                       writes the model directly (a write takes effect at the next edge, as
//                       the port's). The Verilated module's register port is combinational
//                       logic evaluated by the SystemC scheduler, which a debug access must not
//                       enter: an RTL target answers 0 bytes (TLM's "not supported").
//
// Errors: an address past register 0xFF is TLM_ADDRESS_ERROR_RESPONSE, an access crossing a
// register or longer than its streaming width TLM_BURST_ERROR_RESPONSE, a command other than
// read or write TLM_COMMAND_ERROR_RESPONSE.
#ifndef FTSIM_SC_TLM_H
#define FTSIM_SC_TLM_H

#include <cstring>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "sc_dev.h"
#include "sc_model.h"

namespace ftsim_sc
{

struct RegTarget : sc_core::sc_module {
    tlm_utils::simple_target_socket<RegTarget> socket;

    // pins: the unit's register port; model: the C model behind it for debug accesses (ops
    // NULL for an RTL unit).
    RegTarget(sc_core::sc_module_name n, const ScRegPins &pins, const dev_ops_t *ops, void *model)
        : sc_core::sc_module(n), socket("socket"), pins_(pins), ops_(ops), model_(model)
    {
        socket.register_b_transport(this, &RegTarget::b_transport);
        socket.register_transport_dbg(this, &RegTarget::transport_dbg);
    }

    static constexpr unsigned kRegs = 0x100;

  private:
    struct Access {
        uint32_t reg, off;
        uint64_t data; // the bytes of the transaction at their place in the register
        uint32_t strb; // the bytes enabled
    };

    // The transaction as a register access, or its error response.
    static tlm::tlm_response_status decode(tlm::tlm_generic_payload &t, Access &a)
    {
        uint64_t addr = t.get_address();
        unsigned len = t.get_data_length();
        if (t.get_command() != tlm::TLM_READ_COMMAND && t.get_command() != tlm::TLM_WRITE_COMMAND)
            return tlm::TLM_COMMAND_ERROR_RESPONSE;
        if (addr / 8 >= kRegs)
            return tlm::TLM_ADDRESS_ERROR_RESPONSE;
        a.reg = static_cast<uint32_t>(addr / 8);
        a.off = static_cast<uint32_t>(addr % 8);
        if (len == 0 || a.off + len > 8 ||
            (t.get_streaming_width() && t.get_streaming_width() < len))
            return tlm::TLM_BURST_ERROR_RESPONSE;
        const unsigned char *be = t.get_byte_enable_ptr();
        unsigned belen = t.get_byte_enable_length();
        a.strb = 0;
        a.data = 0;
        for (unsigned i = 0; i < len; i++) {
            bool on = !be || !belen || be[i % belen] == TLM_BYTE_ENABLED;
            if (on)
                a.strb |= 1u << (a.off + i);
            if (t.is_write())
                a.data |= static_cast<uint64_t>(t.get_data_ptr()[i]) << (8 * (a.off + i));
        }
        return tlm::TLM_OK_RESPONSE;
    }

    // A read's bytes into the payload (only the enabled ones).
    static void fill(tlm::tlm_generic_payload &t, const Access &a, uint64_t value)
    {
        for (unsigned i = 0; i < t.get_data_length(); i++)
            if ((a.strb >> (a.off + i)) & 1u)
                t.get_data_ptr()[i] = static_cast<unsigned char>(value >> (8 * (a.off + i)));
    }

    void b_transport(tlm::tlm_generic_payload &t, sc_core::sc_time &delay)
    {
        Access a;
        tlm::tlm_response_status st = decode(t, a);
        t.set_response_status(st);
        if (st != tlm::TLM_OK_RESPONSE)
            return;
        wait(delay);
        delay = sc_core::SC_ZERO_TIME;
        if (t.is_write()) {
            pins_.reg_waddr_i.write(a.reg);
            pins_.reg_wdata_i.write(a.data);
            pins_.reg_wstrb_i.write(a.strb);
            pins_.reg_we_i.write(true);
            wait(pins_.clk_i.posedge_event());
            pins_.reg_we_i.write(false);
        } else {
            pins_.reg_raddr_i.write(a.reg);
            // The address reaches the module in the next delta; its read port answers in the one
            // after.
            wait(sc_core::SC_ZERO_TIME);
            wait(sc_core::SC_ZERO_TIME);
            fill(t, a, pins_.reg_rdata_o.read());
        }
    }

    unsigned transport_dbg(tlm::tlm_generic_payload &t)
    {
        Access a;
        if (!ops_ || decode(t, a) != tlm::TLM_OK_RESPONSE)
            return 0;
        if (t.is_write())
            ops_->reg_write(model_, a.reg, a.data, strobe_mask(a.strb));
        else
            fill(t, a, ops_->reg_read(model_, a.reg));
        return t.get_data_length();
    }

    ScRegPins pins_;
    const dev_ops_t *ops_;
    void *model_;
};

// The CPU's side of the map: one whole register read or written (all 8 bytes) by b_transport
// through an initiator socket; a response that is not OK is a SystemC error report. Returns
// the register read (a write returns what was written).
template <typename Socket>
uint64_t cpu_access(Socket &cpu, bool write, uint32_t reg, uint64_t value)
{
    tlm::tlm_generic_payload t;
    unsigned char buf[8];
    for (unsigned b = 0; b < 8; b++)
        buf[b] = static_cast<unsigned char>(value >> (8 * b));
    t.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    t.set_address(8ull * reg);
    t.set_data_ptr(buf);
    t.set_data_length(8);
    t.set_streaming_width(8);
    t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    cpu->b_transport(t, delay);
    if (!t.is_response_ok())
        SC_REPORT_ERROR("ftsim", t.get_response_string().c_str());
    uint64_t v = 0;
    for (unsigned b = 0; b < 8; b++)
        v |= static_cast<uint64_t>(buf[b]) << (8 * b);
    return v;
}

} // namespace ftsim_sc

#endif
