package counts

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/uniperf/uniperf/polyhedra"
)

// This file turns a kernel into a counting plan: every property becomes a
// sum of terms, each a coefficient times a product of numbers of points
// of sets (usets). The sets are the kernel domain projected onto the
// inames an operation executes in, and the ranges of the hardware axes
// an instruction runs redundantly along. Global memory accesses carry
// their stride; their class is completed at evaluation from the
// utilization of their array's footprint.

// term is coef × Π factors. A factor is the number of points of one set,
// or the largest number among several (the launch size of an axis with
// several tagged inames); a term without factors is just coef. src says
// where it comes from, for breakdowns.
type term struct {
	coef    int64
	factors []factor
	src     source
}

// source is where a term comes from: the statement that performs it (nil
// for the launch properties) and the array it belongs to ("" for
// barriers and the launch): the array accessed, for memory traffic and
// subscript arithmetic, and the array or temporary the instruction
// assigns to, for the operations of its value.
type source struct {
	stmt  Statement
	array string
}

// factor lists sets (indices into plan.sets) whose largest size it is.
type factor []int

// key identifies a factor in maps.
func (f factor) key() string { return fmt.Sprint([]int(f)) }

// globalAccess is one global array reference of an instruction.
type globalAccess struct {
	ins    *Instruction
	site   int // left-hand side first, then right-hand side in order
	array  *Array
	store  bool
	stride int64 // strideVar when it depends on the parameters
	coef   poly  // the coefficient of the l.0 iname in the flattened index
	count  term
	upper  bool // count is an upper bound (see where)
}

type plan struct {
	k     *Kernel
	opts  Options
	sets  []*uset
	texts []string // the sets in isl notation
	// bare marks the sets registered with the parameters fixed (at or
	// fixed), which countFixed counts part by part.
	bare    []bool
	counts  []*counting          // the sets' counts, under way
	maxes   map[string]*counting // factor with several sets -> their maximum, under way
	ctx     *polyhedra.Set       // the kernel's assumptions
	workers *workers             // count the sets (see startCount)
	eager   bool                 // count each set as it is registered (see Count)
	index   map[string]int       // isl text -> set index
	proj    map[string]int       // inames -> set index of their projection
	parts   map[string]piece     // simplified parts of pieces (see simplifyParts)
	static  map[string][]term    // properties whose name is known statically
	global  []globalAccess       // global memory traffic
	fp      map[string]footprint // array -> footprint sets
	names   map[string]bool      // every name in use, for fresh variables
	refs    map[string][]gref    // array -> its references, for footprints
	// locals is the local loads that are not indirect, for the loads a
	// compiler keeps in registers (see Counted.RegisterLoadsAt).
	locals []localLoad
	// indirect maps an array to its indirect accesses, whose cells no
	// footprint can know.
	indirect map[string]*indirectUse
	bounded  []boundedAccess // the accesses CheckBounds checks
	upper    map[string]bool // static properties counted as upper bounds
	fresh    int
	// at, when set, gives every parameter a value: the footprint and
	// hierarchy sets are then counted there (see atParams).
	at map[string]int64
	// fixed, when set, gives every parameter a value at which every set
	// is counted (see CountWithAt); unlike at, it leaves the subscripts
	// of footprints as CountWith splits them.
	fixed map[string]int64
}

// gref is a reference to a global array: its subscripts, the inames it
// executes in, its direction and the affine conditions under which it
// executes (upper: and others, which its images leave out).
type gref struct {
	index  []Affine
	inames []string
	store  bool
	conds  []dnf
	upper  bool
}

// indirectUse is what the plan keeps of an array's indirect accesses:
// the first, which errors name, the terms that count their executions
// (those of their properties), and whether one loads and whether one
// stores (an atomic stores).
type indirectUse struct {
	first         *Access
	counts        []term
	loads, stores bool
}

// localLoad is a local load that is not indirect: its instruction, its
// access and its reference (the inames it executes in, the
// instruction's and its reductions', and its conditions).
type localLoad struct {
	ins *Instruction
	acc *Access
	ref gref
}

// renamedApart returns a copy of u with every dimension and existential
// variable renamed to a fresh name.
func (p *plan) renamedApart(u *uset) *uset {
	rename := map[string]string{}
	for _, v := range u.vars() {
		rename[v] = p.freshName(v)
	}
	r := &uset{}
	for _, d := range u.dims {
		r.dims = append(r.dims, rename[d])
	}
	renamed := func(pc piece) piece {
		var ex []string
		for _, e := range pc.exists {
			ex = append(ex, rename[e])
		}
		return piece{exists: ex, c: renameConj(pc.c, rename)}
	}
	for _, pc := range u.pieces {
		r.pieces = append(r.pieces, renamed(pc))
	}
	for _, pc := range u.meet {
		r.meet = append(r.meet, renamed(pc))
	}
	return r
}

// freshName returns a name used nowhere in the kernel or the plan.
func (p *plan) freshName(base string) string {
	for {
		p.fresh++
		n := base + "_" + strconv.Itoa(p.fresh)
		if !p.names[n] {
			p.names[n] = true
			return n
		}
	}
}

// domainPieces returns the kernel domain relevant to inames as pieces
// over renamed variables: rename maps each iname of the relevant
// domains to the name it gets (identity when nil); the pieces quantify
// every renamed iname not in keep.
func (p *plan) domainPieces(inames []string, rename map[string]string, keep []string) []piece {
	set := p.k.assume
	var all []string
	for _, di := range p.k.relevantDomains(inames) {
		set = set.and(p.k.Domains[di].set)
		all = append(all, p.k.Domains[di].Inames...)
	}
	var exists []string
	for _, n := range all {
		r := n
		if rename != nil {
			r = rename[n]
		}
		if !slices.Contains(keep, r) {
			exists = append(exists, r)
		}
	}
	pieces := make([]piece, len(set))
	for i, c := range set {
		pieces[i] = piece{exists: exists, c: renameConj(c, rename)}
	}
	return pieces
}

func renameConj(c conj, rename map[string]string) conj {
	if rename == nil {
		// Constraints are values that no caller changes in place, so
		// with nothing to rename they are shared, not copied.
		return append(make(conj, 0, len(c)), c...)
	}
	out := make(conj, len(c))
	for i, x := range c {
		out[i] = cons{renameQaff(x.e, rename), x.eq}
	}
	return out
}

// renameQaff renames variables; renaming cannot overflow.
func renameQaff(e qaff, rename map[string]string) qaff {
	r := qaff{c: e.c}
	if len(e.terms) > 0 {
		r.terms = make([]lterm, 0, len(e.terms))
	}
	if len(e.floors) > 0 {
		r.floors = make([]fterm, 0, len(e.floors))
	}
	for _, t := range e.terms {
		n := t.name
		if to, ok := rename[n]; ok {
			n = to
		}
		r.terms = append(r.terms, lterm{n, t.coef})
	}
	for _, f := range e.floors {
		r.floors = append(r.floors, fterm{f.coef, renameQaff(f.num, rename), f.den})
	}
	return r
}

// copyNames renames every iname of the domains relevant to inames apart.
func (p *plan) copyNames(inames []string) map[string]string {
	m := map[string]string{}
	for _, di := range p.k.relevantDomains(inames) {
		for _, n := range p.k.Domains[di].Inames {
			m[n] = p.freshName(n)
		}
	}
	return m
}

// withConds intersects pieces with conditions whose names rename renames
// (nil: none).
func withConds(pieces []piece, conds []dnf, rename map[string]string) ([]piece, error) {
	for _, d := range conds {
		if len(pieces)*len(d) > maxDisjuncts {
			return nil, fmt.Errorf("the conditions and the domain have more than %d disjuncts", maxDisjuncts)
		}
		var out []piece
		for _, pc := range pieces {
			for _, c := range d {
				out = append(out, piece{exists: pc.exists, c: append(slices.Clone(pc.c), renameConj(c, rename)...)})
			}
		}
		pieces = out
	}
	return pieces, nil
}

// footprint holds the sets that count an array's footprint: its cells,
// and its extent along each dimension.
type footprint struct {
	cells   int
	extents []int
}

// boundedAccess is an array reference whose subscripts CheckBounds
// checks: executed in inames, where the affine conditions conds hold.
// domain, where not nil, is that execution domain (see accessDomain).
type boundedAccess struct {
	acc    *Access
	ins    *Instruction
	inames []string
	conds  []dnf
	domain []piece
}
