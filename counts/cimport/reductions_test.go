package cimport

// cuda-samples' reduce0, reduce1 and reduce2 (reduction_kernel.cu, the
// kernels of examples/reduce0.knl ... reduce2.knl) import unedited with
// the sample's 256 threads a block: their loops over s (s *= 2, s >>= 1)
// are unrolled, and reduce0's (tid % (2*s)) == 0 is an affine condition,
// tx % 2 == 0, as the hand port writes it. They count as the hand ports
// in TestPortsCountAsHandPorts, and run in TestPortsRun and
// TestPortsOnPoCL, with the other ports.
func init() {
	for _, k := range []string{"reduce0", "reduce1", "reduce2"} {
		ports = append(ports, port{"cuda-samples/reduction_kernel.cu", k, []string{"--kernel", k, "-D", "T=float",
			"--local", "256", "--groups", "blocks", "--array", "g_idata=n", "--array", "g_odata=blocks", "--array", "sdata=256"},
			[]map[string]int64{{"n": 1000, "blocks": 4}, {"n": 3000, "blocks": 12}}})
		originals[k] = blockSums
	}
}

// blockSums is what reduce0, reduce1 and reduce2 write: each block's
// sum of its 256 elements (0 beyond n).
func blockSums(p map[string]int64, in map[string][]float32) map[string][]float32 {
	out := make([]float32, p["blocks"])
	for i := range p["n"] {
		out[i/256] += in["g_idata"][i]
	}
	return map[string][]float32{"g_odata": out}
}
