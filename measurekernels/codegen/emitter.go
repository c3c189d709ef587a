package codegen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/counts"
)

// domain answers the polyhedral questions of code generation, with answers
// rendered as C over inames (C variables of the same names), parameters
// and the helpers floordiv, imin and imax. known lists inames whose current
// values are known to lie in the kernel domain projected onto them.
type domain interface {
	// base is the value of a parallel iname on hardware index 0: its
	// smallest value in the kernel domain projected onto it, as an
	// expression of the parameters, after the statements stmts (which
	// compute it when it is not a plain expression).
	base(iname string) (stmts []string, expr string, err error)
	// loop bounds iname over the kernel domain projected onto known,
	// lanes and iname, for the current values of known and lanes: known
	// are inames whose values lie in the domain projected onto them, lanes
	// parallel inames of which only the launch grid's facts are known.
	loop(iname string, known, lanes []string) (loopBounds, error)
	// member is the test that the current values of inames lie in the
	// domain projected onto them ("" when it always holds).
	member(inames, known []string) (string, error)
}

// loopBounds are the C bounds of a loop: where guard holds, the values
// from lo to hi (inclusive) that satisfy filter. Empty guards and filters
// always hold.
type loopBounds struct {
	guard, lo, hi, filter string
}

// emitter writes one kernel's body.
type emitter struct {
	k       *counts.Kernel
	d       dialect
	dom     domain
	b       *strings.Builder
	temp    int             // counter for temporaries
	f64     bool            // double precision used
	f16     bool            // halves used
	helpers map[string]bool // integer helpers used: floordiv_i32, ...
}

func (e *emitter) line(depth int, format string, args ...any) {
	e.b.WriteString(strings.Repeat("\t", depth))
	fmt.Fprintf(e.b, format, args...)
	e.b.WriteByte('\n')
}

// openLoop writes the head of a loop over iname (its guard, the for, its
// filter) and returns the depth of its body and the function that closes
// it.
func (e *emitter) openLoop(iname string, lb loopBounds, depth int) (int, func()) {
	var opened []int
	if lb.guard != "" {
		e.line(depth, "if (%s) {", lb.guard)
		opened = append(opened, depth)
		depth++
	}
	// The pragma must come right before the for, after any guard.
	if in := e.k.Iname(iname); in != nil && in.Tag.Kind == counts.Unroll {
		e.line(depth, "#pragma unroll")
	}
	if in := e.k.Iname(iname); in != nil && in.Tag.Kind == counts.Down {
		e.line(depth, "for (int %s = %s; %s >= %s; --%s) {", iname, lb.hi, iname, lb.lo, iname)
	} else {
		e.line(depth, "for (int %s = %s; %s; ++%s) {", iname, lb.lo, below(iname, lb.hi), iname)
	}
	opened = append(opened, depth)
	depth++
	if lb.filter != "" {
		e.line(depth, "if (%s) {", lb.filter)
		opened = append(opened, depth)
		depth++
	}
	return depth, func() {
		for i := len(opened) - 1; i >= 0; i-- {
			e.line(opened[i], "}")
		}
	}
}

func (e *emitter) use(t counts.DType) {
	switch t {
	case counts.F64:
		e.f64 = true
	case counts.F16:
		e.f16 = true
	}
}

// temporary declares a fresh C variable of type t holding v.
func (e *emitter) temporary(prefix string, t counts.DType, v string, depth int) string {
	name := e.fresh(prefix)
	e.use(t)
	e.line(depth, "%s %s = %s;", e.d.ctype(t), name, v)
	return name
}

// fresh is a new name for a temporary: prefix and a number, skipping
// the kernel's own names.
func (e *emitter) fresh(prefix string) string {
	for {
		name := fmt.Sprintf("%s%d", prefix, e.temp)
		e.temp++
		if !kernelName(e.k, name) {
			return name
		}
	}
}

// kernelName reports whether the kernel already uses name for itself, an
// iname, a parameter or an array.
func kernelName(k *counts.Kernel, name string) bool {
	return name == k.Name || k.Iname(name) != nil || k.Array(name) != nil || slices.Contains(k.Params, name)
}

// unusedName is base, or base followed by underscores where the kernel
// uses that name.
func unusedName(k *counts.Kernel, base string) string {
	for kernelName(k, base) {
		base += "_"
	}
	return base
}

// unwrapped drops the parentheses around a whole expression, so that an
// if statement's test has one pair: compilers warn about if ((a == b)),
// which reads like a mistaken assignment.
func unwrapped(s string) string {
	if len(s) < 2 || s[0] != '(' || s[len(s)-1] != ')' {
		return s
	}
	depth := 0
	for i, c := range s {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 && i < len(s)-1 {
				return s
			}
		}
	}
	return s[1 : len(s)-1]
}
