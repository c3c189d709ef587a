package linear

import (
	"fmt"
	"slices"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/fit"
)

// Predictor predicts one kernel at many parameter values: its counts are
// compiled once (counts.Evaluator) and each prediction is their dot
// product with the weights, seed 001's "small inner product involving
// precomputed symbolic expressions". It is safe for concurrent use.
type Predictor struct {
	ev      *counts.Evaluator
	params  []string
	weights []float64 // of the first len(weights) outputs of ev
	// unpriced names the kernel's properties without a weight, which
	// come after the priced ones; they must be zero.
	unpriced []string
	kernel   string
}

// Predictor compiles the prediction of kernel name (consts bound) with w.
func (c *Counter) Predictor(w *fit.Weights, name string, consts map[string]int64) (*Predictor, error) {
	k, err := c.Kernel(name, consts)
	if err != nil {
		return nil, err
	}
	props := slices.Clone(w.Properties)
	var unpriced []string
	for _, n := range k.Names() {
		if !slices.Contains(w.Properties, n) {
			unpriced = append(unpriced, n)
		}
	}
	ev, err := k.Compile(append(props, unpriced...))
	if err != nil {
		return nil, err
	}
	return &Predictor{ev: ev, params: k.Params(), weights: slices.Clone(w.Values), unpriced: unpriced, kernel: name}, nil
}

// Params lists the kernel's parameters in the order Predict takes their
// values.
func (p *Predictor) Params() []string { return slices.Clone(p.params) }

// maxOutputs bounds the properties a Predictor keeps on the stack.
const maxOutputs = 64

// Predict returns the predicted time in seconds at params, given in the
// order of Params. A non-zero count of a property the weights do not
// price is an error, as in fit.Weights.Predict.
func (p *Predictor) Predict(params []int64) (float64, error) {
	var buf [maxOutputs]float64
	out := buf[:]
	if n := len(p.weights) + len(p.unpriced); n <= maxOutputs {
		out = out[:n]
	} else {
		out = make([]float64, n)
	}
	if err := p.ev.Eval(params, out); err != nil {
		return 0, err
	}
	t := 0.0
	for i, w := range p.weights {
		t += w * out[i]
	}
	for i, name := range p.unpriced {
		if c := out[len(p.weights)+i]; c != 0 {
			return 0, fmt.Errorf("kernel %s: %s = %g but the weights have no price for it: no measurement kernel exercised it", p.kernel, name, c)
		}
	}
	return t, nil
}
