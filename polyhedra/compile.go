package polyhedra

import (
	"fmt"
	"math"
	"math/big"
	"slices"
)

// A Program is a PwQPolynomial compiled for fast evaluation at int64
// parameter values given in a fixed order: flat integer rows for the divs
// and domain constraints of each piece and, per piece, the polynomial
// with its coefficients brought to a common denominator. Every operation
// is checked; when an intermediate value overflows, Eval falls back to
// exact big-integer evaluation, so it returns the exact value or an error,
// never a wrapped-around one. A Program is safe for concurrent use.
type Program struct {
	nargs    int
	width    int // 1 + nargs + the most divs of any piece
	pieces   []progPiece
	disjoint bool
	source   *PwQPolynomial
	argMap   []int // source parameter i is argument argMap[i]
}

type progPiece struct {
	divs  []progDiv
	eqs   []sparseRow // over [1, args..., divs...]
	ineqs []sparseRow
	terms []progTerm
	den   int64 // the polynomial is sum(terms)/den
	exact bool  // coefficients fit in int64; otherwise always use big
}

type progDiv struct {
	num sparseRow
	den int64
}

// sparseRow is c + Σ coefs[k] * vals[cols[k]]: only the non-zero entries
// of a row, whose columns are mostly zero.
type sparseRow struct {
	c     int64
	cols  []int
	coefs []int64
}

type progTerm struct {
	coef  int64
	vars  []int // column indices, repeated by exponent
	fcoef float64
}

// Compile turns p into a Program whose Eval takes the values of params in
// that order. Every parameter of p must be among params; others are
// accepted and ignored.
func (p *PwQPolynomial) Compile(params []string) (prog *Program, err error) {
	defer catch(&err, "compiling")
	argMap, err := argMapOf(p, params)
	if err != nil {
		return nil, err
	}
	prog = &Program{nargs: len(params), width: 1 + len(params), disjoint: p.disjoint, source: p, argMap: argMap}
	for _, pc := range p.pieces {
		prog.width = max(prog.width, 1+len(params)+len(pc.divs))
	}
	for _, pc := range p.pieces {
		divs := &divTable{nargs: len(params)}
		pp := compilePiece(pc, argMap, divs)
		pp.divs = divs.divs
		prog.pieces = append(prog.pieces, pp)
	}
	return prog, nil
}

// argMapOf maps p's parameters to their positions in params.
func argMapOf(p *PwQPolynomial, params []string) ([]int, error) {
	argMap := make([]int, len(p.params))
	for i, n := range p.params {
		argMap[i] = slices.Index(params, n)
		if argMap[i] < 0 {
			return nil, fmt.Errorf("compile: missing parameter %s", n)
		}
	}
	return argMap, nil
}

// divTable lists the divs of compiled pieces, in columns 1 + nargs + k
// of the value vector; with shared set, equal divs get one column.
type divTable struct {
	nargs  int
	divs   []progDiv
	shared map[string]int
}

// col returns the column of a div.
func (t *divTable) col(d progDiv) int {
	if t.shared != nil {
		key := fmt.Sprint(d)
		if k, ok := t.shared[key]; ok {
			return 1 + t.nargs + k
		}
		t.shared[key] = len(t.divs)
	}
	t.divs = append(t.divs, d)
	return t.nargs + len(t.divs)
}

func compilePiece(pc *bset, argMap []int, divs *divTable) progPiece {
	// column c of pc goes to column cmap[c] of the value vector
	cmap := make([]int, pc.width())
	for c := 1; c <= pc.np; c++ {
		cmap[c] = 1 + argMap[c-1]
	}
	move := func(r []int64) sparseRow {
		s := sparseRow{c: r[0]}
		for c := 1; c < len(r); c++ {
			if r[c] != 0 {
				s.cols = append(s.cols, cmap[c])
				s.coefs = append(s.coefs, r[c])
			}
		}
		return s
	}
	for k, d := range pc.divs {
		cmap[pc.divCol(k)] = divs.col(progDiv{move(d.num), d.den})
	}
	var pp progPiece
	for _, r := range pc.eqs {
		pp.eqs = append(pp.eqs, move(r))
	}
	for _, r := range pc.ineqs {
		pp.ineqs = append(pp.ineqs, move(r))
	}
	den := big.NewInt(1)
	for _, t := range pc.poly.terms {
		den.Mul(den, new(big.Int).Div(t.c.Denom(), new(big.Int).GCD(nil, nil, den, t.c.Denom())))
	}
	pp.exact = den.IsInt64()
	if pp.exact {
		pp.den = den.Int64()
	}
	for _, t := range pc.poly.terms {
		var vars []int
		for c, k := range t.exp {
			for ; k > 0; k-- {
				vars = append(vars, cmap[c])
			}
		}
		scaled := new(big.Int).Mul(t.c.Num(), new(big.Int).Div(den, t.c.Denom()))
		f, _ := t.c.Float64()
		term := progTerm{vars: vars, fcoef: f}
		if scaled.IsInt64() {
			term.coef = scaled.Int64()
		} else {
			pp.exact = false
		}
		pp.terms = append(pp.terms, term)
	}
	return pp
}

// Eval returns the value at args (in the order given to Compile). It
// fails only when the value itself does not fit in int64.
func (prog *Program) Eval(args []int64) (int64, error) {
	if len(args) != prog.nargs {
		return 0, fmt.Errorf("eval: %d arguments, want %d", len(args), prog.nargs)
	}
	var buf [32]int64
	vals := prog.values(buf[:0], args)
	var sum int64
	for i := range prog.pieces {
		pp := &prog.pieces[i]
		in, ok := pp.contains(vals, prog.nargs)
		if !ok {
			return prog.slowEval(args)
		}
		if !in {
			continue
		}
		v, ok := pp.value(vals)
		if !ok {
			return prog.slowEval(args)
		}
		if sum, ok = addOK(sum, v); !ok {
			return prog.slowEval(args)
		}
		if prog.disjoint {
			break
		}
	}
	return sum, nil
}

// EvalFloat returns the value at args as a float64: divs and domains are
// decided exactly, the polynomial is evaluated in floating point. It is
// meant for predictions, where a rounded count is good enough and speed
// matters; it returns NaN when a div or constraint overflows int64.
func (prog *Program) EvalFloat(args []int64) float64 {
	if len(args) != prog.nargs {
		return math.NaN()
	}
	var buf [32]int64
	vals := prog.values(buf[:0], args)
	var sum float64
	for i := range prog.pieces {
		pp := &prog.pieces[i]
		in, ok := pp.contains(vals, prog.nargs)
		if !ok {
			return math.NaN()
		}
		if !in {
			continue
		}
		for _, t := range pp.terms {
			m := t.fcoef
			for _, c := range t.vars {
				m *= float64(vals[c])
			}
			sum += m
		}
		if prog.disjoint {
			break
		}
	}
	return sum
}

// values returns the column vector [1, args..., room for divs], in buf
// when it is large enough (so that evaluation does not allocate).
func (prog *Program) values(buf, args []int64) []int64 {
	vals := buf[:0]
	if cap(buf) < prog.width {
		vals = make([]int64, 0, prog.width)
	}
	vals = vals[:prog.width]
	vals[0] = 1
	copy(vals[1:], args)
	return vals
}

// slowEval evaluates exactly with big integers.
func (prog *Program) slowEval(args []int64) (int64, error) {
	vals := make([]int64, len(prog.argMap))
	for i, a := range prog.argMap {
		vals[i] = args[a]
	}
	v, err := evalBig(prog.source, vals)
	if err != nil {
		return 0, err
	}
	if !v.IsInt64() {
		return 0, fmt.Errorf("eval: value %s: %w", v, ErrOverflow)
	}
	return v.Int64(), nil
}

func evalBig(p *PwQPolynomial, vals []int64) (v *big.Int, err error) {
	defer catch(&err, "evaluating")
	return p.evalVals(vals)
}

// contains computes the divs into vals and tests the constraints; ok is
// false on overflow.
func (pp *progPiece) contains(vals []int64, nargs int) (in, ok bool) {
	for k := range pp.divs {
		d := &pp.divs[k]
		s, ok := d.num.dotOK(vals)
		if !ok {
			return false, false
		}
		q := s / d.den
		if s%d.den != 0 && s < 0 {
			q--
		}
		vals[1+nargs+k] = q
	}
	return pp.holds(vals)
}

// holds tests the constraints at vals, divs included; ok is false on
// overflow.
func (pp *progPiece) holds(vals []int64) (in, ok bool) {
	for i := range pp.eqs {
		s, ok := pp.eqs[i].dotOK(vals)
		if !ok {
			return false, false
		}
		if s != 0 {
			return false, true
		}
	}
	for i := range pp.ineqs {
		s, ok := pp.ineqs[i].dotOK(vals)
		if !ok {
			return false, false
		}
		if s < 0 {
			return false, true
		}
	}
	return true, true
}

// value returns the polynomial's value; ok is false on overflow or when
// the piece needs big arithmetic.
func (pp *progPiece) value(vals []int64) (int64, bool) {
	if !pp.exact {
		return 0, false
	}
	var sum int64
	for i := range pp.terms {
		t := &pp.terms[i]
		m := t.coef
		for _, c := range t.vars {
			var ok bool
			if m, ok = mulOK(m, vals[c]); !ok {
				return 0, false
			}
		}
		var ok bool
		if sum, ok = addOK(sum, m); !ok {
			return 0, false
		}
	}
	if pp.den == 1 {
		return sum, true
	}
	if sum%pp.den != 0 {
		return 0, false // not an integer: let the exact path report it
	}
	return sum / pp.den, true
}

// dotOK evaluates the row at vals; ok is false on overflow.
func (r *sparseRow) dotOK(vals []int64) (int64, bool) {
	s := r.c
	for k, c := range r.cols {
		p, ok := mulOK(r.coefs[k], vals[c])
		if !ok {
			return 0, false
		}
		if s, ok = addOK(s, p); !ok {
			return 0, false
		}
	}
	return s, true
}
