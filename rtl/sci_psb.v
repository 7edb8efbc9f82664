`default_nettype none
// sci_psb -- SCI node host adapter (PSB) with the node's B-link arbiter: host send FIFO, host
// receive FIFO, reply buffer, BRT and (P2S) address select, remote-read timer, (P2S with two LCs)
// hardware failover, registers 0x80-0x90.
//
// The B-link arbiter picks, in a free cycle, the first of LC 0, LC 1, reply buffer and host send
// FIFO whose head is valid and whose destination is ready; port 0 (this PSB) answers
// STATUS_READs into the reply buffer and watches STATUS_REPLYs and NOTIFYs; the send and receive
// FIFOs are RAMs of 8 slots of 64 words (packets of up to 37 symbols); the BRT and ASEL tables
// are not reset. P2s = 0 (LC3) or 1 (P2S); NLC = 1 or 2 (LCs on the B-link); failover exists
// only with P2s = 1 and NLC = 2. The contract -- PSB, B-link, register map, debug words, P2S
// failover rules 1 to 5, and the decisions where it was silent -- is rtl/sci_node.md.
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
  logic [15:0]  rsr_tid_q, rsr_tid_d, rsr_tgt_q, rsr_tgt_d;
  logic [14:0]  rsr_lc_q, rsr_lc_d;  // the read's lc: its bit 15 is always 1 in the reply
  // discard counter
  logic [15:0]  disc_q, disc_d;
  // failover (P2S, NLC = 2): FOCOL, NTGT, LC 1 down seen, NOTIFY owed and its down bit
  logic [13:0]  focol_q;
  logic [12:0]  ntgt_q;
  logic         ydown_q, ydown_d, nt_owed_q, nt_owed_d;
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
    logic [0:0] asel_mem [0:8191];  // a vector, as sci_lc.v's lrt_mem says why
    wire  wr_asel = reg_we_i && (reg_waddr_i == ADDR_ASEL) && reg_wstrb_i[0];
    assign sf_asel = asel_mem[sf_m0[12:0]];
    assign rb_asel = asel_mem[rb_tgt0[12:0]];
    assign asel_rd = asel_mem[taddr_q[12:0]];
    always_ff @(posedge clk_i) begin
      if (wr_asel) begin
        asel_mem[taddr_q[12:0]] <= reg_wdata_i[0];
      end
    end
    initial begin  // zero at start, in synthesis too (synth/README.md)
      for (int i = 0; i < 8192; i++) begin
        asel_mem[i] = 1'b0;
      end
    end
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
  // Symbols moved: stops at 63 (a packet that long exists only after an upset of an LC's
  // length; the receive FIFO keeps the first 37 of one).
  assign bcnt_d  = (own_d == OW_FREE) ? 6'd0 :
                   (bx && bcnt_q != 6'd63) ? bcnt_q + 6'd1 : bcnt_q;

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
  wire [95:0] to_words = {own16, CMD_REPLY, rsr_tgt_q, rsr_tid_q, {1'b1, rsr_lc_q}, 16'h0000};
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
  assign rsr_lc_d  = rsr_start ? sf_pay0[14:0] : rsr_lc_q;

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
  // The NOTIFY's down bit: the Y ring's state at its latest change, which is ydown_q from the
  // cycle after (no flip-flop of its own: one would hold a copy of ydown_q while a NOTIFY is
  // owed, and only an upset could make them differ).
  assign nt_down   = ychg ? dn1 : ydown_q;
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
  wire [63:0] status = {32'd0, disc_q, 2'd0, yseen_q, ydown_q, nt_owed_q, rsr_arm_q, rb_cnt_q,
                        rf_cnt_q, sf_cnt_q};
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
      rsr_lc_q  <= 15'd0;
      disc_q    <= 16'd0;
      ydown_q   <= FO;   // a ring is down after reset
      yseen_q   <= 1'b0;
      nt_owed_q <= 1'b0;
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

  // Tables and FIFO RAMs are not reset; they start zero, in synthesis too (an FPGA's RAM at
  // configuration; an ASIC must write every entry first, synth/README.md).
  initial begin
    for (int i = 0; i < TSIZE; i++) begin
      brt_mem[i] = 3'd0;
    end
    for (int i = 0; i < 512; i++) begin
      sf_mem[i] = 16'd0;
      rf_mem[i] = 16'd0;
    end
  end

`ifndef SYNTHESIS

  // Invariants, each with a cover point of the case that comes closest to breaking it.
  `FT_ASSERT(FifoNoOverflow_A, sf_cnt_q <= 4'd8 && rf_cnt_q <= 4'd8 && rb_cnt_q <= 2'd2,
             ("sci_psb: FIFO overflow sf %0d rf %0d rb %0d", sf_cnt_q, rf_cnt_q, rb_cnt_q))
  `FT_COVER(FifoNoOverflow_C, sf_cnt_q == 4'd8)  // host send FIFO full
  `FT_COVER(RecvFifoFull_C, rf_cnt_q == 4'd8)
  `FT_COVER(ReplyBufFull_C, rb_cnt_q == 2'd2)
  `FT_ASSERT(FillNotFull_A, !(sf_fill_q && sf_cnt_q == 4'd8),
             ("sci_psb: a host packet is filling a full send FIFO"))
  `FT_COVER(FillNotFull_C, sf_fill_q && sf_cnt_q == 4'd7)  // filling the last free slot
  // One symbol a cycle (sci_lc.md section 3, B-link): every source holds a whole packet (an
  // LC's bout stays valid to its last symbol) and every destination takes the rest of a packet
  // it has started (an LC's bin_ready, port 0, a discard), so a packet under way never waits.
  `FT_ASSERT(BlinkNoStall_A, free || (cur_valid && cur_ready),
             ("sci_psb: B-link packet stalled: owner %0d, port %0d", own_q, dport_q))
  `FT_COVER(BlinkNoStall_C, !free && bcnt_q == 6'd36)  // a 37-symbol packet's last symbol

  // ---------------------------------------------------------------------------------------
  // Cover points (make coverage). Continuous assignments, as sci_lc: the B-link owner's states
  // and transitions and the outcomes of the PSB's decisions are counted here (sci_node.md).
  // B-link owner (DBG[2:0]): each owner, taken in a free cycle and given back at the end.
  `FT_COVER(OwnFree_C, own_q == OW_FREE)
  `FT_COVER(OwnLc0_C, own_q == OW_LC0)
  `FT_COVER(OwnLc1_C, own_q == OW_LC1)
  `FT_COVER(OwnReply_C, own_q == OW_RB)
  `FT_COVER(OwnHost_C, own_q == OW_HOST)
  `FT_COVER(FreeToLc0_C, free && own_d == OW_LC0)
  `FT_COVER(FreeToLc1_C, free && own_d == OW_LC1)
  `FT_COVER(FreeToReply_C, free && own_d == OW_RB)
  `FT_COVER(FreeToHost_C, free && own_d == OW_HOST)
  `FT_COVER(Lc0ToFree_C, own_q == OW_LC0 && own_d == OW_FREE)
  `FT_COVER(Lc1ToFree_C, own_q == OW_LC1 && own_d == OW_FREE)
  `FT_COVER(ReplyToFree_C, own_q == OW_RB && own_d == OW_FREE)
  `FT_COVER(HostToFree_C, own_q == OW_HOST && own_d == OW_FREE)
  `FT_COVER(OneSymbolPacket_C, bx_start && cur_last)  // taken and given back at one edge
  // Arbitration: a higher source wins over a lower one that is ready too.
  `FT_COVER(Lc0BeatsOther_C, free && ok0 && (ok1 || okrb || oksf))
  `FT_COVER(Lc1BeatsLower_C, free && !ok0 && ok1 && (okrb || oksf))
  `FT_COVER(ReplyBeatsHost_C, free && !ok0 && !ok1 && okrb && oksf)
  // Destinations: the receive FIFO (full: the packet waits), an LC, discard (port 7 or no LC).
  `FT_COVER(ToRecvFifo_C, bx_start && port_cur == 3'd0)
  `FT_COVER(ToLc0_C, bx_start && port_cur == 3'd1)
  `FT_COVER(ToLc1_C, bx_start && port_cur == 3'd2 && NLC >= 2)
  `FT_COVER(ToDiscard_C, ev_disc)
  `FT_COVER(RecvFifoWaits_C, free && rf_cnt_q == 4'd8 &&
                             ((lcv[0] && lcp0 == 3'd0) || (sf_valid && sf_port == 3'd0)))
  `FT_COVER(LcNotReady_C, free && (lcv[0] || sf_valid) && !ok0 && !oksf && !okrb && !ok1)
  // Port 0: STATUS_READ answered, STATUS_REPLY and other packets to the host.
  `FT_COVER(StatusReadAnswered_C, push_sr)
  `FT_COVER(StatusReadLostFull_C, rx_read && rb_cnt_q == 2'd2)
  `FT_COVER(ToHost_C, rf_commit)
  // Host FIFOs: the send FIFO full (hin waits), a packet cut at 37 symbols, hout waiting.
  `FT_COVER(HostInWaits_C, hin_i[16] && !hin_ready_o)
  `FT_COVER(HostInTruncated_C, hx && sf_widx_q >= MAXLEN)
  `FT_COVER(HostOutWaits_C, rf_valid && !hout_ready_i)
  `FT_COVER(HostShortHeader_C, sf_valid && sf_hlen <= 6'd4)
  wire probe_start = bx_start && (own_cur == OW_HOST) && sf_probe;
  `FT_COVER(HostProbe_C, probe_start)
  `FT_COVER(HostProbeBadLc_C, probe_start && sf_pport == PORT_DISCARD)
  // Remote-read timer: armed (IDLE -> ARMED), disarmed by the reply, expired with a timeout
  // reply pushed, or with the reply buffer full (it stays armed and retries).
  `FT_COVER(RsrArm_C, rsr_start && rsr_to != 16'd0)
  `FT_COVER(RsrArmZero_C, rsr_start && rsr_to == 16'd0)
  `FT_COVER(RsrDisarm_C, disarm)
  `FT_COVER(RsrExpire_C, expired && push_to)
  `FT_COVER(RsrExpireFull_C, expired && !push_to)
  `FT_COVER(RsrRestart_C, rsr_start && rsr_arm_q)
  // P2S failover (sci_node.md section 6): rules 1 to 5.
  `FT_COVER(FoForce_C, sf_valid && sf_force)                      // rule 1
  `FT_COVER(FoRedirectX_C, sf_valid && fo_en && !sf_probe && sf_brt == 3'd1 && dn0)  // rule 2
  `FT_COVER(FoRedirectY_C, sf_valid && fo_en && !sf_probe && sf_brt == 3'd2 && dn1)  // rule 2
  `FT_COVER(FoReplyRedirect_C, rb_valid && !rb_direct && fo_en && (rb_rt[18:16] != rb_brt))
  `FT_COVER(FoBypass_C, fo_byp_o)                                 // rule 3
  `FT_COVER(FoNotifyOwed_C, nt_owe && !push_nt)                   // rule 4
  `FT_COVER(FoNotifyPushed_C, push_nt)
  `FT_COVER(FoNotifyDown_C, push_nt && nt_down)
  `FT_COVER(FoNotifyUp_C, push_nt && !nt_down)
  `FT_COVER(FoNotifyRx_C, nt_rx)                                  // rule 5
  `FT_COVER(FoNotifyRxAndWrite_C, nt_rx && wr_focol)

  // Properties from the contract (rtl/sci_node.md; proven or bounded by formal/node.sby, checked
  // in every simulation), each with the cover of its premise.
  // sci_node.md 3: in a free cycle the first source in priority order (LC 0, LC 1, reply
  // buffer, host send FIFO) whose head is valid and whose destination is ready takes the B-link,
  // and its symbol 0 moves in that cycle; with none, nothing moves.
  wire f_any_ok = ok0 || ok1 || okrb || oksf;
  wire f_first  = (own_cur == OW_LC0) || (own_cur == OW_LC1 && !ok0) ||
                  (own_cur == OW_RB && !ok0 && !ok1) ||
                  (own_cur == OW_HOST && !ok0 && !ok1 && !okrb);
  `FT_ASSERT(BlinkPriority_A, !free || (bx_start == f_any_ok && (!bx_start || f_first)),
             ("sci_psb: B-link given to source %0d past a ready one", own_cur))
  `FT_COVER(BlinkPriority_C, free && okrb && oksf)
  // sci_node.md 1: hout's symbol is 0 when it is not valid.
  `FT_ASSERT(HoutZeroIdle_A, hout_o[16] || hout_o[15:0] == 16'd0,
             ("sci_psb: hout %h while not valid", hout_o[15:0]))
  `FT_COVER(HoutZeroIdle_C, !rf_valid && rf_rd != 16'd0)  // an old word in the empty FIFO's RAM
  // sci_node.md 2: port 7 and a port with no LC discard the packet, counted (saturating) in
  // STATUS.discarded at its symbol 0.
  wire f_disc_port = bx_start && (port_cur == 3'd7 || {29'd0, port_cur} > NLC);
  `FT_ASSERT(DiscardCounted_A,
             !f_disc_port || disc_d == ((disc_q == 16'hFFFF) ? 16'hFFFF : disc_q + 16'd1),
             ("sci_psb: a packet to port %0d not counted as discarded", port_cur))
  `FT_COVER(DiscardCounted_C, f_disc_port && port_cur != 3'd7)  // a port with no LC
  // sci_node.md 3: the receive FIFO is ready for a packet's symbol 0 only with fewer than 8.
  `FT_ASSERT(RecvFifoRoomFirst_A, !(bx_start && port_cur == 3'd0) || rf_cnt_q < 4'd8,
             ("sci_psb: a packet started toward a full receive FIFO"))
  `FT_COVER(RecvFifoRoomFirst_C, bx_start && port_cur == 3'd0 && rf_cnt_q == 4'd7)
  // sci_node.md 2: rsr_timeout 0: a STATUS_READ from the host arms no timer.
  `FT_ASSERT(RsrZeroNoTimer_A, !(rsr_start && rsr_to == 16'd0) || !rsr_arm_d,
             ("sci_psb: the remote-read timer armed with rsr_timeout 0"))
  `FT_COVER(RsrZeroNoTimer_C, rsr_start && rsr_to == 16'd0)
`endif

endmodule

`default_nettype wire
