package counts

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/uniperf/uniperf/polyhedra"
)

// An Evaluator computes chosen properties of a counted kernel at
// parameter values given as a slice, for predictions made millions of
// times. The counted quantities the properties need are compiled
// together into one polyhedra.ProgramSet, so that each is evaluated once
// per call however many properties share it; products and sums use
// checked int64 arithmetic. A call allocates nothing unless the kernel
// needs more than a few dozen quantities. It is safe for concurrent use.
type Evaluator struct {
	file   string
	params []string
	assume string                // for errors
	set    *polyhedra.ProgramSet // the assumptions, then the quantities
	utils  []evUtil
	sums   [][]prodTerm // distinct sums of terms over the set's values
	props  []evProp
	stack  int // the intermediate values a call needs
}

type evUtil struct {
	cells, fill int
	den         int64
}

// evPart is the sum sums[sum], counted when util < 0 or when the class
// numerator of utils[util] is num.
type evPart struct {
	sum  int
	util int
	num  int64
}

// evProp is the sum of parts, or for min the smaller of the sums of
// parts and of other.
type evProp struct {
	parts, other []evPart
	min          bool
}

// stackValues is the number of intermediate values an Evaluator keeps
// on the stack; beyond it a call allocates.
const stackValues = 48

// Eval fills out[i] with the value of the i-th property given to Compile
// at params, the values of the parameters in the order of
// Counted.Params. The values are computed exactly in int64 and then
// converted to float64 (which rounds them beyond 2^53).
// Parameters that violate the kernel's assumptions, and counts that do
// not fit in int64, are errors.
func (e *Evaluator) Eval(params []int64, out []float64) error {
	if len(out) != len(e.props) {
		return fmt.Errorf("evaluator: %d outputs for %d properties", len(out), len(e.props))
	}
	return e.run(params, func(i int, v int64) { out[i] = float64(v) })
}

// evalInts is Eval with integer outputs.
func (e *Evaluator) evalInts(params []int64, out []int64) error {
	return e.run(params, func(i int, v int64) { out[i] = v })
}

func (e *Evaluator) run(params []int64, set func(int, int64)) error {
	if len(params) != len(e.params) {
		return fmt.Errorf("evaluator: %d parameter values for %d parameters (%s)", len(params), len(e.params), listOrNone(e.params))
	}
	var buf [stackValues]int64
	scratch := buf[:]
	if e.stack > stackValues {
		scratch = make([]int64, e.stack)
	}
	vals := scratch[:e.set.Len()]
	classes := scratch[len(vals) : len(vals)+len(e.utils)]
	sums := scratch[len(vals)+len(classes) : e.stack]
	if err := e.set.Eval(params, vals); err != nil {
		return e.errorAt(params, "%v", err)
	}
	if vals[0] != 1 {
		return e.errorAt(params, "the parameters violate the assumptions %s", e.assume)
	}
	for i, u := range e.utils {
		classes[i] = utilClass(vals[u.cells], vals[u.fill], u.den)
	}
	for i, ts := range e.sums {
		var ok bool
		if sums[i], ok = sumTerms(ts, vals); !ok {
			return e.errorAt(params, "a count does not fit in 64 bits: %v", errOverflow)
		}
	}
	for i := range e.props {
		pr := &e.props[i]
		v, ok := addParts(pr.parts, sums, classes)
		if ok && pr.min {
			var w int64
			if w, ok = addParts(pr.other, sums, classes); ok {
				v = min(v, w)
			}
		}
		if !ok {
			return e.errorAt(params, "a count does not fit in 64 bits: %v", errOverflow)
		}
		set(i, v)
	}
	return nil
}

// sumTerms returns Σ coef × Π vals[factors]; ok is false on overflow.
func sumTerms(terms []prodTerm, vals []int64) (int64, bool) {
	var s int64
	for i := range terms {
		t := &terms[i]
		v := t.coef
		var err error
		for _, f := range t.factors {
			if v, err = mulInt(v, vals[f]); err != nil {
				return 0, false
			}
		}
		if s, err = addInt(s, v); err != nil {
			return 0, false
		}
	}
	return s, true
}

// addParts adds up the parts that apply; ok is false on overflow.
func addParts(parts []evPart, sums, classes []int64) (int64, bool) {
	var s int64
	for _, p := range parts {
		if p.util >= 0 && classes[p.util] != p.num {
			continue
		}
		var err error
		if s, err = addInt(s, sums[p.sum]); err != nil {
			return 0, false
		}
	}
	return s, true
}

func (e *Evaluator) errorAt(params []int64, format string, args ...any) error {
	return errorAtParams(e.file, e.params, params, format, args...)
}

// errorAtParams is an evaluation error that names the parameter values.
func errorAtParams(file string, names []string, params []int64, format string, args ...any) error {
	parts := make([]string, len(names))
	for i, p := range names {
		parts[i] = p + "=" + strconv.FormatInt(params[i], 10)
	}
	return errorf(file, Pos{}, "at %s: %s", strings.Join(parts, ", "), fmt.Sprintf(format, args...))
}

// prodTerm is coef × Π values[factors].
type prodTerm struct {
	coef    int64
	factors []int
}
