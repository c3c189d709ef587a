package cimport

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/launch/pocltest"
)

// The kernels of the language's gathers, scatters, atomics, readonly
// arrays and narrow integers: SHOC's CSR SpMV, whose row loop is bounded
// by data (--trips), and two histograms written for these tests. They
// run in TestPortsRun and TestPortsOnPoCL with the other ports.
func init() {
	ports = append(ports,
		port{"shoc/spmv.cl", "spmv_csr_scalar", spmvFlags, []map[string]int64{{"dim": 301, "nnz": 1500, "maxrl": 7}, {"dim": 1000, "nnz": 4000, "maxrl": 9}}},
		port{"shoc/spmv.cl", "spmv_ellpackr", ellpackrFlags, []map[string]int64{{"dim": 301, "maxrl": 7}, {"dim": 1000, "maxrl": 9}}},
		port{"own/histo.cu", "histo", nil, []map[string]int64{{"n": 300}, {"n": 1000}}},
		port{"own/histo.cl", "histo_cl", nil, []map[string]int64{{"n": 300}, {"n": 1000}}},
		port{"own/devfn.cu", "devfn", nil, []map[string]int64{{"n": 200}, {"n": 1000}}},
		port{"own/helpers.cl", "helpers", nil, []map[string]int64{{"n": 300}, {"n": 1001}}})
	maps.Copy(originals, gatherOriginals)
	// examples/spmv_csr_scalar.knl, a port of SHOC's CUDA kernel, declares
	// val, cols, rowDelimiters and vec plain arrays, where the OpenCL
	// original's are const restrict, never stored, so readonly in the
	// import: the two loads of rowDelimiters a row (start and end, at
	// stride 1) count as global.ldg, not global.load. The gathers of
	// val, cols and vec are global.load.indirect either way.
	handDiffs["spmv_csr_scalar"] = func(size map[string]int64) map[string]int64 {
		return map[string]int64{"global.ldg.i32.stride=1": 2 * size["dim"], "global.load.i32.stride=1": -2 * size["dim"]}
	}
	// examples/spmv_ellpackr.knl computes int ind = i*dim + t into an
	// i32 temporary each trip, as SHOC does, and counts its
	// multiplication and addition there, at each of the dim*maxrl trips
	// the counts take; the import writes the affine ind into the
	// subscripts, whose arithmetic is the address's and not counted.
	handDiffs["spmv_ellpackr"] = func(size map[string]int64) map[string]int64 {
		trips := size["dim"] * size["maxrl"]
		return map[string]int64{"int.i32.mul": -trips, "int.i32.add": -trips}
	}
}

// spmvFlags are SHOC's launch of spmv_csr_scalar_kernel (Spmv.cpp: 128
// work-items a group, one a row) and the extents of the CSR arrays,
// with maxrl, the longest row, bounding the row's loop.
var spmvFlags = []string{"--kernel", "spmv_csr_scalar_kernel", "-D", "SINGLE_PRECISION", "--local", "128", "--global", "dim",
	"--array", "val=nnz", "--array", "vec=dim", "--array", "cols=nnz", "--array", "rowDelimiters=dim+1", "--array", "out=dim",
	"--trips", "j=maxrl"}

// ellpackrFlags are SHOC's launch of spmv_ellpackr_kernel, one work-item
// a row, whose ELLPACK-R arrays hold maxrl entries a row.
var ellpackrFlags = []string{"--kernel", "spmv_ellpackr_kernel", "-D", "SINGLE_PRECISION", "--local", "128", "--global", "dim",
	"--array", "val=dim*maxrl", "--array", "vec=dim", "--array", "cols=dim*maxrl", "--array", "rowLengths=dim", "--array", "out=dim",
	"--trips", "i=maxrl"}

// fixInputs makes the integer arrays of a kernel, by its name, valid at
// p: a CSR matrix of rows of 0 to maxrl entries, a permutation, indices
// below n, bytes and 16-bit values over their whole range.
var fixInputs = map[string]func(p map[string]int64, in map[string][]float32){
	"spmv_csr_scalar_kernel": func(p map[string]int64, in map[string][]float32) {
		dim, nnz, maxrl := p["dim"], p["nnz"], p["maxrl"]
		rows, cols := in["rowDelimiters"], in["cols"]
		rows[0] = 0
		for i := range dim {
			rows[i+1] = rows[i] + float32(min(i*5%(maxrl+1), nnz-int64(rows[i])))
		}
		for j := range cols {
			cols[j] = float32((int64(j)*7919 + 13) % dim)
		}
	},
	"spmv_ellpackr_kernel": func(p map[string]int64, in map[string][]float32) {
		dim, maxrl := p["dim"], p["maxrl"]
		for t := range dim {
			in["rowLengths"][t] = float32(t * 5 % (maxrl + 1))
		}
		for j := range in["cols"] {
			in["cols"][j] = float32((int64(j)*7919 + 13) % dim)
		}
	},
	"histo": func(p map[string]int64, in map[string][]float32) {
		for i := range in["data"] {
			in["data"][i] = float32(i * 37 % 256)
			in["perm"][i] = float32((int64(i)*7 + 3) % p["n"])
		}
	},
	"histo_cl": func(p map[string]int64, in map[string][]float32) {
		for i := range in["v"] {
			in["v"][i] = float32(i * 4099 % 65536)
			in["idx"][i] = float32((int64(i)*11 + 5) % p["n"])
		}
	},
}

var gatherOriginals = map[string]original{
	"helpers": func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		y := clone(in["y"])
		for i := int64(0); 2*i < p["n"]; i++ {
			y[2*i] = min(max(in["x"][i]*in["x"][i]-1, 0), 2)
		}
		return map[string][]float32{"y": y}
	},
	"devfn": func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		x, y, bins := in["x"], make([]float32, p["n"]), clone(in["bins"])
		for i := range p["n"] {
			v := max(x[2*i], x[2*i+1], 0.5)
			y[i] = max(v-1, 0.25)
			bins[int32(v*8)&15]++
		}
		return map[string][]float32{"y": y, "bins": bins}
	},
	"spmv_csr_scalar": func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		rows, cols, val, vec := in["rowDelimiters"], in["cols"], in["val"], in["vec"]
		out := make([]float32, p["dim"])
		for i := range out {
			var t float32
			for j := int64(rows[i]); j < int64(rows[i+1]); j++ {
				t += val[j] * vec[int64(cols[j])]
			}
			out[i] = t
		}
		return map[string][]float32{"out": out}
	},
	"spmv_ellpackr": func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		dim, lens, cols, val, vec := p["dim"], in["rowLengths"], in["cols"], in["val"], in["vec"]
		out := make([]float32, dim)
		for t := range dim {
			for i := range int64(lens[t]) {
				out[t] += val[i*dim+t] * vec[int64(cols[i*dim+t])]
			}
		}
		return map[string][]float32{"out": out}
	},
	"histo": func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		hist, total, y := clone(in["hist"]), clone(in["total"]), clone(in["y"])
		for i := range p["n"] {
			d := int(in["data"][i])
			hist[d>>2]++
			total[d&3] += in["x"][i]
			y[int(in["perm"][i])] += 2 * in["x"][i]
		}
		return map[string][]float32{"hist": hist, "total": total, "y": y}
	},
	"histo_cl": func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		hist, y := clone(in["hist"]), clone(in["y"])
		for i := range p["n"] {
			hist[int(in["v"][i])%32]++
			y[i] = in["x"][int(in["idx"][i])] - in["x"][i]
		}
		return map[string][]float32{"hist": hist, "y": y}
	},
}

// TestGatherCounts imports the two histograms and checks their counts
// against hand derivations from the C at two sizes.
func TestGatherCounts(t *testing.T) {
	for _, c := range []struct {
		knl  string
		want func(n int64) map[string]int64
	}{
		// 4 groups of 128 stride over the n bytes (n <= 512, so each once):
		// per byte a b8 __ldg of data (read with __ldg, never stored), a
		// shift and an & (i32, after C's promotion), an atomic into the
		// shared bins and a float atomic into total, x read twice (plain
		// loads: const without restrict), perm read once (const
		// __restrict__, readonly) into the temporary that the load and
		// the store of the compound y[perm[i]] += share (a gather and a
		// scatter), 1 mul and 1 add. Per group, 64 work-items clear a bin
		// and add it to hist: 4*64 local stores, local loads and global
		// atomics; 2 barriers for each of the 512 work-items.
		{"histo", func(n int64) map[string]int64 {
			return map[string]int64{"flop.f32.add": n, "flop.f32.mul": n, "global.atomic.f32.add": n, "global.atomic.i32.add": 256,
				"global.ldg.b8.stride=1": n, "global.ldg.i32.stride=1": n, "global.load.f32.stride=1": 2 * n,
				"global.load.indirect.f32": n, "global.store.indirect.f32": n, "int.i32.bitwise": n, "int.i32.shift": n,
				"launch.const": 1, "launch.groups": 4, "local.atomic.i32.add": n, "local.load.i32": 256, "local.store.i32": 256,
				"sync.barrier": 1024}
		}},
		// ceil(n/64) groups of 64, g work-items in all; the i < n block
		// (no guard of the whole body, as barriers follow it) holds 3
		// instructions, predicated by i < n, which the .knl evaluates
		// once for the block, as C does: i is get_global_id(0), a launch
		// index that C computes nothing for, so the test is a comparison
		// and no arithmetic. Per element: the b16 loads of v and idx (ushort and
		// short, const restrict), 1 remainder (% 32 of an unsigned short
		// is .knl's %), an atomic_inc into the local bins, x[i] read
		// through the read-only path and x[k] gathered, 1 subtraction, 1
		// store. Per group 32 bins cleared, read and added to hist.
		{"histo_cl", func(n int64) map[string]int64 {
			ng := (n + 63) / 64
			g := 64 * ng
			return map[string]int64{"flop.f32.add": n, "global.atomic.i32.add": 32 * ng, "global.ldg.b16.stride=1": 2 * n,
				"global.ldg.f32.stride=1": n, "global.load.indirect.f32": n, "global.store.f32.stride=1": n,
				"int.i32.bitwise": n, "launch.const": 1, "launch.groups": ng,
				"local.atomic.i32.add": n, "local.load.i32": 32 * ng, "local.store.i32": 32 * ng, "sync.barrier": 2 * g}
		}},
		// The device functions inlined: per work-item of the guard i < n,
		// x read twice at stride 2 (at's index, one return, stays
		// affine), the maximum's comparisons and the clamp's count
		// nothing, v - 1.0f is 1 add, v*8.0f 1 mul, & 15 1 bitwise, 1
		// atomic into bins; 1 store of y.
		// OpenCL C's helpers inlined: per work-item of the guard 2*i < n
		// (ceil(n/2) of them, in groups of 64), x read once, sq's 1 mul,
		// the - 1.0f 1 add, clampf's fmax and fmin 2 specials, twice's
		// 2*i a store at stride 2; the literals lo and hi count nothing.
		{"helpers", func(n int64) map[string]int64 {
			m := (n + 1) / 2
			return map[string]int64{"flop.f32.add": m, "flop.f32.mul": m, "flop.f32.special": 2 * m, "global.load.f32.stride=1": m,
				"global.store.f32.stride=1/2": m, "launch.const": 1, "launch.groups": (m + 63) / 64}
		}},
		{"devfn", func(n int64) map[string]int64 {
			return map[string]int64{"flop.f32.add": n, "flop.f32.mul": n, "global.atomic.i32.add": n, "global.load.f32.stride=2/2": 2 * n,
				"global.store.f32.stride=1": n, "int.i32.bitwise": n, "launch.const": 1, "launch.groups": (n + 63) / 64}
		}},
	} {
		t.Run(c.knl, func(t *testing.T) {
			p := portNamed(t, c.knl)
			cs, err := counts.Count(parsed(t, p))
			if err != nil {
				t.Fatal(err)
			}
			for _, size := range p.sizes {
				got, err := cs.Eval(size)
				if err != nil {
					t.Fatal(err)
				}
				if want := c.want(size["n"]); !maps.Equal(nonzero(got), want) {
					t.Errorf("at %v: counts\n%v\nwant\n%v", size, nonzero(got), want)
				}
			}
		})
	}
}

// TestSpmvCountsAsHandPort imports SHOC's spmv_csr_scalar_kernel and
// spmv_ellpackr_kernel, unedited, and checks that their counts equal
// those of hand ports of them (testdata/handports) at two sizes,
// property by property, with the same properties marked as upper
// bounds.
func TestSpmvCountsAsHandPort(t *testing.T) {
	for knl, file := range map[string]string{"spmv_csr_scalar": "spmv_csr_scalar.knl", "spmv_ellpackr": "spmv_ellpackr.knl"} {
		t.Run(knl, func(t *testing.T) { countsAsTestdataPort(t, portNamed(t, knl), file) })
	}
}

// countsAsTestdataPort compares the counts of p's import with those of
// the hand port in testdata/handports/file.
func countsAsTestdataPort(t *testing.T, p port, file string) {
	got, err := counts.Count(parsed(t, p))
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join("testdata", "handports", file))
	if err != nil {
		t.Fatal(err)
	}
	hk, err := counts.ParseKernel(file, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	hand, err := counts.Count(hk)
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range p.sizes {
		g, err := got.Eval(size)
		if err != nil {
			t.Fatal(err)
		}
		h, err := hand.Eval(size)
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(nonzero(g), nonzero(h)) {
			t.Errorf("at %v: imported counts\n%v\nhand port's\n%v", size, nonzero(g), nonzero(h))
		}
	}
	for _, name := range hand.Names() {
		if got.UpperBound(name) != hand.UpperBound(name) {
			t.Errorf("%s: upper bound %v, the hand port's %v", name, got.UpperBound(name), hand.UpperBound(name))
		}
	}
}

func portNamed(t *testing.T, knl string) port {
	t.Helper()
	for _, p := range ports {
		if p.knl == knl {
			return p
		}
	}
	t.Fatalf("no port %s", knl)
	return port{}
}

// TestSpmvOnPoCLAsPorts runs the generated code of the imports of SHOC's
// spmv_csr_scalar_kernel and spmv_ellpackr_kernel and of their hand
// ports in examples/ on PoCL, with the same inputs at two sizes: both
// are C's loop over the row's data bounds, the same operations in the
// same order, so the products are equal to the bit.
func TestSpmvOnPoCLAsPorts(t *testing.T) {
	dev := pocltest.Open(t)
	for _, knl := range []string{"spmv_csr_scalar", "spmv_ellpackr"} {
		t.Run(knl, func(t *testing.T) {
			p := portNamed(t, knl)
			imported, hand := parsed(t, p), handPort(t, knl, nil)
			for _, size := range p.sizes {
				in := inputs(t, imported, size)
				got := runOnDevice(t, dev, imported, size, in, []string{"out"})["out"]
				want := runOnDevice(t, dev, hand, size, in, []string{"out"})["out"]
				if !slices.Equal(got, want) {
					t.Errorf("at %v: the import's out differs from the port's", size)
				}
				compareArrays(t, "out", got, originals[knl](size, in)["out"])
			}
		})
	}
}
