package cimport

// cuda-samples' vectorAdd (its 256 threads a block and the host's
// grid of ceil(numElements/256)) and MatrixMulCUDA with BLOCK_SIZE 32
// (its template parameter, a -D; its loop over two variables, for (int a
// = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep), is a loop
// over a with b stepping alongside) import unedited and count as
// examples/vectorAdd.knl and matrixMul.knl.
//
// convolutionSeparable.cu's convolutionRowsKernel and
// convolutionColumnsKernel move their pointer arguments to the
// work-item's base (d_Src += baseY*pitch + baseX) and index them from
// there; the host passes pitch = imageW (-D pitch=imageW), and
// KERNEL_RADIUS comes from a header that is not read. They import
// unedited and count as examples/convolutionRows.knl and
// convolutionColumns.knl.
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
	convFlags := []string{"-D", "KERNEL_RADIUS=8", "-D", "KERNEL_LENGTH=(2*KERNEL_RADIUS+1)", "-D", "pitch=imageW",
		"--array", "d_Src=imageW*imageH", "--array", "d_Dst=imageW*imageH"}
	ports = append(ports,
		port{"cuda-samples/convolutionSeparable.cu", "convolutionRows", append([]string{"--kernel", "convolutionRowsKernel",
			"--local", "ROWS_BLOCKDIM_X,ROWS_BLOCKDIM_Y", "--groups", "imageW/(ROWS_RESULT_STEPS*ROWS_BLOCKDIM_X),imageH/ROWS_BLOCKDIM_Y"}, convFlags...),
			[]map[string]int64{{"imageW": 256, "imageH": 8}, {"imageW": 384, "imageH": 12}}},
		port{"cuda-samples/convolutionSeparable.cu", "convolutionColumns", append([]string{"--kernel", "convolutionColumnsKernel",
			"--local", "COLUMNS_BLOCKDIM_X,COLUMNS_BLOCKDIM_Y", "--groups", "imageW/COLUMNS_BLOCKDIM_X,imageH/(COLUMNS_RESULT_STEPS*COLUMNS_BLOCKDIM_Y)"}, convFlags...),
			[]map[string]int64{{"imageW": 32, "imageH": 128}, {"imageW": 48, "imageH": 192}}})
	originals["convolutionRows"] = func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		return map[string][]float32{"d_Dst": separable(p["imageW"], p["imageH"], in["d_Src"], in["c_Kernel"], 1, 0)}
	}
	originals["convolutionColumns"] = func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		return map[string][]float32{"d_Dst": separable(p["imageW"], p["imageH"], in["d_Src"], in["c_Kernel"], 0, 1)}
	}
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

// separable is convolutionSeparable's 17-tap filter of a w x h image
// along x (dx = 1) or y (dy = 1), zero beyond the image, summed from
// tap -8 to 8 with the filter reversed, as the kernels do.
func separable(w, h int64, src, filter []float32, dx, dy int64) []float32 {
	out := make([]float32, w*h)
	for y := range h {
		for x := range w {
			var sum float32
			for j := int64(-8); j <= 8; j++ {
				if sx, sy := x+j*dx, y+j*dy; sx >= 0 && sx < w && sy >= 0 && sy < h {
					sum += filter[8-j] * src[sy*w+sx]
				}
			}
			out[y*w+x] = sum
		}
	}
	return out
}
