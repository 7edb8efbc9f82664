`default_nettype none
// sci_lc -- SCI link controller (Dolphin LC3, P2S with P2s=1): ring input/output, bypass FIFO,
// receive queue and send queue toward the B-link, active buffers, scrubber, ring-down idles.
//
// A four-stage input pipe decides each packet (take, bypass, consume an echo) with its symbol 0
// in stage 3; the output register chooses among the idle after a packet, an insertion, the
// bypass FIFO and the symbol being bypassed; the receive queue (8 x 64 symbols) and a pool of 12
// packet buffers (send queue and active buffers) are RAMs; FAIL_REPORTs and the receive queue
// leave on the B-link. P2s = 0 (LC3: 256-entry tables indexed by targetId[7:0]) or 1 (P2S: two
// sets of 8192). The contract -- link and packet encodings, timing, register map, debug
// encoding, and the decisions settled in lockstep with the C model -- is rtl/sci_lc.md.
//
// Coding rule, for Icarus 11.0 (-g2012): every always_comb assigns each of its outputs exactly
// once per evaluation; defaults-then-overrides logic lives in automatic functions; here all
// logic is continuous assignments of expressions and function results, and memory reads are
// continuous assignments (Icarus 11 rejects constant selects in always_* processes).

`include "ft_assert.svh"

module sci_lc #(
  parameter P2s = 0
) (
  input  wire         clk_i,
  input  wire         rst_ni,
  input  wire  [16:0] lin_i,
  input  wire         lin_sd_i,
  output wire  [16:0] lout_o,
  output wire         lout_sd_o,
  input  wire  [16:0] bin_i,
  input  wire         bin_last_i,
  output wire         bin_ready_o,
  output wire  [16:0] bout_o,
  output wire         bout_valid_o,
  output wire         bout_last_o,
  input  wire         bout_ready_i,
  output wire  [2:0]  bout_port_o,
  input  wire         fo_byp_i,     // P2S own-column bypass (rtl/sci_node.md section 6)
  input  wire  [12:0] fo_xmask_i,   // its column mask (0x000F or 0x003F)
  input  wire         reg_we_i,
  input  wire  [7:0]  reg_waddr_i,
  input  wire  [63:0] reg_wdata_i,
  input  wire  [7:0]  reg_wstrb_i,
  input  wire  [7:0]  reg_raddr_i,
  output wire  [63:0] reg_rdata_o,
  output wire         irq_o,
  output wire  [15:0] status_o,   // STATUS[15:0], for the node's PSB (remote status reads)
  output wire  [63:0] dbg_o
);

  localparam TW    = (P2s != 0) ? 14 : 8;   // table index width
  localparam TSIZE = 1 << TW;
  localparam NSLOT = 12;                    // pool: send queue 8 + active buffers 4

  localparam [7:0] ADDR_CTRL   = 8'h00;
  localparam [7:0] ADDR_STATUS = 8'h01;
  localparam [7:0] ADDR_CLR    = 8'h02;
  localparam [7:0] ADDR_COUNTS = 8'h03;
  localparam [7:0] ADDR_TADDR  = 8'h08;
  localparam [7:0] ADDR_LRT    = 8'h09;
  localparam [7:0] ADDR_BRT    = 8'h0A;
  localparam [7:0] ADDR_DBG    = 8'h10;

  localparam [63:0] CTRL_MASK  = 64'hFFFF_00FF_FF03_1FFF;
  // Reset: node id 0, enabled, no scrubber, busy_limit 8, retry_limit 4, echo_timeout 200.
  localparam [63:0] CTRL_RESET = 64'h00C8_0004_0801_0000;

  localparam [7:0] T_PROBE  = 8'h10;
  localparam [7:0] T_ACCEPT = 8'h20;
  localparam [7:0] T_BUSY   = 8'h21;
  localparam [7:0] T_ERROR  = 8'h22;
  localparam [7:0] T_FAIL   = 8'h30;

  // Parser states (DBG[3:0]).
  localparam [3:0] PS_IDLE    = 4'd0;
  localparam [3:0] PS_BYPASS  = 4'd1;
  localparam [3:0] PS_TAKE    = 4'd2;
  localparam [3:0] PS_DISCARD = 4'd3;
  localparam [3:0] PS_ECHO    = 4'd4;

  // Answer owed at the end of the current packet.
  localparam [1:0] ANS_NONE  = 2'd0;
  localparam [1:0] ANS_ACC   = 2'd1;
  localparam [1:0] ANS_BUSY  = 2'd2;
  localparam [1:0] ANS_ERR   = 2'd3;

  // Pool slot states.
  localparam [1:0] SL_FREE   = 2'd0;
  localparam [1:0] SL_FILL   = 2'd1;
  localparam [1:0] SL_QUEUED = 2'd2;
  localparam [1:0] SL_ACTIVE = 2'd3;

  // Insertion kinds (ins_kind_q) and B-link out kinds (bo_kind_q); K_NONE: nothing under way.
  localparam [1:0] K_NONE = 2'd0;
  localparam [1:0] K_ECHO = 2'd1;   // insertion of an echo from the echo queue
  localparam [1:0] K_SLOT = 2'd2;   // insertion of a pool slot (send queue or retransmission)
  localparam [1:0] K_RQ   = 2'd1;   // B-link out: receive-queue head
  localparam [1:0] K_FAIL = 2'd2;   // B-link out: FAIL_REPORT

  // Output selection.
  localparam [1:0] O_IDLE = 2'd0;
  localparam [1:0] O_INS  = 2'd1;
  localparam [1:0] O_FIFO = 2'd2;
  localparam [1:0] O_BYP  = 2'd3;


  // ---------------------------------------------------------------------------------------
  // Registers
  logic [63:0]  cfg_q;
  logic [13:0]  taddr_q;
  logic [16:0]  p0_q, p1_q, p2_q, p3_q;
  logic [3:0]   ps_q, ps_d;
  logic [5:0]   idx_q, idx_d;
  logic [15:0]  crc_q, crc_d;
  logic [1:0]   pk_ans_q, pk_ans_d;
  logic [15:0]  pk_src_q, pk_src_d, pk_tid_q, pk_tid_d;
  logic [3:0]   pk_slot_q, pk_slot_d;
  logic [7:0]   pk_type_q, pk_type_d;
  logic         resv_q, resv_d;        // a receive-queue slot is reserved by the packet in stage 3
  // receive queue
  logic [2:0]   rq_head_q, rq_head_d, rq_tail_q, rq_tail_d;
  logic [3:0]   rq_cnt_q, rq_cnt_d;
  logic [47:0]  rq_len_q, rq_len_d;    // 8 x 6
  // pool
  logic [NSLOT*42-1:0] sl_q;           // per slot {st, len, busy, retry, tmr, run, rtx}
  // sl_d is not in waveforms: sl_q a cycle early, 504 bits that change every cycle (the echo
  // timers), half of what a running torus's FST dumped.
  /*verilator tracing_off*/
  logic [NSLOT*42-1:0] sl_d;
  /*verilator tracing_on*/
  logic [NSLOT*16-1:0] sl_tgt_q, sl_tgt_d, sl_src_q, sl_src_d, sl_tid_q, sl_tid_d;
  // send queue order (slot numbers)
  logic [31:0]  sq_q, sq_d;
  logic [2:0]   sq_head_q, sq_head_d, sq_tail_q, sq_tail_d;
  logic [3:0]   sq_cnt_q, sq_cnt_d;
  // B-link in
  logic         bi_fill_q, bi_fill_d;  // a B-link packet is filling slot bi_slot_q
  logic [3:0]   bi_slot_q, bi_slot_d;
  logic [5:0]   bi_idx_q, bi_idx_d;
  // echo queue: 4 x {type, tgt, tid}
  logic [319:0] eq_q, eq_d;
  logic [2:0]   eq_head_q, eq_head_d, eq_tail_q, eq_tail_d;
  logic [3:0]   eq_cnt_q, eq_cnt_d;
  // bypass FIFO
  logic [5:0]   bf_head_q, bf_head_d, bf_tail_q, bf_tail_d;
  logic [6:0]   bf_cnt_q, bf_cnt_d;
  // output
  logic [16:0]  lout_q, lout_d;
  logic         need_idle_q, need_idle_d;
  logic [1:0]   ins_kind_q, ins_kind_d;
  logic [5:0]   ins_idx_q, ins_idx_d, ins_len_q, ins_len_d;
  logic [3:0]   ins_slot_q, ins_slot_d;
  logic [23:0]  ins_e_q, ins_e_d;     // the echo being inserted: {type, tid} (its target goes
                                       // out at the start, from the echo queue)
  logic [15:0]  ocrc_q, ocrc_d;
  // B-link out
  logic [1:0]   bo_kind_q, bo_kind_d;
  logic [5:0]   bo_idx_q, bo_idx_d, bo_len_q, bo_len_d;
  logic [127:0] fr_q, fr_d;
  logic [15:0]  bcrc_q, bcrc_d;
  logic [2:0]   bo_port_q, bo_port_d;
  // fail mode
  logic         fail_q, fail_d;
  logic [2:0]   fail_rsn_q, fail_rsn_d;
  // ring
  logic [2:0]   sd0_q, sd0_d;
  logic [6:0]   sd1_q, sd1_d;
  logic [6:0]   since_q, since_d;
  logic         ring_up_q, ring_up_d;
  logic         sd_in_q;
  logic         irq_q, irq_d;
  // counters
  logic [15:0]  cnt_crc_q, cnt_crc_d, cnt_scrub_q, cnt_scrub_d;
  logic [15:0]  cnt_busy_q, cnt_busy_d, cnt_fail_q, cnt_fail_d;

  // Memories.
  logic [15:0]  rq_mem [0:511];
  logic [15:0]  pm_mem [0:1023];
  logic [16:0]  bf_mem [0:63];
  // LRT entries are one bit, declared as a vector: a simulator's VPI then reaches each word
  // (Verilator 5.006 indexes no array of scalars), which the cocotb replay's upsets need.
  logic [0:0]   lrt_mem [0:TSIZE-1];
  logic [2:0]   brt_mem [0:TSIZE-1];

  // ---------------------------------------------------------------------------------------
  // Configuration fields in force this cycle.
  wire [12:0] own       = cfg_q[12:0];
  wire        cfg_en    = cfg_q[16];
  wire        cfg_scrub = cfg_q[17];
  wire [7:0]  busy_lim  = cfg_q[31:24];
  wire [7:0]  retry_lim = cfg_q[39:32];
  wire [15:0] etmo      = cfg_q[63:48];
  wire [15:0] own16     = {3'b000, own};

  wire        wr_ctrl = reg_we_i && (reg_waddr_i == ADDR_CTRL);
  wire        wr_tadr = reg_we_i && (reg_waddr_i == ADDR_TADDR);
  wire        wr_lrt  = reg_we_i && (reg_waddr_i == ADDR_LRT) && reg_wstrb_i[0];
  wire        wr_brt  = reg_we_i && (reg_waddr_i == ADDR_BRT) && reg_wstrb_i[0];
  wire        wr_clr  = reg_we_i && (reg_waddr_i == ADDR_CLR) && reg_wstrb_i[0] &&
                        reg_wdata_i[3];

  // CTRL and TADDR (sci_cfg_reg): reset values at a reset edge without a register write; a
  // reset edge with one (a configuration cycle) keeps them and performs the write.
  sci_cfg_reg #(.W(64), .Mask(CTRL_MASK), .Reset(CTRL_RESET)) u_ctrl (
    .clk_i, .rst_ni, .any_we_i(reg_we_i), .we_i(wr_ctrl), .wdata_i(reg_wdata_i),
    .wstrb_i(reg_wstrb_i), .q_o(cfg_q));
  sci_cfg_reg #(.W(14)) u_taddr (
    .clk_i, .rst_ni, .any_we_i(reg_we_i), .we_i(wr_tadr), .wdata_i(reg_wdata_i[13:0]),
    .wstrb_i(reg_wstrb_i[1:0]), .q_o(taddr_q));

  // Table indices.
  function automatic [13:0] tab_index(input [15:0] tgt_i);
    logic [13:0] r;
    if (P2s != 0) begin
      r = {tgt_i[14], tgt_i[12:0]};
    end else begin
      r = {6'd0, tgt_i[7:0]};
    end
    return r;
  endfunction

  wire [13:0]   lk_idx14 = tab_index(p3_q[15:0]);
  wire [TW-1:0] lk_idx   = lk_idx14[TW-1:0];
  wire [TW-1:0] ta_idx   = taddr_q[TW-1:0];
  wire          lrt_bit  = lrt_mem[lk_idx];
  wire [2:0]    brt_port = brt_mem[lk_idx];
  wire          lrt_rd   = lrt_mem[ta_idx];
  wire [2:0]    brt_rd   = brt_mem[ta_idx];

  // ---------------------------------------------------------------------------------------
  // Pool slot fields.
  // Counts of slots in a state.
  function automatic [3:0] count_st(input [NSLOT*42-1:0] sl_i, input [1:0] st_i);
    logic [3:0] n;
    n = 4'd0;
    for (int s = 0; s < NSLOT; s++) begin
      n = n + {3'd0, sl_i[s*42 + 40 +: 2] == st_i};
    end
    return n;
  endfunction

  // Echo match: {hit, slot} of the lowest ACTIVE slot whose sourceId and tid equal the echo's
  // targetId and tid (bit 14 of the ids masked).
  function automatic [4:0] echo_match(input [NSLOT*42-1:0] sl_i, input [NSLOT*16-1:0] src_i,
                                      input [NSLOT*16-1:0] tid_i, input [15:0] tgt_e,
                                      input [15:0] tid_e);
    logic [4:0] r;
    r = 5'd0;
    for (int s = NSLOT - 1; s >= 0; s--) begin
      if (sl_i[s*42 + 40 +: 2] == SL_ACTIVE &&
          (src_i[s*16 +: 16] & 16'hBFFF) == (tgt_e & 16'hBFFF) && tid_i[s*16 +: 16] == tid_e) begin
        r = {1'b1, 4'(s)};
      end
    end
    return r;
  endfunction

  // Lowest slot in state st_i with the given flag bit set (flag_i: 0 any, 1 rtx), excluding
  // slot excl_i when excl_en_i: {hit, slot}.
  function automatic [4:0] find_slot(input [NSLOT*42-1:0] sl_i, input [1:0] st_i,
                                     input need_rtx_i, input excl_en_i, input [3:0] excl_i);
    logic [4:0] r;
    r = 5'd0;
    for (int s = NSLOT - 1; s >= 0; s--) begin
      if (sl_i[s*42 + 40 +: 2] == st_i && (!need_rtx_i || sl_i[s*42]) &&
          !(excl_en_i && excl_i == 4'(s))) begin
        r = {1'b1, 4'(s)};
      end
    end
    return r;
  endfunction

  // A field of pool slot s_i read by a slot number from a register (the send queue, the
  // insertion, a failure report): a number beyond the pool (12..15, only after an upset)
  // names no buffer and reads 0 (rtl/sci_lc.md section 8).
  function automatic [5:0] slot_len(input [NSLOT*42-1:0] sl_i, input [3:0] s_i);
    logic [5:0] r;
    r = 6'd0;
    for (int s = 0; s < NSLOT; s++) begin
      if (s_i == 4'(s)) begin
        r = sl_i[s*42 + 34 +: 6];
      end
    end
    return r;
  endfunction

  function automatic [15:0] slot_word(input [NSLOT*16-1:0] w_i, input [3:0] s_i);
    logic [15:0] r;
    r = 16'd0;
    for (int s = 0; s < NSLOT; s++) begin
      if (s_i == 4'(s)) begin
        r = w_i[s*16 +: 16];
      end
    end
    return r;
  endfunction

  wire [3:0] ab_cnt   = count_st(sl_q, SL_ACTIVE);
  wire [3:0] fill_cnt = count_st(sl_q, SL_FILL);
  wire [3:0] used_cnt = 4'(NSLOT) - count_st(sl_q, SL_FREE);
  // A slot freed while it is still being inserted (a stale echo) is not refilled until the
  // insertion ends.
  wire [4:0] free_hit = find_slot(sl_q, SL_FREE, 1'b0, ins_kind_q == K_SLOT, ins_slot_q);
  wire [4:0] rtx_hit  = find_slot(sl_q, SL_ACTIVE, 1'b1, 1'b0, 4'd0);

  // ---------------------------------------------------------------------------------------
  // Input pipe and parser decision (symbol 0 in stage 3).
  wire        p3f      = p3_q[16];
  wire [15:0] p3s      = p3_q[15:0];
  wire [7:0]  typ      = p2_q[15:8];
  wire        is_echo  = (typ == T_ACCEPT) || (typ == T_BUSY) || (typ == T_ERROR);
  wire        scrub_rm = cfg_scrub && p2_q[7];
  wire [4:0]  em       = echo_match(sl_q, sl_src_q, sl_tid_q, p3s, p0_q[15:0]);
  // A packet whose sourceId and tid are those of one of our active buffers is our own, back.
  wire [4:0]  om       = echo_match(sl_q, sl_src_q, sl_tid_q, p1_q[15:0], p0_q[15:0]);
  wire        own_src  = om[4] && (typ != T_PROBE);
  // P2S own-column bypass: while fo_byp_i, a packet for another node of our own column is not
  // taken (as if its LRT bit were 0). LC3 ignores the inputs.
  wire        fo_skip  = (P2s != 0) && fo_byp_i && (((p3s[12:0] ^ own) & fo_xmask_i) == 13'd0) &&
                         (p3s[12:0] != own);
  wire        take_ok  = cfg_en && lrt_bit && !fo_skip && !is_echo && !own_src;
  wire        rq_free  = (rq_cnt_q < 4'd8);
  wire        at_sym0  = p3f && (idx_q == 6'd0);

  wire [3:0] dec_st  = scrub_rm ? PS_DISCARD :
                       (is_echo && em[4]) ? PS_ECHO :
                       is_echo ? PS_BYPASS :
                       take_ok ? (rq_free ? PS_TAKE : PS_DISCARD) : PS_BYPASS;
  wire [1:0] dec_ans = (scrub_rm || is_echo || !take_ok) ? ANS_NONE :
                       !rq_free ? ANS_BUSY :
                       (brt_port == 3'd7) ? ANS_ERR : ANS_ACC;

  wire [3:0]  cur_st   = at_sym0 ? dec_st : ps_q;
  wire [1:0]  cur_ans  = at_sym0 ? dec_ans : pk_ans_q;
  wire [15:0] cur_src  = at_sym0 ? p1_q[15:0] : pk_src_q;
  wire [15:0] cur_tid  = at_sym0 ? p0_q[15:0] : pk_tid_q;
  wire [3:0]  cur_slot = at_sym0 ? em[3:0] : pk_slot_q;
  wire [7:0]  cur_type = at_sym0 ? typ : pk_type_q;

  assign ps_d      = p3f ? cur_st : PS_IDLE;
  assign idx_d     = p3f ? ((idx_q == 6'd62) ? idx_q : idx_q + 6'd1) : 6'd0;
  assign pk_ans_d  = cur_ans;
  assign pk_src_d  = cur_src;
  assign pk_tid_d  = cur_tid;
  assign pk_slot_d = cur_slot;
  assign pk_type_d = cur_type;
  assign resv_d    = p3f && (cur_st == PS_TAKE) && p2_q[16];

  // Running CRC of the packet in stage 3 (mark and targetId bit 14 masked).
  wire [15:0] p3_masked = (idx_q == 6'd0) ? (p3s & 16'hBFFF) :
                          (idx_q == 6'd1) ? (p3s & 16'hFF7F) : p3s;
  wire [15:0] crc_in_nx;
  sci_crc16 #(.DataW(16)) u_crc_in (.crc_i(crc_q), .data_i(p3_masked), .crc_o(crc_in_nx));
  assign crc_d = p3f ? crc_in_nx : 16'hFFFF;

  // End of packet: the CRC symbol is in stage 3 (stage 2 holds flag 0).
  wire eop     = p3f && !p2_q[16];
  wire crc_ok  = (crc_q == p3s) && (idx_q >= 6'd4) && (idx_q <= 6'd36);  // 5..37 symbols
  wire chk     = eop && ((cur_st == PS_TAKE) || (cur_st == PS_ECHO) ||
                         (cur_st == PS_DISCARD && cur_ans == ANS_BUSY));
  wire ev_crc_err = chk && !crc_ok;
  wire ev_commit  = eop && crc_ok && (cur_st == PS_TAKE) && (cur_ans == ANS_ACC);
  wire ev_answer  = eop && crc_ok && (cur_st == PS_TAKE || cur_st == PS_DISCARD) &&
                    (cur_ans != ANS_NONE);
  wire ev_echo    = eop && crc_ok && (cur_st == PS_ECHO);
  wire ev_scrub   = at_sym0 && scrub_rm;
  wire [7:0] ans_type = (cur_ans == ANS_ACC) ? T_ACCEPT :
                        (cur_ans == ANS_BUSY) ? T_BUSY : T_ERROR;

  // Receive queue: write while taking (mark cleared), commit at a good end.
  wire        rq_we = p3f && (cur_st == PS_TAKE);
  wire [8:0]  rq_wa = {rq_tail_q, idx_q};
  wire [15:0] rq_wd = (idx_q == 6'd1) ? (p3s & 16'hFF7F) : p3s;

  // ---------------------------------------------------------------------------------------
  // Echo queue (8): push at ev_answer (dropped when full), pop at an echo insertion start,
  // flushed while the LC is disabled.
  wire [39:0] eq_head_rec = eq_q[eq_head_q*40 +: 40];
  wire        eq_push     = ev_answer && (eq_cnt_q != 4'd8) && cfg_en;
  wire        eq_pop;

  function automatic [319:0] eq_write(input [319:0] eq_i, input [2:0] at_i, input [39:0] rec_i,
                                      input en_i);
    logic [319:0] r;
    r = eq_i;
    if (en_i) begin
      r[at_i*40 +: 40] = rec_i;
    end
    return r;
  endfunction

  assign eq_d      = eq_write(eq_q, eq_tail_q, {ans_type, cur_src, cur_tid}, eq_push);
  assign eq_tail_d = !cfg_en ? 3'd0 : (eq_push ? eq_tail_q + 3'd1 : eq_tail_q);
  assign eq_head_d = !cfg_en ? 3'd0 : (eq_pop ? eq_head_q + 3'd1 : eq_head_q);
  assign eq_cnt_d  = !cfg_en ? 4'd0 : (eq_cnt_q + {3'd0, eq_push} - {3'd0, eq_pop});

  // ---------------------------------------------------------------------------------------
  // Ring state.
  wire rd_rx       = !p3f && p3s[15];                     // ring-down idle in stage 3
  wire rd_rx_other = rd_rx && (p3s[12:0] != own);
  wire orig        = (sd0_q == 3'd4);
  assign sd0_d     = lin_sd_i ? 3'd0 : ((sd0_q == 3'd4) ? sd0_q : sd0_q + 3'd1);
  assign sd1_d     = !lin_sd_i ? 7'd0 : ((sd1_q == 7'd127) ? sd1_q : sd1_q + 7'd1);
  assign since_d   = (rd_rx || !lin_sd_i) ? 7'd0 :
                     ((since_q == 7'd127) ? since_q : since_q + 7'd1);
  assign ring_up_d = (orig || rd_rx_other) ? 1'b0 :
                     (sd1_q >= 7'd64 && since_q >= 7'd64) ? 1'b1 : ring_up_q;
  wire ring_fall   = ring_up_q && !ring_up_d;
  assign irq_d     = ring_fall ? 1'b1 : (wr_clr ? 1'b0 : irq_q);

  // ---------------------------------------------------------------------------------------
  // Output.
  wire        ins_act   = (ins_kind_q != K_NONE);
  wire        bf_ne     = (bf_cnt_q != 7'd0);
  wire [16:0] bf_head   = bf_mem[bf_head_q];
  wire        byp_v     = p3f && (cur_st == PS_BYPASS);
  wire [15:0] byp_sym   = (cfg_scrub && idx_q == 6'd1) ? (p3s | 16'h0080) : p3s;
  wire        byp_last  = !p2_q[16];
  wire        start_ok  = !need_idle_q && !ins_act && !bf_ne && !byp_v && !lout_q[16] && cfg_en &&
                          ring_up_q;
  wire        st_echo   = start_ok && (eq_cnt_q != 4'd0);
  wire        st_rtx    = start_ok && !st_echo && rtx_hit[4] && !fail_q;
  wire        st_sq     = start_ok && !st_echo && !st_rtx && (sq_cnt_q != 4'd0) &&
                          (ab_cnt < 4'd4) && !fail_q;  // enabled and ring up: not failing
  wire        ins_start = st_echo || st_rtx || st_sq;
  assign eq_pop = st_echo;

  wire [1:0] osel = need_idle_q ? O_IDLE :
                    (ins_act || ins_start) ? O_INS :
                    bf_ne ? O_FIFO :
                    byp_v ? O_BYP : O_IDLE;

  wire [3:0]  sq_head_slot = sq_q[sq_head_q*4 +: 4];
  wire [1:0]  kind_cur = ins_start ? (st_echo ? K_ECHO : K_SLOT) : ins_kind_q;
  wire [5:0]  iidx_cur = ins_start ? 6'd0 : ins_idx_q;
  wire [3:0]  islot_cur = ins_start ? (st_rtx ? rtx_hit[3:0] : sq_head_slot) : ins_slot_q;
  wire [5:0]  ilen_cur = ins_start ? (st_echo ? 6'd5 : slot_len(sl_q, islot_cur)) : ins_len_q;
  wire [39:0] erec_cur = ins_start ? eq_head_rec : {ins_e_q[23:16], 16'd0, ins_e_q[15:0]};
  wire [15:0] pm_rd    = pm_mem[{islot_cur, iidx_cur}];

  function automatic [15:0] echo_sym(input [5:0] idx_i, input [39:0] rec_i, input [15:0] own_i,
                                     input [15:0] crc_i);
    logic [15:0] r;
    case (idx_i)
      6'd0:    r = rec_i[31:16];            // targetId = the packet's sourceId
      6'd1:    r = {rec_i[39:32], 8'h00};   // command
      6'd2:    r = own_i;                   // sourceId = this node
      6'd3:    r = rec_i[15:0];             // tid
      default: r = crc_i;                   // CRC
    endcase
    return r;
  endfunction

  wire [15:0] ins_sym  = (kind_cur == K_ECHO) ? echo_sym(iidx_cur, erec_cur, own16, ocrc_q) : pm_rd;
  wire        ins_last = (iidx_cur == ilen_cur - 6'd1);
  wire        o_ins    = (osel == O_INS);
  wire [15:0] ocrc_nx;
  // The CRC of a packet the LC builds takes targetId bit 14 and the mark as 0 (sci_lc.md s.2).
  function automatic [15:0] crc_masked(input [5:0] idx_i, input [15:0] sym_i);
    return (idx_i == 6'd0) ? (sym_i & 16'hBFFF) : (idx_i == 6'd1) ? (sym_i & 16'hFF7F) : sym_i;
  endfunction
  sci_crc16 #(.DataW(16)) u_crc_out (.crc_i((iidx_cur == 6'd0) ? 16'hFFFF : ocrc_q),
                                     .data_i(crc_masked(iidx_cur, ins_sym)), .crc_o(ocrc_nx));
  assign ocrc_d = (o_ins && kind_cur == K_ECHO) ? ocrc_nx : ocrc_q;

  assign ins_kind_d = o_ins ? (ins_last ? K_NONE : kind_cur) : ins_kind_q;
  assign ins_idx_d  = o_ins ? iidx_cur + 6'd1 : ins_idx_q;
  assign ins_slot_d = (st_rtx || st_sq) ? islot_cur : ins_slot_q;  // a buffer's insertion
  assign ins_len_d  = o_ins ? ilen_cur : ins_len_q;
  assign ins_e_d    = st_echo ? {eq_head_rec[39:32], eq_head_rec[15:0]} : ins_e_q;
  wire   ev_ins_end = o_ins && ins_last && (kind_cur == K_SLOT);

  wire [16:0] idle_word = orig ? {1'b0, 3'b100, own} :
                          rd_rx_other ? {1'b0, p3s} : 17'd0;
  assign lout_d = (osel == O_INS)  ? {1'b1, ins_sym} :
                  (osel == O_FIFO) ? {1'b1, bf_head[15:0]} :
                  (osel == O_BYP)  ? {1'b1, byp_sym} : idle_word;
  assign need_idle_d = (o_ins && ins_last) || ((osel == O_FIFO) && bf_head[16]) ||
                       ((osel == O_BYP) && byp_last);

  wire bf_push = byp_v && (osel != O_BYP);
  wire bf_pop  = (osel == O_FIFO);
  assign bf_tail_d = bf_push ? bf_tail_q + 6'd1 : bf_tail_q;
  assign bf_head_d = bf_pop ? bf_head_q + 6'd1 : bf_head_q;
  assign bf_cnt_d  = bf_cnt_q + {6'd0, bf_push} - {6'd0, bf_pop};

  // ---------------------------------------------------------------------------------------
  // Failure: a limit (1 busy, 2 echo timeout) starts a pass (fail_q) that reports every
  // send-queue packet and active buffer, then ends; while disabled (4) or ring down (3) they are
  // reported continuously. One FAIL_REPORT leaves on the B-link at a time.
  function automatic [1:0] limit_hits(input [NSLOT*42-1:0] sl_i, input [7:0] blim_i,
                                      input [7:0] rlim_i, input echo_i, input [3:0] eslot_i,
                                      input [7:0] etype_i);
    logic [1:0] r;   // {busy limit, retry limit}
    r = 2'b00;
    for (int s = 0; s < NSLOT; s++) begin
      if (sl_i[s*42 + 40 +: 2] == SL_ACTIVE) begin
        if (sl_i[s*42 + 1] && sl_i[s*42 + 2 +: 16] == 16'd0 &&
            sl_i[s*42 + 18 +: 8] >= rlim_i) begin
          r[0] = 1'b1;
        end
        if (echo_i && eslot_i == 4'(s) && etype_i == T_BUSY && sl_i[s*42 + 26 +: 8] >= blim_i) begin
          r[1] = 1'b1;
        end
      end
    end
    return r;
  endfunction

  wire [1:0] lim  = limit_hits(sl_q, busy_lim, retry_lim, ev_echo, cur_slot, cur_type);
  wire [2:0] trig_rsn = lim[1] ? 3'd1 : lim[0] ? 3'd2 : 3'd0;
  wire       pending  = (used_cnt != 4'd0);
  assign fail_d     = fail_q ? pending : (trig_rsn != 3'd0);
  assign fail_rsn_d = fail_q ? fail_rsn_q : trig_rsn;
  // Failing: a limit pass (fail_q), or continuously while disabled (reason 4) or ring down (3).
  wire       failing  = fail_q || !cfg_en || !ring_up_q;
  wire [2:0] cur_rsn  = !cfg_en ? 3'd4 : !ring_up_q ? 3'd3 : fail_rsn_q;

  // Next fail item: an active buffer not being inserted, else the send-queue head.
  wire [4:0] fab    = find_slot(sl_q, SL_ACTIVE, 1'b0, ins_act && ins_kind_q == K_SLOT, ins_slot_q);
  wire       fitem  = failing && (fab[4] || sq_cnt_q != 4'd0);
  wire [3:0] fslot  = fab[4] ? fab[3:0] : sq_head_slot;

  // ---------------------------------------------------------------------------------------
  // B-link out: the receive-queue head or a FAIL_REPORT; a symbol moves when valid and ready.
  // A FAIL_REPORT is built, and its packet's buffer freed, when its symbol 0 moves.
  // bout_port: the BRT entry of the head packet's targetId, looked up while it is the head.
  wire [15:0]   rq_head_tgt  = rq_mem[{rq_head_q, 6'd0}];
  wire [13:0]   hd_idx14     = tab_index(rq_head_tgt);
  wire [TW-1:0] hd_idx       = hd_idx14[TW-1:0];
  wire [2:0]    rq_port_head = brt_mem[hd_idx];
  wire [5:0]  rq_len_head  = rq_len_q[rq_head_q*6 +: 6];
  wire        bo_busy      = (bo_kind_q != K_NONE);
  wire        off_fail     = !bo_busy && fitem;
  wire        off_rq       = !bo_busy && !fitem && (rq_cnt_q != 4'd0);
  wire        bo_valid     = bo_busy || off_fail || off_rq;
  wire        bo_xfer      = bo_valid && bout_ready_i;
  wire [127:0] fr_new      = {own16, {T_FAIL, 8'h00}, own16, 16'd0,
                              {13'd0, cur_rsn}, slot_word(sl_tgt_q, fslot),
                              slot_word(sl_src_q, fslot), slot_word(sl_tid_q, fslot)};

  function automatic [15:0] fr_word(input [127:0] fr_i, input [5:0] idx_i, input [15:0] crc_i);
    logic [15:0] r;
    if (idx_i < 6'd8) begin
      r = fr_i[{3'd7 - idx_i[2:0], 4'd0} +: 16];
    end else begin
      r = crc_i;
    end
    return r;
  endfunction

  wire [1:0]   bo_kind_cur = bo_busy ? bo_kind_q : (off_fail ? K_FAIL : K_RQ);
  wire [5:0]   bo_idx_cur  = bo_busy ? bo_idx_q : 6'd0;
  wire [5:0]   bo_len_cur  = bo_busy ? bo_len_q : (off_fail ? 6'd9 : rq_len_head);
  wire [127:0] fr_cur      = bo_busy ? fr_q : fr_new;
  wire [2:0]   bo_port_cur = bo_busy ? bo_port_q : (off_fail ? 3'd0 : rq_port_head);
  wire [15:0]  rq_rd       = rq_mem[{rq_head_q, bo_idx_cur}];
  wire [15:0]  bo_word     = (bo_kind_cur == K_FAIL) ? fr_word(fr_cur, bo_idx_cur, bcrc_q) : rq_rd;
  wire         bo_last     = (bo_idx_cur == bo_len_cur - 6'd1);
  wire [15:0]  bcrc_nx;
  sci_crc16 #(.DataW(16)) u_crc_bo (.crc_i((bo_idx_cur == 6'd0) ? 16'hFFFF : bcrc_q),
                                    .data_i(crc_masked(bo_idx_cur, bo_word)), .crc_o(bcrc_nx));

  assign bo_kind_d = bo_xfer ? (bo_last ? K_NONE : bo_kind_cur) : bo_kind_q;
  assign bo_idx_d  = bo_xfer ? bo_idx_cur + 6'd1 : bo_idx_q;
  assign bo_len_d  = bo_xfer ? bo_len_cur : bo_len_q;
  assign bcrc_d    = (bo_xfer && bo_kind_cur == K_FAIL) ? bcrc_nx : bcrc_q;
  assign bo_port_d = bo_xfer ? bo_port_cur : bo_port_q;
  wire   rq_pop    = bo_xfer && bo_last && (bo_kind_cur == K_RQ);
  wire   ev_fail   = bo_xfer && off_fail;
  assign fr_d      = ev_fail ? fr_new : fr_q;  // latched when a FAIL_REPORT starts
  wire   sq_pop    = st_sq || (ev_fail && !fab[4]);

  assign bout_valid_o = bo_valid;
  assign bout_o       = bo_valid ? {1'b1, bo_word} : 17'd0;
  assign bout_last_o  = bo_valid && bo_last;
  assign bout_port_o  = bo_port_cur;

  // Receive queue pointers.
  function automatic [47:0] put6(input [47:0] v_i, input [2:0] at_i, input [5:0] x_i,
                                 input en_i);
    logic [47:0] r;
    r = v_i;
    if (en_i) begin
      r[at_i*6 +: 6] = x_i;
    end
    return r;
  endfunction

  assign rq_len_d  = put6(rq_len_q, rq_tail_q, idx_q + 6'd1, ev_commit);
  assign rq_tail_d = ev_commit ? rq_tail_q + 3'd1 : rq_tail_q;
  assign rq_head_d = rq_pop ? rq_head_q + 3'd1 : rq_head_q;
  assign rq_cnt_d  = rq_cnt_q + {3'd0, ev_commit} - {3'd0, rq_pop};

  // ---------------------------------------------------------------------------------------
  // B-link in -> pool slot -> send queue. A symbol moves when bin_i[16] (valid) and bin_ready_o
  // are 1; bin_last_i marks the CRC symbol. A packet claims a free slot with its symbol 0.
  wire       bi_fill  = bi_fill_q;
  assign bin_ready_o  = bi_fill || (!fail_q && free_hit[4] && ((sq_cnt_q + fill_cnt) < 4'd8));
  wire       bi_xfer  = bin_i[16] && bin_ready_o;
  wire       bi_start = bi_xfer && !bi_fill;
  wire       bi_end   = bi_xfer && bin_last_i;
  wire [3:0] bi_slot_cur = bi_fill ? bi_slot_q : free_hit[3:0];
  wire [5:0] bi_idx_cur  = bi_fill ? bi_idx_q : 6'd0;
  wire       pm_we = bi_xfer;
  wire [9:0] pm_wa = {bi_slot_cur, bi_idx_cur};

  assign bi_fill_d = bi_xfer ? !bin_last_i : bi_fill_q;
  assign bi_slot_d = bi_xfer ? bi_slot_cur : bi_slot_q;
  assign bi_idx_d  = bi_xfer ? ((bi_idx_cur == 6'd62) ? bi_idx_cur : bi_idx_cur + 6'd1) : bi_idx_q;

  function automatic [31:0] put4(input [31:0] v_i, input [2:0] at_i, input [3:0] x_i,
                                 input en_i);
    logic [31:0] r;
    r = v_i;
    if (en_i) begin
      r[at_i*4 +: 4] = x_i;
    end
    return r;
  endfunction

  assign sq_d      = put4(sq_q, sq_tail_q, bi_slot_cur, bi_end);
  assign sq_tail_d = bi_end ? sq_tail_q + 3'd1 : sq_tail_q;
  assign sq_head_d = sq_pop ? sq_head_q + 3'd1 : sq_head_q;
  assign sq_cnt_d  = sq_cnt_q + {3'd0, bi_end} - {3'd0, sq_pop};

  // Per-slot state.
  function automatic [41:0] slot_next(input [41:0] s_i, input fill_start_i, input fill_end_i,
                                      input [5:0] fill_len_i, input ins_start_i,
                                      input ins_end_i, input echo_i, input [7:0] etype_i,
                                      input free_i, input [7:0] blim_i, input [7:0] rlim_i,
                                      input [15:0] etmo_i);
    logic [1:0]  st;
    logic [5:0]  len;
    logic [7:0]  busy, retry;
    logic [15:0] tmr;
    logic        run, rtx;
    {st, len, busy, retry, tmr, run, rtx} = s_i;
    if (fill_start_i) begin
      st = SL_FILL; len = 6'd0; busy = 8'd0; retry = 8'd0; tmr = 16'd0; run = 1'b0; rtx = 1'b0;
    end
    if (fill_end_i) begin
      st  = SL_QUEUED;
      len = fill_len_i;
    end
    if (ins_start_i) begin
      st  = SL_ACTIVE;
      rtx = 1'b0;
      run = 1'b0;
    end
    if (ins_end_i && st == SL_ACTIVE) begin
      run = (etmo_i != 16'd0);
      tmr = etmo_i;
    end else if (run) begin
      if (tmr == 16'd0) begin
        run = 1'b0;
        if (retry < rlim_i) begin
          retry = retry + 8'd1;
          rtx   = 1'b1;
        end
      end else begin
        tmr = tmr - 16'd1;
      end
    end
    if (echo_i && st == SL_ACTIVE) begin
      if (etype_i == T_BUSY) begin
        run = 1'b0;
        if (busy < blim_i) begin
          busy = busy + 8'd1;
          rtx  = 1'b1;
        end
      end else begin
        st  = SL_FREE;  // a freed buffer keeps no timer and no retransmission
        run = 1'b0;
        rtx = 1'b0;
      end
    end
    if (free_i) begin
      st  = SL_FREE;
      run = 1'b0;
      rtx = 1'b0;
    end
    return {st, len, busy, retry, tmr, run, rtx};
  endfunction

  for (genvar g = 0; g < NSLOT; g++) begin : gen_slot
    wire sel_fill_start = bi_start && (free_hit[3:0] == 4'(g));
    wire sel_fill       = pm_we && (bi_slot_cur == 4'(g));
    wire sel_fill_end   = bi_end && (bi_slot_cur == 4'(g));
    wire sel_ins_start  = (st_rtx || st_sq) && (islot_cur == 4'(g));
    wire sel_ins_end    = ev_ins_end && (islot_cur == 4'(g));
    wire sel_echo       = ev_echo && (cur_slot == 4'(g));
    wire sel_free       = ev_fail && (fslot == 4'(g));
    assign sl_d[g*42 +: 42] = slot_next(sl_q[g*42 +: 42], sel_fill_start, sel_fill_end,
                                        bi_idx_cur + 6'd1, sel_ins_start, sel_ins_end, sel_echo,
                                        cur_type, sel_free, busy_lim, retry_lim, etmo);
    assign sl_tgt_d[g*16 +: 16] = (sel_fill && bi_idx_cur == 6'd0) ? bin_i[15:0] :
                                  sl_tgt_q[g*16 +: 16];
    assign sl_src_d[g*16 +: 16] = (sel_fill && bi_idx_cur == 6'd2) ? bin_i[15:0] :
                                  sl_src_q[g*16 +: 16];
    assign sl_tid_d[g*16 +: 16] = (sel_fill && bi_idx_cur == 6'd3) ? bin_i[15:0] :
                                  sl_tid_q[g*16 +: 16];
  end

  // ---------------------------------------------------------------------------------------
  // Counters (saturating).
  function automatic [15:0] sat_inc(input [15:0] v_i, input en_i);
    return (en_i && v_i != 16'hFFFF) ? v_i + 16'd1 : v_i;
  endfunction

  assign cnt_crc_d   = sat_inc(cnt_crc_q, ev_crc_err);
  assign cnt_scrub_d = sat_inc(cnt_scrub_q, ev_scrub);
  assign cnt_busy_d  = sat_inc(cnt_busy_q, eq_push && ans_type == T_BUSY);
  assign cnt_fail_d  = sat_inc(cnt_fail_q, ev_fail);

  // ---------------------------------------------------------------------------------------
  // Register read port, status, debug.
  wire [3:0]  rq_shown = rq_cnt_q + {3'd0, resv_q};
  wire [15:0] status   = {rq_shown, sq_cnt_q, ab_cnt, irq_q, !cfg_en, sd_in_q, ring_up_q};
  assign status_o = status;
  wire [63:0] counts   = {cnt_fail_q, cnt_busy_q, cnt_scrub_q, cnt_crc_q};
  assign dbg_o = {16'd0, crc_q, 1'b0, since_q, orig, ring_up_q, ab_cnt, sq_cnt_q, rq_shown,
                  bf_cnt_q[5:0], ps_q};

  assign reg_rdata_o = (reg_raddr_i == ADDR_CTRL)   ? cfg_q :
                       (reg_raddr_i == ADDR_STATUS) ? {48'd0, status} :
                       (reg_raddr_i == ADDR_COUNTS) ? counts :
                       (reg_raddr_i == ADDR_TADDR)  ? {50'd0, taddr_q} :
                       (reg_raddr_i == ADDR_LRT)    ? {63'd0, lrt_rd} :
                       (reg_raddr_i == ADDR_BRT)    ? {61'd0, brt_rd} :
                       (reg_raddr_i == ADDR_DBG)    ? dbg_o : 64'd0;

  assign lout_o    = lout_q;
  assign lout_sd_o = 1'b1;
  assign irq_o     = irq_q;

  // ---------------------------------------------------------------------------------------
  // Registers.
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      p0_q        <= 17'd0;
      p1_q        <= 17'd0;
      p2_q        <= 17'd0;
      p3_q        <= 17'd0;
      ps_q        <= PS_IDLE;
      idx_q       <= 6'd0;
      crc_q       <= 16'hFFFF;
      pk_ans_q    <= ANS_NONE;
      pk_src_q    <= 16'd0;
      pk_tid_q    <= 16'd0;
      pk_slot_q   <= 4'd0;
      pk_type_q   <= 8'd0;
      resv_q      <= 1'b0;
      rq_head_q   <= 3'd0;
      rq_tail_q   <= 3'd0;
      rq_cnt_q    <= 4'd0;
      rq_len_q    <= 48'd0;
      sl_q        <= '0;
      sl_tgt_q    <= '0;
      sl_src_q    <= '0;
      sl_tid_q    <= '0;
      sq_q        <= 32'd0;
      sq_head_q   <= 3'd0;
      sq_tail_q   <= 3'd0;
      sq_cnt_q    <= 4'd0;
      bi_fill_q   <= 1'b0;
      bi_slot_q   <= 4'd0;
      bi_idx_q    <= 6'd0;
      eq_q        <= 320'd0;
      eq_head_q   <= 3'd0;
      eq_tail_q   <= 3'd0;
      eq_cnt_q    <= 4'd0;
      bf_head_q   <= 6'd0;
      bf_tail_q   <= 6'd0;
      bf_cnt_q    <= 7'd0;
      lout_q      <= 17'd0;
      need_idle_q <= 1'b0;
      ins_kind_q  <= K_NONE;
      ins_idx_q   <= 6'd0;
      ins_len_q   <= 6'd0;
      ins_slot_q  <= 4'd0;
      ins_e_q     <= 24'd0;
      ocrc_q      <= 16'hFFFF;
      bo_kind_q   <= K_NONE;
      bo_idx_q    <= 6'd0;
      bo_len_q    <= 6'd0;
      fr_q        <= 128'd0;
      bcrc_q      <= 16'hFFFF;
      bo_port_q   <= 3'd0;
      fail_q      <= 1'b0;
      fail_rsn_q  <= 3'd0;
      sd0_q       <= 3'd0;
      sd1_q       <= 7'd0;
      since_q     <= 7'd0;
      ring_up_q   <= 1'b0;
      sd_in_q     <= 1'b0;
      irq_q       <= 1'b0;
      cnt_crc_q   <= 16'd0;
      cnt_scrub_q <= 16'd0;
      cnt_busy_q  <= 16'd0;
      cnt_fail_q  <= 16'd0;
    end else begin
      p0_q        <= lin_i;
      p1_q        <= p0_q;
      p2_q        <= p1_q;
      p3_q        <= p2_q;
      ps_q        <= ps_d;
      idx_q       <= idx_d;
      crc_q       <= crc_d;
      pk_ans_q    <= pk_ans_d;
      pk_src_q    <= pk_src_d;
      pk_tid_q    <= pk_tid_d;
      pk_slot_q   <= pk_slot_d;
      pk_type_q   <= pk_type_d;
      resv_q      <= resv_d;
      rq_head_q   <= rq_head_d;
      rq_tail_q   <= rq_tail_d;
      rq_cnt_q    <= rq_cnt_d;
      rq_len_q    <= rq_len_d;
      sl_q        <= sl_d;
      sl_tgt_q    <= sl_tgt_d;
      sl_src_q    <= sl_src_d;
      sl_tid_q    <= sl_tid_d;
      sq_q        <= sq_d;
      sq_head_q   <= sq_head_d;
      sq_tail_q   <= sq_tail_d;
      sq_cnt_q    <= sq_cnt_d;
      bi_fill_q   <= bi_fill_d;
      bi_slot_q   <= bi_slot_d;
      bi_idx_q    <= bi_idx_d;
      eq_q        <= eq_d;
      eq_head_q   <= eq_head_d;
      eq_tail_q   <= eq_tail_d;
      eq_cnt_q    <= eq_cnt_d;
      bf_head_q   <= bf_head_d;
      bf_tail_q   <= bf_tail_d;
      bf_cnt_q    <= bf_cnt_d;
      lout_q      <= lout_d;
      need_idle_q <= need_idle_d;
      ins_kind_q  <= ins_kind_d;
      ins_idx_q   <= ins_idx_d;
      ins_len_q   <= ins_len_d;
      ins_slot_q  <= ins_slot_d;
      ins_e_q     <= ins_e_d;
      ocrc_q      <= ocrc_d;
      bo_kind_q   <= bo_kind_d;
      bo_idx_q    <= bo_idx_d;
      bo_len_q    <= bo_len_d;
      fr_q        <= fr_d;
      bcrc_q      <= bcrc_d;
      bo_port_q   <= bo_port_d;
      fail_q      <= fail_d;
      fail_rsn_q  <= fail_rsn_d;
      sd0_q       <= sd0_d;
      sd1_q       <= sd1_d;
      since_q     <= since_d;
      ring_up_q   <= ring_up_d;
      sd_in_q     <= lin_sd_i;
      irq_q       <= irq_d;
      cnt_crc_q   <= cnt_crc_d;
      cnt_scrub_q <= cnt_scrub_d;
      cnt_busy_q  <= cnt_busy_d;
      cnt_fail_q  <= cnt_fail_d;
    end
  end

  // Memories: write ports only (q <= d at the written address).
  always_ff @(posedge clk_i) begin
    if (rq_we && rst_ni) begin
      rq_mem[rq_wa] <= rq_wd;
    end
  end

  always_ff @(posedge clk_i) begin
    if (pm_we && rst_ni) begin
      pm_mem[pm_wa] <= bin_i[15:0];
    end
  end

  always_ff @(posedge clk_i) begin
    if (bf_push && rst_ni) begin
      bf_mem[bf_tail_q] <= {byp_last, byp_sym};
    end
  end

  always_ff @(posedge clk_i) begin
    if (wr_lrt) begin
      lrt_mem[ta_idx] <= reg_wdata_i[0];
    end
  end

  always_ff @(posedge clk_i) begin
    if (wr_brt) begin
      brt_mem[ta_idx] <= reg_wdata_i[2:0];
    end
  end

  // Tables are not reset; they start zero (as the C model), and so do the packet memories,
  // whose entries nothing reads before it writes them, but an upset of a slot number or a
  // length can (rtl/sci_lc.md section 8). Outside `ifndef SYNTHESIS: synthesis keeps these
  // initial contents (an FPGA's RAM at configuration; an ASIC must write every entry first,
  // synth/README.md).
  initial begin
    for (int i = 0; i < TSIZE; i++) begin
      lrt_mem[i] = 1'b0;
      brt_mem[i] = 3'd0;
    end
    for (int i = 0; i < 512; i++) begin
      rq_mem[i] = 16'd0;
    end
    for (int i = 0; i < 1024; i++) begin
      pm_mem[i] = 16'd0;
    end
    for (int i = 0; i < 64; i++) begin
      bf_mem[i] = 17'd0;
    end
  end

`ifndef SYNTHESIS

  // Invariants.
  // An active buffer's echo timer at 0 with retries left: a timeout retransmission is due.
  function automatic timeout_due(input [NSLOT*42-1:0] sl_i, input [7:0] rlim_i);
    logic r;
    r = 1'b0;
    for (int s = 0; s < NSLOT; s++) begin
      if (sl_i[s*42 + 40 +: 2] == SL_ACTIVE && sl_i[s*42 + 1] && sl_i[s*42 + 2 +: 16] == 16'd0 &&
          sl_i[s*42 + 18 +: 8] < rlim_i) begin
        r = 1'b1;
      end
    end
    return r;
  endfunction

  wire tmo_due = timeout_due(sl_q, retry_lim);

  // Invariants, each with a cover point of the case that comes closest to breaking it.
  `FT_ASSERT(BypassFifoBound_A, bf_cnt_q <= 7'd40,
             ("sci_lc: bypass FIFO over 40 (%0d)", bf_cnt_q))
  `FT_COVER(BypassFifoBound_C, bf_cnt_q >= 7'd37)  // a largest packet waiting in the FIFO
  `FT_ASSERT(ActiveBufBound_A, ab_cnt <= 4'd4, ("sci_lc: %0d active buffers", ab_cnt))
  `FT_COVER(ActiveBufBound_C, ab_cnt == 4'd4)
  `FT_ASSERT(QueueNoOverflow_A, rq_cnt_q <= 4'd8 && sq_cnt_q <= 4'd8,
             ("sci_lc: queue overflow rq %0d sq %0d", rq_cnt_q, sq_cnt_q))
  `FT_COVER(QueueNoOverflow_C, rq_cnt_q == 4'd8)  // receive queue full
  `FT_COVER(SendQueueFull_C, sq_cnt_q == 4'd8)
  `FT_ASSERT(BypassNoOverflow_A, !(bf_push && bf_cnt_q == 7'd64),
             ("sci_lc: bypass FIFO overflow"))
  `FT_COVER(BypassNoOverflow_C, bf_push && bf_pop)  // the FIFO filled and drained at one edge

  // The send-queue order holds exactly the QUEUED slots; at most one slot is being filled.
  `FT_ASSERT(SendQueueIsQueued_A, count_st(sl_q, SL_QUEUED) == sq_cnt_q && fill_cnt <= 4'd1,
             ("sci_lc: send queue %0d vs queued slots %0d, filling %0d", sq_cnt_q,
              count_st(sl_q, SL_QUEUED), fill_cnt))
  `FT_COVER(SendQueueIsQueued_C, fill_cnt == 4'd1 && sq_cnt_q == 4'd7)  // filling the last

  // Why (sci_lc.md 3, send queue): the order is a ring of slot numbers from its head, as long as
  // its count; each entry names a different QUEUED slot, and every QUEUED slot is named. With
  // the two below these make SendQueueIsQueued_A inductive (formal/lc3.sby, task sqi).
  function automatic sq_names_queued(input [NSLOT*42-1:0] sl_i, input [31:0] sq_i,
                                     input [2:0] head_i, input [3:0] cnt_i);
    logic        ok;
    logic [15:0] named;
    logic [2:0]  pos;
    logic [3:0]  e;
    ok    = 1'b1;
    named = 16'h0000;
    pos   = head_i;
    e     = 4'd0;
    for (int i = 0; i < 8; i++) begin
      if (4'(i) < cnt_i) begin
        e = sq_i[pos*4 +: 4];
        if (named[e] || {28'd0, e} >= NSLOT) begin
          ok = 1'b0;
        end
        named[e] = 1'b1;
      end
      pos = pos + 3'd1;
    end
    for (int t = 0; t < NSLOT; t++) begin
      if ((sl_i[t*42 + 40 +: 2] == SL_QUEUED) != named[t]) begin
        ok = 1'b0;
      end
    end
    return ok;
  endfunction

  // The slot bi_slot_q names is the one being filled (its state FILL) while a packet fills.
  function automatic fill_is_bi(input [NSLOT*42-1:0] sl_i, input fill_i, input [3:0] slot_i);
    logic ok;
    ok = !fill_i;
    for (int t = 0; t < NSLOT; t++) begin
      if (fill_i && slot_i == 4'(t) && sl_i[t*42 + 40 +: 2] == SL_FILL) begin
        ok = 1'b1;
      end
    end
    return ok;
  endfunction

  wire f_sq_named = sq_names_queued(sl_q, sq_q, sq_head_q, sq_cnt_q);
  wire f_fill_bi  = fill_is_bi(sl_q, bi_fill_q, bi_slot_q);
  `FT_ASSERT(SendQueueNamesQueued_A, f_sq_named && sq_cnt_q <= 4'd8 &&
             sq_tail_q == sq_head_q + sq_cnt_q[2:0],
             ("sci_lc: send queue order (head %0d tail %0d count %0d) is not the QUEUED slots",
              sq_head_q, sq_tail_q, sq_cnt_q))
  `FT_COVER(SendQueueNamesQueued_C, sq_cnt_q >= 4'd2 && sq_head_q != 3'd0)  // wrapped round
  `FT_ASSERT(FillIsBiSlot_A, f_fill_bi && fill_cnt == {3'd0, bi_fill_q} &&
             (!bi_fill_q || sq_cnt_q < 4'd8),
             ("sci_lc: %0d slots filling, B-link fill %0d in slot %0d", fill_cnt, bi_fill_q,
              bi_slot_q))
  `FT_COVER(FillIsBiSlot_C, bi_fill_q && bi_slot_q != 4'd0)

  // ---------------------------------------------------------------------------------------
  // Cover points (make coverage). This module is continuous assignments, where Verilator's
  // line coverage sees little: the states of its machines and the outcomes of its decisions
  // are counted here (rtl/sci_lc.md section 3).
  // Parser (DBG state): each state, entered at symbol 0 and left at the packet's end.
  `FT_COVER(PsIdle_C, ps_q == PS_IDLE)
  `FT_COVER(PsBypass_C, ps_q == PS_BYPASS)
  `FT_COVER(PsTake_C, ps_q == PS_TAKE)
  `FT_COVER(PsDiscard_C, ps_q == PS_DISCARD)
  `FT_COVER(PsEcho_C, ps_q == PS_ECHO)
  `FT_COVER(PsIdleToBypass_C, ps_q == PS_IDLE && ps_d == PS_BYPASS)
  `FT_COVER(PsIdleToTake_C, ps_q == PS_IDLE && ps_d == PS_TAKE)
  `FT_COVER(PsIdleToDiscard_C, ps_q == PS_IDLE && ps_d == PS_DISCARD)
  `FT_COVER(PsIdleToEcho_C, ps_q == PS_IDLE && ps_d == PS_ECHO)
  `FT_COVER(PsBypassToIdle_C, ps_q == PS_BYPASS && ps_d == PS_IDLE)
  `FT_COVER(PsTakeToIdle_C, ps_q == PS_TAKE && ps_d == PS_IDLE)
  `FT_COVER(PsDiscardToIdle_C, ps_q == PS_DISCARD && ps_d == PS_IDLE)
  `FT_COVER(PsEchoToIdle_C, ps_q == PS_ECHO && ps_d == PS_IDLE)
  // The decision at symbol 0, by its reason.
  `FT_COVER(DecScrub_C, at_sym0 && scrub_rm)
  `FT_COVER(DecEchoMatch_C, at_sym0 && !scrub_rm && is_echo && em[4])
  `FT_COVER(DecEchoPass_C, at_sym0 && !scrub_rm && is_echo && !em[4])
  `FT_COVER(DecTakeAccept_C, at_sym0 && dec_st == PS_TAKE && dec_ans == ANS_ACC)
  `FT_COVER(DecTakeError_C, at_sym0 && dec_st == PS_TAKE && dec_ans == ANS_ERR)
  `FT_COVER(DecFullBusy_C, at_sym0 && !scrub_rm && take_ok && !rq_free)
  `FT_COVER(DecNotOurs_C, at_sym0 && !scrub_rm && !is_echo && !lrt_bit)
  `FT_COVER(DecDisabled_C, at_sym0 && !scrub_rm && !is_echo && lrt_bit && !cfg_en)
  `FT_COVER(DecOwnBack_C, at_sym0 && !scrub_rm && !is_echo && lrt_bit && own_src)
  `FT_COVER(DecOwnProbe_C, at_sym0 && !scrub_rm && om[4] && typ == T_PROBE)
  `FT_COVER(DecFoSkip_C, at_sym0 && !scrub_rm && !is_echo && lrt_bit && fo_skip)
  // A packet's end: good and committed, a CRC error, an answer queued or lost to a full queue.
  `FT_COVER(EndCommit_C, ev_commit)
  `FT_COVER(EndCrcError_C, ev_crc_err)
  `FT_COVER(EndEcho_C, ev_echo)
  `FT_COVER(AnswerQueued_C, eq_push)
  `FT_COVER(AnswerLostFull_C, ev_answer && cfg_en && eq_cnt_q == 4'd8)
  `FT_COVER(AnswerFlushed_C, ev_answer && !cfg_en)
  // Output selection, and which insertion starts.
  `FT_COVER(OutIdle_C, osel == O_IDLE)
  `FT_COVER(OutInsert_C, osel == O_INS)
  `FT_COVER(OutFifo_C, osel == O_FIFO)
  `FT_COVER(OutBypass_C, osel == O_BYP)
  `FT_COVER(BypassToFifo_C, bf_push)
  `FT_COVER(InsEcho_C, st_echo)
  `FT_COVER(InsRetransmit_C, st_rtx)
  `FT_COVER(InsSendQueue_C, st_sq)
  `FT_COVER(InsWaitsActive_C, start_ok && !st_echo && !rtx_hit[4] && sq_cnt_q != 4'd0 &&
                              ab_cnt == 4'd4)
  `FT_COVER(IdleOriginate_C, osel == O_IDLE && orig)
  `FT_COVER(IdleForward_C, osel == O_IDLE && !orig && rd_rx_other)
  `FT_COVER(IdleNotForwarded_C, osel != O_IDLE && rd_rx_other)
  // Pool slot lifecycle (FREE -> FILL -> QUEUED -> ACTIVE -> FREE), each way out of ACTIVE.
  `FT_COVER(SlotFillStart_C, bi_start)
  `FT_COVER(SlotFillOne_C, bi_start && bin_last_i)  // a one-symbol packet: FREE -> QUEUED
  `FT_COVER(SlotQueued_C, bi_end)
  `FT_COVER(SlotActive_C, st_sq)
  `FT_COVER(SlotFreedByEcho_C, ev_echo && cur_type != T_BUSY)
  `FT_COVER(SlotBusyRetransmit_C, ev_echo && cur_type == T_BUSY && !lim[1])
  `FT_COVER(SlotTimeout_C, tmo_due)
  `FT_COVER(SlotBusyLimit_C, lim[1])
  `FT_COVER(SlotRetryLimit_C, lim[0])
  `FT_COVER(SlotFailActive_C, ev_fail && fab[4])
  `FT_COVER(SlotFailQueued_C, ev_fail && !fab[4])
  `FT_COVER(SlotStaleEcho_C, ev_echo && cur_type != T_BUSY && ins_kind_q == K_SLOT &&
                             cur_slot == ins_slot_q)  // freed while it is being inserted
  // B-link in (IDLE, FILL) and out (NONE, receive-queue head, FAIL_REPORT).
  `FT_COVER(BiIdle_C, !bi_fill_q)
  `FT_COVER(BiFill_C, bi_fill_q)
  `FT_COVER(BiStall_C, bin_i[16] && !bin_ready_o)
  `FT_COVER(BoNone_C, bo_kind_q == K_NONE)
  `FT_COVER(BoRq_C, bo_kind_q == K_RQ)
  `FT_COVER(BoFail_C, bo_kind_q == K_FAIL)
  `FT_COVER(BoStall_C, bo_valid && !bout_ready_i)
  `FT_COVER(BoFailBeatsRq_C, off_fail && rq_cnt_q != 4'd0)
  // Failure: a pass by each limit, each reason reported.
  `FT_COVER(FailPass_C, fail_q)
  `FT_COVER(FailReasonBusy_C, ev_fail && cur_rsn == 3'd1)
  `FT_COVER(FailReasonRetry_C, ev_fail && cur_rsn == 3'd2)
  `FT_COVER(FailReasonDown_C, ev_fail && cur_rsn == 3'd3)
  `FT_COVER(FailReasonDisabled_C, ev_fail && cur_rsn == 3'd4)
  // Ring: down (originated, by another node's idle), up again, the interrupt cleared.
  `FT_COVER(RingFallOrig_C, ring_fall && orig)
  `FT_COVER(RingFallOther_C, ring_fall && !orig)
  `FT_COVER(RingRise_C, !ring_up_q && ring_up_d)
  `FT_COVER(IrqCleared_C, irq_q && !irq_d)

  // Properties from the contract (rtl/sci_lc.md; proven by formal/, checked in every
  // simulation), each with the cover of its premise.
  // sci_lc.md 6 D7: a disabled LC takes nothing (a packet for it is bypassed).
  `FT_ASSERT(DisabledTakesNothing_A, cfg_en || !(at_sym0 && dec_st == PS_TAKE),
             ("sci_lc: a disabled LC takes a packet"))
  `FT_COVER(DisabledTakesNothing_C, at_sym0 && !cfg_en && !scrub_rm && !is_echo && lrt_bit)
  // sci_lc.md 3: a packet for this LC that finds the receive queue full is answered ECHO_BUSY.
  `FT_ASSERT(FullAnsweredBusy_A, !(at_sym0 && !scrub_rm && take_ok && !rq_free) ||
             (dec_st == PS_DISCARD && dec_ans == ANS_BUSY),
             ("sci_lc: a packet finding the receive queue full not answered busy"))
  `FT_COVER(FullAnsweredBusy_C, at_sym0 && !scrub_rm && take_ok && !rq_free)
  // sci_lc.md 3: ring up only after 64 consecutive clean cycles.
  `FT_ASSERT(RingUpAfter64_A, ring_up_q || !ring_up_d || (sd1_q >= 7'd64 && since_q >= 7'd64),
             ("sci_lc: ring up after %0d / %0d clean cycles", sd1_q, since_q))
  `FT_COVER(RingUpAfter64_C, !ring_up_q && sd1_q >= 7'd60)
  // sci_lc.md 3: the CableNotOk interrupt is set on ring up -> down.
  `FT_ASSERT(IrqOnRingFall_A, !ring_fall || irq_d, ("sci_lc: ring fell, no interrupt"))
  `FT_COVER(IrqOnRingFall_C, ring_fall)
  // sci_lc.md 6 D7: disable flushes the echo queue.
  `FT_ASSERT(DisabledFlushesEchoes_A, cfg_en || eq_cnt_d == 4'd0,
             ("sci_lc: %0d echoes kept while disabled", eq_cnt_d))
  `FT_COVER(DisabledFlushesEchoes_C, !cfg_en && eq_cnt_q != 4'd0)
  `FT_FORMAL_RESET
`endif

endmodule

`default_nettype wire
