package linear

import (
	"errors"
	"fmt"
	"slices"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/models"
)

// Predictor predicts one kernel at many parameter values: its counts are
// compiled once and each prediction is their dot product with the
// weights, seed 001's "small inner product involving precomputed symbolic
// expressions". Where every property of the kernel has a weight and no
// stride class depends on the parameters, the weights are folded into the
// compiled counts (counts.Weighted); otherwise the properties are
// evaluated one by one (counts.Evaluator), so that an unpriced property
// is an error where it is not zero. It is safe for concurrent use.
type Predictor struct {
	// folded is the prediction as one compiled weighted sum, where the
	// kernel allows it (counts.Counted.Weighted); ev and the rest
	// evaluate the counts one by one otherwise.
	folded  *counts.Weighted
	ev      *counts.Evaluator
	params  []string
	weights []float64 // of the first len(weights) outputs of ev
	// unpriced names the kernel's properties without a weight, which
	// come after the priced ones; they must be zero.
	unpriced []string
	kernel   string
	// fill, where the weights have one, scales the priced counts but the
	// launch terms by the grid-fill factor of the launch at the
	// parameters, which launch computes; props names the priced counts.
	fill   *fit.GridFill
	props  []string
	launch *counts.Kernel
}

// NewPredictor compiles the prediction of kernel name (consts bound) with
// w, on the counts of c.
func NewPredictor(c *models.Counter, w *fit.Weights, name string, consts map[string]int64) (*Predictor, error) {
	if err := models.CheckBanks(w, c); err != nil {
		return nil, err
	}
	k, err := c.Kernel(name, consts)
	if err != nil {
		return nil, err
	}
	weights := make(map[string]float64, len(w.Properties))
	for i, p := range w.Properties {
		weights[p] = w.Values[i]
	}
	if w.Fill == nil {
		folded, err := k.Weighted(weights)
		switch {
		case err == nil:
			return &Predictor{folded: folded, params: k.Params(), kernel: name}, nil
		case !errors.Is(err, counts.ErrNotWeighable):
			return nil, err
		}
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
	return &Predictor{ev: ev, params: k.Params(), weights: slices.Clone(w.Values), unpriced: unpriced, kernel: name,
		fill: w.Fill, props: props, launch: k.Kernel()}, nil
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
	if p.folded != nil {
		return p.folded.Eval(params)
	}
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
	var s shape
	if p.fill != nil {
		var err error
		if s, err = p.fillShape(params); err != nil {
			return 0, err
		}
	}
	t := 0.0
	for i, w := range p.weights {
		if p.fill != nil {
			t += w * out[i] * p.fill.Scale(p.props[i], s.groups, s.size)
		} else {
			t += w * out[i]
		}
	}
	for i, name := range p.unpriced {
		if c := out[len(p.weights)+i]; c != 0 {
			return 0, fmt.Errorf("kernel %s: %s = %g but the weights have no price for it: no measurement kernel exercised it", p.kernel, name, c)
		}
	}
	return t, nil
}

// fillShape is the shape of the kernel's launch at params, given in the
// order of Params, for the grid fill.
func (p *Predictor) fillShape(params []int64) (shape, error) {
	m := make(map[string]int64, len(p.params))
	for i, name := range p.params {
		m[name] = params[i]
	}
	return kernelShape(p.kernel, p.launch, m)
}
