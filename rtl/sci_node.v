`default_nettype none
// sci_node -- SCI node: a PSB (host adapter with the B-link arbiter, sci_psb) and NLC link
// controllers (sci_lc; LC 0 the X-LC, LC 1 the Y-LC).
//
// Wiring only: the LCs' B-link ports to the PSB's, LC 0's failover inputs to the PSB (tied 0
// for LC 1, and on LC3 or with NLC = 1), and the register port decode (0x00-0x1F LC 0,
// 0x20-0x3F LC 1, 0x80-0xFF the PSB; a reset edge with a write configures the whole node).
// P2s = 0 (LC3) or 1 (P2S), passed to every LC and to the PSB; NLC = 1 or 2. The contract --
// ports, PSB, B-link, register map, debug words, P2S failover, and the decisions where it was
// silent -- is rtl/sci_node.md, with the conventions of rtl/sci_lc.md.
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
