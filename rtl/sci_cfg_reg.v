`default_nettype none
// sci_cfg_reg -- one configuration register of an SCI block's register port (CTRL, TADDR of the
// link controller and of the PSB; rtl/sci_lc.md and rtl/sci_node.md section 4). Written with
// byte strobes at the rising edge, in force from the next cycle. A reset edge without a
// register write to the block loads Reset; a reset edge with one (a configuration cycle) keeps
// the value and performs the write if it is addressed here, so configuration written in
// successive reset cycles survives reset. Mask: the writable bits.
module sci_cfg_reg #(
  parameter int         W     = 64,
  parameter logic [W-1:0] Mask  = {W{1'b1}},
  parameter logic [W-1:0] Reset = {W{1'b0}}
) (
  input  wire          clk_i,
  input  wire          rst_ni,
  input  wire          any_we_i,    // a register write to the block in this cycle
  input  wire          we_i,        // that write is to this register
  input  wire  [W-1:0] wdata_i,
  input  wire  [(W+7)/8-1:0] wstrb_i,  // byte strobes of the bytes the register has
  output logic [W-1:0] q_o
);

  // Bit i is written when the strobe of its byte is set and it is writable.
  function automatic [W-1:0] bit_mask(input [(W+7)/8-1:0] s_i);
    logic [W-1:0] m;
    for (int i = 0; i < W; i++) begin
      m[i] = s_i[i / 8] & Mask[i];
    end
    return m;
  endfunction

  wire [W-1:0] m = bit_mask(wstrb_i);
  wire [W-1:0] d = we_i ? ((q_o & ~m) | (wdata_i & m)) :
                   (!rst_ni && !any_we_i) ? Reset : q_o;

  always_ff @(posedge clk_i) begin
    q_o <= d;
  end

endmodule
