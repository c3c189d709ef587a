package examples_test

import (
	"maps"
	"math"
)

// Rodinia's kernels, reimplemented from their CUDA originals.
func init() { maps.Copy(kernels, rodinia) }

var rodinia = map[string]example{
	"fan1": {map[string]int64{"Size": 600, "t": 3}, func(p map[string]int64, in arrays) arrays {
		n, t := p["Size"], p["t"]
		m, a := clone(in["m"]), in["a"]
		for x := range n - 1 - t {
			m[n*(x+t+1)+t] = a[n*(x+t+1)+t] / a[n*t+t]
		}
		return arrays{"m": m}
	}},
	"fan2": {map[string]int64{"Size": 23, "t": 3}, func(p map[string]int64, in arrays) arrays {
		n, t := p["Size"], p["t"]
		m, a, b := in["m"], clone(in["a"]), clone(in["b"])
		for x := range n - 1 - t {
			for y := range n - t {
				a[n*(x+1+t)+(y+t)] -= m[n*(x+1+t)+t] * a[n*t+(y+t)]
				if y == 0 {
					b[x+1+t] -= m[n*(x+1+t)+(y+t)] * b[t]
				}
			}
		}
		return arrays{"a": a, "b": b}
	}},
	"bpnn_layerforward": {map[string]int64{"nb": 3, "hid": 16}, func(p map[string]int64, in arrays) arrays {
		const h, w = 16, 16
		nb, hid := p["nb"], p["hid"]
		ih, partial := clone(in["input_hidden_cuda"]), clone(in["hidden_partial_sum"])
		for by := range nb {
			var wm [h][w]float32
			index := func(ty, tx int64) int64 { return (hid+1)*h*by + (hid+1)*ty + tx + 1 + (hid + 1) }
			for ty := range int64(h) {
				for tx := range int64(w) {
					wm[ty][tx] = ih[index(ty, tx)] * in["input_cuda"][h*by+ty+1]
				}
			}
			for pow := 2; pow <= h; pow *= 2 {
				for ty := 0; ty < h; ty += pow {
					for tx := range w {
						wm[ty][tx] += wm[ty+pow/2][tx]
					}
				}
			}
			for ty := range int64(h) {
				for tx := range int64(w) {
					ih[index(ty, tx)] = wm[ty][tx]
				}
				partial[by*hid+ty] = wm[0][ty]
			}
		}
		return arrays{"input_hidden_cuda": ih, "hidden_partial_sum": partial}
	}},
	// ETA and MOMENTUM are double literals there: the updates are computed
	// in double and rounded to float.
	"bpnn_adjust_weights": {map[string]int64{"nb": 3, "hid": 16}, func(p map[string]int64, in arrays) arrays {
		const h, eta, momentum = 16, 0.3, 0.3
		nb, hid := p["nb"], p["hid"]
		delta, ly := in["delta"], in["ly"]
		w, oldw := clone(in["w"]), clone(in["oldw"])
		for by := range nb {
			for ty := range int64(h) {
				for tx := range int64(16) {
					i, x, y := (hid+1)*h*by+(hid+1)*ty+tx+1+(hid+1), tx+1, h*by+ty+1
					w[i] = float32(float64(w[i]) + (eta*float64(delta[x])*float64(ly[y]) + momentum*float64(oldw[i])))
					oldw[i] = float32(eta*float64(delta[x])*float64(ly[y]) + momentum*float64(oldw[i]))
				}
			}
		}
		for x := int64(1); x <= 16; x++ {
			w[x] = float32(float64(w[x]) + (eta*float64(delta[x]) + momentum*float64(oldw[x])))
			oldw[x] = float32(eta*float64(delta[x]) + momentum*float64(oldw[x]))
		}
		return arrays{"w": w, "oldw": oldw}
	}},
	"euclid": {map[string]int64{"numRecords": 300}, func(p map[string]int64, in arrays) arrays {
		loc := in["d_locations"]
		const lat, lng float32 = 30, 90
		dist := make([]float32, p["numRecords"])
		for i := range dist {
			la, ln := loc[2*i], loc[2*i+1]
			dist[i] = float32(math.Sqrt(float64((lat-la)*(lat-la) + (lng-ln)*(lng-ln))))
		}
		return arrays{"d_distances": dist}
	}},
	"lud_internal": {map[string]int64{"matrix_dim": 64, "offset": 16}, func(p map[string]int64, in arrays) arrays {
		const bs = 16
		n, off := p["matrix_dim"], p["offset"]
		m := clone(in["m"])
		orig := in["m"]
		for r := off + bs; r < n; r++ {
			for c := off + bs; c < n; c++ {
				var sum float32
				for i := range int64(bs) {
					sum += orig[r*n+off+i] * orig[(off+i)*n+c]
				}
				m[r*n+c] -= sum
			}
		}
		return arrays{"m": m}
	}},
}
