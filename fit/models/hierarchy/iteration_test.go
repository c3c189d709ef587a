package hierarchy

import (
	"math"
	"testing"

	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/modeltest"
)

// gemmTile is gemm's counts derived by hand from its text (groups of 8
// rows by 32 columns of c; c scaled, then accumulated over k), in f32
// cells unless named bytes: the loads of a (stride 0) and of b and c
// (stride 1), and with a group's work-items sharing each iteration's
// cells, those left: a group of r rows and q columns loads r cells of a
// and q of b at each k, and its r·q cells of c (rows of groups sum to
// ni, columns to nj).
type gemmTile struct {
	stride0, stride1        float64 // loads
	shared0, shared1        float64 // loads left when shared
	streamed, group, groups float64 // bytes, bytes, work-groups
	iterBytes, iterations   float64
}

func gemmTileOf(ni, nj, nk float64) gemmTile {
	ceil := func(a, b float64) float64 { return math.Ceil(a / b) }
	return gemmTile{
		stride0: ni * nj * nk, stride1: ni * nj * (2*nk + 1),
		shared0: nk * ni * ceil(nj, 32), shared1: ni*nj*(nk+1) + nk*nj*ceil(ni, 8),
		streamed:  4 * (4*ni*nj*nk + 2*ni*nj),
		group:     4 * (ni*nk*ceil(nj, 32) + nk*nj*ceil(ni, 8) + ni*nj),
		groups:    ceil(ni, 8) * ceil(nj, 32),
		iterBytes: 4 * (nk*ni*ceil(nj, 32) + nk*nj*ceil(ni, 8) + (nk+1)*ni*nj),
		// the group iterations: nk in the loop and one outside it
		iterations: ceil(ni, 8) * ceil(nj, 32) * (nk + 1),
	}
}

var gemmSizes = [][3]float64{{64, 64, 4096}, {40, 100, 3000}, {9, 1000, 2000}}

// TestIterGemmTile checks the per-iteration form's features of gemm
// against the closed forms of gemmTile: with L1 below a group's
// footprint but above its working set over IterWindow iterations, the
// loads its work-items share are left out and L2 traffic is the
// per-iteration footprint; with L1 below that working set too, every
// load is priced and L2 traffic is the streamed bytes.
func TestIterGemmTile(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files), Device: modeltest.Device(t, "h100-sxm5")}
	cfg := Config{Form: FormSum, Levels: true, Reuse: true, Iter: true}
	for _, s := range gemmSizes {
		w := gemmTileOf(s[0], s[1], s[2])
		window := IterWindow * w.iterBytes / w.iterations
		if window >= w.group/w.groups {
			t.Fatalf("%v: the working set of a window, %g B, is not below a group's footprint, %g B", s, window, w.group/w.groups)
		}
		params := map[string]int64{"ni": int64(s[0]), "nj": int64(s[1]), "nk": int64(s[2])}
		for _, c := range []struct {
			l1     float64
			shared bool
		}{{w.group/w.groups - 1, true}, {math.Ceil(window) - 1, false}} {
			lf, err := facts(env, models.Case{Kernel: "../../../examples/gemm.knl", Params: params}, cfg, Levels{L1: int64(c.l1), LLC: 1 << 40})
			if err != nil {
				t.Fatal(err)
			}
			s0, s1, l2 := w.stride0, w.stride1, w.streamed
			if c.shared {
				s0, s1, l2 = w.shared0, w.shared1, min(w.iterBytes, w.streamed)
			}
			f := lf.features
			if f["global.load.f32.stride=0"] != s0 || f["global.load.f32.stride=1"] != s1 || f[L2Bytes] != l2 || lf.traffic.Shared != c.shared {
				t.Errorf("%v, L1 %g B: stride 0 %g, stride 1 %g, L2 %g B, shared %v; want %g, %g, %g B, %v",
					s, c.l1, f["global.load.f32.stride=0"], f["global.load.f32.stride=1"], f[L2Bytes], lf.traffic.Shared, s0, s1, l2, c.shared)
			}
			// With IterL1 the loads left out are one feature of their own.
			l1cfg := cfg
			l1cfg.IterL1 = true
			if lf, err = facts(env, models.Case{Kernel: "../../../examples/gemm.knl", Params: params}, l1cfg, Levels{L1: int64(c.l1), LLC: 1 << 40}); err != nil {
				t.Fatal(err)
			}
			if want := w.stride0 + w.stride1 - s0 - s1; lf.features[L1Loads] != want || lf.features["global.load.f32.stride=0"] != s0 {
				t.Errorf("%v, L1 %g B, IterL1: %s %g, stride 0 %g; want %g, %g", s, c.l1, L1Loads, lf.features[L1Loads], lf.features["global.load.f32.stride=0"], want, s0)
			}
		}
	}
}

// TestIterPredictGemm prices gemm on the H100 (L1 256 KB: a group's
// footprint over nk = 2000 to 4096 iterations is beyond it, a window's
// working set within it) with known weights on the shared loads and the
// L2 bytes, and wants the dot product of the closed forms.
func TestIterPredictGemm(t *testing.T) {
	env := &models.Env{Counter: models.NewCounter(models.Files), Device: modeltest.Device(t, "h100-sxm5")}
	m := &Model{
		Config:      Config{Form: FormSum, Levels: true, Reuse: true, Iter: true, LLC: "l2"},
		Properties:  []string{"global.load.f32.stride=0", "global.load.f32.stride=1", L2Bytes},
		Values:      []float64{3e-13, 7e-13, 2e-14},
		ZeroMissing: true,
	}
	for _, s := range gemmSizes {
		w := gemmTileOf(s[0], s[1], s[2])
		want := 3e-13*w.shared0 + 7e-13*w.shared1 + 2e-14*min(w.iterBytes, w.streamed)
		p, err := m.Predict(env, models.Case{Kernel: "../../../examples/gemm.knl", Params: map[string]int64{"ni": int64(s[0]), "nj": int64(s[1]), "nk": int64(s[2])}})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(p.Seconds-want) > 1e-9*want {
			t.Errorf("%v: predicted %g s, want %g s", s, p.Seconds, want)
		}
	}
}

// TestTrafficOfIter checks TrafficOf's per-iteration branch on hand-made
// counts (400 streamed bytes, groups of 100 B): 200 B over 100 group
// iterations is 2 B an iteration, 64 B over IterWindow; an L1 of 99 B
// holds that but not a group, so L2 traffic is the 200 B and the shared
// loads are served; one of 63 B holds neither.
func TestTrafficOfIter(t *testing.T) {
	cs := map[string]int64{"global.load.f32.stride=1": 100, "global.store.f64.stride=0": 10}
	for _, c := range []struct {
		l1     int64
		l2     float64
		shared bool
	}{{99, 200, true}, {63, 400, false}, {100, 300, true}} {
		f := &Footprints{Launch: 120, Group: 300, ReusedBytes: 80, ReusedLoads: 20, Iter: &IterFootprints{Bytes: 200, Iterations: 100}}
		tr := TrafficOf(cs, f, 3, Levels{L1: c.l1, LLC: 1 << 20})
		if tr.L2 != c.l2 || tr.Shared != c.shared {
			t.Errorf("L1 %d B: L2 %g B, shared %v; want %g B, %v", c.l1, tr.L2, tr.Shared, c.l2, c.shared)
		}
	}
}
