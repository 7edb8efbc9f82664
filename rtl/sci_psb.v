`default_nettype none
// sci_psb -- SCI node host adapter (PSB) with the node's B-link arbiter: host send FIFO, host
// receive FIFO, reply buffer, BRT and (P2S) address select, remote-read timer, (P2S with two LCs)
// hardware failover, registers 0x80-0x90.
//
// Interface contract and timing (rtl/sci_node.md sections 2-4; conventions of rtl/sci_lc.md):
// words are {valid, sym[15:0]}; a symbol moves in a cycle where valid and ready are both 1.
// Reset is synchronous, active low. hin_ready_o, hout_o, hout_last_o and dbg_o depend
// on registers only; reg_rdata_o also on reg_raddr_i; the B-link outputs toward the LCs
// (lc_bout_ready_o, lc_bin_o, lc_bin_last_o) are combinational from registers and the LCs'
// register-driven bout_valid/bout_port/bin_ready. An LC's bout_ready never depends on its own
// bout_valid (LC 1's depends on LC 0's through the priority), so there is no combinational loop.
// Host send FIFO (8 packets x 37 symbols): hin_ready_o = a packet is being filled, or fewer
// than 8 complete packets are held; a packet whose last symbol moves at the edge ending cycle t
// is the head from t+1. Receive FIFO (8 x 37): a packet whose last symbol moves on the B-link at
// the edge ending cycle t is on hout_o from t+1 when it is the head; one symbol per cycle while
// hout_ready_i. B-link: free in cycle t when no packet is under way at the start of t; in a free
// cycle the first of LC 0, LC 1, reply buffer, host send FIFO whose head is valid and whose
// destination is ready is picked and its symbol 0 moves in that cycle; the packet then moves
// one symbol per cycle where the source is valid and the destination ready; its last symbol
// frees the B-link from the next cycle. Destination ready: LC k = its bin_ready; port 0 = the
// receive FIFO holds fewer than 8 packets (count at the start of the cycle); discard = 1. A
// packet already under way to port 0 or to discard is always ready.
// Host packet routing (looked up while it is the head, latched when it starts): P2S replaces
// targetId bit 14 by ASEL[targetId[12:0]] on the B-link copy; port = BRT[index] (LC3: [7:0];
// P2S: {bit 14, [12:0]}); a PROBE (type 0x10) goes to port 1 + payload[0] instead. Ports 1 + k
// with k >= NLC and port 7 discard (symbols move to nowhere, STATUS.discarded +1 at symbol 0).
// Port 0 handling: a STATUS_READ (type 0x11) is consumed; at its last symbol a STATUS_REPLY
// {read's sourceId, 0x1200, node id, read's tid, lc, STATUS of LC lc (0 if lc >= NLC), CRC} is
// pushed into the reply buffer (2 packets) or dropped when the buffer holds 2. Remote-read timer:
// armed with rsr_timeout when a host STATUS_READ's symbol 0 moves (cycle t0); it expires in
// cycle t0 + rsr_timeout and the timeout reply {node id, 0x1200, read's targetId, read's tid,
// 0x8000 | lc, 0x0000, CRC} is in the reply buffer from t0 + rsr_timeout + 1 (routed to port 0
// directly, no address select), or later when the buffer is full (the timer stays expired).
// CRCs built here: CRC-16/CCITT from 0xFFFF over the 6 symbols before it, targetId bit 14 and
// command bit 7 taken as 0 (rtl/sci_lc.md section 2), via sci_crc16.
// Hardware failover (sci_node.md section 6; P2s = 1 and NLC = 2 only, CTRL.fo_en = 1): LC k is
// down when its STATUS[0] is 0 or STATUS[2] is 1; column/row of an id by CTRL.xw. Rule 1: on the
// host head and the non-direct reply head, bit 14 := 1 (instead of ASEL) when FOCOL.valid, the
// target's column is FOCOL's and its row is not ours; the BRT lookup uses that bit. Rule 2 (not
// a PROBE): BRT port 1 with LC 0 down -> port 2, bit 14 := (ty != sy); port 2 with LC 1 down ->
// port 1, bit 14 := 0; all from the cycle's registers, used by the arbiter in the same cycle.
// Rule 3: fo_byp_o = fo_en and LC 1 down, fo_xmask_o = 0x000F (xw 0) or 0x003F (xw 1), for LC 0.
// Rule 4: ydown_q := LC 1 down every cycle (reset 1), yup_seen set once LC 1 is up; a NOTIFY
// {NTGT, 0x1300, node id, 0, down, 0x0001, CRC} is owed from a cycle where yup_seen is 1 and
// they differ, and pushed into the reply buffer (after this
// edge's STATUS_REPLY and timeout-reply pushes) at the first edge with room. Rule 5: a NOTIFY
// (type 0x13) arriving for port 0 whose symbol 5 is 0x0001 sets FOCOL := {column of its
// sourceId, valid = symbol 4 bit 0} at the edge symbol 5 moves; a register write wins.
// Register port: writes at the rising edge (byte strobes), a reset edge with a write keeps CTRL,
// TADDR, FOCOL and NTGT and performs the write (as the LC); reads combinational. 0x80 CTRL
// [12:0] node id (0), [16] fo_en (0), [17] xw (0), [47:32] rsr_timeout (2000); 0x81 STATUS
// (... [11] NOTIFY owed, [12] ydown_q, [13] yup_seen); 0x84 FOCOL [0] valid, [13:8] column (0); 0x85 NTGT
// [12:0] (0); 0x88 TADDR [13:0]; 0x8A BRT [2:0] of entry TADDR; 0x8B ASEL [0] of entry
// TADDR[12:0] (P2S; 0 on LC3); 0x90 DBG. Other addresses read 0. CTRL[17:16], FOCOL and NTGT
// are not stored (read 0) unless P2s = 1 and NLC = 2.
//
// Choices where rtl/sci_node.md is silent (also listed in rtl/sci_node.v's header):
// - A PROBE's port is 1 + payload[0] when payload[0] <= 5, else 7; payload[0] is symbol 4 of
//   the stored packet (0 when the packet has fewer than 5 symbols). The address select is
//   applied to every host packet's targetId, PROBEs included.
// - Header fields of a stored packet (command, tid, payload[0]) read as 0 when the packet is
//   too short to hold them; the same for a STATUS_READ arriving on port 0.
// - Every STATUS_READ that the B-link delivers to port 0 is answered (the routing tables decide
//   "for this node"; its targetId is not compared). Its CRC is not checked. A read dropped for a
//   full reply buffer is not counted anywhere. Buffer occupancy is the count at the start of the
//   cycle (a slot freed in the same cycle is not reused in that cycle). When a STATUS_REPLY
//   build and a timeout reply meet in one cycle, the STATUS_REPLY is queued first.
// - The timer disarms in the cycle the matching STATUS_REPLY's tid (symbol 3) moves on the
//   B-link to port 0 (this wins over an expiry in the same cycle). The timer tracks the last host
//   read: a new read replaces a pending (even expired) one; a read sent while rsr_timeout is 0
//   disarms it. The timeout reply's sourceId is the read's targetId as the host wrote it
//   (before the address select). STATUS[10] stays 1 while an expired timer waits for a slot;
//   DBG[27:12] is 0 then.
// - STATUS[3:0] and [7:4] count complete packets; the receive FIFO's room is that count at the
//   start of the cycle. A symbol offered on hin_i at a reset edge is not stored.
// - STATUS.discarded counts every B-link packet routed to discard (from any source), at its
//   symbol 0. Symbols past the 37th of a packet are dropped in both FIFOs (B-link packets are at
//   most 37 symbols long anyway). DBG [5:3] and [11:6] are 0 while the B-link is free.
// - Failover exists only with P2s = 1 and NLC = 2: elsewhere CTRL[16] (fo_en) and [17] (xw) are
//   not writable and read 0, FOCOL and NTGT read 0, STATUS[13:11] are 0, fo_byp_o is 0.
// - ydown_q follows LC 1 down every cycle whatever fo_en (so enabling fo_en while LC 1 is down
//   owes nothing; a change while fo_en = 0 is not remembered); a NOTIFY is owed only while fo_en
//   = 1, and one still owed when fo_en is cleared is dropped. ydown_q resets to 1 (a ring is
//   down after reset) and nothing is owed before the Y ring has been up once, so a node booting
//   or powering up with fo_en set notifies nobody.
// - STATUS[11] is the owed register: a NOTIFY pushed at the edge ending the cycle it became owed
//   never shows there. The reply buffer's room for it is the count at the start of the cycle
//   plus this edge's STATUS_REPLY and timeout-reply pushes (a slot freed in the cycle is not
//   reused in it), as for the other pushes.
// - Rule 1 (forced address select) applies to PROBEs too, like the address select; rule 2 never
//   does. Rule 2 is applied once, to the BRT's port (with both LCs down, 1 -> 2 and 2 -> 1).
//   Rules 1 and 2 use the targetId as stored (the host's or the reply record's); the timeout
//   reply (direct) is untouched.
// - Columns are compared as 6-bit values (x zero-extended when xw = 0): FOCOL[13:8] := the
//   sourceId's column zero-extended, and a FOCOL column >= 16 written with xw = 0 matches no id.
// - Rule 5 looks only at the type (command[15:8]) and symbol 5 (payload[1]) of a packet for
//   port 0, at the edge symbol 5 moves (not its CRC, length or targetId); it acts only while
//   fo_en = 1. The NOTIFY still goes to the receive FIFO.
// - FOCOL and NTGT are configuration registers like CTRL: a reset edge without a write to the
//   PSB clears them, a configuration cycle keeps them (NTGT can be set in reset cycles).
//
// State held: CTRL, TADDR, FOCOL, NTGT, send FIFO (8 x 64-word RAM slots, lengths, pointers,
// fill state), receive FIFO (same), reply buffer (2 records), B-link owner/destination/symbol
// count, captured fields of the packet arriving on port 0, remote-read timer, discard counter,
// ydown_q and the owed NOTIFY (flag, down bit); tables
// BRT (256 or 16384 x 3) and ASEL (P2S, 8192 x 1), not reset (zero at simulation start).
//
// Parameters: P2s = 0 (LC3) or 1 (P2S); NLC = 1 or 2 (number of LCs on the B-link).
//
// Coding rule, for Icarus 11.0 (-g2012): all logic is continuous assignments of expressions and
// automatic-function results; memory reads are continuous assignments.

`include "ft_assert.svh"

module sci_psb #(
  parameter P2s = 0,
  parameter NLC = 1
) (
  input  wire              clk_i,
  input  wire              rst_ni,
  // host
  input  wire  [16:0]      hin_i,
  input  wire              hin_last_i,
  output wire              hin_ready_o,
  output wire  [16:0]      hout_o,
  output wire              hout_last_o,
  input  wire              hout_ready_i,
  // register port (PSB addresses 0x80-0xFF; the node decodes the LC ranges)
  input  wire              reg_we_i,
  input  wire  [7:0]       reg_waddr_i,
  input  wire  [63:0]      reg_wdata_i,
  input  wire  [7:0]       reg_wstrb_i,
  input  wire  [7:0]       reg_raddr_i,
  output wire  [63:0]      reg_rdata_o,
  // B-link toward the LCs: LC k in bits [k*17 +: 17], [k*3 +: 3], [k*16 +: 16], [k]
  input  wire  [NLC*17-1:0] lc_bout_i,
  input  wire  [NLC-1:0]    lc_bout_valid_i,
  input  wire  [NLC-1:0]    lc_bout_last_i,
  input  wire  [NLC*3-1:0]  lc_bout_port_i,
  output wire  [NLC-1:0]    lc_bout_ready_o,
  output wire  [NLC*17-1:0] lc_bin_o,
  output wire  [NLC-1:0]    lc_bin_last_o,
  input  wire  [NLC-1:0]    lc_bin_ready_i,
  input  wire  [NLC*16-1:0] lc_status_i,
  // P2S failover toward LC 0 (own-column bypass; 0 unless P2s = 1 and NLC = 2)
  output wire              fo_byp_o,
  output wire  [12:0]      fo_xmask_o,
  output wire  [63:0]      dbg_o
);

  localparam TW    = (P2s != 0) ? 14 : 8;   // BRT index width
  localparam TSIZE = 1 << TW;
  localparam MAXLEN = 6'd37;                // symbols kept per packet
  localparam FO = (P2s != 0) && (NLC >= 2); // hardware failover exists (sci_node.md section 6)

  localparam [7:0] ADDR_CTRL   = 8'h80;
  localparam [7:0] ADDR_STATUS = 8'h81;
  localparam [7:0] ADDR_TADDR  = 8'h88;
  localparam [7:0] ADDR_BRT    = 8'h8A;
  localparam [7:0] ADDR_ASEL   = 8'h8B;
  localparam [7:0] ADDR_FOCOL  = 8'h84;
  localparam [7:0] ADDR_NTGT   = 8'h85;
  localparam [7:0] ADDR_DBG    = 8'h90;

  // CTRL: node id, rsr_timeout; fo_en [16] and xw [17] only where failover exists.
  localparam [63:0] CTRL_MASK  = FO ? 64'h0000_FFFF_0003_1FFF : 64'h0000_FFFF_0000_1FFF;
  localparam [13:0] FOCOL_MASK = FO ? 14'h3F01 : 14'h0000;   // [13:8] column, [0] valid
  localparam [12:0] NTGT_MASK  = FO ? 13'h1FFF : 13'h0000;
  localparam [63:0] CTRL_RESET = 64'h0000_07D0_0000_0000;   // node 0, rsr_timeout 2000

  localparam [7:0] T_PROBE = 8'h10;
  localparam [7:0] T_READ  = 8'h11;
  localparam [7:0] T_REPLY = 8'h12;
  localparam [7:0] T_NOTIFY = 8'h13;
  localparam [15:0] CMD_REPLY  = 16'h1200;
  localparam [15:0] CMD_NOTIFY = 16'h1300;

  // B-link owners (DBG[2:0]).
  localparam [2:0] OW_FREE = 3'd0;
  localparam [2:0] OW_LC0  = 3'd1;
  localparam [2:0] OW_LC1  = 3'd2;
  localparam [2:0] OW_RB   = 3'd3;
  localparam [2:0] OW_HOST = 3'd4;

  localparam [2:0] PORT_DISCARD = 3'd7;
  localparam RBW = 98;                // reply record: {notify, direct, tgt, src, tid, p0, p1, crc}

  // ---------------------------------------------------------------------------------------
  // Registers
  logic [63:0]  cfg_q;
  logic [13:0]  taddr_q;
  // host send FIFO
  logic [2:0]   sf_head_q, sf_head_d, sf_tail_q, sf_tail_d;
  logic [3:0]   sf_cnt_q, sf_cnt_d;
  logic [47:0]  sf_len_q, sf_len_d;
  logic         sf_fill_q, sf_fill_d;
  logic [5:0]   sf_widx_q, sf_widx_d;
  // receive FIFO
  logic [2:0]   rf_head_q, rf_head_d, rf_tail_q, rf_tail_d;
  logic [3:0]   rf_cnt_q, rf_cnt_d;
  logic [47:0]  rf_len_q, rf_len_d;
  logic [5:0]   ho_idx_q, ho_idx_d;
  // reply buffer
  logic [2*RBW-1:0] rb_q, rb_d;
  logic         rb_head_q, rb_head_d, rb_tail_q, rb_tail_d;
  logic [1:0]   rb_cnt_q, rb_cnt_d;
  // B-link
  logic [2:0]   own_q, own_d;
  logic [2:0]   dport_q, dport_d;
  logic [5:0]   bcnt_q, bcnt_d;
  // packet arriving on port 0
  logic [7:0]   rx_type_q, rx_type_d;
  logic [15:0]  rx_src_q, rx_src_d, rx_tid_q, rx_tid_d, rx_lc_q, rx_lc_d;
  // remote-read timer
  logic         rsr_arm_q, rsr_arm_d;
  logic [15:0]  rsr_tmr_q, rsr_tmr_d;
  logic [15:0]  rsr_tid_q, rsr_tid_d, rsr_tgt_q, rsr_tgt_d, rsr_lc_q, rsr_lc_d;
  // discard counter
  logic [15:0]  disc_q, disc_d;
  // failover (P2S, NLC = 2): FOCOL, NTGT, LC 1 down seen, NOTIFY owed and its down bit
  logic [13:0]  focol_q;
  logic [12:0]  ntgt_q;
  logic         ydown_q, ydown_d, nt_owed_q, nt_owed_d, nt_down_q, nt_down_d;
  logic         yseen_q, yseen_d;

  // Memories.
  logic [15:0]  sf_mem [0:511];
  logic [15:0]  rf_mem [0:511];
  logic [2:0]   brt_mem [0:TSIZE-1];

  // ---------------------------------------------------------------------------------------
  // Configuration and register writes.
  wire [12:0] own    = cfg_q[12:0];
  wire [15:0] own16  = {3'b000, own};
  wire [15:0] rsr_to = cfg_q[47:32];
  wire        fo_en  = cfg_q[16];   // 0 unless P2S with NLC = 2 (CTRL_MASK)
  wire        xw     = cfg_q[17];

  wire        wr_ctrl = reg_we_i && (reg_waddr_i == ADDR_CTRL);
  wire        wr_tadr = reg_we_i && (reg_waddr_i == ADDR_TADDR);
  wire        wr_brt  = reg_we_i && (reg_waddr_i == ADDR_BRT) && reg_wstrb_i[0];

  // CTRL and TADDR (sci_cfg_reg): reset values at a reset edge without a register write; a
  // reset edge with one (a configuration cycle) keeps them and performs the write.
  sci_cfg_reg #(.W(64), .Mask(CTRL_MASK), .Reset(CTRL_RESET)) u_ctrl (
    .clk_i, .rst_ni, .any_we_i(reg_we_i), .we_i(wr_ctrl), .wdata_i(reg_wdata_i),
    .wstrb_i(reg_wstrb_i), .q_o(cfg_q));
  sci_cfg_reg #(.W(14)) u_taddr (
    .clk_i, .rst_ni, .any_we_i(reg_we_i), .we_i(wr_tadr), .wdata_i(reg_wdata_i[13:0]),
    .wstrb_i(reg_wstrb_i[1:0]), .q_o(taddr_q));
  // NTGT and FOCOL follow the same rule. FOCOL is also set by a NOTIFY received (rule 5 below,
  // nt_rx); a register write at the same edge wins.
  wire        wr_ntgt  = reg_we_i && (reg_waddr_i == ADDR_NTGT);
  wire        wr_focol = reg_we_i && (reg_waddr_i == ADDR_FOCOL);
  wire        nt_rx;
  wire [13:0] nt_focol;
  sci_cfg_reg #(.W(13), .Mask(NTGT_MASK)) u_ntgt (
    .clk_i, .rst_ni, .any_we_i(reg_we_i), .we_i(wr_ntgt), .wdata_i(reg_wdata_i[12:0]),
    .wstrb_i(reg_wstrb_i[1:0]), .q_o(ntgt_q));
  sci_cfg_reg #(.W(14), .Mask(FOCOL_MASK)) u_focol (
    .clk_i, .rst_ni, .any_we_i(reg_we_i), .we_i(wr_focol || nt_rx),
    .wdata_i(wr_focol ? reg_wdata_i[13:0] : nt_focol),
    .wstrb_i(wr_focol ? reg_wstrb_i[1:0] : 2'b11), .q_o(focol_q));

  // ---------------------------------------------------------------------------------------
  // Failover definitions (sci_node.md section 6): LC k down, column and row of an id.
  function automatic [5:0] col_of(input [12:0] id_i, input xw_i);
    return xw_i ? id_i[5:0] : {2'b00, id_i[3:0]};
  endfunction

  function automatic [5:0] row_of(input [12:0] id_i, input xw_i);
    return xw_i ? id_i[11:6] : {2'b00, id_i[7:4]};
  endfunction

  wire [15:0] lcs0, lcs1;
  wire        dn0 = !lcs0[0] || lcs0[2];
  wire        dn1 = FO && (!lcs1[0] || lcs1[2]);
  wire [5:0]  sy  = row_of(own, xw);
  wire        focol_v = focol_q[0];
  wire [5:0]  focol_c = focol_q[13:8];

  // Rule 1, forced address select: bit 14 := 1 for the notified failed column, other rows.
  function automatic fo_force(input [12:0] id_i, input en_i, input xw_i, input v_i,
                              input [5:0] c_i, input [5:0] sy_i);
    return en_i && v_i && (col_of(id_i, xw_i) == c_i) && (row_of(id_i, xw_i) != sy_i);
  endfunction

  // Rule 2, LC redirect after the BRT lookup: {port, targetId}. X-LC down: port 1 -> 2, bit 14
  // := (ty != sy); Y-LC down: port 2 -> 1, bit 14 := 0. en_i: failover on, not a PROBE.
  function automatic [18:0] fo_redirect(input [15:0] tgt_i, input [2:0] port_i, input en_i,
                                        input dn0_i, input dn1_i, input xw_i, input [5:0] sy_i);
    logic [18:0] r;
    r = {port_i, tgt_i};
    if (en_i && port_i == 3'd1 && dn0_i) begin
      r[18:16] = 3'd2;
      r[14]    = (row_of(tgt_i[12:0], xw_i) != sy_i);
    end else if (en_i && port_i == 3'd2 && dn1_i) begin
      r[18:16] = 3'd1;
      r[14]    = 1'b0;
    end
    return r;
  endfunction

  assign fo_byp_o   = fo_en && dn1;
  assign fo_xmask_o = xw ? 13'h003F : 13'h000F;

  // ---------------------------------------------------------------------------------------
  // Tables. BRT index as the LC's; ASEL (P2S) indexed by targetId[12:0].
  function automatic [13:0] tab_index(input [15:0] tgt_i);
    logic [13:0] r;
    if (P2s != 0) begin
      r = {tgt_i[14], tgt_i[12:0]};
    end else begin
      r = {6'd0, tgt_i[7:0]};
    end
    return r;
  endfunction

  wire [TW-1:0] ta_idx = taddr_q[TW-1:0];
  wire [2:0]    brt_rd = brt_mem[ta_idx];

  // Address select applied to a targetId: bit 14 := asel_i (P2S), unchanged on LC3.
  function automatic [15:0] with_sel(input [15:0] tgt_i, input asel_i);
    logic [15:0] r;
    r = tgt_i;
    if (P2s != 0) begin
      r[14] = asel_i;
    end
    return r;
  endfunction

  // ---------------------------------------------------------------------------------------
  // Host send FIFO: input side.
  assign hin_ready_o = sf_fill_q || (sf_cnt_q < 4'd8);
  wire       hx      = hin_i[16] && hin_ready_o;
  wire       h_end   = hx && hin_last_i;
  wire       sf_we   = hx && (sf_widx_q < MAXLEN);
  wire [8:0] sf_wa   = {sf_tail_q, sf_widx_q};
  wire [5:0] sf_nlen = (sf_widx_q < MAXLEN) ? sf_widx_q + 6'd1 : MAXLEN;

  function automatic [47:0] put6(input [47:0] v_i, input [2:0] at_i, input [5:0] x_i,
                                 input en_i);
    logic [47:0] r;
    r = v_i;
    if (en_i) begin
      r[at_i*6 +: 6] = x_i;
    end
    return r;
  endfunction

  assign sf_fill_d = hx ? !hin_last_i : sf_fill_q;
  assign sf_widx_d = h_end ? 6'd0 : (sf_we ? sf_widx_q + 6'd1 : sf_widx_q);
  assign sf_len_d  = put6(sf_len_q, sf_tail_q, sf_nlen, h_end);
  assign sf_tail_d = h_end ? sf_tail_q + 3'd1 : sf_tail_q;

  // Host send FIFO head: header fields (0 when the packet is too short), routing.
  wire [5:0]  sf_hlen  = sf_len_q[sf_head_q*6 +: 6];
  wire [15:0] sf_m0    = sf_mem[{sf_head_q, 6'd0}];
  wire [7:0]  sf_m1t   = sf_mem[{sf_head_q, 6'd1}][15:8];
  wire [15:0] sf_m3    = sf_mem[{sf_head_q, 6'd3}];
  wire [15:0] sf_m4    = sf_mem[{sf_head_q, 6'd4}];
  wire [7:0]  sf_type  = (sf_hlen > 6'd1) ? sf_m1t : 8'h00;
  wire [15:0] sf_tid   = (sf_hlen > 6'd3) ? sf_m3 : 16'd0;
  wire [15:0] sf_pay0  = (sf_hlen > 6'd4) ? sf_m4 : 16'd0;
  wire        sf_asel;
  wire        sf_force = fo_force(sf_m0[12:0], fo_en, xw, focol_v, focol_c, sy);
  wire [15:0] sf_tgt1  = with_sel(sf_m0, sf_asel || sf_force);
  wire [13:0] sf_idx14 = tab_index(sf_tgt1);
  wire [2:0]  sf_brt   = brt_mem[sf_idx14[TW-1:0]];
  wire [2:0]  sf_pport = (sf_pay0 <= 16'd5) ? (sf_pay0[2:0] + 3'd1) : PORT_DISCARD;
  wire        sf_probe = (sf_type == T_PROBE);
  wire [18:0] sf_rt    = fo_redirect(sf_tgt1, sf_probe ? sf_pport : sf_brt, fo_en && !sf_probe,
                                     dn0, dn1, xw, sy);
  wire [15:0] sf_tgt   = sf_rt[15:0];
  wire [2:0]  sf_port  = sf_rt[18:16];
  wire        sf_valid = (sf_cnt_q != 4'd0);

  // ---------------------------------------------------------------------------------------
  // Reply buffer head: records {notify, direct, tgt, src, tid, p0, p1, crc}; notify: the command
  // is 0x1300 (NOTIFY), else 0x1200 (STATUS_REPLY, timeout reply). A direct record (timeout
  // reply) goes to port 0 as it is; the others are routed as host packets (rules 1 and 2).
  wire [RBW-1:0] rb_rec    = rb_q[rb_head_q*RBW +: RBW];
  wire           rb_notify = rb_rec[97];
  wire           rb_direct = rb_rec[96];
  wire [15:0]    rb_tgt0   = rb_rec[95:80];
  wire           rb_asel;
  wire           rb_force  = fo_force(rb_tgt0[12:0], fo_en, xw, focol_v, focol_c, sy);
  wire [15:0]    rb_tgt1   = with_sel(rb_tgt0, rb_asel || rb_force);
  wire [13:0]    rb_idx14  = tab_index(rb_tgt1);
  wire [2:0]     rb_brt    = brt_mem[rb_idx14[TW-1:0]];
  wire [18:0]    rb_rt     = fo_redirect(rb_tgt1, rb_brt, fo_en, dn0, dn1, xw, sy);
  wire [15:0]    rb_tgt    = rb_direct ? rb_tgt0 : rb_rt[15:0];
  wire [2:0]     rb_port   = rb_direct ? 3'd0 : rb_rt[18:16];
  wire           rb_valid  = (rb_cnt_q != 2'd0);

  function automatic [15:0] rb_word(input [79:0] rec_i, input [15:0] tgt_i, input notify_i,
                                    input [5:0] idx_i);
    logic [15:0] r;
    case (idx_i)
      6'd0:    r = tgt_i;
      6'd1:    r = notify_i ? CMD_NOTIFY : CMD_REPLY;
      6'd2:    r = rec_i[79:64];
      6'd3:    r = rec_i[63:48];
      6'd4:    r = rec_i[47:32];
      6'd5:    r = rec_i[31:16];
      default: r = rec_i[15:0];
    endcase
    return r;
  endfunction

  // ASEL (P2S only): the host head's, the reply head's, and the register read.
  wire asel_rd;
  if (P2s != 0) begin : gen_asel
    logic asel_mem [0:8191];
    wire  wr_asel = reg_we_i && (reg_waddr_i == ADDR_ASEL) && reg_wstrb_i[0];
    assign sf_asel = asel_mem[sf_m0[12:0]];
    assign rb_asel = asel_mem[rb_tgt0[12:0]];
    assign asel_rd = asel_mem[taddr_q[12:0]];
    always_ff @(posedge clk_i) begin
      if (wr_asel) begin
        asel_mem[taddr_q[12:0]] <= reg_wdata_i[0];
      end
    end
`ifndef SYNTHESIS
    initial begin
      for (int i = 0; i < 8192; i++) begin
        asel_mem[i] = 1'b0;
      end
    end
`endif
  end else begin : gen_no_asel
    assign sf_asel = 1'b0;
    assign rb_asel = 1'b0;
    assign asel_rd = 1'b0;
  end

  // ---------------------------------------------------------------------------------------
  // LC sources and destinations, padded to two LCs (LC 1 absent when NLC = 1).
  wire [1:0]  lcv, lcl, lcr;
  wire [15:0] lcw0, lcw1;
  wire [2:0]  lcp0, lcp1;
  assign lcv[0] = lc_bout_valid_i[0];
  assign lcl[0] = lc_bout_last_i[0];
  assign lcr[0] = lc_bin_ready_i[0];
  assign lcw0   = lc_bout_i[15:0];
  assign lcp0   = lc_bout_port_i[2:0];
  assign lcs0   = lc_status_i[15:0];
  if (NLC >= 2) begin : gen_lc1
    assign lcv[1] = lc_bout_valid_i[1];
    assign lcl[1] = lc_bout_last_i[1];
    assign lcr[1] = lc_bin_ready_i[1];
    assign lcw1   = lc_bout_i[32:17];
    assign lcp1   = lc_bout_port_i[5:3];
    assign lcs1   = lc_status_i[31:16];
  end else begin : gen_no_lc1
    assign lcv[1] = 1'b0;
    assign lcl[1] = 1'b0;
    assign lcr[1] = 1'b0;
    assign lcw1   = 16'd0;
    assign lcp1   = 3'd0;
    assign lcs1   = 16'd0;
  end

  // Destination kinds of a port: 0 the receive FIFO, 1 + k an LC (k < NLC), else discard.
  function automatic is_lc_port(input [2:0] p_i);
    return (p_i != 3'd0) && ({29'd0, p_i} <= NLC);
  endfunction

  function automatic is_discard(input [2:0] p_i);
    return (p_i != 3'd0) && !is_lc_port(p_i);
  endfunction

  // Ready of a destination port; first_i: the packet's symbol 0 (the receive FIFO needs room).
  function automatic dst_ready(input [2:0] p_i, input first_i, input [3:0] rf_cnt_i,
                               input [1:0] lcr_i);
    logic r;
    if (p_i == 3'd0) begin
      r = !first_i || (rf_cnt_i < 4'd8);
    end else if (is_lc_port(p_i)) begin
      r = (p_i == 3'd1) ? lcr_i[0] : lcr_i[1];
    end else begin
      r = 1'b1;
    end
    return r;
  endfunction

  // ---------------------------------------------------------------------------------------
  // B-link arbiter: in a free cycle the first source (LC 0, LC 1, reply buffer, host send FIFO)
  // whose head is valid and whose destination is ready is picked; its symbol 0 moves now.
  wire       free  = (own_q == OW_FREE);
  wire       ok0   = lcv[0] && dst_ready(lcp0, 1'b1, rf_cnt_q, lcr);
  wire       ok1   = lcv[1] && dst_ready(lcp1, 1'b1, rf_cnt_q, lcr);
  wire       okrb  = rb_valid && dst_ready(rb_port, 1'b1, rf_cnt_q, lcr);
  wire       oksf  = sf_valid && dst_ready(sf_port, 1'b1, rf_cnt_q, lcr);
  wire [2:0] pick  = ok0 ? OW_LC0 : ok1 ? OW_LC1 : okrb ? OW_RB : oksf ? OW_HOST : OW_FREE;
  wire [2:0] own_cur = free ? pick : own_q;

  function automatic [2:0] src_port(input [2:0] ow_i, input [2:0] p0_i, input [2:0] p1_i,
                                    input [2:0] prb_i, input [2:0] psf_i);
    logic [2:0] r;
    case (ow_i)
      OW_LC0:  r = p0_i;
      OW_LC1:  r = p1_i;
      OW_RB:   r = prb_i;
      OW_HOST: r = psf_i;
      default: r = 3'd0;
    endcase
    return r;
  endfunction

  wire [2:0]  port_cur = free ? src_port(pick, lcp0, lcp1, rb_port, sf_port) : dport_q;
  wire [5:0]  sidx     = bcnt_q;   // index of the symbol moving (0 in a free cycle)
  wire [15:0] sf_rd    = sf_mem[{sf_head_q, sidx}];
  wire [15:0] sf_word  = (sidx == 6'd0) ? sf_tgt : sf_rd;
  wire        sf_last  = (sidx == sf_hlen - 6'd1);
  wire [15:0] rb_w     = rb_word(rb_rec[79:0], rb_tgt, rb_notify, sidx);
  wire        rb_last  = (sidx == 6'd6);

  wire        cur_valid = (own_cur == OW_LC0) ? lcv[0] :
                          (own_cur == OW_LC1) ? lcv[1] :
                          (own_cur != OW_FREE);
  wire [15:0] cur_sym   = (own_cur == OW_LC0) ? lcw0 :
                          (own_cur == OW_LC1) ? lcw1 :
                          (own_cur == OW_RB)  ? rb_w :
                          (own_cur == OW_HOST) ? sf_word : 16'd0;
  wire        cur_last  = (own_cur == OW_LC0) ? lcl[0] :
                          (own_cur == OW_LC1) ? lcl[1] :
                          (own_cur == OW_RB)  ? rb_last :
                          (own_cur == OW_HOST) ? sf_last : 1'b0;
  wire        cur_ready = (own_cur != OW_FREE) && dst_ready(port_cur, free, rf_cnt_q, lcr);
  wire        bx        = cur_valid && cur_ready;   // a symbol moves on the B-link
  wire        bx_start  = bx && free;
  wire        bx_end    = bx && cur_last;

  assign own_d   = bx ? (cur_last ? OW_FREE : own_cur) : own_q;
  assign dport_d = (own_d == OW_FREE) ? 3'd0 : port_cur;
  assign bcnt_d  = (own_d == OW_FREE) ? 6'd0 : (bx ? bcnt_q + 6'd1 : bcnt_q);

  // Toward the LCs.
  wire       drive  = cur_valid && (own_cur != OW_FREE);
  // An LC's bout_ready does not look at its own bout_valid: in a free cycle it is 1 when no
  // higher-priority LC is picked and its destination is ready (equal to "picked" when valid).
  assign lc_bout_ready_o[0] = free ? dst_ready(lcp0, 1'b1, rf_cnt_q, lcr) :
                              ((own_q == OW_LC0) && cur_ready);
  assign lc_bin_o[16:0]     = (drive && port_cur == 3'd1) ? {1'b1, cur_sym} : 17'd0;
  assign lc_bin_last_o[0]   = drive && (port_cur == 3'd1) && cur_last;
  if (NLC >= 2) begin : gen_lc1_out
    assign lc_bout_ready_o[1] = free ? (!ok0 && dst_ready(lcp1, 1'b1, rf_cnt_q, lcr)) :
                                ((own_q == OW_LC1) && cur_ready);
    assign lc_bin_o[33:17]    = (drive && port_cur == 3'd2) ? {1'b1, cur_sym} : 17'd0;
    assign lc_bin_last_o[1]   = drive && (port_cur == 3'd2) && cur_last;
  end

  // ---------------------------------------------------------------------------------------
  // Port 0: the packet arriving for the PSB. Header fields read 0 until their symbol moved.
  wire        rx_v     = bx && (port_cur == 3'd0);
  wire [7:0]  typ_cur  = (sidx == 6'd1) ? cur_sym[15:8] : ((sidx > 6'd1) ? rx_type_q : 8'h00);
  wire [15:0] src_cur  = (sidx == 6'd2) ? cur_sym : ((sidx > 6'd2) ? rx_src_q : 16'd0);
  wire [15:0] tid_cur  = (sidx == 6'd3) ? cur_sym : ((sidx > 6'd3) ? rx_tid_q : 16'd0);
  wire [15:0] lc_cur   = (sidx == 6'd4) ? cur_sym : ((sidx > 6'd4) ? rx_lc_q : 16'd0);
  assign rx_type_d = rx_v ? typ_cur : rx_type_q;
  assign rx_src_d  = rx_v ? src_cur : rx_src_q;
  assign rx_tid_d  = rx_v ? tid_cur : rx_tid_q;
  assign rx_lc_d   = rx_v ? lc_cur : rx_lc_q;

  wire       rx_end    = rx_v && cur_last;
  wire       rx_read   = rx_end && (typ_cur == T_READ);      // consumed by the PSB
  wire       rf_commit = rx_end && (typ_cur != T_READ);
  wire       rf_we     = rx_v && (sidx < MAXLEN);
  wire [8:0] rf_wa     = {rf_tail_q, sidx};
  wire [5:0] rf_nlen   = (sidx < MAXLEN) ? sidx + 6'd1 : MAXLEN;
  // A STATUS_REPLY whose tid (symbol 3) equals the armed read's disarms the timer.
  wire       disarm    = rx_v && (sidx == 6'd3) && (typ_cur == T_REPLY) && rsr_arm_q &&
                         (cur_sym == rsr_tid_q);

  // Receive FIFO toward the host.
  wire        rf_valid = (rf_cnt_q != 4'd0);
  wire [5:0]  rf_hlen  = rf_len_q[rf_head_q*6 +: 6];
  wire [15:0] rf_rd    = rf_mem[{rf_head_q, ho_idx_q}];
  wire        ho_last  = (ho_idx_q == rf_hlen - 6'd1);
  wire        ho_x     = rf_valid && hout_ready_i;
  wire        rf_pop   = ho_x && ho_last;
  assign hout_o      = rf_valid ? {1'b1, rf_rd} : 17'd0;
  assign hout_last_o = rf_valid && ho_last;
  assign ho_idx_d    = ho_x ? (ho_last ? 6'd0 : ho_idx_q + 6'd1) : ho_idx_q;
  assign rf_len_d    = put6(rf_len_q, rf_tail_q, rf_nlen, rf_commit);
  assign rf_tail_d   = rf_commit ? rf_tail_q + 3'd1 : rf_tail_q;
  assign rf_head_d   = rf_pop ? rf_head_q + 3'd1 : rf_head_q;
  assign rf_cnt_d    = rf_cnt_q + {3'd0, rf_commit} - {3'd0, rf_pop};

  // Host send FIFO output side.
  wire sf_pop = bx_end && (own_cur == OW_HOST);
  assign sf_head_d = sf_pop ? sf_head_q + 3'd1 : sf_head_q;
  assign sf_cnt_d  = sf_cnt_q + {3'd0, h_end} - {3'd0, sf_pop};

  // ---------------------------------------------------------------------------------------
  // Replies built by the PSB: CRC over the 6 symbols before it (targetId bit 14 masked).
  wire [15:0] sel_status = (lc_cur == 16'd0) ? lcs0 :
                           ((lc_cur == 16'd1) && (NLC >= 2)) ? lcs1 : 16'd0;
  wire [95:0] sr_words = {src_cur, CMD_REPLY, own16, tid_cur, lc_cur, sel_status};
  wire [95:0] to_words = {own16, CMD_REPLY, rsr_tgt_q, rsr_tid_q, 16'h8000 | rsr_lc_q, 16'h0000};
  // NOTIFY (rule 4): {NTGT, 0x1300, node id, tid 0, down, 0x0001 (the Y ring), CRC}.
  wire        nt_down;
  wire [95:0] nt_words = {3'b000, ntgt_q, CMD_NOTIFY, own16, 16'h0000, {15'd0, nt_down},
                          16'h0001};
  wire [16*7-1:0] sr_chain, to_chain, nt_chain;
  assign sr_chain[15:0] = 16'hFFFF;
  assign to_chain[15:0] = 16'hFFFF;
  assign nt_chain[15:0] = 16'hFFFF;
  for (genvar i = 0; i < 6; i++) begin : gen_crc
    wire [15:0] sr_w = sr_words[(5-i)*16 +: 16] & ((i == 0) ? 16'hBFFF : 16'hFFFF);
    wire [15:0] to_w = to_words[(5-i)*16 +: 16] & ((i == 0) ? 16'hBFFF : 16'hFFFF);
    wire [15:0] nt_w = nt_words[(5-i)*16 +: 16] & ((i == 0) ? 16'hBFFF : 16'hFFFF);
    sci_crc16 #(.DataW(16)) u_crc_sr (.crc_i(sr_chain[i*16 +: 16]), .data_i(sr_w),
                                      .crc_o(sr_chain[(i+1)*16 +: 16]));
    sci_crc16 #(.DataW(16)) u_crc_to (.crc_i(to_chain[i*16 +: 16]), .data_i(to_w),
                                      .crc_o(to_chain[(i+1)*16 +: 16]));
    sci_crc16 #(.DataW(16)) u_crc_nt (.crc_i(nt_chain[i*16 +: 16]), .data_i(nt_w),
                                      .crc_o(nt_chain[(i+1)*16 +: 16]));
  end
  // Records leave the command out (the notify bit chooses it).
  wire [RBW-1:0] sr_rec = {2'b00, sr_words[95:80], sr_words[63:0], sr_chain[6*16 +: 16]};
  wire [RBW-1:0] to_rec = {2'b01, to_words[95:80], to_words[63:0], to_chain[6*16 +: 16]};
  wire [RBW-1:0] nt_rec = {2'b10, nt_words[95:80], nt_words[63:0], nt_chain[6*16 +: 16]};

  // Remote-read timer.
  wire rsr_start = bx_start && (own_cur == OW_HOST) && (sf_type == T_READ);
  wire expired   = rsr_arm_q && (rsr_tmr_q <= 16'd1) && !disarm && !rsr_start;
  wire push_sr   = rx_read && (rb_cnt_q != 2'd2);
  wire push_to   = expired && ((rb_cnt_q + {1'b0, push_sr}) < 2'd2);

  assign rsr_arm_d = rsr_start ? (rsr_to != 16'd0) :
                     disarm ? 1'b0 :
                     expired ? !push_to : rsr_arm_q;
  assign rsr_tmr_d = rsr_start ? rsr_to :
                     (disarm || expired) ? 16'd0 :
                     rsr_arm_q ? rsr_tmr_q - 16'd1 : rsr_tmr_q;
  assign rsr_tid_d = rsr_start ? sf_tid : rsr_tid_q;
  assign rsr_tgt_d = rsr_start ? sf_m0 : rsr_tgt_q;
  assign rsr_lc_d  = rsr_start ? sf_pay0 : rsr_lc_q;

  // Reply buffer (2): a STATUS_REPLY first, then a timeout reply, at the tail.
  function automatic [2*RBW-1:0] rb_put(input [2*RBW-1:0] rb_i, input at_i, input [RBW-1:0] rec_i,
                                        input en_i);
    logic [2*RBW-1:0] r;
    r = rb_i;
    if (en_i) begin
      if (at_i) begin
        r[RBW +: RBW] = rec_i;
      end else begin
        r[0 +: RBW] = rec_i;
      end
    end
    return r;
  endfunction

  // NOTIFY on a Y-ring change (rule 4): owed from the cycle LC 1 down differs from ydown_q
  // (the latest change decides its down bit), pushed at the first edge the buffer has room
  // after this edge's STATUS_REPLY and timeout-reply pushes. Nothing is owed while fo_en = 0.
  wire       ychg    = yseen_q && (dn1 != ydown_q);
  wire       nt_owe  = fo_en && (nt_owed_q || ychg);
  wire [2:0] rb_used = {1'b0, rb_cnt_q} + {2'b00, push_sr} + {2'b00, push_to};
  wire       push_nt = nt_owe && (rb_used < 3'd2);
  assign nt_down   = ychg ? dn1 : nt_down_q;
  assign nt_down_d = nt_down;
  assign nt_owed_d = nt_owe && !push_nt;
  assign ydown_d   = dn1;
  assign yseen_d   = FO && (yseen_q || !dn1); // LC 1 has been up since reset

  // NOTIFY received on port 0 (rule 5): at the edge its payload[1] (symbol 5) = 0x0001 moves,
  // FOCOL := {column of its sourceId, valid = payload[0][0]}.
  assign nt_rx    = fo_en && rst_ni && rx_v && (sidx == 6'd5) && (typ_cur == T_NOTIFY) &&
                    (cur_sym == 16'h0001);
  assign nt_focol = {col_of(src_cur[12:0], xw), 7'd0, lc_cur[0]};

  // Reply buffer: STATUS_REPLY, timeout reply, NOTIFY, in that order at the tail.
  wire rb_pop = bx_end && (own_cur == OW_RB);
  wire rb_t2  = rb_tail_q ^ push_sr ^ push_to;
  assign rb_d      = rb_put(rb_put(rb_put(rb_q, rb_tail_q, sr_rec, push_sr), rb_tail_q ^ push_sr,
                                   to_rec, push_to), rb_t2, nt_rec, push_nt);
  assign rb_tail_d = rb_t2 ^ push_nt;
  assign rb_head_d = rb_head_q ^ rb_pop;
  assign rb_cnt_d  = rb_cnt_q + {1'b0, push_sr} + {1'b0, push_to} + {1'b0, push_nt} -
                     {1'b0, rb_pop};

  // Discarded packets (saturating), counted at symbol 0.
  wire ev_disc = bx_start && is_discard(port_cur);
  assign disc_d = (ev_disc && disc_q != 16'hFFFF) ? disc_q + 16'd1 : disc_q;

  // ---------------------------------------------------------------------------------------
  // Registers read port, status, debug.
  wire [15:0] tmr_shown = rsr_arm_q ? rsr_tmr_q : 16'd0;
  wire [63:0] status = {32'd0, disc_q, 2'd0, yseen_q, ydown_q, nt_owed_q, rsr_arm_q, rb_cnt_q, rf_cnt_q,
                        sf_cnt_q};
  assign dbg_o    = {36'd0, tmr_shown, bcnt_q, dport_q, own_q};

  assign reg_rdata_o = (reg_raddr_i == ADDR_CTRL)   ? cfg_q :
                       (reg_raddr_i == ADDR_STATUS) ? status :
                       (reg_raddr_i == ADDR_TADDR)  ? {50'd0, taddr_q} :
                       (reg_raddr_i == ADDR_BRT)    ? {61'd0, brt_rd} :
                       (reg_raddr_i == ADDR_ASEL)   ? {63'd0, asel_rd} :
                       (reg_raddr_i == ADDR_FOCOL)  ? {50'd0, focol_q} :
                       (reg_raddr_i == ADDR_NTGT)   ? {51'd0, ntgt_q} :
                       (reg_raddr_i == ADDR_DBG)    ? dbg_o : 64'd0;

  // ---------------------------------------------------------------------------------------
  // Registers.
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      sf_head_q <= 3'd0;
      sf_tail_q <= 3'd0;
      sf_cnt_q  <= 4'd0;
      sf_len_q  <= 48'd0;
      sf_fill_q <= 1'b0;
      sf_widx_q <= 6'd0;
      rf_head_q <= 3'd0;
      rf_tail_q <= 3'd0;
      rf_cnt_q  <= 4'd0;
      rf_len_q  <= 48'd0;
      ho_idx_q  <= 6'd0;
      rb_q      <= '0;
      rb_head_q <= 1'b0;
      rb_tail_q <= 1'b0;
      rb_cnt_q  <= 2'd0;
      own_q     <= OW_FREE;
      dport_q   <= 3'd0;
      bcnt_q    <= 6'd0;
      rx_type_q <= 8'd0;
      rx_src_q  <= 16'd0;
      rx_tid_q  <= 16'd0;
      rx_lc_q   <= 16'd0;
      rsr_arm_q <= 1'b0;
      rsr_tmr_q <= 16'd0;
      rsr_tid_q <= 16'd0;
      rsr_tgt_q <= 16'd0;
      rsr_lc_q  <= 16'd0;
      disc_q    <= 16'd0;
      ydown_q   <= FO;   // a ring is down after reset
      yseen_q   <= 1'b0;
      nt_owed_q <= 1'b0;
      nt_down_q <= 1'b0;
    end else begin
      sf_head_q <= sf_head_d;
      sf_tail_q <= sf_tail_d;
      sf_cnt_q  <= sf_cnt_d;
      sf_len_q  <= sf_len_d;
      sf_fill_q <= sf_fill_d;
      sf_widx_q <= sf_widx_d;
      rf_head_q <= rf_head_d;
      rf_tail_q <= rf_tail_d;
      rf_cnt_q  <= rf_cnt_d;
      rf_len_q  <= rf_len_d;
      ho_idx_q  <= ho_idx_d;
      rb_q      <= rb_d;
      rb_head_q <= rb_head_d;
      rb_tail_q <= rb_tail_d;
      rb_cnt_q  <= rb_cnt_d;
      own_q     <= own_d;
      dport_q   <= dport_d;
      bcnt_q    <= bcnt_d;
      rx_type_q <= rx_type_d;
      rx_src_q  <= rx_src_d;
      rx_tid_q  <= rx_tid_d;
      rx_lc_q   <= rx_lc_d;
      rsr_arm_q <= rsr_arm_d;
      rsr_tmr_q <= rsr_tmr_d;
      rsr_tid_q <= rsr_tid_d;
      rsr_tgt_q <= rsr_tgt_d;
      rsr_lc_q  <= rsr_lc_d;
      disc_q    <= disc_d;
      ydown_q   <= ydown_d;
      yseen_q   <= yseen_d;
      nt_owed_q <= nt_owed_d;
      nt_down_q <= nt_down_d;
    end
  end

  // Memories: write ports only.
  always_ff @(posedge clk_i) begin
    if (sf_we && rst_ni) begin
      sf_mem[sf_wa] <= hin_i[15:0];
    end
  end

  always_ff @(posedge clk_i) begin
    if (rf_we && rst_ni) begin
      rf_mem[rf_wa] <= cur_sym;
    end
  end

  always_ff @(posedge clk_i) begin
    if (wr_brt) begin
      brt_mem[ta_idx] <= reg_wdata_i[2:0];
    end
  end

`ifndef SYNTHESIS
  // Tables and FIFO RAMs are not reset; simulations start with them zero.
  initial begin
    for (int i = 0; i < TSIZE; i++) begin
      brt_mem[i] = 3'd0;
    end
    for (int i = 0; i < 512; i++) begin
      sf_mem[i] = 16'd0;
      rf_mem[i] = 16'd0;
    end
  end

  // Invariants.
  `FT_ASSERT(FifoNoOverflow_A, sf_cnt_q <= 4'd8 && rf_cnt_q <= 4'd8 && rb_cnt_q <= 2'd2,
             ("sci_psb: FIFO overflow sf %0d rf %0d rb %0d", sf_cnt_q, rf_cnt_q, rb_cnt_q))
  `FT_ASSERT(FillNotFull_A, !(sf_fill_q && sf_cnt_q == 4'd8),
             ("sci_psb: a host packet is filling a full send FIFO"))
`endif

endmodule

`default_nettype wire
