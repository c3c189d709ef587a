package cimport

import "maps"

// cuda-samples' histogram256Kernel (at the commit that
// examples/histogram256.knl cites) imports unedited: s_WarpHist, a
// pointer into the shared s_Hist at the warp's sub-histogram
// (threadIdx.x >> 5, a floor division), passed to the device functions
// addWord and addByte, whose atomicAdd(s_WarpHist + data, 1) is an
// atomic on s_Hist; the grid-stride loop steps by blockDim.x*gridDim.x,
// which --groups 240 makes a constant; the merge's uint sum = 0 is a
// private accumulator; data >> 0 and & TAG_MASK (0xFFFFFFFF) are the
// data. threadIdx.x >> 5, the warp, is the run of the work-item index
// split by 32 (32 divides the 192 of a block): s_WarpHist is s_Hist at
// 256*tx_run, and the shift counts once at each of the 240*192 threads,
// where C computes it, setting s_WarpHist (the multiplication by 256
// does not: below). What histogram_common.h defines, which is not read, comes from
// -D, its UMUL and UMAD as function-like macros. The header's uint is
// the .knl's u32, as in the hand port. It counts as the hand port in
// TestSuitesCountAsHandPorts and runs in TestPortsRun and
// TestPortsOnPoCL with the other ports.
func init() {
	suitePorts = append(suitePorts, suitePort{port: port{"cuda-samples/histogram256.cu", "histogram256", []string{
		"--kernel", "histogram256Kernel", "-D", "uint=unsigned", "-D", "HISTOGRAM256_BIN_COUNT=256", "-D", "UINT_BITS=32",
		"-D", "LOG2_WARP_SIZE=5U", "-D", "WARP_COUNT=6", "-D", "HISTOGRAM256_THREADBLOCK_SIZE=(WARP_COUNT*32)",
		"-D", "HISTOGRAM256_THREADBLOCK_MEMORY=(WARP_COUNT*HISTOGRAM256_BIN_COUNT)",
		"-D", "UMUL(a,b)=((a)*(b))", "-D", "UMAD(a,b,c)=(UMUL((a),(b))+(c))",
		"--local", "HISTOGRAM256_THREADBLOCK_SIZE", "--groups", "240",
		"--array", "d_Data=dataCount", "--array", "d_PartialHistograms=256*240"},
		[]map[string]int64{{"n": 100000}, {"n": 46080*2 + 777}}},
		at: func(s map[string]int64) map[string]int64 { return map[string]int64{"dataCount": s["n"]} },
		// The hand port computes the warp's sub-histogram, h =
		// 256*(l // 32), once a thread, as the original sets s_WarpHist
		// (its counts are the original's, derived by hand in
		// examples' TestHistogram256HandCounts). The import writes the
		// pointer's offset, 256*tx_run, into each atomic's subscript,
		// which reads data and so is counted: a multiplication at each
		// of a word's four atomics, 4n, where the original multiplies
		// once a thread, 240 blocks of 192 (docs/importing.md, "Pointers
		// into arrays").
		deviates: func(s, c map[string]int64) { c["int.i32.mul"] += 4*s["n"] - 240*192 }})
	maps.Copy(originals, histogramOriginals)
	// Words below 2^24, which travel exactly as float32: three bytes
	// vary.
	fixInputs["histogram256Kernel"] = func(p map[string]int64, in map[string][]float32) {
		for i := range in["d_Data"] {
			in["d_Data"][i] = float32(uint64(i) * 2654435761 % (1 << 24))
		}
	}
}

var histogramOriginals = map[string]original{
	// Block g of the 240 takes the words at pos = 192*g + tx + 46080*k
	// and counts their four bytes into its partial histogram.
	"histogram256": func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		out := make([]float32, 256*240)
		for pos := range p["n"] {
			g, d := pos%46080/192, uint32(in["d_Data"][pos])
			for _, s := range []uint{0, 8, 16, 24} {
				out[256*g+int64(d>>s&255)]++
			}
		}
		return map[string][]float32{"d_PartialHistograms": out}
	},
}
