package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit/weightsio"
)

// propertyKernel is a small kernel of the properties the kernel language
// gained for issue 42 (readonly loads, gathers and scatters, atomics, 8-
// and 16-bit integers, their local variants) with its counts derived by
// hand from its source: per work-item (one per element i < n), beside a
// launch and n/LX work-groups.
type propertyKernel struct {
	name, decls, body string
	local             bool // LX is 256, the local arrays' extent
	perItem           map[string]int64
}

// copyTwice is a body that loads one element and stores it twice, so
// that a kernel and its copyTwice variant set stores apart from loads.
const copyTwice = "<> t = a[i]\nb[i] = t\nc[i] = t\n"

// The local kernels index 256-element local arrays with u8 values, which
// are always in range.
var propertyKernels = []propertyKernel{
	{"ldg", "array a f32 [n] readonly\narray b f32 [n]", "b[i] = a[i]", false,
		map[string]int64{"global.ldg.f32.stride=1": 1, "global.store.f32.stride=1": 1}},
	{"ldg2", "array a f32 [n] readonly\narray b f32 [n]\narray c f32 [n]", copyTwice, false,
		map[string]int64{"global.ldg.f32.stride=1": 1, "global.store.f32.stride=1": 2}},
	{"copy", "array a f32 [n]\narray b f32 [n]", "b[i] = a[i]", false,
		map[string]int64{"global.load.f32.stride=1": 1, "global.store.f32.stride=1": 1, "global.minldst.f32.stride=1": 1}},
	{"copy2", "array a f32 [n]\narray b f32 [n]\narray c f32 [n]", copyTwice, false,
		map[string]int64{"global.load.f32.stride=1": 1, "global.store.f32.stride=1": 2, "global.minldst.f32.stride=1": 1}},
	{"copy_i32", "array a i32 [n]\narray b i32 [n]", "b[i] = a[i]", false,
		map[string]int64{"global.load.i32.stride=1": 1, "global.store.i32.stride=1": 1, "global.minldst.i32.stride=1": 1}},
	{"copy2_i32", "array a i32 [n]\narray b i32 [n]\narray c i32 [n]", copyTwice, false,
		map[string]int64{"global.load.i32.stride=1": 1, "global.store.i32.stride=1": 2, "global.minldst.i32.stride=1": 1}},
	{"gather", "array p i32 [n]\narray x f32 [n]\narray y f32 [n]", "y[i] = x[p[i]]", false,
		map[string]int64{"global.load.i32.stride=1": 1, "global.load.indirect.f32": 1, "global.store.f32.stride=1": 1}},
	{"scatter", "array p i32 [n]\narray x f32 [n]\narray y f32 [n]", "y[p[i]] = x[i]", false,
		map[string]int64{"global.load.i32.stride=1": 1, "global.load.f32.stride=1": 1, "global.store.indirect.f32": 1}},
	{"scatter2", "array p i32 [n]\narray x f32 [n]\narray y f32 [n]\narray z f32 [n]", "<> t = x[i]\ny[p[i]] = t\nz[p[i]] = t", false,
		map[string]int64{"global.load.i32.stride=1": 2, "global.load.f32.stride=1": 1, "global.store.indirect.f32": 2}},
	{"atomic_i32", "array p i32 [n]\narray h i32 [n]", "atomic_add(h[p[i]], 1)", false,
		map[string]int64{"global.load.i32.stride=1": 1, "global.atomic.i32.add": 1}},
	{"atomic_f32", "array p i32 [n]\narray x f32 [n]\narray g f32 [n]", "atomic_add(g[p[i]], x[i])", false,
		map[string]int64{"global.load.i32.stride=1": 1, "global.load.f32.stride=1": 1, "global.atomic.f32.add": 1}},
	{"local_gather", "array q u8 [n]\narray x f32 [n]\narray y f32 [n]\nlocal l f32 [256]",
		"l[i_in] = x[i]\nbarrier\ny[i] = l[q[i]]", true,
		map[string]int64{"global.load.f32.stride=1": 1, "local.store.f32": 1, "sync.barrier": 1, "global.load.b8.stride=1": 1,
			"local.load.indirect.f32": 1, "global.store.f32.stride=1": 1, "global.minldst.f32.stride=1": 1}},
	{"local_gather2", "array q u8 [n]\narray x f32 [n]\narray y f32 [n]\narray z f32 [n]\nlocal l f32 [256]",
		"l[i_in] = x[i]\nbarrier\ny[i] = l[q[i]]\nz[i] = l[q[i]]", true,
		map[string]int64{"global.load.f32.stride=1": 1, "local.store.f32": 1, "sync.barrier": 1, "global.load.b8.stride=1": 2,
			"local.load.indirect.f32": 2, "global.store.f32.stride=1": 2, "global.minldst.f32.stride=1": 1}},
	{"local_stores", "array q u8 [n]\narray x f32 [n]\nlocal l f32 [256]\nlocal lb u8 [256]",
		"l[i_in] = x[i]\nlb[i_in] = q[i]", true,
		map[string]int64{"global.load.f32.stride=1": 1, "global.load.b8.stride=1": 1, "local.store.f32": 1, "local.store.b8": 1}},
	{"local_scatter", "array q u8 [n]\narray x f32 [n]\nlocal l f32 [256]", "l[q[i]] = x[i]", true,
		map[string]int64{"global.load.b8.stride=1": 1, "global.load.f32.stride=1": 1, "local.store.indirect.f32": 1}},
	{"local_atomics", "array q u8 [n]\narray x f32 [n]\nlocal li i32 [256]\nlocal lf f32 [256]",
		"atomic_add(li[q[i]], 1)\natomic_add(lf[q[i]], x[i])", true,
		map[string]int64{"global.load.b8.stride=1": 2, "global.load.f32.stride=1": 1, "local.atomic.i32.add": 1, "local.atomic.f32.add": 1}},
	{"local_atomic_i32", "array q u8 [n]\nlocal li i32 [256]", "atomic_add(li[q[i]], 1)", true,
		map[string]int64{"global.load.b8.stride=1": 1, "local.atomic.i32.add": 1}},
}

// narrowKernels adds, for the 8- and 16-bit integers, a copy, a copy
// stored twice, a widening copy to i32 and a narrowing one from i32,
// and a local copy through local memory read back reversed, once and
// twice.
func narrowKernels() []propertyKernel {
	var out []propertyKernel
	for _, n := range []struct{ t, w string }{{"u8", "b8"}, {"i16", "b16"}} {
		ld, st, mn := "global.load."+n.w+".stride=1", "global.store."+n.w+".stride=1", "global.minldst."+n.w+".stride=1"
		arr := func(names ...string) string {
			var s []string
			for _, a := range names {
				s = append(s, "array "+a+" "+n.t+" [n]")
			}
			return strings.Join(s, "\n")
		}
		lst, lld := "local.store."+n.w, "local.load."+n.w
		out = append(out,
			propertyKernel{"copy_" + n.t, arr("a", "b"), "b[i] = a[i]", false, map[string]int64{ld: 1, st: 1, mn: 1}},
			propertyKernel{"copy2_" + n.t, arr("a", "b", "c"), copyTwice, false, map[string]int64{ld: 1, st: 2, mn: 1}},
			propertyKernel{"widen_" + n.t, arr("a") + "\narray c i32 [n]", "c[i] = a[i]", false,
				map[string]int64{ld: 1, "global.store.i32.stride=1": 1}},
			propertyKernel{"narrow_" + n.t, "array p i32 [n]\n" + arr("b"), "b[i] = p[i]", false,
				map[string]int64{"global.load.i32.stride=1": 1, st: 1}},
			propertyKernel{"local_" + n.t, arr("a", "b") + "\nlocal lb " + n.t + " [256]",
				"lb[i_in] = a[i]\nbarrier\nb[i] = lb[255 - i_in]", true,
				map[string]int64{ld: 1, lst: 1, "sync.barrier": 1, lld: 1, st: 1, mn: 1}},
			propertyKernel{"local2_" + n.t, arr("a", "b", "c") + "\nlocal lb " + n.t + " [256]",
				"lb[i_in] = a[i]\nbarrier\nb[i] = lb[255 - i_in]\nc[i] = lb[i_in]", true,
				map[string]int64{ld: 1, lst: 1, "sync.barrier": 1, lld: 2, st: 2, mn: 1}})
	}
	return out
}

// wantUnit is the unit of a property's rate in fit's report: bandwidth for
// loads and stores (readonly, indirect and narrow ones too), additions per
// second for atomics.
func wantUnit(p string) string {
	switch {
	case strings.Contains(p, ".atomic."):
		return "GOP/s"
	case strings.HasPrefix(p, "global.minldst."):
		return ""
	case strings.HasPrefix(p, "global.") || strings.HasPrefix(p, "local."):
		return "GB/s"
	case p == "launch.const":
		return "µs"
	}
	return "ns"
}

// TestFitNewProperties fits a table of propertyKernels and narrowKernels
// timed as the dot product of weights chosen here with their hand counts:
// fit recovers the weights and reports every one with its unit, validate
// accepts them, and predict gives the dot product at a size no row has.
// Weights fitted on such properties were once refused ("which this
// uniperf does not count") and priced with "unknown data type".
func TestFitNewProperties(t *testing.T) {
	kernels := append(slices.Clone(propertyKernels), narrowKernels()...)
	truth := map[string]float64{"launch.const": 5e-6, "launch.groups": 2e-9}
	for _, k := range kernels {
		for p := range k.perItem {
			truth[p] = 0
		}
	}
	for i, p := range slices.Sorted(maps.Keys(truth)) {
		if truth[p] == 0 {
			truth[p] = float64(i+1) * 1e-11
		}
	}
	dir := t.TempDir()
	timeOf := func(k propertyKernel, n, lx int64) float64 {
		s := truth["launch.const"] + truth["launch.groups"]*float64(n/lx)
		for p, c := range k.perItem {
			s += truth[p] * float64(c*n)
		}
		return s
	}
	tab := &datasets.Table{Meta: datasets.Meta{DeviceName: "synthetic device", Backend: "opencl", ComputeUnits: 4}}
	paths := map[string]string{}
	for _, k := range kernels {
		src := fmt.Sprintf("kernel %s\nconst LX = 64\ndomain [n] -> { [i] : 0 <= i < n }\n%s\nsplit i LX i_out i_in\ntag i_out g.0, i_in l.0\n%s\n",
			k.name, k.decls, k.body)
		path := filepath.Join(dir, k.name+".knl")
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		paths[k.name] = path
		lxs := []int64{64, 256}
		if k.local {
			lxs = []int64{256}
		}
		add := func(role string, n, lx int64) {
			secs := timeOf(k, n, lx)
			tab.Rows = append(tab.Rows, datasets.Row{Device: tab.Meta.DeviceName, Backend: "opencl", Kernel: path,
				Class: k.name, Role: role, Consts: map[string]int64{"LX": lx}, Params: map[string]int64{"n": n},
				LocalSize: []int64{lx}, GlobalSize: []int64{n}, TimeS: secs, RawTimesS: []float64{secs}, RunsKept: 1,
				Timestamp: time.Unix(0, 0).UTC(), Version: "test"})
		}
		for _, lx := range lxs {
			for _, n := range []int64{1 << 12, 1 << 14, 1 << 16} {
				add(datasets.RoleMeasurement, n, lx)
			}
		}
		add(datasets.RoleTest, 1<<15, 256)
	}
	table := filepath.Join(dir, "synthetic.arrow")
	if err := datasets.WriteFile(table, tab); err != nil {
		t.Fatal(err)
	}

	weights := filepath.Join(dir, "w.arrow")
	code, out, errText := runFit(t, table, "--no-grid-fill", "--out", weights)
	if code != 0 {
		t.Fatalf("fit: exit %d: %s\n%s", code, errText, out)
	}
	if strings.Contains(out, "unknown") {
		t.Errorf("fit reports a property as unknown:\n%s", out)
	}
	w, err := weightsio.ReadWeights(weights)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Properties) != len(truth) {
		t.Errorf("fitted %d properties %v, want the %d of the hand counts", len(w.Properties), w.Properties, len(truth))
	}
	for i, p := range w.Properties {
		if want, ok := truth[p]; !ok || math.Abs(w.Values[i]-want) > 1e-6*want {
			t.Errorf("%s: weight %g, want %g", p, w.Values[i], want)
		}
		if u := wantUnit(p); u != "" && !strings.Contains(out, "| "+p+" | "+u+" |") {
			t.Errorf("%s: the report gives no rate in %s:\n%s", p, u, out)
		}
	}

	code, out, errText = runValidate(t, "--weights", weights, table)
	if code != 0 || !hasRow(out, "cross-kernel", "geomean 0.001") {
		t.Errorf("validate: exit %d: %s\n%s", code, errText, out)
	}
	for _, k := range kernels {
		code, out, errText = runPredict(t, "--weights", weights, paths[k.name], "--param", "n=131072", "--const", "LX=256", "--json")
		if code != 0 {
			t.Errorf("predict %s: exit %d: %s", k.name, code, errText)
			continue
		}
		var p prediction
		if err := json.Unmarshal([]byte(out), &p); err != nil {
			t.Fatalf("predict --json: %v\n%s", err, out)
		}
		if want := timeOf(k, 1<<17, 256); math.Abs(p.Predicted-want) > 1e-6*want {
			t.Errorf("predict %s: %g s, want %g s from the hand counts", k.name, p.Predicted, want)
		}
	}
}
