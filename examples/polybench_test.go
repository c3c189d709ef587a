package examples_test

import "maps"

// PolyBench-ACC's kernels, reimplemented from their OpenCL originals.
func init() { maps.Copy(kernels, polybench) }

type arrays = map[string][]float32

// product is the ni x nj matrix alpha*A*B of the ni x nk matrix a and the
// nk x nj matrix b, each element summed over k in order from zero, as the
// naive and tiled matrix products here do (alpha 1 is exact).
func product(a, b []float32, ni, nk, nj int64, alpha float32) []float32 {
	c := make([]float32, ni*nj)
	for i := range ni {
		for j := range nj {
			var sum float32
			for k := range nk {
				sum += alpha * a[i*nk+k] * b[k*nj+j]
			}
			c[i*nj+j] = sum
		}
	}
	return c
}

var polybench = map[string]example{
	"mm2_1": {map[string]int64{"ni": 37, "nj": 45, "nk": 13}, func(p map[string]int64, in arrays) arrays {
		return arrays{"tmp": product(in["A"], in["B"], p["ni"], p["nk"], p["nj"], 32412)}
	}},
	"mm2_2": {map[string]int64{"ni": 37, "nj": 13, "nl": 45}, func(p map[string]int64, in arrays) arrays {
		ni, nj, nl := p["ni"], p["nj"], p["nl"]
		d := clone(in["D"])
		for i := range ni {
			for j := range nl {
				d[i*nl+j] *= 2123
				for k := range nj {
					d[i*nl+j] += in["tmp"][i*nj+k] * in["C"][k*nl+j]
				}
			}
		}
		return arrays{"D": d}
	}},
	"mm3_1": {map[string]int64{"ni": 37, "nj": 45, "nk": 13}, func(p map[string]int64, in arrays) arrays {
		return arrays{"E": product(in["A"], in["B"], p["ni"], p["nk"], p["nj"], 1)}
	}},
	"mvt1": {map[string]int64{"n": 45}, func(p map[string]int64, in arrays) arrays {
		n := p["n"]
		x1 := clone(in["x1"])
		for i := range n {
			for j := range n {
				x1[i] += in["a"][i*n+j] * in["y1"][j]
			}
		}
		return arrays{"x1": x1}
	}},
	"mvt2": {map[string]int64{"n": 45}, func(p map[string]int64, in arrays) arrays {
		n := p["n"]
		x2 := clone(in["x2"])
		for i := range n {
			for j := range n {
				x2[i] += in["a"][j*n+i] * in["y2"][j]
			}
		}
		return arrays{"x2": x2}
	}},
	"gesummv": {map[string]int64{"n": 300}, func(p map[string]int64, in arrays) arrays {
		n := p["n"]
		tmp, y := clone(in["tmp"]), clone(in["y"])
		for i := range n {
			for j := range n {
				tmp[i] += in["a"][i*n+j] * in["x"][j]
				y[i] += in["b"][i*n+j] * in["x"][j]
			}
			y[i] = 43532*tmp[i] + 12313*y[i]
		}
		return arrays{"tmp": tmp, "y": y}
	}},
	"gemver1": {map[string]int64{"n": 45}, func(p map[string]int64, in arrays) arrays {
		n := p["n"]
		a := clone(in["A"])
		for i := range n {
			for j := range n {
				a[i*n+j] += in["U1"][i]*in["V1"][j] + in["U2"][i]*in["V2"][j]
			}
		}
		return arrays{"A": a}
	}},
	"gemver2": {map[string]int64{"n": 300}, func(p map[string]int64, in arrays) arrays {
		n := p["n"]
		x := clone(in["X"])
		for i := range n {
			for j := range n {
				x[i] += 12313 * in["A"][j*n+i] * in["Y"][j]
			}
			x[i] += in["Z"][i]
		}
		return arrays{"X": x}
	}},
	"gemver3": {map[string]int64{"n": 300}, func(p map[string]int64, in arrays) arrays {
		n := p["n"]
		w := clone(in["w"])
		for i := range n {
			for j := range n {
				w[i] += 43532 * in["A"][i*n+j] * in["X"][j]
			}
		}
		return arrays{"w": w}
	}},
	"doitgen1": {map[string]int64{"nr": 3, "nq": 11, "np": 37, "r": 1}, func(p map[string]int64, in arrays) arrays {
		nq, np, r := p["nq"], p["np"], p["r"]
		sums := clone(in["sums"])
		for q := range nq {
			for pp := range np {
				at := r*nq*np + q*np + pp
				sums[at] = 0
				for s := range np {
					sums[at] += in["A"][r*nq*np+q*np+s] * in["C4"][s*np+pp]
				}
			}
		}
		return arrays{"sums": sums}
	}},
	"doitgen2": {map[string]int64{"nr": 3, "nq": 11, "np": 37, "r": 1}, func(p map[string]int64, in arrays) arrays {
		nq, np, r := p["nq"], p["np"], p["r"]
		a := clone(in["A"])
		for q := range nq {
			for pp := range np {
				a[r*nq*np+q*np+pp] = in["sums"][r*nq*np+q*np+pp]
			}
		}
		return arrays{"A": a}
	}},
	"syr2k": {map[string]int64{"ni": 13, "nj": 37}, func(p map[string]int64, in arrays) arrays {
		ni, nj := p["ni"], p["nj"]
		a, b, c := in["a"], in["b"], clone(in["c"])
		for i := range nj {
			for j := range nj {
				c[i*nj+j] *= 2123
				for k := range ni {
					c[i*nj+j] += 32412*a[i*ni+k]*b[j*ni+k] + 32412*b[i*ni+k]*a[j*ni+k]
				}
			}
		}
		return arrays{"c": c}
	}},
}
