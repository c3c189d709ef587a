package codegen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/polyhedra"
)

// polyDomain answers code generation's polyhedral questions with package
// polyhedra, from the kernel's projected domains (see
// counts.Kernel.ProjectedDomain, the one definition of where loops run and
// instructions execute).
//
// Every bound and guard is simplified against a context: facts that hold
// wherever the code is evaluated. A constraint is left out only when
// polyhedra proves that the context and the constraints kept imply it, so
// the simplified code visits the same points; correctness rests on each
// context being true at run time:
//
//   - the assumptions hold: counts refuses to launch or run a kernel at
//     parameters that violate them;
//   - inside loops over sequential inames O, the values of O lie in the
//     domain projected onto O, since the loops visit exactly those, but
//     for an unrolled loop over a constant range, whose iname lies in
//     that range only (see context);
//   - inside an instruction's guard (its reductions), the values of its
//     inames lie in the domain projected onto them;
//   - a parallel iname alone on its hardware axis takes exactly the values
//     of its index domain, its projected domain or a local iname's own
//     range (counts.Kernel.IndexDomain; counts makes that range contiguous
//     and the axis exactly as long), and one sharing its axis lies between its
//     first value and the first value plus the axis's length (see
//     hardwareFacts).
//
// A bound is never the context of itself: the first value of a parallel
// iname is computed against the assumptions alone, a loop's bounds against
// the loops around it.
type polyDomain struct {
	k      *counts.Kernel
	simp   simplifier
	sets   map[string]*polyhedra.Set // projected domains by iname list
	assume *polyhedra.Set            // the domain projected onto no iname
	firsts map[string]firstValue     // of the parallel inames
	// hardware holds what the launch grid guarantees about the parallel
	// inames, and the assumptions.
	hardware *polyhedra.Set
	// loose holds the constant ranges that unrolled loops run over (see
	// looseRanges).
	loose map[string][2]int64
}

// firstValue is the value of a parallel iname on hardware index 0: expr,
// after the statements stmts that compute it.
type firstValue struct {
	stmts []string
	expr  string
	// lows are lower bounds (isl) that the first value is at least,
	// exact the one that it equals, "" if none.
	lows  []string
	exact string
	// extent bounds the number of values the iname takes; -1 if unknown.
	extent int64
}

// projected is the kernel domain projected onto inames.
func (d *polyDomain) projected(inames []string) (*polyhedra.Set, error) {
	return d.parsed(strings.Join(inames, ","), func() string { return d.k.ProjectedDomain(inames) })
}

// parsed returns the set that src gives, parsed once and kept under key.
func (d *polyDomain) parsed(key string, src func() string) (*polyhedra.Set, error) {
	if s, ok := d.sets[key]; ok {
		return s, nil
	}
	text := src()
	s, err := polyhedra.ParseSet(text)
	if err != nil {
		return nil, fmt.Errorf("domain %s: %w", text, err)
	}
	d.sets[key] = s
	return s, nil
}

// piece is one piece of a dimension's bounds after simplification: where
// guard holds (a condition on the parameters and the outer inames), the
// values between the bounds that satisfy the other constraints.
type piece struct {
	guard []cond
	all   []cond // the bounds, and the filters that are not bounds
}

func (p piece) lo(vars map[string]string) (string, error) {
	return fold("imax", bounds(p.all, lower, vars))
}

func (p piece) hi(vars map[string]string) (string, error) {
	return fold("imin", bounds(p.all, upper, vars))
}

// indexed is the set of the values that parallel iname x takes on its
// hardware axis (counts.Kernel.IndexDomain).
func (d *polyDomain) indexed(x string) (*polyhedra.Set, error) {
	return d.parsed("index "+x, func() string { return d.k.IndexDomain(x) })
}

// pieces returns the simplified pieces of x's bounds with outer fixed,
// within ctx, leaving out those whose guards never hold there.
func (d *polyDomain) pieces(ctx *polyhedra.Set, x string, outer []string) ([]piece, error) {
	s, err := d.projected(append(slices.Clone(outer), x))
	if err != nil {
		return nil, err
	}
	return d.piecesOf(ctx, s, x, outer)
}

// piecesOf is pieces over the set s, whose dimensions are outer and x.
func (d *polyDomain) piecesOf(ctx, s *polyhedra.Set, x string, outer []string) ([]piece, error) {
	raw, err := s.Bounds(x, outer)
	if err != nil {
		return nil, err
	}
	dims := append(slices.Clone(outer), x)
	var out []piece
	for _, r := range raw {
		guard, err := d.simp.gist(ctx, dims, d.simp.constraints(r.Guard))
		if err != nil {
			return nil, err
		}
		if never, err := d.simp.isEmpty(ctx, dims, guard); err != nil || never {
			if err != nil {
				return nil, err
			}
			continue
		}
		inner, err := d.simp.within(ctx, dims, guard)
		if err != nil {
			return nil, err
		}
		all, err := d.simp.gist(inner, dims, d.simp.boundConds(x, r))
		if err != nil {
			return nil, err
		}
		out = append(out, piece{guard: guard, all: all})
	}
	return out, nil
}

// Sentinels of the first and last values of pieces whose guards fail.
const (
	intMax = "2147483647"
	intMin = "(-2147483647 - 1)"
)
