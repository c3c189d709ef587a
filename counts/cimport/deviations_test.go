package cimport

import (
	"math"
)

// PolyBench-ACC's Convolution3D_kernel imports unedited with the host's
// launch: work-groups of 32 x 8 over nk x nj work-items, rounded up to
// whole groups (--global nk,nj), and the plane i a scalar argument.
// examples/conv3d.knl's header says how it deviates: its else zeroes
// only the points of the array, and its domain is (j, k), not the
// launched work-items. At sizes that the work-groups divide (nk a
// multiple of 32, nj of 8) the two are the same points, so memory
// accesses, flops and groups are equal; the sizes are such, and plane i
// is interior.
//
// Their integer operations differ, and that difference is derived by
// hand and allowed for (handDiffs). Each of the two stores evaluates its
// predicate at every work-item, "and" evaluating its right operand only
// where its left holds, and an iname used as a value costs nothing where
// arithmetic on it counts (docs/kernel-language.md). With N = nj*nk
// work-items, a = (nj - 1)*nk of them with j < nj - 1, b = (nj - 1)*(nk
// - 1) with also k < nk - 1, and c = (nj - 2)*(nk - 1) with also j > 0:
//
//   - the port's guard, 0 < i and i < ni - 1 and 0 < j and j < nj - 1
//     and 0 < k and k < nk - 1, costs one addition for ni - 1 at all N,
//     one for nj - 1 where j > 0 ((nj - 1)*nk = a), and one for nk - 1
//     where also j < nj - 1 and k > 0 (c): N + a + c additions a store;
//   - the import's, in the original's order, i + 1 < ni and j + 1 < nj
//     and k + 1 < nk and 0 < i and 0 < j and 0 < k, with j = 8*g1 + l1
//     and k = 32*g0 + l0 written out: i + 1 one addition at all N;
//     8*g1 + l1 + 1 one multiplication and two additions at all N;
//     32*g0 + l0 + 1 the same where j < nj - 1 (a); 8*g1 + l1 one of each
//     where also k < nk - 1 (b), 0 < i holding; 32*g0 + l0 one of each
//     where also j > 0 (c). That is 3N + 2a + b + c additions and N + a +
//     b + c multiplications a store.
//
// Two stores: 2(2N + a + b) int.i32.add and 2(N + a + b + c)
// int.i32.mul more than the port.
func init() {
	ports = append(ports, port{"polybench/3DConvolution.cl", "conv3d", []string{"--kernel", "Convolution3D_kernel", "--local", "32,8", "--global", "nk,nj",
		"--array", "A=ni*nj*nk", "--array", "B=ni*nj*nk"},
		[]map[string]int64{{"ni": 5, "nj": 16, "nk": 64, "i": 2}, {"ni": 9, "nj": 40, "nk": 96, "i": 1}}})
	handDiffs["conv3d"] = func(size map[string]int64) map[string]int64 {
		nj, nk := size["nj"], size["nk"]
		n, a, b, c := nj*nk, (nj-1)*nk, (nj-1)*(nk-1), (nj-2)*(nk-1)
		return map[string]int64{"int.i32.add": 2 * (2*n + a + b), "int.i32.mul": 2 * (n + a + b + c)}
	}
	originals["conv3d"] = func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		ni, nj, nk, i := p["ni"], p["nj"], p["nk"], p["i"]
		a, b := in["A"], clone(in["B"])
		for j := range nj {
			for k := range nk {
				x := func(di, dj, dk int64) float32 { return a[(i+di)*nj*nk+(j+dj)*nk+k+dk] }
				if i <= 0 || i >= ni-1 || j <= 0 || j >= nj-1 || k <= 0 || k >= nk-1 {
					b[i*nj*nk+j*nk+k] = 0
					continue
				}
				b[i*nj*nk+j*nk+k] = 2*x(-1, -1, -1) + 4*x(1, -1, -1) + 5*x(-1, -1, -1) + 7*x(1, -1, -1) +
					-8*x(-1, -1, -1) + 10*x(1, -1, -1) + -3*x(0, -1, 0) + 6*x(0, 0, 0) +
					-9*x(0, 1, 0) + 2*x(-1, -1, 1) + 4*x(1, -1, 1) + 5*x(-1, 0, 1) +
					7*x(1, 0, 1) + -8*x(-1, 1, 1) + 10*x(1, 1, 1)
			}
		}
		return map[string][]float32{"B": b}
	}
}

// PolyBench-ACC's reduce_kernel (correlation.cl) imports unedited with
// work-groups of 32 x 8; its guard, i < n and j < m, is the domain, as in
// examples/correlation3.knl. The port's header says how it deviates: it
// writes float_n as the value the host passes, so its
// sqrt(3214212.01f), of a literal, is folded and counts nothing, where
// the import keeps float_n a scalar argument and takes its square root
// in every work-item (docs/kernel-language.md: functions other than exp
// and pow are special). The difference, derived by hand and allowed for
// (handDiffs): n*m flop.f32.special, one a point of the domain; the rest
// is equal. The interpreter and PoCL give the scalar its default, 1.
func init() {
	ports = append(ports, port{"polybench/correlation.cl", "correlation3", []string{"--kernel", "reduce_kernel", "--local", "32,8",
		"--array", "mean=m", "--array", "std=m", "--array", "data=n*m"},
		[]map[string]int64{{"m": 64, "n": 16}, {"m": 100, "n": 13}}})
	handDiffs["correlation3"] = func(size map[string]int64) map[string]int64 {
		return map[string]int64{"flop.f32.special": size["n"] * size["m"]}
	}
	originals["correlation3"] = func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		m, n := p["m"], p["n"]
		data := clone(in["data"])
		for i := range n {
			for j := range m {
				data[i*m+j] -= in["mean"][j]
				data[i*m+j] /= float32(math.Sqrt(1)) * in["std"][j]
			}
		}
		return map[string][]float32{"data": data}
	}
}
