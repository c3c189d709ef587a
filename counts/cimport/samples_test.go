package cimport

// cuda-samples' vectorAdd (its 256 threads a block and the host's
// grid of ceil(numElements/256)) and MatrixMulCUDA with BLOCK_SIZE 32
// (its template parameter, a -D; its loop over two variables, for (int a
// = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep), is a loop
// over a with b stepping alongside) import unedited and count as
// examples/vectorAdd.knl and matrixMul.knl.
//
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
	ports = append(ports,
		port{"cuda-samples/vectorAdd.cu", "vectorAdd", []string{"--local", "256", "--global", "numElements",
			"--array", "A=numElements", "--array", "B=numElements", "--array", "C=numElements"},
			[]map[string]int64{{"numElements": 1000}, {"numElements": 50000}}},
		port{"cuda-samples/matrixMul.cu", "matrixMul", []string{"-D", "BLOCK_SIZE=32", "--local", "BLOCK_SIZE,BLOCK_SIZE",
			"--groups", "wB/BLOCK_SIZE,hA/BLOCK_SIZE", "--array", "A=hA*wA", "--array", "B=wA*wB", "--array", "C=hA*wB"},
			[]map[string]int64{{"hA": 64, "wA": 96, "wB": 32}, {"hA": 128, "wA": 64, "wB": 96}}})
	originals["vectorAdd"] = func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		c := make([]float32, p["numElements"])
		for i := range c {
			c[i] = in["A"][i] + in["B"][i]
		}
		return map[string][]float32{"C": c}
	}
	originals["matrixMul"] = func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		hA, wA, wB := p["hA"], p["wA"], p["wB"]
		c := make([]float32, hA*wB)
		for i := range hA {
			for j := range wB {
				for k := range wA {
					c[i*wB+j] += in["A"][i*wA+k] * in["B"][k*wB+j]
				}
			}
		}
		return map[string][]float32{"C": c}
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
