// sci_obs -- not part of any design: a window that puts the harness's own state into the
// torus waveform, next to the RTL it drives. The harness (harness/scisys/sci_sys.c) sets the inputs
// every cycle; the outputs are the same values under names a layout can show per node and per
// flow. Purely combinational: the shared FST samples it with the nodes (harness/sci/sci_fabric.c).
//
//   drv_state_i[4*i +: 4]  node i's driver: 0 idle, 1 CableNotOk, 2 compute, 3 load,
//                          4 probe wait, 5 dead, 6 halted (static front end)
//   held_i[i]              node i's host holds messages (a driver pass)
//   tbl_wr_i[i]            a register write into node i this cycle (table load, LC enable)
//   deliver_i[k]           flow k delivered a message this cycle (the first 16 flows)
//   faults_i               faults applied so far
module sci_obs #(
  parameter int N = 16,
  parameter int F = 16
) (
  input  logic [4*N-1:0] drv_state_i,
  input  logic [N-1:0]   held_i,
  input  logic [N-1:0]   tbl_wr_i,
  input  logic [F-1:0]   deliver_i,
  input  logic [7:0]     faults_i,
  output logic [7:0]     faults_o
);
  for (genvar i = 0; i < N; i++) begin : node
    wire [3:0] drv_state = drv_state_i[4*i +: 4];
    wire       held      = held_i[i];
    wire       tbl_wr    = tbl_wr_i[i];
  end
  for (genvar k = 0; k < F; k++) begin : flow
    wire deliver = deliver_i[k];
  end
  assign faults_o = faults_i;
endmodule
