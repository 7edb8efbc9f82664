`default_nettype none
// sci_node -- SCI node: a PSB (host adapter, sci_psb), the B-link and NLC link controllers
// (sci_lc; LC 0 the X-LC, LC 1 the Y-LC).
//
// Interface contract and timing (rtl/sci_node.md; conventions of rtl/sci_lc.md): one clock,
// synchronous active-low reset; link and B-link words are {valid/flag, sym[15:0]}; a symbol
// moves in a cycle where valid and ready are both 1. LC k's ports are lin_i/lout_o[k*17 +: 17],
// lin_sd_i/lout_sd_o/irq_o[k], lc_dbg_o[k*64 +: 64]; their timing is sci_lc's. Host side: hin_i
// {valid, sym} with hin_last_i on the CRC symbol, hin_ready_o = the send FIFO takes it (1 when it
// holds fewer than 8 packets, and for the rest of a packet once its symbol 0 moved); a host
// packet whose last symbol moves at the edge ending cycle t is the send FIFO's head from t+1.
// hout_o {valid, sym} (sym 0 when not valid), hout_last_o on the last symbol, a symbol moves
// while hout_ready_i; a packet whose last symbol moves on the B-link at the edge ending cycle t is
// on hout_o from t+1 (when it is the receive FIFO's head). hout_*, hin_ready_o, psb_dbg_o depend
// on registers only. B-link (sci_node.md section 3, in sci_psb): one packet at a time; in a free
// cycle the first of LC 0, LC 1, reply buffer, host send FIFO with a valid head and a ready
// destination is picked and its symbol 0 moves in the same cycle; back-to-back packets have no
// gap. Handshakes between the LCs and the PSB are combinational; every valid, port and ready that
// feeds them comes from registers, so there is no combinational loop.
// P2S hardware failover (sci_node.md section 6; P2s = 1 and NLC = 2, PSB CTRL.fo_en): the PSB
// applies rules 1, 2, 4 and 5 (sci_psb.v) and drives LC 0's fo_byp_i (fo_en and LC 1 down) and
// fo_xmask_i (rule 3, the own-column bypass); LC 1's are tied 0, and so are LC 0's on LC3 or
// with NLC = 1.
// Register port (one port, 8-bit address, 64-bit data, byte strobes): 0x00-0x1F LC 0's map
// (address bits [4:0] passed on), 0x20-0x3F LC 1's (NLC = 2), 0x80-0xFF the PSB's (0x80 CTRL,
// 0x81 STATUS, 0x84 FOCOL, 0x85 NTGT, 0x88 TADDR, 0x8A BRT, 0x8B ASEL, 0x90 DBG); other
// addresses read 0 and ignore writes. Writes take effect at the edge; a write at a reset edge is performed (LCs and PSB).
// Reads are combinational from reg_raddr_i. Reset clears the PSB state, CTRL to node 0 and
// rsr_timeout 2000, keeps BRT and ASEL (and the LCs keep their tables).
// Debug: lc_dbg_o[k] is LC k's DBG (0x10); psb_dbg_o is PSB DBG (0x90): [2:0] B-link owner (0
// free, 1 LC 0, 2 LC 1, 3 reply buffer, 4 host send FIFO), [5:3] destination port, [11:6]
// symbols moved (all three are registers: the values at the start of the cycle), [27:12] the
// remote-read timer. The LCs' STATUS (0x01) and COUNTS (0x03) and PSB STATUS (0x81) are read
// through the register port.
//
// Choices where rtl/sci_node.md is silent (sci_psb.v's header has the same list):
// - PROBE from the host: port 1 + payload[0] when payload[0] <= 5, else 7 (discard); payload[0]
//   is symbol 4 (0 when the packet has fewer than 5 symbols). Ports 1 + k with k >= NLC discard.
//   The P2S address select is applied to every host packet, PROBEs included.
// - Header fields of a too-short packet (command, tid, payload[0]) read as 0, in the send FIFO
//   and for packets arriving on port 0.
// - Every STATUS_READ delivered to port 0 is answered, whatever its targetId (the tables decided
//   it is for this node); its CRC is not checked; one dropped for a full reply buffer is not
//   counted. The reply buffer's room is its count at the start of the cycle. A STATUS_REPLY and
//   a timeout reply queued in the same cycle: the STATUS_REPLY first.
// - The remote-read timer disarms when the matching STATUS_REPLY's tid (symbol 3) moves on the
//   B-link to port 0 (winning over an expiry in that cycle). It follows the last host
//   STATUS_READ started: a new read replaces an armed or expired-and-waiting one; one started
//   while rsr_timeout is 0 leaves it disarmed. Expiry: symbol 0 of the read moves in cycle t0,
//   the timer counts rsr_timeout cycles from t0 + 1 and the timeout reply is in the reply buffer
//   from t0 + rsr_timeout + 1 (its symbol 0 can move on the B-link in that cycle). The timeout
//   reply's sourceId is the read's targetId as the host wrote it (before the address select).
//   STATUS[10] stays 1 while an expired timer waits for a reply-buffer slot (DBG[27:12] reads 0).
// - STATUS.discarded counts every packet the B-link routes to discard, from any source (LC
//   bout_port 7 or a missing LC included), at its symbol 0.
// - The receive FIFO's room (fewer than 8 packets) is checked at a packet's symbol 0 only; a
//   STATUS_READ needs that room too (it is only known to be one at symbol 1). Symbols past the
//   37th of a packet are dropped in both FIFOs.
// - STATUS[3:0] and [7:4] count complete packets (a host packet being filled and a packet
//   arriving on the B-link are not counted until their last symbol moved); the receive FIFO's
//   room is that count at the start of the cycle (a packet leaving on hout in the same cycle
//   does not make room).
// - A symbol offered on hin_i at a reset edge is not stored (reset wins, as the LC's B-link
//   input); hin_ready_o is not forced to 0 during reset.
// - Failover (section 6) exists only with P2s = 1 and NLC = 2: elsewhere PSB CTRL[17:16] are not
//   writable and read 0, FOCOL and NTGT read 0, PSB STATUS[12:11] are 0.
// - ydown_q follows LC 1 down every cycle whatever fo_en; a NOTIFY is owed only while fo_en = 1
//   (one still owed when fo_en is cleared is dropped), so enabling fo_en while LC 1 is down owes
//   nothing, and a node with fo_en set in its configuration cycles owes a NOTIFY (down) in cycle
//   0 (LC 1 reads down after reset) and another (up) when its Y ring comes up.
// - PSB STATUS[11] is the owed register: a NOTIFY pushed at the edge ending the cycle it became
//   owed never shows there. Its room in the reply buffer: the count at the start of the cycle
//   plus that edge's STATUS_REPLY and timeout-reply pushes (NOTIFY queued after them).
// - Rule 1 (forced address select) applies to PROBEs as the address select does; rule 2 never
//   does, and is applied once to the BRT's port (both LCs down: 1 -> 2, 2 -> 1).
// - Columns compare as 6-bit values (x zero-extended when xw = 0); FOCOL[13:8] := the
//   sourceId's column zero-extended.
// - Rule 5 looks at the type and payload[1] (symbol 5) only, at the edge symbol 5 moves (not the
//   CRC, length or targetId), and only while fo_en = 1.
// - FOCOL and NTGT keep their value in a configuration cycle and clear at a reset edge without a
//   write, as CTRL.
//
// State held: the LCs' (sci_lc.v) and the PSB's (sci_psb.v, failover state included); nothing
// else.
//
// Parameters: P2s = 0 (LC3) or 1 (P2S), passed to every LC and to the PSB; NLC = 1 or 2.
//
// Coding rule, for Icarus 11.0 (-g2012): continuous assignments only (see sci_lc.v, sci_psb.v).

module sci_node #(
  parameter P2s = 0,
  parameter NLC = 1
) (
  input  wire               clk_i,
  input  wire               rst_ni,
  input  wire  [NLC*17-1:0] lin_i,
  input  wire  [NLC-1:0]    lin_sd_i,
  output wire  [NLC*17-1:0] lout_o,
  output wire  [NLC-1:0]    lout_sd_o,
  input  wire  [16:0]       hin_i,
  input  wire               hin_last_i,
  output wire               hin_ready_o,
  output wire  [16:0]       hout_o,
  output wire               hout_last_o,
  input  wire               hout_ready_i,
  input  wire               reg_we_i,
  input  wire  [7:0]        reg_waddr_i,
  input  wire  [63:0]       reg_wdata_i,
  input  wire  [7:0]        reg_wstrb_i,
  input  wire  [7:0]        reg_raddr_i,
  output wire  [63:0]       reg_rdata_o,
  output wire  [NLC-1:0]    irq_o,
  output wire  [NLC*64-1:0] lc_dbg_o,
  output wire  [63:0]       psb_dbg_o
);

  // B-link between the LCs and the PSB (LC k in slice k).
  wire [NLC*17-1:0] bout, bin;
  wire [NLC-1:0]    bout_valid, bout_last, bout_ready, bin_last, bin_ready;
  wire [NLC*3-1:0]  bout_port;
  wire [NLC*16-1:0] lc_status;
  wire [NLC*64-1:0] lc_rdata;
  // P2S failover (sci_node.md section 6 rule 3): the PSB drives LC 0's own-column bypass (fo_en
  // and LC 1 down; 0 unless P2s = 1 and NLC = 2); LC 1's inputs are tied 0.
  wire        psb_fo_byp;
  wire [12:0] psb_fo_xmask;

  // Register port decode: LC k owns 0x00 + 0x20 k .. 0x1F + 0x20 k; the PSB 0x80-0xFF.
  wire [7:0] lc_waddr = {3'b000, reg_waddr_i[4:0]};
  wire [7:0] lc_raddr = {3'b000, reg_raddr_i[4:0]};

  // A reset edge with a write anywhere in the node is a configuration cycle of the whole node:
  // the blocks not addressed see a write with no byte enables, which keeps their CTRL and TADDR
  // (rtl/sci_node.md section 4).
  for (genvar k = 0; k < NLC; k++) begin : gen_lc
    wire sel_k  = reg_waddr_i[7:5] == 3'(k);
    wire we_k   = reg_we_i && (sel_k || !rst_ni);
    wire [7:0] wstrb_k = sel_k ? reg_wstrb_i : 8'd0;
    wire        fo_byp_k   = (P2s != 0) && (NLC == 2) && (k == 0) && psb_fo_byp;
    wire [12:0] fo_xmask_k = ((P2s != 0) && (NLC == 2) && (k == 0)) ? psb_fo_xmask : 13'd0;
    sci_lc #(.P2s(P2s)) u_lc (
      .clk_i       (clk_i),
      .rst_ni      (rst_ni),
      .lin_i       (lin_i[k*17 +: 17]),
      .lin_sd_i    (lin_sd_i[k]),
      .lout_o      (lout_o[k*17 +: 17]),
      .lout_sd_o   (lout_sd_o[k]),
      .bin_i       (bin[k*17 +: 17]),
      .bin_last_i  (bin_last[k]),
      .bin_ready_o (bin_ready[k]),
      .bout_o      (bout[k*17 +: 17]),
      .bout_valid_o(bout_valid[k]),
      .bout_last_o (bout_last[k]),
      .bout_ready_i(bout_ready[k]),
      .bout_port_o (bout_port[k*3 +: 3]),
      .fo_byp_i    (fo_byp_k),
      .fo_xmask_i  (fo_xmask_k),
      .reg_we_i    (we_k),
      .reg_waddr_i (lc_waddr),
      .reg_wdata_i (reg_wdata_i),
      .reg_wstrb_i (wstrb_k),
      .reg_raddr_i (lc_raddr),
      .reg_rdata_o (lc_rdata[k*64 +: 64]),
      .irq_o       (irq_o[k]),
      .status_o    (lc_status[k*16 +: 16]),
      .dbg_o       (lc_dbg_o[k*64 +: 64])
    );
  end

  wire        psb_sel   = reg_waddr_i[7];
  wire        psb_we    = reg_we_i && (psb_sel || !rst_ni);
  wire [7:0]  psb_wstrb = psb_sel ? reg_wstrb_i : 8'd0;
  wire [63:0] psb_rdata;

  sci_psb #(.P2s(P2s), .NLC(NLC)) u_psb (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .hin_i          (hin_i),
    .hin_last_i     (hin_last_i),
    .hin_ready_o    (hin_ready_o),
    .hout_o         (hout_o),
    .hout_last_o    (hout_last_o),
    .hout_ready_i   (hout_ready_i),
    .reg_we_i       (psb_we),
    .reg_waddr_i    (reg_waddr_i),
    .reg_wdata_i    (reg_wdata_i),
    .reg_wstrb_i    (psb_wstrb),
    .reg_raddr_i    (reg_raddr_i),
    .reg_rdata_o    (psb_rdata),
    .lc_bout_i      (bout),
    .lc_bout_valid_i(bout_valid),
    .lc_bout_last_i (bout_last),
    .lc_bout_port_i (bout_port),
    .lc_bout_ready_o(bout_ready),
    .lc_bin_o       (bin),
    .lc_bin_last_o  (bin_last),
    .lc_bin_ready_i (bin_ready),
    .lc_status_i    (lc_status),
    .fo_byp_o       (psb_fo_byp),
    .fo_xmask_o     (psb_fo_xmask),
    .dbg_o          (psb_dbg_o)
  );

  // Read mux: the LC whose range holds the address, the PSB for 0x80-0xFF, else 0.
  function automatic [63:0] read_mux(input [2:0] a_i, input [NLC*64-1:0] lc_i,
                                     input [63:0] psb_i);
    logic [63:0] r;
    r = 64'd0;
    if (a_i[2]) begin
      r = psb_i;
    end
    for (int k = 0; k < NLC; k++) begin
      if (a_i == 3'(k)) begin
        r = lc_i[k*64 +: 64];
      end
    end
    return r;
  endfunction

  assign reg_rdata_o = read_mux(reg_raddr_i[7:5], lc_rdata, psb_rdata);

endmodule

`default_nettype wire
