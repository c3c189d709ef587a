package examples_test

import "maps"

// Kernel Tuner's example kernels, reimplemented from their CUDA originals.
func init() { maps.Copy(kernels, kerneltuner) }

// convolve is convolution.cu's 17 x 17 filter over an h x w image with a
// border of 16, summed filter row by filter row as both kernels do.
func convolve(h, w int64, input, filter []float32) []float32 {
	const fh, fw = 17, 17
	out := make([]float32, h*w)
	for y := range h {
		for x := range w {
			var sum float32
			for j := range int64(fh) {
				for i := range int64(fw) {
					sum += input[(y+j)*(w+fw-1)+(x+i)] * filter[j*fw+i]
				}
			}
			out[y*w+x] = sum
		}
	}
	return out
}

var kerneltuner = map[string]example{
	"cn_pnpoly": {map[string]int64{"n": 300}, func(p map[string]int64, in arrays) arrays {
		const vertices = 600
		pts, v := in["points"], in["d_vertices"]
		bitmap := make([]float32, p["n"])
		for i := range bitmap {
			c := false
			px, py := pts[2*i], pts[2*i+1]
			for j, k := 0, vertices-1; j < vertices; k, j = j, j+1 {
				vjx, vjy, vkx, vky := v[2*j], v[2*j+1], v[2*k], v[2*k+1]
				slope := (vkx - vjx) / (vky - vjy)
				if (vjy > py) != (vky > py) && px < slope*(py-vjy)+vjx {
					c = !c
				}
			}
			if c {
				bitmap[i] = 1
			}
		}
		return arrays{"bitmap": bitmap}
	}},
	"convolution_naive": {map[string]int64{"h": 37, "w": 45}, func(p map[string]int64, in arrays) arrays {
		return arrays{"output": convolve(p["h"], p["w"], in["input"], in["filter"])}
	}},
	"convolution_kernel": {map[string]int64{"h": 32, "w": 48}, func(p map[string]int64, in arrays) arrays {
		return arrays{"output": convolve(p["h"], p["w"], in["input"], in["d_filter"])}
	}},
	"stencil_kernel": {map[string]int64{"w": 45, "h": 37}, func(p map[string]int64, in arrays) arrays {
		w, h := p["w"], p["h"]
		old, nw := in["x_old"], clone(in["x_new"])
		for y := int64(1); y < h-1; y++ {
			for x := int64(1); x < w-1; x++ {
				nw[y*w+x] = (old[y*w+x] + old[y*w+(x-1)] + old[y*w+(x+1)] + old[(y+1)*w+x] + old[(y-1)*w+x]) / 5
			}
		}
		return arrays{"x_new": nw}
	}},
	"matmul_kernel": {map[string]int64{"n": 64}, func(p map[string]int64, in arrays) arrays {
		n := p["n"]
		return arrays{"C": product(in["A"], in["B"], n, n, n, 1)}
	}},
	"sum_floats": {map[string]int64{"n": 5000}, func(p map[string]int64, in arrays) arrays {
		const b, nb = 128, 32
		out := make([]float32, nb)
		for g := range int64(nb) {
			sh := make([]float32, b)
			for t := range int64(b) {
				for i := g*b + t; i < p["n"]; i += nb * b {
					sh[t] += in["array_"][i]
				}
			}
			for s := b / 2; s > 0; s >>= 1 {
				for t := range s {
					sh[t] += sh[t+s]
				}
			}
			out[g] = sh[0]
		}
		return arrays{"sum_global": out}
	}},
}
