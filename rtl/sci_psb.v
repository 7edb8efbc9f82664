`default_nettype none
// sci_psb -- SCI node host adapter (PSB) with the node's B-link arbiter: host send FIFO, host
// receive FIFO, reply buffer, BRT and (P2S) address select, remote-read timer, registers 0x80-0x90.
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
// Register port: writes at the rising edge (byte strobes), a reset edge with a write keeps CTRL
// and TADDR and performs the write (as the LC); reads combinational. 0x80 CTRL [12:0] node id (0), [47:32]
// rsr_timeout (2000); 0x81 STATUS; 0x88 TADDR [13:0]; 0x8A BRT [2:0] of entry TADDR; 0x8B ASEL
// [0] of entry TADDR[12:0] (P2S; 0 on LC3); 0x90 DBG. Other addresses read 0.
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
//
// State held: CTRL, TADDR, send FIFO (8 x 64-word RAM slots, lengths, pointers, fill state),
// receive FIFO (same), reply buffer (2 records), B-link owner/destination/symbol count,
// captured fields of the packet arriving on port 0, remote-read timer, discard counter; tables
// BRT (256 or 16384 x 3) and ASEL (P2S, 8192 x 1), not reset (zero at simulation start).
//
// Parameters: P2s = 0 (LC3) or 1 (P2S); NLC = 1 or 2 (number of LCs on the B-link).
//
// Coding rule, for Icarus 11.0 (-g2012): all logic is continuous assignments of expressions and
// automatic-function results; memory reads are continuous assignments.

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
  output wire  [63:0]      dbg_o
);

  localparam TW    = (P2s != 0) ? 14 : 8;   // BRT index width
  localparam TSIZE = 1 << TW;
  localparam MAXLEN = 6'd37;                // symbols kept per packet

  localparam [7:0] ADDR_CTRL   = 8'h80;
  localparam [7:0] ADDR_STATUS = 8'h81;
  localparam [7:0] ADDR_TADDR  = 8'h88;
  localparam [7:0] ADDR_BRT    = 8'h8A;
  localparam [7:0] ADDR_ASEL   = 8'h8B;
  localparam [7:0] ADDR_DBG    = 8'h90;

  localparam [63:0] CTRL_MASK  = 64'h0000_FFFF_0000_1FFF;
  localparam [63:0] CTRL_RESET = 64'h0000_07D0_0000_0000;   // node 0, rsr_timeout 2000

  localparam [7:0] T_PROBE = 8'h10;
  localparam [7:0] T_READ  = 8'h11;
  localparam [7:0] T_REPLY = 8'h12;
  localparam [15:0] CMD_REPLY = 16'h1200;

  // B-link owners (DBG[2:0]).
  localparam [2:0] OW_FREE = 3'd0;
  localparam [2:0] OW_LC0  = 3'd1;
  localparam [2:0] OW_LC1  = 3'd2;
  localparam [2:0] OW_RB   = 3'd3;
  localparam [2:0] OW_HOST = 3'd4;

  localparam [2:0] PORT_DISCARD = 3'd7;
  localparam RBW = 97;                       // reply record: {direct, tgt, src, tid, p0, p1, crc}

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

  // Memories.
  logic [15:0]  sf_mem [0:511];
  logic [15:0]  rf_mem [0:511];
  logic [2:0]   brt_mem [0:TSIZE-1];

  // ---------------------------------------------------------------------------------------
  // Configuration and register writes.
  wire [12:0] own    = cfg_q[12:0];
  wire [15:0] own16  = {3'b000, own};
  wire [15:0] rsr_to = cfg_q[47:32];

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
  wire [15:0] sf_tgt   = with_sel(sf_m0, sf_asel);
  wire [13:0] sf_idx14 = tab_index(sf_tgt);
  wire [2:0]  sf_brt   = brt_mem[sf_idx14[TW-1:0]];
  wire [2:0]  sf_pport = (sf_pay0 <= 16'd5) ? (sf_pay0[2:0] + 3'd1) : PORT_DISCARD;
  wire [2:0]  sf_port  = (sf_type == T_PROBE) ? sf_pport : sf_brt;
  wire        sf_valid = (sf_cnt_q != 4'd0);

  // ---------------------------------------------------------------------------------------
  // Reply buffer head: records {direct, tgt, src, tid, p0, p1, crc}.
  wire [RBW-1:0] rb_rec    = rb_q[rb_head_q*RBW +: RBW];
  wire           rb_direct = rb_rec[96];
  wire [15:0]    rb_tgt0   = rb_rec[95:80];
  wire           rb_asel;
  wire [15:0]    rb_tgt    = rb_direct ? rb_tgt0 : with_sel(rb_tgt0, rb_asel);
  wire [13:0]    rb_idx14  = tab_index(rb_tgt);
  wire [2:0]     rb_brt    = brt_mem[rb_idx14[TW-1:0]];
  wire [2:0]     rb_port   = rb_direct ? 3'd0 : rb_brt;
  wire           rb_valid  = (rb_cnt_q != 2'd0);

  function automatic [15:0] rb_word(input [79:0] rec_i, input [15:0] tgt_i,
                                    input [5:0] idx_i);
    logic [15:0] r;
    case (idx_i)
      6'd0:    r = tgt_i;
      6'd1:    r = CMD_REPLY;
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
  wire [15:0] lcw0, lcw1, lcs0, lcs1;
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
  wire [15:0] rb_w     = rb_word(rb_rec[79:0], rb_tgt, sidx);
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
  wire [16*7-1:0] sr_chain, to_chain;
  assign sr_chain[15:0] = 16'hFFFF;
  assign to_chain[15:0] = 16'hFFFF;
  for (genvar i = 0; i < 6; i++) begin : gen_crc
    wire [15:0] sr_w = sr_words[(5-i)*16 +: 16] & ((i == 0) ? 16'hBFFF : 16'hFFFF);
    wire [15:0] to_w = to_words[(5-i)*16 +: 16] & ((i == 0) ? 16'hBFFF : 16'hFFFF);
    sci_crc16 #(.DataW(16)) u_crc_sr (.crc_i(sr_chain[i*16 +: 16]), .data_i(sr_w),
                                      .crc_o(sr_chain[(i+1)*16 +: 16]));
    sci_crc16 #(.DataW(16)) u_crc_to (.crc_i(to_chain[i*16 +: 16]), .data_i(to_w),
                                      .crc_o(to_chain[(i+1)*16 +: 16]));
  end
  // Records leave the command out (always 0x1200).
  wire [RBW-1:0] sr_rec = {1'b0, sr_words[95:80], sr_words[63:0], sr_chain[6*16 +: 16]};
  wire [RBW-1:0] to_rec = {1'b1, to_words[95:80], to_words[63:0], to_chain[6*16 +: 16]};

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

  wire rb_pop = bx_end && (own_cur == OW_RB);
  assign rb_d      = rb_put(rb_put(rb_q, rb_tail_q, sr_rec, push_sr), rb_tail_q ^ push_sr, to_rec,
                            push_to);
  assign rb_tail_d = rb_tail_q ^ push_sr ^ push_to;
  assign rb_head_d = rb_head_q ^ rb_pop;
  assign rb_cnt_d  = rb_cnt_q + {1'b0, push_sr} + {1'b0, push_to} - {1'b0, rb_pop};

  // Discarded packets (saturating), counted at symbol 0.
  wire ev_disc = bx_start && is_discard(port_cur);
  assign disc_d = (ev_disc && disc_q != 16'hFFFF) ? disc_q + 16'd1 : disc_q;

  // ---------------------------------------------------------------------------------------
  // Registers read port, status, debug.
  wire [15:0] tmr_shown = rsr_arm_q ? rsr_tmr_q : 16'd0;
  wire [63:0] status = {32'd0, disc_q, 5'd0, rsr_arm_q, rb_cnt_q, rf_cnt_q, sf_cnt_q};
  assign dbg_o    = {36'd0, tmr_shown, bcnt_q, dport_q, own_q};

  assign reg_rdata_o = (reg_raddr_i == ADDR_CTRL)   ? cfg_q :
                       (reg_raddr_i == ADDR_STATUS) ? status :
                       (reg_raddr_i == ADDR_TADDR)  ? {50'd0, taddr_q} :
                       (reg_raddr_i == ADDR_BRT)    ? {61'd0, brt_rd} :
                       (reg_raddr_i == ADDR_ASEL)   ? {63'd0, asel_rd} :
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
  always @(posedge clk_i) begin
    if (rst_ni) begin
      assert (sf_cnt_q <= 4'd8 && rf_cnt_q <= 4'd8 && rb_cnt_q <= 2'd2)
        else $error("sci_psb: FIFO overflow sf %0d rf %0d rb %0d", sf_cnt_q, rf_cnt_q, rb_cnt_q);
    end
  end

  always @(posedge clk_i) begin
    if (rst_ni) begin
      assert (!(sf_fill_q && sf_cnt_q == 4'd8))
        else $error("sci_psb: a host packet is filling a full send FIFO");
    end
  end
`endif

endmodule

`default_nettype wire
