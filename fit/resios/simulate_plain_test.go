package resios

import (
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"
)

// plainSimulate is Algorithm 5.1 as Simulate's doc describes it, written
// the slow obvious way: every step fixes the delay of each unadjusted
// warp of the whole ready queue and walks the whole queue for free units.
// It is the oracle of the shortcuts Simulate takes.
func plainSimulate(trace []Instr, l Launch) Sim {
	blocksPerSM := (l.Blocks + int64(l.SMs) - 1) / int64(l.SMs)
	simBlocks := min(blocksPerSM, int64(max(1, l.MaxSimWarps/l.WarpsPerBlock)))
	type pw struct {
		block, pc int
		remaining float64
		adjusted  bool
	}
	var ready []*pw
	var units [2][]*pw
	var left []int
	queued, resident := simBlocks, 0
	var now, idle float64
	hot := map[string]*Hotspot{}
	spot := func(name string) *Hotspot {
		if hot[name] == nil {
			hot[name] = &Hotspot{Name: name}
		}
		return hot[name]
	}
	capacity := [2]int{l.ComputeUnits, l.MemoryUnits}
	for {
		for queued > 0 && resident < l.ResidentBlocks {
			queued--
			resident++
			left = append(left, l.WarpsPerBlock)
			for range l.WarpsPerBlock {
				ready = append(ready, &pw{block: len(left) - 1})
			}
		}
		if len(ready) == 0 && len(units[0]) == 0 && len(units[1]) == 0 {
			break
		}
		tlp := float64(len(ready) + len(units[Compute]))
		for _, w := range ready {
			if !w.adjusted {
				in := trace[w.pc]
				w.remaining, w.adjusted = in.Delay(tlp), true
				if in.Kind == Memory {
					spot(in.Name).Delay += w.remaining
				}
			}
		}
		var waiting []*pw
		for _, w := range ready {
			if k := trace[w.pc].Kind; len(units[k]) < capacity[k] {
				units[k] = append(units[k], w)
			} else {
				waiting = append(waiting, w)
			}
		}
		ready = waiting
		d := -1.0
		for _, u := range units {
			for _, w := range u {
				if d < 0 || w.remaining < d {
					d = w.remaining
				}
			}
		}
		if len(units[Compute]) == 0 {
			idle += d
			for _, w := range units[Memory] {
				spot(trace[w.pc].Name).Idle += d
			}
		}
		now += d
		for k := range units {
			var busy []*pw
			for _, w := range units[k] {
				if w.remaining -= d; w.remaining > 0 {
					busy = append(busy, w)
					continue
				}
				w.pc++
				w.adjusted = false
				if w.pc < len(trace) {
					ready = append(ready, w)
				} else if left[w.block]--; left[w.block] == 0 {
					resident--
				}
			}
			units[k] = busy
		}
	}
	out := Sim{SimulatedCycles: now, SimulatedBlocks: simBlocks, BlocksPerSM: blocksPerSM, IdleCycles: idle,
		Cycles: now * float64(blocksPerSM) / float64(simBlocks)}
	var total float64
	for _, h := range hot {
		total += h.Idle
		out.Hotspots = append(out.Hotspots, *h)
	}
	for i := range out.Hotspots {
		if total > 0 {
			out.Hotspots[i].Share = out.Hotspots[i].Idle / total
		}
	}
	sort.SliceStable(out.Hotspots, func(a, b int) bool {
		ha, hb := out.Hotspots[a], out.Hotspots[b]
		if ha.Idle != hb.Idle {
			return ha.Idle > hb.Idle
		}
		return ha.Name < hb.Name
	})
	return out
}

// TestSimulateMatchesPlainLoop runs random traces and launches, from one
// unit of each kind (the device files') to several, and wants Simulate's
// result identical, bit for bit, to the plain loop's.
func TestSimulateMatchesPlainLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 21))
	names := []string{"load a", "load b", "store c", "fma", "add"}
	for i := range 400 {
		trace := make([]Instr, 1+r.IntN(12))
		for j := range trace {
			kind := Kind(r.IntN(2))
			trace[j] = Instr{Name: names[r.IntN(len(names))], Kind: kind, Latency: 1 + 400*r.Float64(),
				Max: 1 + 30*r.Float64(), Penalty: 8 * r.Float64(), ILP: 1 + 3*r.Float64(), Count: float64(1 + r.IntN(4))}
		}
		l := Launch{Blocks: int64(1 + r.IntN(500)), WarpsPerBlock: 1 + r.IntN(16), SMs: 1 + r.IntN(8),
			ResidentBlocks: 1 + r.IntN(8), ComputeUnits: 1 + r.IntN(3)/2, MemoryUnits: 1 + r.IntN(3)/2, MaxSimWarps: 1 + r.IntN(128)}
		got, err := Simulate(trace, l)
		if err != nil {
			t.Fatal(err)
		}
		want := plainSimulate(trace, l)
		// The shares divide by a sum over a map, in its random order:
		// they agree to rounding, every other figure bit for bit.
		for k := range min(len(got.Hotspots), len(want.Hotspots)) {
			if relClose(got.Hotspots[k].Share, want.Hotspots[k].Share, 1e-12) {
				got.Hotspots[k].Share = want.Hotspots[k].Share
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("case %d, launch %+v:\nSimulate   %+v\nplain loop %+v", i, l, got, want)
		}
	}
}
