package resios

import (
	"math"
	"testing"

	"github.com/uniperf/uniperf/fit/gpus"
)

func relClose(got, want, tol float64) bool { return math.Abs(got-want) <= tol*math.Abs(want) }

// madd is Table 3.1's row: latency 22, throughput 16, peak at 11 warps.
var madd = gpus.ResiosInstruction{Latency: 22, Throughput: 16, PeakWarps: 11}

// TestMaddDelayCurve checks (4.5) against the thesis's instantiation for
// madd (§4.3.1): delay = 22/TLP for TLP ≤ 11, 22/(TLP·11) + 32/16 above.
func TestMaddDelayCurve(t *testing.T) {
	in := ComputeInstr("madd", madd, 32, 1, 1)
	for tlp := 1; tlp <= 48; tlp++ {
		x := float64(tlp)
		want := 22 / x
		if tlp > 11 {
			want = 22/(x*11) + 32.0/16
		}
		if got := in.Delay(x); !relClose(got, want, 1e-15) {
			t.Errorf("TLP %d: delay %g, thesis %g", tlp, got, want)
		}
	}
	// At the threshold the throughput 1/delay reaches the peak of 16
	// thread operations per cycle, half a warp instruction per cycle.
	if got := 1 / in.Delay(11); got != 0.5 {
		t.Errorf("throughput at 11 warps %g, want 0.5", got)
	}
}

// TestGlobalMemoryDelay checks (4.6)–(4.8) against §4.3.2: with BW = 86.4
// GB/s / 1.35 GHz = 64 bytes per cycle, latency 500, max_p 8 and 128-byte
// lines, 8 parallel requests take 500 + 8·128·c/64 = 500 + 16·c cycles.
func TestGlobalMemoryDelay(t *testing.T) {
	bw := BytesPerCycle(86.4e9, 1.35e9, 1)
	if !relClose(bw, 64, 1e-15) {
		t.Fatalf("bandwidth %g bytes per cycle, thesis 64", bw)
	}
	g := gpus.ResiosGlobal{Latency: 500, MaxParallel: 8, LineBytes: 128}
	for c := 1.0; c <= 32; c++ {
		if got := g.Latency + g.MaxParallel*GlobalPenalty(g.LineBytes, c, bw); !relClose(got, 500+16*c, 1e-15) {
			t.Errorf("c = %g: %g, thesis %g", c, got, 500+16*c)
		}
		// Above max_p, n requests take latency + n·penalty (the derivation
		// of (4.7)); below, the latency is shared.
		in := GlobalAccess("a", g, c, bw, 1, 1)
		for _, n := range []float64{9, 16, 32} {
			if got := n * in.Delay(n); !relClose(got, 500+n*2*c, 1e-14) {
				t.Errorf("c = %g, n = %g: n·delay %g, want %g", c, n, got, 500+n*2*c)
			}
		}
		if got := 8 * in.Delay(8); !relClose(got, 500, 1e-15) {
			t.Errorf("c = %g at max_p: %g, want the latency 500", c, got)
		}
	}
}

// TestSharedMemoryDelay checks (4.9) against §4.3.2: latency 36, 32 banks
// of 32 bytes per cycle, 4-byte accesses, max_p 8:
// 36 + 8·(4/32 + 4·c/32) = 37 + c.
func TestSharedMemoryDelay(t *testing.T) {
	for c := 1.0; c <= 32; c++ {
		got := 36 + 8*SharedPenalty(32, 4, 32, c, 32)
		if !relClose(got, 37+c, 1e-15) {
			t.Errorf("c = %g: %g, thesis %g", c, got, 37+c)
		}
	}
}

func TestInstrCheck(t *testing.T) {
	bad := []Instr{
		{Name: "ilp", Kind: Compute, ILP: 0.5, Count: 1},
		{Name: "count", Kind: Compute, ILP: 1, Count: -1},
		{Name: "nan", Kind: Memory, ILP: 1, Count: 1, Latency: math.NaN()},
		{Name: "kind", Kind: Kind(5), ILP: 1, Count: 1},
	}
	for _, in := range bad {
		if err := in.check(); err == nil {
			t.Errorf("%s accepted", in.Name)
		}
	}
}
