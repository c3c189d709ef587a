// Package gpus holds device parameter files: the hardware numbers that the
// analytical models of package fit's subpackages need (clock, bandwidth, SM
// count, occupancy limits and their allocation granularities) and, per
// model, the constants that a paper measured or fitted for a device; and
// the occupancy a block reaches on a device.
//
// A [Device] is one JSON file. The files shipped with uniperf are embedded
// (directory devices/) and found by [Lookup]; [Load] and [Parse] read a
// user's own file in the same format. Every number in a shipped file names
// its source in the file's "sources" list or in its section's "source".
//
// # Shipped devices
//
// 8800gtx, quadro-fx5600, 8800gt and gtx280 (Hong and Kim, seed 002),
// gtx460 (Resios, seed 000), tesla-c2050, gtx650 and gtx970 (Xu, seed
// 003), h100-sxm5, h100-pcie and h200 (NVIDIA's datasheets; no paper
// measured their Hong–Kim or Resios constants, so those sections are
// absent) and pocl-cpu (the PoCL CPU device that measured
// datasets/pocl-epyc-quick.arrow, its OpenCL limits mapped onto the same
// fields). A GPU file's local_banks section ([LocalBanks]) gives the
// layout of its local memory, which the linear model's fit counts bank
// conflicts with; a device without one (pocl-cpu) is counted with 32
// banks of 4 bytes. Where each number comes from is
// docs/device-files.md in the repository.
//
// # Occupancy
//
// [ActiveBlocks] is the one occupancy function of uniperf: given a device's
// [Limits] and a block's [Resources] (threads, registers per thread,
// shared memory) it returns how many blocks are resident on an SM, which
// constraint limits them, and the occupancy fraction. It applies the
// constraints (3-1)–(3-15) of Xu's thesis (seed 003) with the allocation
// granularities of NVIDIA's occupancy calculator (warps in pairs on 1.x; registers per block on 1.x,
// per warp within register-file sub-partitions later; shared memory in
// allocation units plus a per-block reservation from 8.0 on). The other
// models (Hong–Kim's #Active_blocks_per_SM, the cycle-weighted model's
// occupancy, Resios's resident-warp limit) take their occupancy from here.
//
// # Ranges
//
// Parse refuses a number outside the range hardware could have (about a
// thousand times today's largest device), naming the field and the range,
// so that occupancy's integer arithmetic cannot overflow or divide by zero
// and the models' results stay finite; docs/device-files.md lists them.
//
// # Missing parameters
//
// A zero or absent number means unknown. Sections a model needs are checked
// when the model asks for them ([Device.HongKimParams],
// [Device.HongKimFixedParams], [Device.ResiosParams]); the error names the
// device file and the JSON field that is missing, so that the fix is
// obvious. The cycle-weighted model falls back to the seed's default
// weights ([Device.CycleWeights]).
package gpus
