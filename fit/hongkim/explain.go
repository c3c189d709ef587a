package hongkim

import (
	"fmt"
	"strings"
	"text/tabwriter"
)

// Explain lists the intermediate quantities with their equation numbers,
// in the order of the paper's Table 2.
func (r Result) Explain() string {
	rows := []struct {
		name, eq string
		v        float64
	}{
		{"#Active_SMs", "", r.ActiveSMs},
		{"#Active_blocks_per_SM", "", r.ActiveBlocksPerSM},
		{"N = #Active_warps_per_SM", "(20)", r.N},
		{"Departure_delay", "(15)", r.DepartureDelay},
		{"Mem_L", "(10)-(12)", r.MemL},
		{"MWP_Without_BW_full", "(16)", r.MWPWithoutBWFull},
		{"BW_per_warp (bytes/s)", "(7)", r.BWPerWarp},
		{"MWP_peak_BW", "(6)", r.MWPPeakBW},
		{"MWP", "(5)", r.MWP},
		{"Comp_cycles", "(19)", r.CompCycles},
		{"Mem_cycles", "(18)", r.MemCycles},
		{"CWP_full", "(8)", r.CWPFull},
		{"CWP", "(9)", r.CWP},
		{"#Rep", "(21)", r.Rep},
		{"Exec_cycles_app", r.Case(), r.ExecCyclesApp},
		{"Synch_cost", "(26)", r.SynchCost},
		{"Exec_cycles_with_synch", "(27)", r.ExecCycles},
		{"CPI", "(25)", r.CPI},
		{"time (s)", "", r.Seconds},
	}
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, row := range rows {
		fmt.Fprintf(w, "%s\t%s\t%.6g\n", row.name, row.eq, row.v)
	}
	w.Flush()
	return b.String()
}

// Case names the equation Exec_cycles_app came from, "(23)" say, and says
// when it was (23) taken over (24) below one memory warp in flight.
func (r Result) Case() string {
	if r.BandwidthGuard {
		return fmt.Sprintf("(%d) over (24), MWP < 1", r.Equation)
	}
	return fmt.Sprintf("(%d)", r.Equation)
}
