package resios

import (
	"fmt"
	"sort"
)

// Launch describes the work of one SM for the simulation.
type Launch struct {
	Blocks        int64 // blocks of the whole launch
	WarpsPerBlock int
	SMs           int
	// ResidentBlocks is how many blocks an SM holds at once (from the
	// occupancy calculation); it bounds the resident warps res_w.
	ResidentBlocks int
	// ComputeUnits and MemoryUnits are the warps that can execute
	// compute, respectively memory, instructions at the same time.
	ComputeUnits, MemoryUnits int
	// MaxSimWarps is W: at most this many warps (whole blocks, at least
	// one) are simulated and the result extrapolated.
	MaxSimWarps int
}

// Hotspot is one memory instruction's share of the time in which the SM's
// compute units were idle (§5.2.1, §5.3).
type Hotspot struct {
	Name string
	// Idle is the cycles during which this instruction was in flight and
	// no compute unit was busy, summed over the simulated warps.
	Idle float64
	// Delay is the instruction's total delay over the simulated warps.
	Delay float64
	// Share is Idle over the idle time of all memory instructions.
	Share float64
}

// Sim is the outcome of a simulation.
type Sim struct {
	// Cycles is the extrapolated execution time of the launch: the
	// simulated time × blocks per SM / simulated blocks (§5.2.1,
	// total = t·n/W on one SM, since the SMs run in parallel).
	Cycles float64
	// SimulatedCycles is t, for SimulatedBlocks of the BlocksPerSM blocks
	// of one SM.
	SimulatedCycles float64
	SimulatedBlocks int64
	BlocksPerSM     int64
	// IdleCycles is the simulated time with no compute unit busy.
	IdleCycles float64
	// Hotspots are the memory instructions by decreasing idle time.
	Hotspots []Hotspot
}

type warp struct {
	block     int
	pc        int
	remaining float64
	adjusted  bool
}

// Simulate runs the warp-level simulation of §5.2.1 (Algorithm 5.1) for a
// warp trace on one SM.
//
// Each simulated warp runs the trace. Warps wait in a FIFO ready queue for
// a unit of their instruction's kind; blocks wait in a block queue until
// fewer than ResidentBlocks blocks are resident, and a block leaves when all
// its warps are done. When an instruction becomes ready, its delay is fixed
// once (the thesis's "mark them as processed") by (4.5) or (4.6) with the
// thread-level parallelism TLP = the warps in the ready queue, itself
// included, plus the warps on compute units. Warps on memory units wait for
// memory and do not count. Time advances in lock step by the smallest
// remaining delay among the units; while no compute unit is busy, that time
// is idle and is charged to every memory instruction in flight.
//
// Choices where the thesis leaves the simulation open: units and warp count
// come from the Launch (the device files use one compute and one memory
// unit, the §5.2.1 example, because the delay formulas already divide by the
// parallelism); whole blocks are simulated, as many as fit in MaxSimWarps
// and at least one; the ready queue is first in, first out, and a warp that
// finishes an instruction rejoins it at the back.
func Simulate(trace []Instr, l Launch) (Sim, error) {
	if err := checkSim(trace, l); err != nil {
		return Sim{}, err
	}
	blocksPerSM := (l.Blocks + int64(l.SMs) - 1) / int64(l.SMs)
	simBlocks := min(blocksPerSM, int64(max(1, l.MaxSimWarps/l.WarpsPerBlock)))

	s := &state{trace: trace, l: l, hot: make(map[string]*Hotspot)}
	s.queued = simBlocks
	s.run()

	out := Sim{
		SimulatedCycles: s.time,
		SimulatedBlocks: simBlocks,
		BlocksPerSM:     blocksPerSM,
		IdleCycles:      s.idle,
	}
	out.Cycles = s.time * float64(blocksPerSM) / float64(simBlocks)
	for _, h := range s.hot {
		out.Hotspots = append(out.Hotspots, *h)
	}
	sort.SliceStable(out.Hotspots, func(a, b int) bool {
		ha, hb := out.Hotspots[a], out.Hotspots[b]
		if ha.Idle != hb.Idle {
			return ha.Idle > hb.Idle
		}
		return ha.Name < hb.Name
	})
	// Summed in the sorted order, not the map's, so that the shares are
	// the same to the last bit from run to run.
	var idle float64
	for _, h := range out.Hotspots {
		idle += h.Idle
	}
	for i := range out.Hotspots {
		if idle > 0 {
			out.Hotspots[i].Share = out.Hotspots[i].Idle / idle
		}
	}
	return out, nil
}

func checkSim(trace []Instr, l Launch) error {
	if len(trace) == 0 {
		return fmt.Errorf("resios: %w", ErrEmptyTrace)
	}
	for _, in := range trace {
		if err := in.check(); err != nil {
			return err
		}
	}
	if l.Blocks <= 0 || l.WarpsPerBlock <= 0 || l.SMs <= 0 || l.ResidentBlocks <= 0 ||
		l.ComputeUnits <= 0 || l.MemoryUnits <= 0 || l.MaxSimWarps <= 0 {
		return fmt.Errorf("resios: the simulation needs positive blocks (%d), warps per block (%d), SMs (%d), resident blocks (%d), compute units (%d), memory units (%d) and simulated warps (%d)",
			l.Blocks, l.WarpsPerBlock, l.SMs, l.ResidentBlocks, l.ComputeUnits, l.MemoryUnits, l.MaxSimWarps)
	}
	return nil
}

// state is the simulated SM.
type state struct {
	trace []Instr
	l     Launch

	queued   int64  // blocks in the block queue
	resident int    // blocks on the SM
	left     []int  // per block, warps not yet done
	warps    []warp // every warp admitted, by number
	ready    []int  // the ready queue, of warp numbers
	units    [2][]int
	time     float64
	idle     float64
	hot      map[string]*Hotspot

	// kinds counts the ready warps by the kind of their instruction.
	kinds [2]int
	// settled is how many warps at the front of the ready queue have
	// their delay fixed: adjust fixes them all, distribute keeps their
	// order, and warps rejoin the queue at the back, unadjusted.
	settled int
}

func (s *state) run() {
	for {
		s.admit()
		if len(s.ready) == 0 && len(s.units[Compute]) == 0 && len(s.units[Memory]) == 0 {
			return
		}
		s.adjust()
		s.distribute()
		s.step()
	}
}

// admit moves blocks from the block queue while there is room.
func (s *state) admit() {
	for s.queued > 0 && s.resident < s.l.ResidentBlocks {
		s.queued--
		s.resident++
		b := len(s.left)
		s.left = append(s.left, s.l.WarpsPerBlock)
		for range s.l.WarpsPerBlock {
			s.warps = append(s.warps, warp{block: b})
			s.enqueue(len(s.warps) - 1)
		}
	}
}

// adjust fixes the delay of every ready instruction not yet adjusted.
func (s *state) adjust() {
	tlp := float64(len(s.ready) + len(s.units[Compute]))
	for _, i := range s.ready[s.settled:] {
		w := &s.warps[i]
		if w.adjusted {
			continue
		}
		in := s.trace[w.pc]
		w.remaining, w.adjusted = in.Delay(tlp), true
		if in.Kind == Memory {
			s.hotspot(in.Name).Delay += w.remaining
		}
	}
}

// distribute moves ready warps, in queue order, to free units of their
// instruction's kind. Once no warp further back can take a free unit the
// rest of the queue waits as it is, and is not walked: in a memory-bound
// launch the queue is long, the free unit a compute one, and walking it
// warp by warp was most of a simulation's time.
func (s *state) distribute() {
	capacity := [2]int{s.l.ComputeUnits, s.l.MemoryUnits}
	behind := s.kinds // ready warps of each kind not yet passed
	movable := func() bool {
		return behind[Compute] > 0 && len(s.units[Compute]) < capacity[Compute] ||
			behind[Memory] > 0 && len(s.units[Memory]) < capacity[Memory]
	}
	waiting := s.ready[:0]
	for i, w := range s.ready {
		if !movable() {
			if len(waiting) < i {
				waiting = append(waiting, s.ready[i:]...)
			} else {
				waiting = s.ready
			}
			break
		}
		k := s.trace[s.warps[w].pc].Kind
		behind[k]--
		if len(s.units[k]) < capacity[k] {
			s.units[k] = append(s.units[k], w)
			s.kinds[k]--
		} else {
			waiting = append(waiting, w)
		}
	}
	s.ready = waiting
	s.settled = len(waiting)
}

// enqueue puts warp w at the back of the ready queue.
func (s *state) enqueue(w int) {
	s.ready = append(s.ready, w)
	s.kinds[s.trace[s.warps[w].pc].Kind]++
}

// step advances the clock by the smallest remaining delay on the units and
// retires the instructions that complete.
func (s *state) step() {
	first := true
	var d float64
	for _, u := range s.units {
		for _, w := range u {
			if r := s.warps[w].remaining; first || r < d {
				d, first = r, false
			}
		}
	}
	if len(s.units[Compute]) == 0 {
		s.idle += d
		for _, w := range s.units[Memory] {
			s.hotspot(s.trace[s.warps[w].pc].Name).Idle += d
		}
	}
	s.time += d
	for k := range s.units {
		busy := s.units[k][:0]
		for _, w := range s.units[k] {
			s.warps[w].remaining -= d
			if s.warps[w].remaining > 0 {
				busy = append(busy, w)
				continue
			}
			s.retire(w)
		}
		s.units[k] = busy
	}
}

// retire moves a warp past its instruction: back to the ready queue, or
// out of the SM when its trace is done.
func (s *state) retire(i int) {
	w := &s.warps[i]
	w.pc++
	w.adjusted = false
	if w.pc < len(s.trace) {
		s.enqueue(i)
		return
	}
	s.left[w.block]--
	if s.left[w.block] == 0 {
		s.resident--
	}
}

func (s *state) hotspot(name string) *Hotspot {
	h := s.hot[name]
	if h == nil {
		h = &Hotspot{Name: name}
		s.hot[name] = h
	}
	return h
}
