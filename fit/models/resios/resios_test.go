package resios

import (
	"errors"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit/gpus"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/analytic"
	"github.com/uniperf/uniperf/fit/models/modeltest"
	seed "github.com/uniperf/uniperf/fit/resios"
)

// TestResiosCopyByHand predicts global_copy on the GTX 460 and compares
// with the trace derived by hand: each work-item loads a[i] and stores
// b[i] once, a warp's 32 consecutive floats are one 128-byte line (c = 1
// in (4.8)), and the store depends on the load (ILP 2/2 = 1); 28 groups of
// 256 work-items.
func TestResiosCopyByHand(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(nil), Device: modeltest.Device(t, "gtx460")}
	m := &Model{}
	if err := m.Calibrate(env, nil); err != nil {
		t.Fatal(err)
	}
	if m.Fitted || !strings.Contains(m.Summary(), "device file") {
		t.Errorf("the GTX 460 file has resios constants, yet: %s", m.Summary())
	}
	c := models.Case{Kernel: "global_copy", Consts: map[string]int64{"LX": 256}, Params: map[string]int64{"n": 28 * 256}}
	p, err := m.Predict(env, c)
	if err != nil {
		t.Fatal(err)
	}
	d := *m.Device
	g := d.Params.Global
	load := seed.GlobalAccess("load", g, 1, d.GlobalBytesPerCycle, 1, 1)
	store := seed.GlobalAccess("store", g, 1, d.GlobalBytesPerCycle, 1, 1)
	want, err := d.Predict([]seed.Instr{load, store}, 28, gpus.Resources{ThreadsPerBlock: 256})
	if err != nil {
		t.Fatal(err)
	}
	if !modeltest.RelClose(p.Seconds, want.Time, 1e-12) {
		t.Errorf("predicted %g s, by hand %g s", p.Seconds, want.Time)
	}
	var hot []string
	for _, q := range p.Explain {
		if strings.HasPrefix(q.Name, "hotspot ") {
			hot = append(hot, q.Name)
		}
	}
	if len(hot) != 2 || !strings.Contains(hot[0]+hot[1], "load a[") || !strings.Contains(hot[0]+hot[1], "store b[") {
		t.Errorf("hotspots %v", hot)
	}
}

// TestResiosTransposeHotspot: transpose_read_coalesced reads a[i, j] along
// the rows and writes b[j, i] down the columns, one 128-byte line per
// work-item of a warp (c = 32). As in the thesis's §7.2 transpose, the
// uncoalesced store is the top hotspot.
func TestResiosTransposeHotspot(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(nil), Device: modeltest.Device(t, "gtx460")}
	m := &Model{}
	if err := m.Calibrate(env, nil); err != nil {
		t.Fatal(err)
	}
	p, err := m.Predict(env, models.Case{Kernel: "transpose_read_coalesced", Params: map[string]int64{"n": 1024}})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range p.Explain {
		if strings.HasPrefix(q.Name, "hotspot ") {
			if !strings.HasPrefix(q.Name, "hotspot store b[") || q.Value <= 50 {
				t.Errorf("top hotspot %s at %g%%, want the store to b", q.Name, q.Value)
			}
			return
		}
	}
	t.Errorf("no hotspot in %+v", p.Explain)
}

// bankKernel stores and loads t[S·i] in local memory, i along the 32
// work-items of a group.
const bankKernel = `kernel bank
const S = 1
domain [n] -> { [g, i] : 0 <= g < n and 0 <= i < 32 }
array out f32 [n, 32]
local t f32 [1024]
tag g g.0, i l.0
t[S*i] = 1.5f
barrier
out[g, i] = t[S*i]
`

// TestResiosBankConflicts checks the conflict degree that the adapter
// derives from a kernel's local-memory subscripts against the closed form
// of seed 000 §3.2: t[S·tid] on 32 banks of 4-byte words conflicts
// gcd(32, S) ways, which (4.9) turns into the penalty
// 32·4/(32·BW) + gcd·4/BW.
func TestResiosBankConflicts(t *testing.T) {
	env, paths := knlEnv(t, modeltest.Device(t, "gtx460"), map[string]string{"bank": bankKernel})
	m := &Model{}
	if err := m.Calibrate(env, nil); err != nil {
		t.Fatal(err)
	}
	for s := int64(1); s <= 32; s++ {
		c := models.Case{Kernel: paths["bank"], Consts: map[string]int64{"S": s}, Params: map[string]int64{"n": 14}}
		l, err := analytic.PrepareLaunch(env, m.Tracer(), c)
		if err != nil {
			t.Fatal(err)
		}
		trace, unpriced, err := resiosTrace(*m.Device, l.Trace, false)
		if err != nil {
			t.Fatal(err)
		}
		if len(unpriced) != 1 {
			t.Errorf("S = %d: unpriced %v, want the barrier", s, unpriced)
		}
		bw := m.Device.Params.Shared.BankBandwidth
		want := 32*4/(32*bw) + float64(gcd(32, s))*4/bw
		var shared int
		for _, in := range trace {
			if strings.Contains(in.Name, " t[") {
				shared++
				if !modeltest.RelClose(in.Penalty, want, 1e-12) {
					t.Errorf("S = %d: %s penalty %g, want %g (degree %d)", s, in.Name, in.Penalty, want, gcd(32, s))
				}
			}
		}
		if shared != 2 {
			t.Errorf("S = %d: %d local accesses in %+v", s, shared, trace)
		}
	}
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// ilpKernel is the thesis's §6.2 example, e = a + b; f = c + d; g = e·f,
// on values in registers.
const ilpKernel = `kernel ilp
domain [n] -> { [i] : 0 <= i < n }
array out f32 [n]
split i 32 io ii
tag io g.0, ii l.0
<f32> a = 1.5f
<f32> b = 2.5f
<f32> c = 3.5f
<f32> d = 4.5f
<f32> g = (a + b)*(c + d)
out[i] = g
`

// TestResiosILPExample derives the ILP of the thesis's example from a
// kernel's expression DAG: three instructions, the longest chain two,
// ILP 3/2. The store of g is a region of its own, of ILP 1.
func TestResiosILPExample(t *testing.T) {
	env, paths := knlEnv(t, modeltest.Device(t, "gtx460"), map[string]string{"ilp": ilpKernel})
	in, err := env.Inputs(models.Case{Kernel: paths["ilp"], Params: map[string]int64{"n": 64}})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := analytic.NewTracer().Trace(in, map[string]int64{"n": 64}, 32)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Regions) != 2 || tr.Regions[0].ILP != 1.5 || tr.Regions[1].ILP != 1 {
		t.Errorf("regions %+v, want ILP 3/2 then 1", tr.Regions)
	}
}

// TestResiosFitRecovers generates times with known constants for a
// fitted CPU device and checks that calibration recovers them: the
// predictions of the generating constants on other sizes, and the
// per-class costs the rows determine.
func TestResiosFitRecovers(t *testing.T) {
	dev := modeltest.Device(t, "pocl-cpu")
	env := &models.Env{Counter: models.NewCounter(nil), Device: dev}
	truth := resiosTheta{
		names:  []string{"f32.add", "f32.fma", "f32.mul", thetaGlobalLine},
		values: []float64{2, 4, 5, 3},
	}
	truthDev := truth.device(dev, 3e-6)
	gen := &Model{Device: &truthDev, Fitted: true}
	var rows []models.Row
	for _, k := range []struct {
		kernel string
		params []map[string]int64
	}{
		{"global_copy", []map[string]int64{{"n": 1 << 14}, {"n": 1 << 18}}},
		{"arith_add_f32", []map[string]int64{{"n": 64, "nk": 16}, {"n": 128, "nk": 64}}},
		{"arith_mul_f32", []map[string]int64{{"n": 64, "nk": 16}, {"n": 128, "nk": 64}}},
		{"global_store_index", []map[string]int64{{"n": 1 << 14}, {"n": 1 << 18}}},
	} {
		for _, p := range k.params {
			for _, lx := range []int64{16, 32} {
				c := models.Case{Kernel: k.kernel, Consts: map[string]int64{"LX": lx}, Params: p}
				if strings.HasPrefix(k.kernel, "global") {
					c.Consts["LX"] = lx * 8
				}
				pr, err := gen.Predict(env, c)
				if err != nil {
					t.Fatal(err)
				}
				rows = append(rows, models.Row{Row: datasets.Row{Kernel: k.kernel, Class: k.kernel, Role: datasets.RoleMeasurement,
					Consts: c.Consts, Params: c.Params, TimeS: pr.Seconds}, Table: "synthetic", Index: len(rows)})
			}
		}
	}
	m := &Model{}
	if err := m.Calibrate(env, rows); err != nil {
		t.Fatal(err)
	}
	if !m.Fitted || m.FitRows != len(rows) || m.FitRMS > 1e-3 || !strings.Contains(m.Summary(), "fitted on 16 rows") {
		t.Fatalf("fitted %v on %d rows, RMS %g: %s", m.Fitted, m.FitRows, m.FitRMS, m.Summary())
	}
	cost := func(class string) float64 {
		return float64(dev.Limits.WarpSize) / m.Device.Params.Instructions[class].Throughput
	}
	// arith_mul_f32 runs five multiplications and a fused multiply-add
	// per iteration, so the rows determine 5·mul + fma, not each.
	if got := cost("f32.add"); !modeltest.RelClose(got, 2, 0.01) {
		t.Errorf("f32.add: %g cycles per warp instruction, generated with 2", got)
	}
	if got := 5*cost("f32.mul") + cost("f32.fma"); !modeltest.RelClose(got, 5*5+4, 0.01) {
		t.Errorf("5·f32.mul + f32.fma: %g cycles, generated with 29", got)
	}
	for _, c := range []models.Case{
		{Kernel: "global_copy", Consts: map[string]int64{"LX": 64}, Params: map[string]int64{"n": 1 << 20}},
		{Kernel: "arith_add_f32", Consts: map[string]int64{"LX": 8, "LY": 8}, Params: map[string]int64{"n": 96, "nk": 40}},
	} {
		want, err := gen.Predict(env, c)
		if err != nil {
			t.Fatal(err)
		}
		got, err := m.Predict(env, c)
		if err != nil {
			t.Fatal(err)
		}
		if !modeltest.RelClose(got.Seconds, want.Seconds, 0.03) {
			t.Errorf("%s: fitted %g s, generating constants %g s", c.Kernel, got.Seconds, want.Seconds)
		}
	}
}

func TestResiosErrors(t *testing.T) {
	m := &Model{}
	if err := m.Calibrate(&models.Env{Counter: models.NewCounter(nil)}, nil); err == nil || !strings.Contains(err.Error(), "no device file") {
		t.Errorf("no device: %v", err)
	}
	var missing *gpus.MissingError
	err := m.Calibrate(&models.Env{Counter: models.NewCounter(nil), Device: modeltest.Device(t, "pocl-cpu")}, nil)
	if !errors.As(err, &missing) || !strings.Contains(err.Error(), "no measurement rows") {
		t.Errorf("no constants, no rows: %v", err)
	}
	if _, err := m.Predict(&models.Env{Counter: models.NewCounter(nil)}, models.Case{Kernel: "global_copy"}); err == nil {
		t.Error("an uncalibrated model predicts")
	}
	env := &models.Env{Counter: models.NewCounter(nil), Device: modeltest.Device(t, "gtx460")}
	if err := m.Calibrate(env, nil); err != nil {
		t.Fatal(err)
	}
	_, err = m.Predict(env, models.Case{Kernel: "arith_add_f64", Params: map[string]int64{"n": 32, "nk": 4}})
	if err == nil || !strings.Contains(err.Error(), `"f64.add"`) {
		t.Errorf("f64 on the GTX 460: %v", err)
	}
	p, err := m.Predict(env, models.Case{Kernel: "empty", Params: map[string]int64{"n": 64}})
	if err != nil || p.Seconds != m.Device.Params.Overhead.LaunchSeconds {
		t.Errorf("empty kernel: %+v, %v; want the launch overhead alone", p, err)
	}
}

// loopKernel is the thesis's §7.1 benchmark: each of 1024 work-items runs
// a loop of 1024 dependent multiplications and stores the result.
const loopKernel = `kernel loop
domain [n, its] -> { [i, k] : 0 <= i < n and 0 <= k < its }
array a f32 [n]
private acc f32
split i 32 io ii
tag io g.0, ii l.0
acc = 1.5f
acc = acc*1.001f {inames=k}
a[i] = acc
`

// TestResiosLaunch160 is the thesis's launch-configuration example
// (§7.1): a loop of 1024 iterations over 1024 threads on the GTX 460's 7
// SMs gets a block of 160 threads, "an evenly distributed workload":
// n_w¹ = ⌈1024/(7·32)⌉ = 5 is the smallest of the three strategies.
func TestResiosLaunch160(t *testing.T) {
	env, paths := knlEnv(t, modeltest.Device(t, "gtx460"), map[string]string{"loop": loopKernel})
	c, err := Launch(env, models.Case{Kernel: paths["loop"], Params: map[string]int64{"n": 1024, "its": 1024}})
	if err != nil {
		t.Fatal(err)
	}
	// n_w² = 48 resident warps; n_w³ = 4·16 for fmul's latency (the
	// store's 500 cycles over an arithmetic intensity of 1024 need 2).
	if c.Block != [2]int{160, 1} || c.Even != 5 || c.Utilization != 48 || c.Latency != 64 {
		t.Errorf("got %+v, want a block of 160 from (5, 48, 64)", c)
	}
	if _, err := Launch(&models.Env{Counter: models.NewCounter(nil), Device: modeltest.Device(t, "pocl-cpu")},
		models.Case{Kernel: "global_copy", Params: map[string]int64{"n": 64}}); err == nil {
		t.Error("a device without resios constants gave a launch configuration")
	}
}
