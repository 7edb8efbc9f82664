// The RN1 allocator as rtl/rn1.md section 5 words it, one port after another: the reference that
// synth/alloc_equiv.py proves rtl/rn1.v's parallel `choose` against. It is the function rtl/rn1.v
// held until the allocator was made parallel, unchanged; alloc_equiv.py puts it in the place of
// rtl/rn1.v's own `choose` to make the reference RN1 (NPORT is rn1's localparam, 8).
//
// Routing decisions in rotating order: a port sees the outputs taken by earlier-served ports.
// Outputs freed this cycle are still in alloc_q, so they cannot be re-chosen this cycle.
// With two free, bc_i (the bc inputs, 0 unless backchan is on) biases the choice away from
// the one output whose bc is 1; otherwise lfsr bit p decides.
  function automatic [63:0] choose(input [7:0] req_i, input [63:0] cand_i, input [7:0] alloc_i,
                                   input [2:0] rot_i, input [15:0] lfsr_i, input [7:0] bc_i);
    logic [63:0] grant;
    logic [7:0]  avail, free_ports, lo, hi, busy, pick;
    logic [2:0]  p;
    grant = 64'd0;
    avail = alloc_i;
    p     = rot_i;
    for (int i = 0; i < NPORT; i++) begin
      if (req_i[p]) begin
        free_ports = cand_i[p*8 +: 8] & ~avail;
        lo         = free_ports & (~free_ports + 8'd1);  // the lower (even) free port
        hi         = free_ports & ~lo;                   // the odd one when both are free
        busy       = bc_i & free_ports;                  // free outputs whose bc is 1
        pick       = (hi != 8'h00 && lfsr_i[{1'b0, p}]) ? hi : lo;
        if (hi != 8'h00 && busy == lo) begin             // exactly one busy: take the other
          pick = hi;
        end else if (hi != 8'h00 && busy == hi) begin
          pick = lo;
        end
        grant[p*8 +: 8] = pick;
        avail           = avail | pick;
      end
      p = p + 3'd1;
    end
    return grant;
  endfunction
