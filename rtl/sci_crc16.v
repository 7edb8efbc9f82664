`default_nettype none
// sci_crc16 -- one combinational CRC-16/CCITT step (polynomial 0x1021, MSB first, no reflection).
//
// crc_o is the CRC register after shifting in the DataW bits of data_i (1..16: 16 for SCI
// symbols, 8 for byte-wise checks), MSB first, starting from crc_i. A packet's CRC folds this
// step over its symbols as rtl/sci_lc.md section 2 says (from 0xFFFF, no final XOR); the caller
// masks command bit 7 and targetId bit 14 before the step.
//
// Coding rule, for Icarus 11.0 (-g2012): the bit loop lives in an automatic function read by a
// continuous assignment (an always_comb reading it draws Icarus 11's "constant selects" sorry).

module sci_crc16 #(
  parameter DataW = 16
) (
  input  wire  [15:0]      crc_i,
  input  wire  [DataW-1:0] data_i,
  output wire  [15:0]      crc_o
);

  localparam [15:0] POLY = 16'h1021;

  function automatic [15:0] crc_step(input [15:0] crc_in, input [DataW-1:0] d);
    logic [15:0] c;
    logic        fb;
    c = crc_in;
    for (int i = DataW - 1; i >= 0; i--) begin
      fb = c[15] ^ d[i];
      c  = {c[14:0], 1'b0} ^ (fb ? POLY : 16'h0000);
    end
    return c;
  endfunction

  assign crc_o = crc_step(crc_i, data_i);

endmodule

`default_nettype wire
