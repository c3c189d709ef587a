package cimport

import (
	"maps"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/codegen"
	"github.com/uniperf/uniperf/measurekernels/gpu"
)

// The kernels of testdata/own/dataloops.cu, C loops whose bounds are
// data: ka and kb import as data-bounded loops, the others as masked
// loops. They run in TestPortsRun and TestPortsOnPoCL with the other
// ports, against the Go reimplementations below.
func init() {
	sizes := []map[string]int64{{"n": 150, "nnz": 800, "maxrl": 5, "m": 3}, {"n": 64, "nnz": 400, "maxrl": 9, "m": 2}}
	for _, k := range []string{"ka", "kb", "kd", "ke", "kf", "kg", "ki"} {
		ports = append(ports, port{"own/dataloops.cu", k, []string{"--kernel", k}, sizes})
		fixInputs[k] = csrRows
		originals[k] = dataLoopOriginal(k)
	}
	ports = append(ports, port{"own/dataloopgrid.cu", "kh", nil, []map[string]int64{{"g": 3, "nnz": 1000, "maxrl": 5}, {"g": 1, "nnz": 400, "maxrl": 8}}})
	fixInputs["kh"] = func(p map[string]int64, in map[string][]float32) {
		csrRows(map[string]int64{"n": 64 * p["g"], "nnz": p["nnz"], "maxrl": p["maxrl"]}, in)
	}
	originals["kh"] = func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		val, row := in["val"], in["row"]
		y := make([]float32, 64*p["g"])
		for i := range y {
			for j := int64(row[i]); j < int64(row[i+1]); j++ {
				y[i] += 2 * val[j]
			}
		}
		return map[string][]float32{"y": y}
	}
	// kd's loop runs from i to row[i + 1]: at most maxrl trips where
	// row[i + 1] - i is at most maxrl.
	fixInputs["kd"] = func(p map[string]int64, in map[string][]float32) {
		for i := range p["n"] {
			in["row"][i+1] = float32(i + i*5%(p["maxrl"]+1))
		}
	}
}

// csrRows makes row a CSR matrix's row pointers, rows of 0 to maxrl
// entries, and col column indices below n.
func csrRows(p map[string]int64, in map[string][]float32) {
	n, nnz, maxrl := p["n"], p["nnz"], p["maxrl"]
	row := in["row"]
	row[0] = 0
	for i := range n {
		row[i+1] = row[i] + float32(min(i*5%(maxrl+1), nnz-int64(row[i])))
	}
	for j := range in["col"] {
		in["col"][j] = float32((int64(j)*7919 + 13) % n)
	}
}

// dataLoopOriginal is the Go reimplementation of kernel k of
// dataloops.cu.
func dataLoopOriginal(k string) original {
	return func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		n, m := p["n"], p["m"]
		val, col, row, x, a := in["val"], in["col"], in["row"], in["x"], in["a"]
		y := clone(in["y"])
		for i := range n {
			start, end := int64(row[i]), int64(row[i+1])
			var t float32
			switch k {
			case "ka", "kg", "ki":
				if k == "ka" {
					t = 1
				}
				for j := start; j < end; j++ {
					t += val[j] * x[int64(col[j])]
				}
			case "kb":
				for j := start; j < end; j++ {
					for kk := range m {
						t += a[i*m+kk]
					}
				}
			case "kd":
				for j := i; j < end; j++ {
					t += val[j]
				}
			case "ke":
				for j := start; j < end; j += 2 {
					t += val[j]
				}
			case "kf":
				for j := start; j <= end-1; j++ {
					t += val[j]
				}
			}
			y[i] = t
		}
		return map[string][]float32{"y": y}
	}
}

// TestImportDataLoops checks how each loop of dataloops.cu imports: as
// the data-bounded loop, generated as C's loop with no loop or test on
// maxrl, or as a masked loop whose header says why; and, for the two
// data-bounded ones, the counts against hand derivations at two sizes
// (with G = ceil(n/64) groups of 64, W = 64*G work-items):
//
//   - ka: W local stores of s and W barriers before the guard i < n,
//     which is not the whole body and so is tested once at each
//     work-item (64*bx + tx: 1 multiplication and 1 addition); inside it
//     1 local load, the two row pointers (stride 1), and per trip of the
//     row's loop, maxrl of them, the gathers col[j], val[j] and x[...]
//     (1 i32 and 2 f32 indirect loads), 1 multiplication and 1
//     addition; 1 store of y;
//   - kb: the two row pointers and the store of y at each of the n
//     rows, and m loads of a and additions per trip: n*m*maxrl.
//
// What the row's loop does is an upper bound, marked so; the rest is
// exact.
func TestImportDataLoops(t *testing.T) {
	for _, c := range []struct {
		knl  string
		loop string // the .knl's for line, or the reason the loop is masked
		want func(p map[string]int64) map[string]int64
	}{
		{"ka", "for j = j_start .. end_2 max maxrl", func(p map[string]int64) map[string]int64 {
			n, r := p["n"], p["maxrl"]
			g := (n + 63) / 64
			w := 64 * g
			return map[string]int64{"local.store.f32": w, "sync.barrier": w, "int.i32.add": w, "int.i32.mul": w, "local.load.f32": n,
				"global.load.i32": 2 * n, "global.load.indirect.i32": n * r, "global.load.indirect.f32": 2 * n * r,
				"flop.f32.mul": n * r, "flop.f32.add": n * r, "global.store.f32": n, "launch.const": 1, "launch.groups": g}
		}},
		{"kb", "for j = start .. end_2 max maxrl", func(p map[string]int64) map[string]int64 {
			n, r, m := p["n"], p["maxrl"], p["m"]
			return map[string]int64{"global.load.i32": 2 * n, "global.load.f32": n * m * r, "flop.f32.add": n * m * r,
				"global.store.f32": n, "launch.const": 1, "launch.groups": (n + 63) / 64}
		}},
		// kh: no guard, 64*g work-items, each reading its row's two
		// ends, and per trip 1 gather, 1 mul (u, set to a literal,
		// counts nothing) and 1 add; 1 store.
		{"kh", "for j = start .. end_2 max maxrl", func(p map[string]int64) map[string]int64 {
			n, r := 64*p["g"], p["maxrl"]
			return map[string]int64{"global.load.i32": 2 * n, "global.load.indirect.f32": n * r, "flop.f32.mul": n * r, "flop.f32.add": n * r,
				"global.store.f32": n, "launch.const": 1, "launch.groups": p["g"]}
		}},
		{"kd", "as it starts at i, affine but no literal", nil},
		{"ke", "as it steps by 2", nil},
		{"kf", "as its condition is not j < END", nil},
		{"kg", "as its end is data computed in the condition", nil},
		{"ki", "as its end e is u32, where the data-bounded loop's bounds are i32 (declare e int)", nil},
	} {
		t.Run(c.knl, func(t *testing.T) {
			p := portNamed(t, c.knl)
			knl := string(importPort(t, p).Knl)
			if !strings.Contains(knl, c.loop) {
				t.Fatalf("no %q in\n%s", c.loop, knl)
			}
			k := parsed(t, p)
			code, err := codegen.Generate(k, gpu.OpenCL)
			if err != nil {
				t.Fatal(err)
			}
			body := code.Source[strings.Index(code.Source, "{"):]
			if bounded := c.want != nil; strings.Contains(body, "maxrl") == bounded {
				t.Errorf("data-bounded %v, but maxrl in the generated body is %v:\n%s", bounded, !bounded, code.Source)
			}
			if c.want == nil {
				return
			}
			cs, err := counts.Count(k)
			if err != nil {
				t.Fatal(err)
			}
			for _, size := range p.sizes {
				got, err := cs.Eval(size)
				if err != nil {
					t.Fatal(err)
				}
				if want := c.want(size); !maps.Equal(fold(got), want) {
					t.Errorf("at %v: counts\n%v\nwant\n%v", size, fold(got), want)
				}
			}
			for _, name := range cs.Names() {
				inLoop := strings.Contains(name, "indirect") || strings.HasPrefix(name, "flop") || strings.HasPrefix(name, "global.load.f32")
				if cs.UpperBound(name) != inLoop {
					t.Errorf("%s: upper bound %v, want %v", name, cs.UpperBound(name), inLoop)
				}
			}
		})
	}
}
