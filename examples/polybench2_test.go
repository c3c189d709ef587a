package examples_test

import (
	"maps"
	"math"
)

// PolyBench-ACC's datamining kernels, stencils and solvers, reimplemented
// from their OpenCL originals.
func init() {
	maps.Copy(kernels, polybench2)
	// Their results sum terms of both signs, of about unit size, and
	// cancel: some are 1e-3 or less, where PoCL's contraction of a*b + c
	// (conv2d, lu2) or the original's double-precision update (fdtd2d3)
	// differs by more than 1e-5 of the result.
	maps.Copy(terms, map[string]float64{"conv2d": 1, "fdtd2d3": 1, "lu2": 1})
	// adi3's (x - x'*a)/b cancels likewise, and b (at least 0.5) can
	// double it.
	terms["adi3"] = 2
}

// floatN is the float_n of covariance and correlation, a float there.
var floatN = float32(3214212.01)

var polybench2 = map[string]example{
	"covariance1": {map[string]int64{"m": 300, "n": 13}, func(p map[string]int64, in arrays) arrays {
		m, n := p["m"], p["n"]
		mean := make([]float32, m)
		for j := range m {
			for i := range n {
				mean[j] += in["data"][i*m+j]
			}
			mean[j] /= floatN
		}
		return arrays{"mean": mean}
	}},
	"covariance2": {map[string]int64{"m": 45, "n": 37}, func(p map[string]int64, in arrays) arrays {
		m, n := p["m"], p["n"]
		data := clone(in["data"])
		for i := range n {
			for j := range m {
				data[i*m+j] -= in["mean"][j]
			}
		}
		return arrays{"data": data}
	}},
	"covariance3": {map[string]int64{"m": 270, "n": 13}, func(p map[string]int64, in arrays) arrays {
		m, n := p["m"], p["n"]
		d, s := in["data"], clone(in["symmat"])
		for j1 := range m {
			for j2 := j1; j2 < m; j2++ {
				s[j1*m+j2] = 0
				for i := range n {
					s[j1*m+j2] += d[i*m+j1] * d[i*m+j2]
				}
				s[j2*m+j1] = s[j1*m+j2]
			}
		}
		return arrays{"symmat": s}
	}},
	// n = 480 leaves some columns' deviation above eps and some below.
	"correlation2": {map[string]int64{"m": 300, "n": 480}, func(p map[string]int64, in arrays) arrays {
		m, n := p["m"], p["n"]
		d, mean := in["data"], in["mean"]
		std := make([]float32, m)
		for j := range m {
			for i := range n {
				std[j] += (d[i*m+j] - mean[j]) * (d[i*m+j] - mean[j])
			}
			std[j] /= floatN
			std[j] = float32(math.Sqrt(float64(std[j])))
			if std[j] <= float32(0.005) {
				std[j] = 1
			}
		}
		return arrays{"std": std}
	}},
	"correlation3": {map[string]int64{"m": 45, "n": 37}, func(p map[string]int64, in arrays) arrays {
		m, n := p["m"], p["n"]
		data := clone(in["data"])
		sqrtN := float32(math.Sqrt(float64(floatN)))
		for i := range n {
			for j := range m {
				data[i*m+j] -= in["mean"][j]
				data[i*m+j] /= sqrtN * in["std"][j]
			}
		}
		return arrays{"data": data}
	}},
	"correlation4": {map[string]int64{"m": 270, "n": 13}, func(p map[string]int64, in arrays) arrays {
		m, n := p["m"], p["n"]
		d, s := in["data"], clone(in["symmat"])
		for j1 := range m - 1 {
			s[j1*m+j1] = 1
			for j2 := j1 + 1; j2 < m; j2++ {
				for i := range n {
					s[j1*m+j2] += d[i*m+j1] * d[i*m+j2]
				}
				s[j2*m+j1] = s[j1*m+j2]
			}
		}
		return arrays{"symmat": s}
	}},
	"conv2d": {map[string]int64{"ni": 37, "nj": 45}, func(p map[string]int64, in arrays) arrays {
		ni, nj := p["ni"], p["nj"]
		var c11, c21, c31, c12, c22, c32, c13, c23, c33 float32 = +0.2, +0.5, -0.8, -0.3, +0.6, -0.9, +0.4, +0.7, +0.10
		a, b := in["A"], clone(in["B"])
		for i := int64(1); i < ni-1; i++ {
			for j := int64(1); j < nj-1; j++ {
				b[i*nj+j] = c11*a[(i-1)*nj+(j-1)] + c21*a[(i-1)*nj+(j+0)] + c31*a[(i-1)*nj+(j+1)] +
					c12*a[(i+0)*nj+(j-1)] + c22*a[(i+0)*nj+(j+0)] + c32*a[(i+0)*nj+(j+1)] +
					c13*a[(i+1)*nj+(j-1)] + c23*a[(i+1)*nj+(j+0)] + c33*a[(i+1)*nj+(j+1)]
			}
		}
		return arrays{"B": b}
	}},
	"conv3d": {map[string]int64{"ni": 5, "nj": 11, "nk": 37, "i": 2}, func(p map[string]int64, in arrays) arrays {
		ni, nj, nk, i := p["ni"], p["nj"], p["nk"], p["i"]
		var c11, c21, c31, c12, c22, c32, c13, c23, c33 float32 = +2, +5, -8, -3, +6, -9, +4, +7, +10
		a, b := in["A"], clone(in["B"])
		at := func(i, j, k int64) float32 { return a[i*(nk*nj)+j*nk+k] }
		for j := range nj {
			for k := range nk {
				if i < ni-1 && j < nj-1 && k < nk-1 && i > 0 && j > 0 && k > 0 {
					b[i*(nk*nj)+j*nk+k] = c11*at(i-1, j-1, k-1) + c13*at(i+1, j-1, k-1) +
						c21*at(i-1, j-1, k-1) + c23*at(i+1, j-1, k-1) +
						c31*at(i-1, j-1, k-1) + c33*at(i+1, j-1, k-1) +
						c12*at(i+0, j-1, k+0) + c22*at(i+0, j+0, k+0) +
						c32*at(i+0, j+1, k+0) + c11*at(i-1, j-1, k+1) +
						c13*at(i+1, j-1, k+1) + c21*at(i-1, j+0, k+1) +
						c23*at(i+1, j+0, k+1) + c31*at(i-1, j+1, k+1) +
						c33*at(i+1, j+1, k+1)
				} else {
					b[i*(nk*nj)+j*nk+k] = 0
				}
			}
		}
		return arrays{"B": b}
	}},
	// The originals' 0.5 and 0.7 are double literals: the update is
	// computed in double and rounded to float.
	"fdtd2d1": {map[string]int64{"nx": 37, "ny": 45, "tmax": 4, "t": 2}, func(p map[string]int64, in arrays) arrays {
		nx, ny := p["nx"], p["ny"]
		ey, hz := clone(in["ey"]), in["hz"]
		for i := range nx {
			for j := range ny {
				if i == 0 {
					ey[i*ny+j] = in["_fict_"][p["t"]]
				} else {
					ey[i*ny+j] = float32(float64(ey[i*ny+j]) - 0.5*float64(hz[i*ny+j]-hz[(i-1)*ny+j]))
				}
			}
		}
		return arrays{"ey": ey}
	}},
	"fdtd2d2": {map[string]int64{"nx": 37, "ny": 45}, func(p map[string]int64, in arrays) arrays {
		nx, ny := p["nx"], p["ny"]
		ex, hz := clone(in["ex"]), in["hz"]
		for i := range nx {
			for j := int64(1); j < ny; j++ {
				ex[i*ny+j] = float32(float64(ex[i*ny+j]) - 0.5*float64(hz[i*ny+j]-hz[i*ny+(j-1)]))
			}
		}
		return arrays{"ex": ex}
	}},
	"fdtd2d3": {map[string]int64{"nx": 37, "ny": 45}, func(p map[string]int64, in arrays) arrays {
		nx, ny := p["nx"], p["ny"]
		ex, ey, hz := in["ex"], in["ey"], clone(in["hz"])
		for i := range nx - 1 {
			for j := range ny - 1 {
				hz[i*ny+j] = float32(float64(hz[i*ny+j]) - 0.7*float64(ex[i*ny+(j+1)]-ex[i*ny+j]+ey[(i+1)*ny+j]-ey[i*ny+j]))
			}
		}
		return arrays{"hz": hz}
	}},
	"jacobi1d1": {map[string]int64{"n": 300}, func(p map[string]int64, in arrays) arrays {
		n := p["n"]
		a, b := in["A"], clone(in["B"])
		for i := int64(1); i < n-1; i++ {
			b[i] = 0.33333 * (a[i-1] + a[i] + a[i+1])
		}
		return arrays{"B": b}
	}},
	"gramschmidt2": {map[string]int64{"ni": 300, "nj": 7, "k": 3}, func(p map[string]int64, in arrays) arrays {
		ni, nj, k := p["ni"], p["nj"], p["k"]
		q := clone(in["q"])
		for i := range ni {
			q[i*nj+k] = in["a"][i*nj+k] / in["r"][k*nj+k]
		}
		return arrays{"q": q}
	}},
	"gramschmidt3": {map[string]int64{"ni": 13, "nj": 300, "k": 3}, func(p map[string]int64, in arrays) arrays {
		ni, nj, k := p["ni"], p["nj"], p["k"]
		a, r, q := clone(in["a"]), clone(in["r"]), in["q"]
		for j := k + 1; j < nj; j++ {
			r[k*nj+j] = 0
			for i := range ni {
				r[k*nj+j] += q[i*nj+k] * a[i*nj+j]
			}
			for i := range ni {
				a[i*nj+j] -= q[i*nj+k] * r[k*nj+j]
			}
		}
		return arrays{"a": a, "r": r}
	}},
	"lu1": {map[string]int64{"n": 300, "k": 3}, func(p map[string]int64, in arrays) arrays {
		n, k := p["n"], p["k"]
		a := clone(in["A"])
		for j := k + 1; j < n; j++ {
			a[k*n+j] = a[k*n+j] / a[k*n+k]
		}
		return arrays{"A": a}
	}},
	"lu2": {map[string]int64{"n": 45, "k": 3}, func(p map[string]int64, in arrays) arrays {
		n, k := p["n"], p["k"]
		a := clone(in["A"])
		for i := k + 1; i < n; i++ {
			for j := k + 1; j < n; j++ {
				a[i*n+j] = a[i*n+j] - a[i*n+k]*a[k*n+j]
			}
		}
		return arrays{"A": a}
	}},
	"adi1": {map[string]int64{"n": 300}, func(p map[string]int64, in arrays) arrays {
		n := p["n"]
		a, b, x := in["A"], clone(in["B"]), clone(in["X"])
		for i1 := range n {
			for i2 := int64(1); i2 < n; i2++ {
				x[i1*n+i2] = x[i1*n+i2] - x[i1*n+(i2-1)]*a[i1*n+i2]/b[i1*n+(i2-1)]
				b[i1*n+i2] = b[i1*n+i2] - a[i1*n+i2]*a[i1*n+i2]/b[i1*n+(i2-1)]
			}
		}
		return arrays{"B": b, "X": x}
	}},
	"adi3": {map[string]int64{"n": 300}, func(p map[string]int64, in arrays) arrays {
		n := p["n"]
		a, b, x := in["A"], in["B"], clone(in["X"])
		for i1 := range n {
			for i2 := range n - 2 {
				x[i1*n+(n-i2-2)] = (x[i1*n+(n-2-i2)] - x[i1*n+(n-2-i2-1)]*a[i1*n+(n-i2-3)]) / b[i1*n+(n-3-i2)]
			}
		}
		return arrays{"X": x}
	}},
	"adi6": {map[string]int64{"n": 300, "i1": 5}, func(p map[string]int64, in arrays) arrays {
		n, i1 := p["n"], p["i1"]
		a, b, x := in["A"], in["B"], clone(in["X"])
		for i2 := range n {
			x[(n-2-i1)*n+i2] = (x[(n-2-i1)*n+i2] - x[(n-i1-3)*n+i2]*a[(n-3-i1)*n+i2]) / b[(n-2-i1)*n+i2]
		}
		return arrays{"X": x}
	}},
	"gramschmidt1": {map[string]int64{"ni": 300, "nj": 7, "k": 3}, func(p map[string]int64, in arrays) arrays {
		ni, nj, k := p["ni"], p["nj"], p["k"]
		r := clone(in["r"])
		var nrm float32
		for i := range ni {
			nrm += in["a"][i*nj+k] * in["a"][i*nj+k]
		}
		r[k*nj+k] = float32(math.Sqrt(float64(nrm)))
		return arrays{"r": r}
	}},
	"jacobi1d2": {map[string]int64{"n": 300}, func(p map[string]int64, in arrays) arrays {
		n := p["n"]
		a := clone(in["A"])
		copy(a[1:n-1], in["B"][1:n-1])
		return arrays{"A": a}
	}},
	"adi4": {map[string]int64{"n": 300, "i1": 5}, func(p map[string]int64, in arrays) arrays {
		n, i1 := p["n"], p["i1"]
		a, b, x := in["A"], clone(in["B"]), clone(in["X"])
		for i2 := range n {
			x[i1*n+i2] = x[i1*n+i2] - x[(i1-1)*n+i2]*a[i1*n+i2]/b[(i1-1)*n+i2]
			b[i1*n+i2] = b[i1*n+i2] - a[i1*n+i2]*a[i1*n+i2]/b[(i1-1)*n+i2]
		}
		return arrays{"B": b, "X": x}
	}},
}
