package analytic

import (
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit/models"
)

// traceTotals turns a trace back into property totals without stride
// classes, as counts.Tally.Totals names them: a fused multiply-add is one
// addition and one multiplication.
func traceTotals(tr *Trace, workItems int64) map[string]float64 {
	out := map[string]float64{}
	n := float64(workItems)
	for _, r := range tr.Regions {
		if r.Barrier {
			out["sync.barrier"] += r.Count * n
			continue
		}
		for _, op := range r.Ops {
			t, kind, _ := strings.Cut(op.Class, ".")
			prefix := "flop."
			if strings.HasPrefix(t, "i") {
				prefix = "int."
			}
			if kind == fmaKind {
				out[prefix+t+".add"] += float64(op.N) * r.Count * n
				out[prefix+t+".mul"] += float64(op.N) * r.Count * n
				continue
			}
			out[prefix+op.Class] += float64(op.N) * r.Count * n
		}
		for _, a := range r.Accesses {
			dir := "load"
			if a.Store {
				dir = "store"
			}
			out[a.Array.Space.String()+"."+dir+"."+a.Array.DType.String()] += r.Count * n
		}
	}
	return out
}

// countTotals drops the stride classes of counts.Eval's properties and
// the launch properties.
func countTotals(v map[string]int64) map[string]float64 {
	out := map[string]float64{}
	for p, c := range v {
		if strings.HasPrefix(p, "launch.") || strings.HasPrefix(p, "global.minldst") || strings.Contains(p, ".conflict=") {
			continue
		}
		if i := strings.Index(p, ".stride="); i >= 0 {
			p = p[:i]
		}
		out[p] += float64(c)
	}
	return out
}

// TestTraceTotals checks every trace of the shipped PoCL table's launches
// (every library kernel at two work-group sizes) against the independent
// symbolic counts of package counts: the regions' executions per
// work-item, times the work-items, give every operation, memory access
// and barrier total.
func TestTraceTotals(t *testing.T) {
	tb, err := datasets.OpenShipped("pocl-epyc-quick.arrow")
	if err != nil {
		t.Fatal(err)
	}
	env := &models.Env{Counter: models.NewCounter(nil)}
	tr := NewTracer()
	seen := map[string]bool{}
	for _, r := range tb.Rows {
		key := string(datasets.MakeKey(r.Kernel, r.Consts, nil, r.LocalSize))
		if seen[key] {
			continue
		}
		seen[key] = true
		in, err := env.Inputs(models.Case{Kernel: r.Kernel, Consts: r.Consts, Params: r.Params})
		if err != nil {
			t.Fatal(err)
		}
		trace, err := tr.Trace(in, r.Params, 32)
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		got, want := traceTotals(trace, in.WorkItems()), countTotals(in.Counts)
		for _, p := range slices.Sorted(maps.Keys(want)) {
			if math.Abs(got[p]-want[p]) > 1e-9*want[p] {
				t.Errorf("%s: %s: trace %g, counts %g", key, p, got[p], want[p])
			}
		}
		for p, v := range got {
			if _, ok := want[p]; !ok && v != 0 {
				t.Errorf("%s: trace has %s = %g, counts none", key, p, v)
			}
		}
	}
	if len(seen) < 50 {
		t.Errorf("only %d launches checked", len(seen))
	}
}

// TestTraceRegions checks the regions of matmul_tiled (16 x 16 groups)
// by hand: per k tile each work-item loads one element of a and b into
// local memory between two barriers, then the reduction body runs 16
// times: two local loads and one fused multiply-add, a chain of length 2
// over 3 instructions (ILP 3/2), and acc is added to its result once.
func TestTraceRegions(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(nil)}
	params := map[string]int64{"n": 64, "m": 96, "ell": 32}
	in, err := env.Inputs(models.Case{Kernel: "matmul_tiled", Params: params})
	if err != nil {
		t.Fatal(err)
	}
	trace, err := NewTracer().Trace(in, params, 32)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range trace.Regions {
		names = append(names, strings.Fields(r.Name)[0])
	}
	// acc = 0 has no memory access or operation and makes no region.
	// acc = acc + sum(...) is the reduction body, then the outer addition.
	wantNames := []string{"barrier_1", "insn_2", "insn_3", "barrier_4", "insn_5", "insn_5", "insn_6"}
	if !slices.Equal(names, wantNames) {
		t.Fatalf("regions %v, want %v", names, wantNames)
	}
	tiles := 96.0 / 16
	body := trace.Regions[4]
	if body.Count != tiles*16 || body.ILP != 1.5 || len(body.Accesses) != 2 ||
		!slices.Equal(body.Ops, []OpCount{{"f32.fma", 1}}) {
		t.Errorf("reduction body %+v", body)
	}
	if outer := trace.Regions[5]; outer.Count != tiles || !slices.Equal(outer.Ops, []OpCount{{"f32.add", 1}}) {
		t.Errorf("acc = acc + ...: %+v", outer)
	}
	for _, i := range []int{0, 1, 2, 3} {
		if r := trace.Regions[i]; r.Count != tiles {
			t.Errorf("%s: %g executions per work-item, want %g", r.Name, r.Count, tiles)
		}
	}
	// a[16 i_out + i_in, 16 k_out + pa]: pa along l.0 steps 1, i_in along
	// l.1 steps a row of m = 96 elements; a warp of 32 covers two rows
	// of the 16-wide group.
	load := trace.Regions[1].Accesses[0]
	if load.Store || load.Array.Name != "a" {
		t.Fatalf("access %+v", load)
	}
	for q, o := range load.Offsets {
		if want := int64(q%16 + q/16*96); o != want {
			t.Errorf("a: work-item %d at offset %d, want %d", q, o, want)
		}
	}
}

// condKnl has a predicated statement, a data-dependent conditional value
// and integer bitwise operators.
const condKnl = `kernel cond
const LX = 32
domain [n] -> { [i] : 0 <= i < n }
array x f32 [n]
array y f32 [n]
array z f32 [n]
array k i32 [n]
array w i32 [n]
split i LX i_out i_in
tag i_out g.0, i_in l.0
if i % 2 == 0: y[i] = 3*x[i] + 1
z[i] = if(x[i] > 1, x[i]*x[i], x[i] - 1)
w[i] = k[i] ^ (k[i] << 2)
`

// TestTraceConditions checks the trace of condKnl by hand. Each statement
// runs once per work-item: the predicated one too, since a warp in which
// some work-item's predicate holds executes it (SIMT), and so do both
// branches of the conditional value, with the four loads of x it names.
// The comparisons and the choice cost nothing; the predicate's i % 2 is
// an AND (% by a power of two), as package counts counts it; 3*x + 1 is one fused
// multiply-add; ^ and << are one bitwise and one shift operation.
func TestTraceConditions(t *testing.T) {
	src := func(string) (string, []byte, error) { return "cond.knl", []byte(condKnl), nil }
	env := &models.Env{Counter: models.NewCounter(src)}
	trace, err := TraceOf(env, models.Case{Kernel: "cond", Params: map[string]int64{"n": 64}}, 32)
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		ops           []OpCount
		loads, stores int
	}
	wants := []want{
		{[]OpCount{{"f32.fma", 1}, {"i32.bitwise", 1}}, 1, 1},
		{[]OpCount{{"f32.mul", 1}, {"f32.add", 1}}, 4, 1},
		{[]OpCount{{"i32.shift", 1}, {"i32.bitwise", 1}}, 2, 1},
	}
	if len(trace.Regions) != len(wants) {
		t.Fatalf("%d regions, want %d: %+v", len(trace.Regions), len(wants), trace.Regions)
	}
	for i, w := range wants {
		r := trace.Regions[i]
		loads, stores := 0, 0
		for _, a := range r.Accesses {
			if a.Store {
				stores++
			} else {
				loads++
			}
		}
		if r.Count != 1 || !slices.Equal(r.Ops, w.ops) || loads != w.loads || stores != w.stores {
			t.Errorf("region %s: count %g, ops %v, %d loads, %d stores; want 1, %v, %d, %d",
				r.Name, r.Count, r.Ops, loads, stores, w.ops, w.loads, w.stores)
		}
	}
}

// TestWarpBytes: the bytes a warp of 32 moves, by hand. With 32-byte
// sectors: f32 at stride 1 spans 128 bytes (4 sectors), at stride 2 256
// (8), at stride 3 384 (12), a uniform access one sector, f64 at stride
// 1 256 bytes, the >4 class one sector per work-item. A warp of 8 reading
// f32 at stride 1 spans 32 bytes, half of a 64-byte line whose other half
// the next warp reads: 32 bytes; at stride 2 one line, at stride 4 two.
// Without a sector size, the warp width × the element size.
func TestWarpBytes(t *testing.T) {
	cases := []struct {
		dtype, class string
		sector, want float64
	}{
		{"f32", "stride=1", 32, 128},
		{"f32", "stride=1/2", 32, 256},
		{"f32", "stride=2/3", 32, 384},
		{"f32", "stride=0", 32, 32},
		{"f64", "stride=0", 32, 32},
		{"f64", "stride=1", 32, 256},
		{"f32", "stride=1/>4", 32, 1024},
		{"f32", "stride=1/2", 0, 128},
		{"f64", "stride=1/>4", 0, 256},
		{"b8", "stride=1", 32, 32},
		{"b16", "stride=1", 32, 64},
		{"f16", "stride=1", 32, 64},
	}
	line := []struct {
		dtype, class string
		sector, want float64
	}{
		{"f32", "stride=1", 64, 32},
		{"f32", "stride=1/2", 64, 64},
		{"f32", "stride=1/4", 64, 128},
		{"f32", "stride=1/>4", 64, 512},
	}
	for i, c := range append(cases, line...) {
		a, err := parseGlobal(c.dtype, c.class)
		if err != nil {
			t.Fatal(err)
		}
		warp := 32
		if i >= len(cases) {
			warp = 8
		}
		if got := a.WarpBytes(warp, c.sector); got != c.want {
			t.Errorf("warp %d, %s %s, %g-byte sectors: %g bytes, want %g", warp, c.dtype, c.class, c.sector, got, c.want)
		}
	}
}

// Gathers, scatters and atomics are priced as the >4 class (32 sectors of
// 32 bytes a warp, or a warp's elements without sectors), readonly loads
// as the loads of their stride class.
func TestGlobalAccessOfIndirect(t *testing.T) {
	for _, c := range []struct {
		name   string
		sector float64
		want   float64
	}{
		{"global.load.indirect.f32", 32, 1024},
		{"global.store.indirect.b8", 32, 1024},
		{"global.atomic.i32.add", 32, 1024},
		{"global.atomic.f32.add", 0, 128},
		{"global.ldg.f32.stride=1", 32, 128},
		{"global.ldg.f64.stride=1/2", 32, 512},
	} {
		a, err := globalAccessOf(strings.Split(c.name, "."))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := a.WarpBytes(32, c.sector); got != c.want {
			t.Errorf("%s, %g-byte sectors: %g bytes a warp, want %g", c.name, c.sector, got, c.want)
		}
	}
}

// PerThread.Narrow counts the global accesses of 1- and 2-byte elements
// per work-item, gathers among them, and not the global.minldst terms:
// of 64 work-items, 64 b8 loads, 32 f16 stores and 16 b16 gathers are
// 112/64 = 1.75 a work-item; the 64 f32 loads and the 64 b8 minima are
// not narrow accesses, and the gathers are also 16/64 = 0.25 Addressed.
func TestPerThreadNarrow(t *testing.T) {
	in := &models.Inputs{
		Kernel: &counts.Kernel{Name: "narrow"},
		Counts: map[string]int64{
			"global.load.b8.stride=1":    64,
			"global.minldst.b8.stride=1": 64,
			"global.store.f16.stride=1":  32,
			"global.load.indirect.b16":   16,
			"global.load.f32.stride=1":   64,
		},
		Global: [3]int64{64, 1, 1},
		Local:  [3]int64{8, 1, 1},
	}
	p, err := PerThreadOf(in)
	if err != nil {
		t.Fatal(err)
	}
	if p.Narrow != 1.75 || p.Addressed != 0.25 {
		t.Errorf("narrow %g, addressed %g a work-item; want 1.75, 0.25", p.Narrow, p.Addressed)
	}
}
