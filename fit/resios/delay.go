package resios

import (
	"fmt"
	"math"

	"github.com/uniperf/uniperf/fit/gpus"
)

// Kind separates the instructions that use the SM's execution units from
// those that use the memory system (§5.2.1).
type Kind int

const (
	Compute Kind = iota
	Memory
)

func (k Kind) String() string {
	if k == Memory {
		return "memory"
	}
	return "compute"
}

// Instr is one instruction of a warp's trace with what its delay formula
// needs. Counts are in warps and warp instructions: Max is a number of
// warps, and Penalty is in cycles per warp instruction.
type Instr struct {
	// Name identifies the instruction or memory access in reports, e.g.
	// "load idata[y*size_x+x]".
	Name string
	Kind Kind
	// Latency is latency_i of (4.5) or the memory latency of (4.6), cycles.
	Latency float64
	// Max is max_i of (4.5) or max_p of (4.6): the parallelism, in warps,
	// at which peak throughput is reached.
	Max float64
	// Penalty is the serialization term at peak: warp_size/throughput_i
	// for compute (4.5), transfer/BW for memory (4.7)–(4.9).
	Penalty float64
	// ILP is the instruction-level parallelism of the instruction's region
	// (6.1), at least 1.
	ILP float64
	// Count is how many times a warp executes the instruction: loops are
	// flattened by multiplying the delay by their trip counts (§5.2.1).
	Count float64
}

// Delay is the instruction's delay in cycles, multiplied by Count, when tlp
// warps are ready: (4.5) for compute and (4.6) for memory, with n =
// ILP·TLP,
//
//	compute: latency/n                 if n ≤ max_i
//	         latency/(n·max_i) + warp_size/throughput_i   otherwise
//	memory:  latency/n                 if n ≤ max_p
//	         latency/n + transfer/BW   otherwise.
//
// The serialization penalty applies strictly above the threshold, as the
// cases of (4.5) and (4.6) are written.
func (in Instr) Delay(tlp float64) float64 {
	n := in.ILP * tlp
	d := in.Latency / n
	if n > in.Max {
		if in.Kind == Compute {
			d = in.Latency/(n*in.Max) + in.Penalty
		} else {
			d += in.Penalty
		}
	}
	return d * in.Count
}

func (in Instr) check() error {
	if in.Kind != Compute && in.Kind != Memory {
		return fmt.Errorf("resios: instruction %q has unknown kind %d", in.Name, in.Kind)
	}
	for _, f := range []struct {
		name string
		v    float64
		min  float64
	}{{"latency", in.Latency, 0}, {"max", in.Max, 0}, {"penalty", in.Penalty, 0}, {"ILP", in.ILP, 1}, {"count", in.Count, 0}} {
		if !(f.v >= f.min) || math.IsInf(f.v, 0) {
			return fmt.Errorf("resios: instruction %q: %s must be finite and at least %g, have %g", in.Name, f.name, f.min, f.v)
		}
	}
	return nil
}

// ComputeInstr builds a compute instruction of a device's class (a row of
// Table 3.1): penalty warp_size/throughput.
func ComputeInstr(name string, class gpus.ResiosInstruction, warpSize int, ilp, count float64) Instr {
	return Instr{Name: name, Kind: Compute, Latency: class.Latency, Max: class.PeakWarps,
		Penalty: float64(warpSize) / class.Throughput, ILP: ilp, Count: count}
}

// GlobalPenalty is (4.8): size·c/BW, with size the transaction (line) size
// in bytes, c the transactions per warp access (RequestsPerWarp) and BW
// the bandwidth in bytes per cycle.
func GlobalPenalty(lineBytes, requests, bytesPerCycle float64) float64 {
	return lineBytes * requests / bytesPerCycle
}

// SharedPenalty is (4.9): warp_size·size/(n_banks·BW) + c·size/BW, with size
// the bytes each thread accesses, c the bank-conflict degree
// (BankConflicts) and BW the bandwidth of one bank in bytes per cycle. The
// first term is the part the banks serve in parallel, the second the
// serialized part.
func SharedPenalty(warpSize int, bytes, banks, conflicts, bankBytesPerCycle float64) float64 {
	return float64(warpSize)*bytes/(banks*bankBytesPerCycle) + conflicts*bytes/bankBytesPerCycle
}

// BytesPerCycle converts a bandwidth in bytes per second to bytes per cycle
// of an SM, for the share of sms SMs (§4.3.2 uses the whole device, 86.4
// GB/s / 1.35 GHz = 64; §7 divides by the 7 SMs because the simulation runs
// one of them).
func BytesPerCycle(bytesPerSecond, clockHz float64, sms int) float64 {
	return bytesPerSecond / clockHz / float64(sms)
}

// GlobalAccess builds a global-memory instruction: latency and max_p of
// the device, penalty (4.8) for requests transactions per warp access at
// bytesPerCycle.
func GlobalAccess(name string, g gpus.ResiosGlobal, requests, bytesPerCycle, ilp, count float64) Instr {
	return Instr{Name: name, Kind: Memory, Latency: g.Latency, Max: g.MaxParallel,
		Penalty: GlobalPenalty(g.LineBytes, requests, bytesPerCycle), ILP: ilp, Count: count}
}

// SharedAccess builds a shared-memory instruction: latency and max_p of the
// device, penalty (4.9) for bytes per thread and the conflict degree.
func SharedAccess(name string, s gpus.ResiosShared, warpSize int, bytes, conflicts, ilp, count float64) Instr {
	return Instr{Name: name, Kind: Memory, Latency: s.Latency, Max: s.MaxParallel,
		Penalty: SharedPenalty(warpSize, bytes, s.Banks, conflicts, s.BankBandwidth), ILP: ilp, Count: count}
}
