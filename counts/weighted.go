package counts

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/polyhedra"
)

// Weighted is a weighted sum of a kernel's properties, Σ w_p × p, the
// linear model's prediction, compiled for evaluation millions of times.
// Every property is a sum of products of counted quantities; the weights
// are folded into one weight per distinct product, so that a call
// evaluates the quantities once (exactly, as an Evaluator does) and forms
// one sum of products in floating point, without forming the properties.
// The minima of loads and stores, which are not linear, are formed beside
// it. It is safe for concurrent use.
type Weighted struct {
	file   string
	params []string
	assume string
	set    *polyhedra.ProgramSet // the assumptions, then the quantities
	terms  []weightedTerm
	mins   []weightedMin
}

// weightedTerm is w × Π vals[factors].
type weightedTerm struct {
	w       float64
	factors []int
}

// weightedMin is w × min(Σ load, Σ store).
type weightedMin struct {
	w           float64
	load, store []weightedTerm
}

// Weighted folds the properties with the given weights (seconds per
// operation, say) into one compiled sum. Every property the kernel may
// have needs a weight; weights of properties it never has are ignored.
func (c *Counted) Weighted(weights map[string]float64) (*Weighted, error) {
	if err := c.symbolic("weighted"); err != nil {
		return nil, err
	}
	if len(c.utils) > 0 {
		return nil, fmt.Errorf("kernel %s: strided accesses whose class depends on the parameters: %w", c.k.Name, ErrNotWeighable)
	}
	for _, n := range c.names {
		w, ok := weights[n]
		if !ok {
			return nil, fmt.Errorf("kernel %s: %s has no weight: %w", c.k.Name, n, ErrNotWeighable)
		}
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return nil, fmt.Errorf("kernel %s: the weight of %s is %v, not a finite number", c.k.Name, n, w)
		}
	}
	wt := &Weighted{file: c.k.File, params: c.params, assume: c.k.Assumptions()}
	q := c.quantities()
	terms := func(name string, scale float64) []weightedTerm {
		var out []weightedTerm
		for _, g := range c.groups {
			if g.name != name {
				continue
			}
			for _, t := range g.terms {
				wt := weightedTerm{w: scale * float64(t.coef)}
				for _, f := range t.factors {
					wt.factors = append(wt.factors, q.index(f))
				}
				out = append(out, wt)
			}
		}
		return out
	}
	for _, n := range c.names {
		if rest, ok := strings.CutPrefix(n, "global.minldst."); ok {
			wt.mins = append(wt.mins, weightedMin{w: weights[n], load: terms("global.load."+rest, 1), store: terms("global.store."+rest, 1)})
			continue
		}
		wt.terms = append(wt.terms, terms(n, weights[n])...)
	}
	wt.terms = mergeWeighted(wt.terms)
	var err error
	if wt.set, err = q.compile(); err != nil {
		return nil, err
	}
	return wt, nil
}

// mergeWeighted adds up the weights of terms with the same factors (a
// product that several properties share, such as the loads and the local
// stores of a prefetch), so that each product is formed once.
func mergeWeighted(ts []weightedTerm) []weightedTerm {
	var out []weightedTerm
	at := map[string]int{}
	for _, t := range ts {
		key := fmt.Sprint(t.factors)
		if i, ok := at[key]; ok {
			out[i].w += t.w
			continue
		}
		at[key] = len(out)
		out = append(out, t)
	}
	return out
}

// Params lists the parameters in the order Eval takes their values.
func (w *Weighted) Params() []string { return slices.Clone(w.params) }

// Eval returns the weighted sum at params, given in the order of Params.
// The counted quantities are exact; parameters that violate the kernel's
// assumptions, and quantities beyond int64, are errors.
func (w *Weighted) Eval(params []int64) (float64, error) {
	if len(params) != len(w.params) {
		return 0, fmt.Errorf("weighted sum: %d parameter values for %d parameters (%s)", len(params), len(w.params), listOrNone(w.params))
	}
	var buf [stackValues]int64
	vals := buf[:]
	if n := w.set.Len(); n > stackValues {
		vals = make([]int64, n)
	} else {
		vals = vals[:n]
	}
	if err := w.set.Eval(params, vals); err != nil {
		return 0, w.errorAt(params, "%v", err)
	}
	if vals[0] != 1 {
		return 0, w.errorAt(params, "the parameters violate the assumptions %s", w.assume)
	}
	t := sumWeighted(w.terms, vals)
	for _, m := range w.mins {
		t += m.w * min(sumWeighted(m.load, vals), sumWeighted(m.store, vals))
	}
	return t, nil
}

// sumWeighted returns Σ w × Π vals[factors], in floating point.
func sumWeighted(ts []weightedTerm, vals []int64) float64 {
	s := 0.0
	for i := range ts {
		p := ts[i].w
		for _, f := range ts[i].factors {
			p *= float64(vals[f])
		}
		s += p
	}
	return s
}

func (w *Weighted) errorAt(params []int64, format string, args ...any) error {
	return errorAtParams(w.file, w.params, params, format, args...)
}
