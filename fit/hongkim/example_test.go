package hongkim_test

import (
	"fmt"

	"github.com/uniperf/uniperf/fit/hongkim"
)

// The paper's worked example (§3.6, Table 2): tiled matrix multiplication,
// <<<80, 128>>>, on a 16-SM machine with 80 GB/s at 1 GHz.
func ExamplePredict() {
	m := hongkim.Machine{ThreadsPerWarp: 32, IssueCycles: 4, Freq: 1e9, MemBandwidth: 80e9,
		MemLD: 420, DepartureDelCoal: 4, DepartureDelUncoal: 10, SMs: 16, UncoalPerMW: 32}
	k := hongkim.Kernel{ThreadsPerBlock: 128, Blocks: 80, ActiveBlocksPerSM: 5,
		CompInsts: 27, UncoalMemInsts: 6, SynchInsts: 6, LoadBytesPerWarp: 128}
	r, err := hongkim.Predict(m, k)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(r.Explain())
	// Output:
	// #Active_SMs                          16
	// #Active_blocks_per_SM                5
	// N = #Active_warps_per_SM  (20)       20
	// Departure_delay           (15)       320
	// Mem_L                     (10)-(12)  730
	// MWP_Without_BW_full       (16)       2.28125
	// BW_per_warp (bytes/s)     (7)        1.75342e+08
	// MWP_peak_BW               (6)        28.5156
	// MWP                       (5)        2.28125
	// Comp_cycles               (19)       132
	// Mem_cycles                (18)       4380
	// CWP_full                  (8)        34.1818
	// CWP                       (9)        20
	// #Rep                      (21)       1
	// Exec_cycles_app           (23)       38428.2
	// Synch_cost                (26)       12300
	// Exec_cycles_with_synch    (27)       50728.2
	// CPI                       (25)       58.2245
	// time (s)                             5.07282e-05
}
