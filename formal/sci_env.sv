// sci_env -- formal only (formal/lc3.sby, p2s.sby, node.sby, task cvu): a link controller
// (sci_lc_env) or a node (sci_node_env) whose ring inputs are clean idles (lin_sd_i 1, lin_i 0),
// with nothing from the host or the B-link and no register write, for the first Clean cycles
// after reset; every input is free after that.
//
// Why: an LC's ring comes up only after 64 consecutive clean cycles (rtl/sci_lc.md 3), and
// everything that needs the ring up (insertions, echoes, retransmissions, limits, the ring
// falling) is beyond a cover task's depth from reset with every input free. With the first
// Clean cycles' inputs fixed the solver's first Clean steps are one concrete trace, so the
// covers after ring up cost what a shallow cover task costs. Sound for covers: the environment
// only restricts the inputs, so every trace it allows is one the RTL has, and a cover reached
// here is reached in the RTL. Not used for assertions (a restriction would hide failures):
// the prove tasks read the RTL alone, every input free.
`default_nettype none

module sci_lc_env #(
  parameter P2s   = 0,
  parameter Clean = 66
) (
  input  wire         clk_i,
  input  wire         rst_ni,
  input  wire  [16:0] lin_i,
  input  wire         lin_sd_i,
  input  wire  [16:0] bin_i,
  input  wire         bin_last_i,
  input  wire         bout_ready_i,
  input  wire         fo_byp_i,
  input  wire  [12:0] fo_xmask_i,
  input  wire         reg_we_i,
  input  wire  [7:0]  reg_waddr_i,
  input  wire  [63:0] reg_wdata_i,
  input  wire  [7:0]  reg_wstrb_i,
  input  wire  [7:0]  reg_raddr_i
);
  reg [7:0] cyc = 8'd0;
  always @(posedge clk_i) if (cyc != 8'hFF) cyc <= cyc + 8'd1;

  always @(*) begin
    if (cyc < Clean) begin
      assume (lin_i == 17'd0);
      assume (lin_sd_i);
      assume (!bin_i[16]);
      assume (!reg_we_i);
    end
  end

  sci_lc #(.P2s(P2s)) u_lc (
    .clk_i, .rst_ni, .lin_i, .lin_sd_i, .lout_o(), .lout_sd_o(), .bin_i, .bin_last_i,
    .bin_ready_o(), .bout_o(), .bout_valid_o(), .bout_last_o(), .bout_ready_i, .bout_port_o(),
    .fo_byp_i, .fo_xmask_i, .reg_we_i, .reg_waddr_i, .reg_wdata_i, .reg_wstrb_i, .reg_raddr_i,
    .reg_rdata_o(), .irq_o(), .status_o(), .dbg_o());
endmodule

module sci_node_env #(
  parameter P2s   = 0,
  parameter NLC   = 1,
  parameter Clean = 66
) (
  input  wire               clk_i,
  input  wire               rst_ni,
  input  wire  [NLC*17-1:0] lin_i,
  input  wire  [NLC-1:0]    lin_sd_i,
  input  wire  [16:0]       hin_i,
  input  wire               hin_last_i,
  input  wire               hout_ready_i,
  input  wire               reg_we_i,
  input  wire  [7:0]        reg_waddr_i,
  input  wire  [63:0]       reg_wdata_i,
  input  wire  [7:0]        reg_wstrb_i,
  input  wire  [7:0]        reg_raddr_i
);
  reg [7:0] cyc = 8'd0;
  always @(posedge clk_i) if (cyc != 8'hFF) cyc <= cyc + 8'd1;

  always @(*) begin
    if (cyc < Clean) begin
      assume (lin_i == '0);
      assume (&lin_sd_i);
      assume (!hin_i[16]);
      assume (!reg_we_i);
    end
  end

  sci_node #(.P2s(P2s), .NLC(NLC)) u_node (
    .clk_i, .rst_ni, .lin_i, .lin_sd_i, .lout_o(), .lout_sd_o(), .hin_i, .hin_last_i,
    .hin_ready_o(), .hout_o(), .hout_last_o(), .hout_ready_i, .reg_we_i, .reg_waddr_i,
    .reg_wdata_i, .reg_wstrb_i, .reg_raddr_i, .reg_rdata_o(), .irq_o(), .lc_dbg_o(),
    .psb_dbg_o());
endmodule

`default_nettype wire
