package polyhedra

import "fmt"

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
