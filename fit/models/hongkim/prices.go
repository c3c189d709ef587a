package hongkim

import "github.com/uniperf/uniperf/fit/gpus"

// flopKinds are the flop kinds of the counts (package analytic).
var flopKinds = []string{"add", "mul", "div", "pow", "exp", "special"}

// pricesOf returns the issue slots one flop of each kind takes: its cycle
// weight in the device file's cycles section over the addition's, so that
// an addition is one instruction, as every instruction is in the paper.
// The paper counts PTX instructions, and a pow or a division is a
// sequence of them (its footnote 7: "some PTX instructions expand to
// multiple binary instructions"); the weights are the device's measured
// throughputs (time × clock × SMs per operation on the table's arith
// rows, see fit/gpus/devices), so a pow costs what the table's rows say
// it costs, 57 additions on the H100. A kind the file has no weight for,
// and every kind on a device without cycle weights, is one instruction.
func pricesOf(d *gpus.Device) map[string]float64 {
	if d.Cycles == nil || !(d.Cycles.Weights["add"] > 0) {
		return nil
	}
	add := d.Cycles.Weights["add"]
	p := map[string]float64{}
	for _, kind := range flopKinds {
		if w, ok := d.Cycles.Weights[kind]; ok {
			p[kind] = w / add
		}
	}
	return p
}

// price is the issue slots of one flop of kind: prices[kind], or 1.
func price(prices map[string]float64, kind string) float64 {
	if p, ok := prices[kind]; ok {
		return p
	}
	return 1
}
