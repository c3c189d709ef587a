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
//   - 8800gtx, quadro-fx5600, 8800gt, gtx280: Hong and Kim (ISCA 2009,
//     seed 002), Table 3 (SMs, clocks, bandwidth, compute capability,
//     #Coal_per_mw, #Uncoal_per_mw) and Table 6 (Mem_LD and the departure
//     delays; the paper uses the FX5600 values for the 8800GTX and 8800GT).
//     The clock is the processor (shader) clock, which is what Hong–Kim's
//     Freq means. Occupancy limits per compute capability are from the CUDA
//     C Programming Guide's table of technical specifications and the CUDA
//     occupancy calculator's allocation granularities.
//   - gtx460: the GF104 card of Resios's thesis (seed 000, §2.2.2, §3,
//     Table 3.1, §4): 7 SMs at 1.35 GHz, per-instruction latency,
//     throughput and peak warps, global and shared memory latency, kernel
//     launch and transfer overheads.
//   - tesla-c2050, gtx650, gtx970: Xu's thesis (seed 003), Table 3-3. The
//     thesis gives no bandwidth; the files carry the vendor's specified
//     figure and say so.
//   - h100-sxm5, h100-pcie, h200: NVIDIA datasheets and the CUDA
//     programming guide (compute capability 9.0). No paper measured their
//     Hong–Kim or Resios constants, so those sections are absent: a model
//     that needs them reports which parameter is missing.
//   - pocl-cpu: the PoCL CPU device of the machine that measured the
//     shipped table datasets/pocl-epyc-quick.arrow, as clinfo reports it,
//     with a measured copy bandwidth. A CPU has no warps or register file;
//     the file maps the OpenCL limits onto the same fields and documents the
//     mapping. Its Hong–Kim section holds only what calibration does not
//     fit (Issue_cycles, the transaction size), and its cycle weights are
//     micro-benchmarked from the table's arithmetic and copy kernels.
//
// # Local-memory banks
//
// A GPU file's local_banks section ([LocalBanks]) gives the layout of its
// local (shared) memory, from NVIDIA's programming guides: 16 banks of 4
// bytes serving half-warps on compute capability 1.x (8800gtx,
// quadro-fx5600, 8800gt, gtx280), 32 banks of 4 bytes serving warps on
// every later one (gtx650 in its default 32-bit bank mode). The linear
// model's fit counts local accesses' bank conflicts (the
// local.<t>.conflict=D properties of package counts) with the layout of
// the tables' device and records it in the weights, which predictions then
// count with (see package fit/models, DeviceBanks). pocl-cpu has none: a
// CPU's local memory is ordinary memory, and a device without a layout is
// counted with the default, 32 banks of 4 bytes.
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
// and the models' results stay finite:
//
//   - sm_count 1 to 65536; clock_hz 1e3 to 1e12; mem_bandwidth_bytes_per_s
//     0 (unknown) or 1e3 to 1e18.
//   - limits: warp_size 1 to 1024; max_threads_per_block,
//     max_threads_per_sm, max_warps_per_sm, max_blocks_per_sm 1 to 2^20;
//     shared_per_sm, max_shared_per_block, shared_reserved_per_block 0 to
//     2^32 bytes; shared_alloc_unit 1 to 2^20 bytes. The register fields
//     are 0 (absent, only where regs_per_sm is) or: regs_per_sm and
//     max_regs_per_block 1 to 2^30, max_regs_per_thread 1 to 2^16,
//     reg_alloc_unit 1 to 2^20, reg_sub_partitions and
//     warp_alloc_granularity 1 to 1024.
//   - every model constant (hongkim, cycles.weights, resios: cycles,
//     seconds, bytes, warps, MB/s): 0 (absent) or 1e-9 to 1e9;
//     resios.simulation's units and max_sim_warps 0 or 1 to 65536.
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
