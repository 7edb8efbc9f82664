`default_nettype none
// tb_rn1_replay -- replays a captured RN1 stimulus on the RTL under Icarus and prints a signature
// of every output of every cycle, to compare with the C model's (ftsim stim). Used by the
// icarus suite of make test (equivalence on a fuzz stimulus) and by make bench (speed).
// Built with rn1's sources (rtl/files.txt) and -Irtl, where the RTL's `include files are:
//   iverilog -g2012 -Irtl -o tb.vvp tests/icarus/tb_rn1_replay.sv rtl/rn1.v rtl/rn1_fport.v
//   vvp -n tb.vvp +stim=FILE +cycles=N
//
// +stim=FILE   one line a cycle: 36 hex digits, {fwd_i[71:0], bwd_i[71:0]} (f7..f0, b7..b0)
// +cycles=N    cycles to replay (at most the file's length, at most MAX_CYCLES)
// Reset as the harness does it (rtl/rn1.md): two reset cycles without a write, one with the
// default configuration written, then cycle 0. Signature per cycle, f0..f7 then b0..b7:
// sig = sig * 31 + word (64-bit, wrapping), then the bc outputs likewise.
module tb_rn1_replay;
  localparam MAX_CYCLES = 1000000;
  reg          clk = 1'b1;
  reg          rst_n = 1'b0;
  reg  [71:0]  fwd_in = 72'd0, bwd_in = 72'd0;
  wire [71:0]  fwd_out, bwd_out;
  wire [7:0]   fwd_bc;
  wire [63:0]  rdata;
  wire [351:0] dbg;
  reg          we = 1'b0;
  reg  [63:0]  wdata = 64'd0;
  reg  [143:0] stim [0:MAX_CYCLES-1];
  reg  [63:0]  sig = 64'd0;
  integer      n, c, i;
  reg  [1023:0] file;

  rn1 u_dut (
    .clk_i(clk), .rst_ni(rst_n), .fwd_i(fwd_in), .fwd_o(fwd_out), .fwd_bc_o(fwd_bc),
    .bwd_o(bwd_out), .bwd_i(bwd_in), .bwd_bc_i(8'd0), .reg_we_i(we), .reg_waddr_i(8'd0),
    .reg_wdata_i(wdata), .reg_wstrb_i(8'hFF), .reg_raddr_i(8'd0), .reg_rdata_o(rdata),
    .dbg_o(dbg)
  );

  // One clock period; inputs change 1 time unit after the rising edge, never in its time
  // step (else the flops may sample the new values: a testbench race, not the design's).
  task automatic tick;
    begin
      #4 clk = 1'b0;
      #5 clk = 1'b1;
      #1;
    end
  endtask

  initial begin
    if (!$value$plusargs("stim=%s", file) || !$value$plusargs("cycles=%d", n)) begin
      $display("usage: vvp tb +stim=FILE +cycles=N");
      $finish;
    end
    if (n > MAX_CYCLES) n = MAX_CYCLES;
    $readmemh(file, stim, 0, n - 1);
    #1;
    tick();
    tick();
    we = 1'b1;
    wdata = 64'h0000_0000_ACE1_0000;  // the defaults: dilated, no swallow, no disable, 0xACE1
    tick();
    we = 1'b0;
    rst_n = 1'b1;
    for (c = 0; c < n; c = c + 1) begin
      {fwd_in, bwd_in} = stim[c];
      #1;
      for (i = 0; i < 8; i = i + 1) sig = sig * 64'd31 + {55'd0, fwd_out[i*9 +: 9]};
      for (i = 0; i < 8; i = i + 1) sig = sig * 64'd31 + {55'd0, bwd_out[i*9 +: 9]};
      sig = sig * 64'd31 + {56'd0, fwd_bc};
      #3 clk = 1'b0;
      #5 clk = 1'b1;
      #1;
    end
    $display("SIG %016h cycles %0d", sig, n);
    $finish;
  end
endmodule

`default_nettype wire
