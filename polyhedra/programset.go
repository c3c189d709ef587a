package polyhedra

import (
	"fmt"
	"math"
	"sort"
)

// A ProgramSet is several PwQPolynomials compiled together for
// evaluation at the same parameter values, as the counts of a kernel's
// properties are: the floor divisions they have in common are computed
// once per call, and each function's pieces then only test constraints
// and sum terms. Like a Program it returns exact values or errors: when
// an intermediate value overflows int64, the function concerned is
// evaluated exactly instead. A ProgramSet is safe for concurrent use.
type ProgramSet struct {
	nargs  int
	width  int
	divs   []progDiv
	funcs  []setFunc
	single []*Program // each function alone, for overflow
	// fast is the whole set as one flat code stream (see flatten),
	// evaluated without overflow checks when no argument exceeds safe
	// in magnitude, which guarantees that no intermediate value can.
	fast []int64
	safe int64
}

type setFunc struct {
	pieces   []progPiece // without divs of their own
	disjoint bool
}

// stackWidth is the number of values a ProgramSet keeps on the stack
// while evaluating; wider sets allocate.
const stackWidth = 32

// CompileSet compiles fs into a ProgramSet whose Eval takes the values of
// params in that order. Every parameter of every function must be among
// params.
func CompileSet(fs []*PwQPolynomial, params []string) (ps *ProgramSet, err error) {
	defer catch(&err, "compiling")
	ps = &ProgramSet{nargs: len(params)}
	divs := &divTable{nargs: len(params), shared: map[string]int{}}
	for _, f := range fs {
		prog, err := f.Compile(params)
		if err != nil {
			return nil, err
		}
		ps.single = append(ps.single, prog)
		sf := setFunc{disjoint: f.disjoint}
		for _, pc := range f.pieces {
			sf.pieces = append(sf.pieces, compilePiece(pc, prog.argMap, divs))
		}
		ps.funcs = append(ps.funcs, sf)
	}
	ps.divs = divs.divs
	ps.width = 1 + len(params) + len(ps.divs)
	ps.fast = ps.flatten()
	ps.safe = ps.safeBound()
	return ps, nil
}

// Len returns the number of functions.
func (ps *ProgramSet) Len() int { return len(ps.funcs) }

// Eval stores the value of the i-th function at args (in the order given
// to CompileSet) in out[i]. It fails only when a value itself does not
// fit in int64.
func (ps *ProgramSet) Eval(args, out []int64) error {
	if len(args) != ps.nargs || len(out) != len(ps.funcs) {
		return fmt.Errorf("eval: %d arguments and %d results, want %d and %d", len(args), len(out), ps.nargs, len(ps.funcs))
	}
	var buf [stackWidth]int64
	vals := buf[:]
	if ps.width > stackWidth {
		vals = make([]int64, ps.width)
	}
	vals = vals[:ps.width]
	vals[0] = 1
	copy(vals[1:], args)
	small := true
	for _, a := range args {
		small = small && a <= ps.safe && a >= -ps.safe
	}
	if small && ps.evalFast(vals, out) {
		return nil
	}
	divsOK := true
	for k := range ps.divs {
		d := &ps.divs[k]
		s, ok := d.num.dotOK(vals)
		if !ok {
			divsOK = false
			break
		}
		q := s / d.den
		if s%d.den != 0 && s < 0 {
			q--
		}
		vals[1+ps.nargs+k] = q
	}
	for i := range ps.funcs {
		v, ok := ps.funcs[i].eval(vals)
		if !ok || !divsOK {
			var err error
			if v, err = ps.single[i].Eval(args); err != nil {
				return err
			}
		}
		out[i] = v
	}
	return nil
}

// eval evaluates one function at the value vector; ok is false on
// overflow or when a piece needs exact arithmetic.
func (f *setFunc) eval(vals []int64) (int64, bool) {
	var sum int64
	for i := range f.pieces {
		pp := &f.pieces[i]
		in, ok := pp.holds(vals)
		if !ok {
			return 0, false
		}
		if !in {
			continue
		}
		v, ok := pp.value(vals)
		if !ok {
			return 0, false
		}
		if sum, ok = addOK(sum, v); !ok {
			return 0, false
		}
		if f.disjoint {
			break
		}
	}
	return sum, true
}

// The fast path of a ProgramSet: its divs and functions as one flat
// stream of integers, read front to back without pointers to chase, and
// evaluated without overflow checks for arguments small enough that no
// intermediate value can overflow (safeBound proves the bound).
//
// The stream holds, for each div, a row and its denominator; then for
// each function its number of pieces and whether they are disjoint, and
// for each piece its length (to skip it), its equalities and
// inequalities, its denominator and its terms:
//
//	div:      row den
//	function: npieces disjoint piece...
//	piece:    length neqs nineqs row... den nterms term...
//	row:      c nnz (col coef)...
//	term:     coef nvars col...

// flatten writes the stream. A piece that needs exact arithmetic (a
// coefficient beyond int64) makes the fast path unusable: the stream is
// then nil.
func (ps *ProgramSet) flatten() []int64 {
	var code []int64
	row := func(r *sparseRow) {
		code = append(code, r.c, int64(len(r.cols)))
		for k, c := range r.cols {
			code = append(code, int64(c), r.coefs[k])
		}
	}
	for i := range ps.divs {
		row(&ps.divs[i].num)
		code = append(code, ps.divs[i].den)
	}
	for _, f := range ps.funcs {
		code = append(code, int64(len(f.pieces)), b2i(f.disjoint))
		for i := range f.pieces {
			pp := &f.pieces[i]
			if !pp.exact {
				return nil
			}
			start := len(code)
			code = append(code, 0, int64(len(pp.eqs)), int64(len(pp.ineqs)))
			for k := range pp.eqs {
				row(&pp.eqs[k])
			}
			for k := range pp.ineqs {
				row(&pp.ineqs[k])
			}
			code = append(code, pp.den, int64(len(pp.terms)))
			for _, t := range pp.terms {
				code = append(code, t.coef, int64(len(t.vars)))
				for _, c := range t.vars {
					code = append(code, int64(c))
				}
			}
			code[start] = int64(len(code) - start)
		}
	}
	return code
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// evalFast evaluates every function from the stream into out; it
// reports false when a polynomial's value is not an integer, which only
// the exact path can report.
func (ps *ProgramSet) evalFast(vals, out []int64) bool {
	code := ps.fast
	if code == nil {
		return false
	}
	pc := 0
	dot := func() int64 {
		s := code[pc]
		n := int(code[pc+1])
		pc += 2
		for k := 0; k < n; k++ {
			s += code[pc+1] * vals[code[pc]]
			pc += 2
		}
		return s
	}
	for k := range ps.divs {
		s := dot()
		d := code[pc]
		pc++
		q := s / d
		if s%d != 0 && s < 0 {
			q--
		}
		vals[1+ps.nargs+k] = q
	}
	for i := range out {
		npieces, disjoint := int(code[pc]), code[pc+1] == 1
		pc += 2
		var sum int64
		found := false
		for range npieces {
			end := pc + int(code[pc])
			if found {
				pc = end
				continue
			}
			neqs, nineqs := int(code[pc+1]), int(code[pc+2])
			pc += 3
			in := true
			for k := 0; k < neqs+nineqs && in; k++ {
				if v := dot(); k < neqs {
					in = v == 0
				} else {
					in = v >= 0
				}
			}
			if !in {
				pc = end
				continue
			}
			den, nterms := code[pc], int(code[pc+1])
			pc += 2
			var v int64
			for range nterms {
				m := code[pc]
				nv := int(code[pc+1])
				pc += 2
				for k := 0; k < nv; k++ {
					m *= vals[code[pc+k]]
				}
				pc += nv
				v += m
			}
			if den != 1 {
				if v%den != 0 {
					return false
				}
				v /= den
			}
			sum += v
			found = disjoint
			pc = end
		}
		out[i] = sum
	}
	return true
}

// safeBound returns the largest B such that for arguments of magnitude
// at most B every intermediate value of evalFast stays below 2^60 in
// magnitude, or -1 when there is none. The bounds of divs, rows and
// terms grow monotonically with B, so a binary search over B finds it;
// they are computed in floating point, whose rounding is far below the
// margin left to 2^63.
func (ps *ProgramSet) safeBound() int64 {
	if ps.fast == nil {
		return -1
	}
	const limit = 1 << 60
	fits := func(b float64) bool {
		bound := make([]float64, ps.width)
		bound[0] = 1
		for j := 1; j <= ps.nargs; j++ {
			bound[j] = max(b, 1)
		}
		row := func(r *sparseRow) float64 {
			s := math.Abs(float64(r.c))
			for k, c := range r.cols {
				s += math.Abs(float64(r.coefs[k])) * bound[c]
			}
			return s
		}
		ok := true
		for k := range ps.divs {
			s := row(&ps.divs[k].num)
			ok = ok && s < limit
			bound[1+ps.nargs+k] = s/float64(ps.divs[k].den) + 1
		}
		for _, f := range ps.funcs {
			sum := 0.0
			for i := range f.pieces {
				pp := &f.pieces[i]
				for k := range pp.eqs {
					ok = ok && row(&pp.eqs[k]) < limit
				}
				for k := range pp.ineqs {
					ok = ok && row(&pp.ineqs[k]) < limit
				}
				v := 0.0
				for _, t := range pp.terms {
					m := math.Abs(float64(t.coef))
					for _, c := range t.vars {
						m *= bound[c]
					}
					v += m
				}
				sum += v
			}
			ok = ok && sum < limit
		}
		return ok
	}
	return int64(sort.Search(1<<62, func(b int) bool { return !fits(float64(b)) })) - 1
}
