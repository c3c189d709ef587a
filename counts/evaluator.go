package counts

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/uniperf/uniperf/polyhedra"
)

// An Evaluator computes chosen properties of a counted kernel at
// parameter values given as a slice, for predictions made millions of
// times: it evaluates each counted quantity the properties share once per
// call with compiled polyhedra Programs and checked int64 arithmetic, and
// allocates nothing. It is safe for concurrent use.
type Evaluator struct {
	file    string
	params  []string
	assume  string // for errors
	conds   [][]pcons
	progs   []*polyhedra.Program
	utils   []evUtil
	props   []evProp
	maxVals int
}

type evUtil struct {
	cells, fill int
	den         int64
}

// evTerm is coef × Π vals[factors], counted when util < 0 or when the
// class numerator of utils[util] is num.
type evTerm struct {
	coef    int64
	factors []int
	util    int
	num     int64
}

// evProp is the sum of terms, or for min the smaller of the sums of
// terms and of other.
type evProp struct {
	terms, other []evTerm
	min          bool
}

// stackValues is the number of quantities an Evaluator keeps on the
// stack; beyond it a call allocates.
const stackValues = 64

// Compile returns an Evaluator of the given properties, in that order.
// Each name must be a property name of the package documentation; a
// property the kernel never has evaluates to 0.
func (c *Counted) Compile(properties []string) (*Evaluator, error) {
	e := &Evaluator{file: c.k.File, params: c.params, assume: c.k.Assumptions()}
	for _, cj := range c.k.assume {
		var conds []pcons
		for _, x := range cj {
			conds = append(conds, pcons{compileParamExpr(x.e, c.params), x.eq})
		}
		e.conds = append(e.conds, conds)
	}
	local := map[int]int{}
	val := func(v int) int {
		if i, ok := local[v]; ok {
			return i
		}
		local[v] = len(e.progs)
		e.progs = append(e.progs, c.progs[v])
		return local[v]
	}
	localUtil := map[int]int{}
	utilOf := func(u int) int {
		if i, ok := localUtil[u]; ok {
			return i
		}
		localUtil[u] = len(e.utils)
		e.utils = append(e.utils, evUtil{cells: val(c.utils[u].cells), fill: val(c.utils[u].fill), den: c.utils[u].den})
		return localUtil[u]
	}
	terms := func(name string) []evTerm {
		var out []evTerm
		for _, g := range c.groups {
			add := func(util int, num int64) {
				for _, t := range g.terms {
					et := evTerm{coef: t.coef, util: util, num: num}
					for _, f := range t.factors {
						et.factors = append(et.factors, val(f))
					}
					out = append(out, et)
				}
			}
			if g.util < 0 {
				if g.name == name {
					add(-1, 0)
				}
				continue
			}
			for num := int64(1); num <= c.utils[g.util].den; num++ {
				if g.nameAt(num) == name {
					add(utilOf(g.util), num)
				}
			}
		}
		return out
	}
	for _, name := range properties {
		if !propertyNames()[name] {
			return nil, errorf(c.k.File, Pos{}, "unknown property %q (see the property names of package counts)", name)
		}
		if rest, ok := strings.CutPrefix(name, "global.minldst."); ok {
			e.props = append(e.props, evProp{terms: terms("global.load." + rest), other: terms("global.store." + rest), min: true})
		} else {
			e.props = append(e.props, evProp{terms: terms(name)})
		}
	}
	e.maxVals = max(len(e.progs), len(e.utils))
	return e, nil
}

// Eval fills out[i] with the value of the i-th property given to Compile
// at params, the values of the parameters in the order of
// Counted.Params. The values are exact integers converted to float64.
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
	if !e.assumed(params) {
		return e.errorAt(params, "the parameters violate the assumptions %s", e.assume)
	}
	var buf, cbuf [stackValues]int64
	vals, classes := buf[:], cbuf[:]
	if e.maxVals > stackValues {
		vals, classes = make([]int64, e.maxVals), make([]int64, e.maxVals)
	}
	for i, p := range e.progs {
		v, err := p.Eval(params)
		if err != nil {
			return e.errorAt(params, "%v", err)
		}
		vals[i] = v
	}
	for i, u := range e.utils {
		classes[i] = utilClass(vals[u.cells], vals[u.fill], u.den)
	}
	for i := range e.props {
		pr := &e.props[i]
		v, ok := sumTerms(pr.terms, vals, classes)
		if ok && pr.min {
			var w int64
			if w, ok = sumTerms(pr.other, vals, classes); ok {
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

// sumTerms adds up the terms that apply; ok is false on overflow.
func sumTerms(terms []evTerm, vals, classes []int64) (int64, bool) {
	var s int64
	for i := range terms {
		t := &terms[i]
		if t.util >= 0 && classes[t.util] != t.num {
			continue
		}
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

func (e *Evaluator) errorAt(params []int64, format string, args ...any) error {
	parts := make([]string, len(e.params))
	for i, p := range e.params {
		parts[i] = p + "=" + strconv.FormatInt(params[i], 10)
	}
	return errorf(e.file, Pos{}, "at %s: %s", strings.Join(parts, ", "), fmt.Sprintf(format, args...))
}

// assumed reports whether params satisfy the assumptions (a constraint
// that overflows does not hold).
func (e *Evaluator) assumed(params []int64) bool {
	for _, cj := range e.conds {
		ok := true
		for _, x := range cj {
			v, fine := x.e.eval(params)
			if !fine || (x.eq && v != 0) || (!x.eq && v < 0) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// pexpr is a quasi-affine expression over parameter values by index.
type pexpr struct {
	c      int64
	lin    []pterm
	floors []pfloor
}

type pterm struct {
	arg  int
	coef int64
}

type pfloor struct {
	coef int64
	num  pexpr
	den  int64
}

type pcons struct {
	e  pexpr
	eq bool
}

func compileParamExpr(a qaff, params []string) pexpr {
	e := pexpr{c: a.c}
	for _, t := range a.terms {
		e.lin = append(e.lin, pterm{slices.Index(params, t.name), t.coef})
	}
	for _, f := range a.floors {
		e.floors = append(e.floors, pfloor{f.coef, compileParamExpr(f.num, params), f.den})
	}
	return e
}

// eval computes the expression with checked arithmetic.
func (e *pexpr) eval(args []int64) (int64, bool) {
	s := e.c
	var err error
	for _, t := range e.lin {
		if s, err = addScaled(s, args[t.arg], t.coef); err != nil {
			return 0, false
		}
	}
	for i := range e.floors {
		f := &e.floors[i]
		n, ok := f.num.eval(args)
		if !ok {
			return 0, false
		}
		if s, err = addScaled(s, floorDiv(n, f.den), f.coef); err != nil {
			return 0, false
		}
	}
	return s, true
}

// propertyNames is the set of every property name of the package
// documentation.
var propertyNames = sync.OnceValue(func() map[string]bool {
	names := map[string]bool{"sync.barrier": true, "launch.groups": true, "launch.const": true}
	classes := []string{"0", "1"}
	for s := int64(2); s <= 5; s++ {
		for k := int64(1); k <= classDenominator(s); k++ {
			classes = append(classes, strideName(s, k))
		}
	}
	for _, t := range []DType{F32, F64, I32, I64} {
		for _, dir := range []string{"load", "store"} {
			names["local."+dir+"."+t.String()] = true
		}
		for _, dir := range []string{"load", "store", "minldst"} {
			for _, c := range classes {
				names["global."+dir+"."+t.String()+".stride="+c] = true
			}
		}
		for k := KindAdd; k <= KindSpecial; k++ {
			names[Op{k, t}.Property()] = true
		}
	}
	return names
})
