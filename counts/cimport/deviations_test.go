package cimport

import (
	"maps"
	"math"
	"testing"

	"github.com/uniperf/uniperf/counts"
)

// PolyBench-ACC's Convolution3D_kernel imports unedited with the host's
// launch: work-groups of 32 x 8 over nk x nj work-items, rounded up to
// whole groups (--global nk,nj), and the plane i a scalar argument.
// examples/conv3d.knl's header says how it deviates: its else zeroes
// only the points of the array, and its domain is (j, k), not the
// launched work-items. At sizes that the work-groups divide (nk a
// multiple of 32, nj of 8) the two are the same points; the sizes are
// such, and plane i is interior.
//
// k and j are get_global_id(0) and (1), launch indices that C computes
// nothing for, so the import names the axes by them over the rounded
// grid (k < 32*ceil(nk/32), roundedgrid.go), and the counts are equal,
// integer operations included. Each evaluates its if's condition once
// at every work-item, for its if and its else branch as C does, "and"
// evaluating its right operand only where its left holds, and an iname
// used as a value costs nothing (docs/kernel-language.md): the test i <
// ni - 1 && j < nj - 1 && k < nk - 1 && i > 0 && j > 0 && k > 0
// subtracts 1 from ni and from nj at all N = nj*nk work-items (i is
// interior) and from nk at the a = (nj - 1)*nk with j < nj - 1: 2N + a
// additions, no multiplication (3008 at nj = 16, nk = 64). Until the
// axes were named, the import wrote j = 8*g1 + l1 and k = 32*g0 + l0
// out at each use, N + a + b + c additions and multiplications more (b
// = (nj - 1)(nk - 1), c = (nj - 2)(nk - 1)).
func init() {
	ports = append(ports, port{"polybench/3DConvolution.cl", "conv3d", []string{"--kernel", "Convolution3D_kernel", "--local", "32,8", "--global", "nk,nj",
		"--array", "A=ni*nj*nk", "--array", "B=ni*nj*nk"},
		[]map[string]int64{{"ni": 5, "nj": 16, "nk": 64, "i": 2}, {"ni": 9, "nj": 40, "nk": 96, "i": 1}}})
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
// work-groups of 32 x 8; its guard, i < n and j < m, is the domain, and
// float_n a scalar argument whose square root every work-item takes, as
// in examples/correlation3.knl: the counts are equal. The interpreter and
// PoCL give the import's scalar its default, 1.
func init() {
	ports = append(ports, port{"polybench/correlation.cl", "correlation3", []string{"--kernel", "reduce_kernel", "--local", "32,8",
		"--array", "mean=m", "--array", "std=m", "--array", "data=n*m"},
		[]map[string]int64{{"m": 64, "n": 16}, {"m": 100, "n": 13}}})
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

// PolyBench-ACC's corr_kernel (correlation.cl) and covar_kernel
// (covariance.cl) import unedited with work-groups of 256, and count as
// examples/correlation4.knl and covariance3.knl: their guards are the
// domains, and the loop for (j2 = j1 + 1; j2 < m; j2++) (j2 = j1) runs,
// in both, over its iteration (the port's dj, the import's j2, from 0),
// so that the lanes of a warp align by trip, as C's loop steps.
func init() {
	flags := func(kernel string) []string {
		return []string{"--kernel", kernel, "--local", "256", "--array", "symmat=m*m", "--array", "data=n*m"}
	}
	sizes := []map[string]int64{{"m": 64, "n": 16}, {"m": 300, "n": 7}}
	ports = append(ports, port{"polybench/correlation.cl", "correlation4", flags("corr_kernel"), sizes},
		port{"polybench/covariance.cl", "covariance3", flags("covar_kernel"), sizes})
	symmetric := func(p map[string]int64, in map[string][]float32, from int64, diag bool) map[string][]float32 {
		m, n := p["m"], p["n"]
		data, symmat := in["data"], clone(in["symmat"])
		for j1 := range m - from {
			if diag {
				symmat[j1*m+j1] = 1
			}
			for j2 := j1 + from; j2 < m; j2++ {
				if !diag {
					symmat[j1*m+j2] = 0
				}
				for i := range n {
					symmat[j1*m+j2] += data[i*m+j1] * data[i*m+j2]
				}
				symmat[j2*m+j1] = symmat[j1*m+j2]
			}
		}
		return map[string][]float32{"symmat": symmat}
	}
	originals["correlation4"] = func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		return symmetric(p, in, 1, true)
	}
	originals["covariance3"] = func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		return symmetric(p, in, 0, false)
	}
}

// TestReductionCountsAsHandPort imports cuda-samples' reduce3 unedited
// (-D T=float, blocks of 64, n/128 of them) and checks its counts at two
// sizes against examples/reduction.knl's, whose n is the number of
// work-groups: the import's at n = 128*G elements against the port's at
// G. Both load 128 elements a group, add 64 + 63 of them, store 127
// times to local memory, meet 7 barriers and store one sum. Two
// differences are derived by hand from the two texts, nothing else:
//
//   - the port sums in local memory (sdata[t] += sdata[t + s] reads
//     sdata[t] back at each of the tree's 32 + 16 + ... + 1 = 63 points,
//     and odata[g] = sdata[0] reads it once more), where reduce3 keeps
//     the sum in the register mySum: 64 local loads a group fewer in
//     the import;
//   - reduce3 evaluates its bounds checks, i < n and i + blockDim.x < n
//     with i = 128*bx + tx, in every work-item, which the port drops as
//     its domain implies them: 1 + 2 int.i32.add and 1 + 1 int.i32.mul a
//     work-item, 192 and 128 a group, more in the import.
func TestReductionCountsAsHandPort(t *testing.T) {
	r := importPort(t, portNamed(t, "reduce3"))
	got, err := counts.ParseKernel("reduce3.knl", r.Knl, nil)
	if err != nil {
		t.Fatalf("%v\n%s", err, r.Knl)
	}
	gc, err := counts.Count(got)
	if err != nil {
		t.Fatalf("%v\n%s", err, r.Knl)
	}
	hc, err := counts.Count(handPort(t, "reduction", nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, groups := range []int64{5, 12} {
		g, err := gc.Eval(map[string]int64{"n": 128 * groups})
		if err != nil {
			t.Fatal(err)
		}
		h, err := hc.Eval(map[string]int64{"n": groups})
		if err != nil {
			t.Fatal(err)
		}
		want := nonzero(h)
		want["local.load.f32"] -= 64 * groups
		want["int.i32.add"] += 192 * groups
		want["int.i32.mul"] += 128 * groups
		if !maps.Equal(nonzero(g), want) {
			t.Errorf("at %d groups: imported counts\n%v\nhand port's (with the differences derived by hand)\n%v\n%s", groups, nonzero(g), want, r.Knl)
		}
	}
}
