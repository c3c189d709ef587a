package cimport

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/uniperf/uniperf/counts"
)

// variable is what a name of the kernel stands for.
type variable struct {
	kind  string // int (val), cond (c), undef, data (a private scalar), array, ptr (base, off), group (a cooperative group), scalar (a floating-point argument, read-only)
	val   aff
	c     *cond
	name  string // the .knl name of a data variable or array
	dtype string
	scope int // the control scope (loop body, branch) it was declared in
	depth int // the ifs and loops around its declaration
	why   string
	blank bool      // an integer declared without a value and not set since: data may set it
	clamp *clamp    // a data variable's value, where it is a clamp of affine values
	base  *variable // a pointer's array
	off   *value    // a pointer's offset in it, in elements
	// Where an integer declared with a constant was declared: the items
	// and the index at which a data store may set it (accumulator).
	declList *[]*item
	declAt   int
}

// candidate is an integer variable of the kernel's top level, which
// may name an axis.
type candidate struct {
	name string
	val  aff
	// launchIndex: set to get_global_id(a), a value of the launch that C
	// computes nothing for (where CUDA's blockIdx.x*blockDim.x +
	// threadIdx.x is arithmetic that C executes).
	launchIndex bool
}

// array is an array the kernel reads or writes.
type array struct {
	name   string // the .knl name
	cname  string
	dtype  string
	space  string // global, local, private
	dims   []poly // extents (local and private: constants)
	source string // where the extents came from
	p      pos
	// A global array that the kernel never stores to is readonly where
	// its argument is const and restrict, or where __ldg reads it.
	constRestrict, ldg, stored bool
}

// readonly reports whether the .knl declares the array readonly, and
// why.
func (a *array) readonly() (string, bool) {
	switch {
	case a.space != "global" || a.stored:
		return "", false
	case a.constRestrict:
		return "const and restrict, never stored", true
	case a.ldg:
		return "read with __ldg, never stored", true
	}
	return "", false
}

// item is a statement of the .knl being built.
type item struct {
	kind  string // instr, barrier, for, if
	text  string
	iname string
	c     *cond
	body  []*item
	els   []*item
	p     pos
	free  bool // sets a private scalar to a literal: it counts nothing
}

// axis is a hardware axis: its work-group size and the inames of its
// group and work-item indices.
type axis struct {
	size         poly // a constant, or a product of tunables (consts)
	sizeSource   string
	group, local string
	launch       *launchSize // the flag that sizes the grid along the axis, if any
	bound        *cond       // the upper bound on the group index that follows from it
	groups       poly        // the number of groups (gridDim), where --groups gives it without a division
	boundSource  string
	named        string // the C variable that holds the global index, if any
	// Where the work-item index is split into lanes (lanes.go): the
	// divisor, the inames of the lane and the run, the run's hardware
	// axis, and the privates that hold what C computes.
	split             *split
	lane, run         string
	runAxis           int
	laneName, runName string
}

// fnFrame is a device function being inlined: its name, the first scope
// of its body (names of the caller's are not seen) and where its
// returns store.
type fnFrame struct {
	name string
	base int
	ret  *array
}

// translator turns a parsed kernel into .knl.
type translator struct {
	k          *kernelFunc
	cuda       bool
	scopes     []map[string]*variable
	scope      int // the current control scope
	nscopes    int
	axes       []*axis
	arrays     []*array
	privs      []*array
	params     []string
	scalars    []string        // scalar arguments: NAME DTYPE
	used       map[string]bool // .knl names taken
	inames     []string        // in order of creation
	loops      []string        // loop domains
	down       []string        // inames of loops that count down
	hoisted    []*cond
	assumed    []*cond // --assume: conditions on the size parameters
	root       []*item
	cur        *[]*item
	inIf       int
	inLoop     int
	guards     int             // the ifs of inIf that are guards of an early return
	assigned   map[string]bool // int variables assigned after their declaration
	naming     bool            // the second pass: axes are named by their C variables
	candidates []candidate     // integer variables of the top level, in order
	opts       Options
	macros     map[string]*macro
	steps      int // statements and unrolled iterations so far, against maxWork
	notes      []string
	warnings   []string        // what the import cannot decide is meant (Result.Warnings)
	guardAt    pos             // the guard hoisted into the domain, where one is
	frames     []*frame        // the ifs and loops being translated, outermost first
	hoisting   bool            // indirect subscripts are read into temporaries (the target of a compound assignment)
	tripped    map[string]bool // the loop variables of --trips met
	dataInames []string        // the inames of masked data loops, in the launch's domain
	dataBounds []*cond         // their bounds
	inData     []*item         // the data-bounded loops being translated, outermost first
	lateLoops  []string        // the domains of loops inside data-bounded loops, declared after them
	dataDepth  int             // the data-bounded loops around the items being written
	fns        []*fnFrame      // the device functions being inlined, outermost first
	// callDevice inlines a call of a device function (inline, which
	// translates statements inside an expression).
	callDevice func(fn *kernelFunc, args []*expr, p pos) (*value, error)
	// dataLoop translates a loop whose bounds are data, given its most
	// trips (loopOverData, which translates the loop's body).
	dataLoop func(s *stmt, name string, init *expr, trip string) error
	priced   map[priced]bool   // the lanes and runs counted (lanes.go)
	shifted  map[priced]string // the privates that hold shifts of work-item indices (shift.go)
	// lane evaluates a work-item's lane or run (lanes.go), which eval
	// meets in x % d, x & (d - 1) and x / d.
	lane func(e *expr, x aff, d int64, op string) (*value, string, error)
	// shift evaluates x >> C of an index x that d = 2^C does not divide
	// (shiftRight, which may split the index or set a private).
	shift func(e *expr, x aff, d int64) (*value, error)
	// holdingIf translates an if around a barrier that holds at every
	// work-item launched, and reports false where it does not hold;
	// assumeHint says what --assume would make it hold (barrierif.go).
	holdingIf  func(s *stmt, c *cond) (bool, error)
	assumeHint func() string
	inFlag     bool // a flag's expression is being evaluated: no lane is split for it
}

// frame is an if or a loop being translated. An if saves the integer
// variables declared outside it that a branch assigns, so that the
// other branch starts from their values before it and that after it
// they have none; a loop names its induction variables (x += c at the
// top level of its body, once).
type frame struct {
	loop      bool
	p         pos   // where an if stands
	c         *cond // an if's condition
	saved     map[*variable]variable
	order     []*variable
	induction map[*variable]bool
}

// lookup finds what name stands for: in an inlined function, in its
// scopes and in the kernel's outermost one (the arrays, sizes and
// constants), not in its caller's.
func (t *translator) lookup(name string) *variable {
	low := 0
	if len(t.fns) > 0 {
		low = t.fns[len(t.fns)-1].base
	}
	for i := len(t.scopes) - 1; i >= low; i-- {
		if v, ok := t.scopes[i][name]; ok {
			return v
		}
	}
	if v, ok := t.scopes[0][name]; ok {
		return v
	}
	return nil
}

func (t *translator) declare(name string, v *variable) {
	v.scope, v.depth = t.scope, len(t.frames)
	t.scopes[len(t.scopes)-1][name] = v
}

// unique returns a .knl name for want that no other name takes and that
// is no word of the language or of the C generated from it.
func (t *translator) unique(want string) string {
	if counts.ReservedInC(want) {
		// A name C reserves to the implementation (_A0), or a word of
		// the generated C that the source's dialect allows (constant in
		// CUDA), is renamed as the .knl's refusal suggests.
		want = strings.TrimLeft(want, "_") + "_k"
	}
	name := want
	for k := 2; t.used[name] || unusable(name); k++ {
		name = want + "_" + strconv.Itoa(k)
	}
	t.used[name] = true
	return name
}

// reserved lists the .knl's words, which cannot name anything.
var reserved = map[string]bool{}

// unusable reports whether name is a word of .knl, or one the C
// generated from it reserves or C reserves to the implementation.
func unusable(name string) bool { return reserved[name] || counts.ReservedInC(name) }

func init() {
	for _, w := range []string{"kernel", "const", "domain", "assume", "array", "local", "private", "split", "tag",
		"barrier", "for", "if", "elif", "else", "end", "with", "and", "or", "not", "select", "sum", "product", "max", "min",
		"exp", "log", "sqrt", "rsqrt", "sin", "cos", "fabs", "pow", "fmin", "fmax", "fmod", "floor", "ceil", "mod", "exists"} {
		reserved[w] = true
	}
}

// maxWork bounds the statements a translation emits and the iterations
// it unrolls, so that nested unrolled loops end in an error rather than
// taking hours.
const maxWork = 100000

func (t *translator) emit(it *item) { *t.cur = append(*t.cur, it) }

// work counts a step of the translation against maxWork.
func (t *translator) work(p pos) error {
	t.steps++
	if t.steps > maxWork {
		return errorAt(p, "the kernel translates to more than %d statements and unrolled iterations; write its loops with affine steps", maxWork)
	}
	return nil
}

// elemType is the .knl type of a C type's elements.
func elemType(c ctype, p pos, name string) (string, error) {
	switch c.base {
	case "float":
		return "f32", nil
	case "double":
		return "f64", nil
	case "int":
		return "i32", nil
	case "unsigned":
		return "u32", nil
	case "long", "ulong":
		return "i64", nil
	case "char":
		return "i8", nil
	case "uchar", "bool":
		return "u8", nil
	case "short":
		return "i16", nil
	case "ushort":
		return "u16", nil
	case "half":
		return "f16", nil
	}
	return "", errorAt(p, "%s: type %s has no .knl type (f32, f64, f16, i8, u8, i16, u16, i32, u32, i64)", name, c.base)
}

// domainText writes a domain of one iname with the constraints cs.
func (t *translator) domainText(iname string, cs []*cond) string {
	return fmt.Sprintf("{ [%s] : %s }", iname, t.constraints(cs, true))
}

// constraints joins constraints with "and"; in domains (dom) the
// group and work-item indices of a named axis are written through its
// global index, which is the only iname of the axis before the split.
func (t *translator) constraints(cs []*cond, dom bool) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, c.format(func(a aff) string { return t.affText(a, dom) }))
	}
	if len(parts) == 0 {
		return "0 == 0"
	}
	return joinAnd(parts)
}

func joinAnd(parts []string) string {
	out := parts[0]
	for _, p := range parts[1:] {
		out += " and " + p
	}
	return out
}

// affText writes an affine expression with the .knl's inames: on an
// axis named by a C variable v, L*group + local is v, and what remains
// of them is v's split parts (in instructions) or floor(v/L) and
// v mod L (in domains).
func (t *translator) affText(a aff, dom bool) string {
	names := map[string]string{}
	out := a
	for _, ax := range t.axes {
		if ax.split != nil {
			out = ax.joinSplit(out)
			if dom {
				names[ax.lane] = fmt.Sprintf("(%s mod %d)", ax.local, ax.split.c)
				names[ax.run] = fmt.Sprintf("floor(%s/%d)", ax.local, ax.split.c)
			}
		}
		if ax.named == "" {
			continue
		}
		cg, cl := a[ax.group], a[ax.local]
		if len(cl) > 0 {
			if want, ok := cl.mul(ax.size); ok && want.equal(cg) {
				out, _ = out.add(aff{ax.group: cg, ax.local: cl}, -1)
				out, _ = out.add(aff{ax.named: cl}, 1)
			}
		}
		if dom {
			names[ax.group] = fmt.Sprintf("floor(%s/%s)", ax.named, sizeText(ax.size))
			names[ax.local] = fmt.Sprintf("(%s mod %s)", ax.named, sizeText(ax.size))
		} else {
			names[ax.group], names[ax.local] = ax.named+"_out", ax.named+"_in"
		}
	}
	return out.format(t.inameOrder(), names)
}

func (t *translator) inameOrder() []string {
	var order []string
	for _, ax := range t.axes {
		if ax.named != "" {
			order = append(order, ax.named)
		}
		order = append(order, ax.group, ax.local)
		if ax.split != nil {
			order = append(order, ax.lane, ax.run)
		}
	}
	return append(order, t.inames...)
}

// sizeText writes a work-group size as a factor: 16, BS or (BX*TX).
func sizeText(p poly) string {
	s := p.String()
	if len(p) == 1 && !strings.Contains(s, "*") {
		return s
	}
	return "(" + s + ")"
}

// priced is an expression that computes a lane or a run, at a step of
// the translation: an expression evaluated twice for one statement (an
// assignment that tries a second reading) is counted once.
type priced struct {
	e    *expr
	step int
}

// localValue is the axis's work-item index: run*C + lane where it is
// split.
func (ax *axis) localValue() aff {
	if ax.split == nil {
		return affIname(ax.local)
	}
	return aff{ax.run: constPoly(ax.split.c), ax.lane: constPoly(1)}
}

// joinSplit writes k*C*run + k*lane of a split axis as k times its
// work-item index, the iname the split replaces, which costs nothing as
// a value.
func (ax *axis) joinSplit(a aff) aff {
	cl, cr := a[ax.lane], a[ax.run]
	if ax.split == nil || len(cl) == 0 {
		return a
	}
	if want, ok := cl.mul(constPoly(ax.split.c)); !ok || !want.equal(cr) {
		return a
	}
	out, _ := a.add(aff{ax.lane: cl, ax.run: cr}, -1)
	out, _ = out.add(aff{ax.local: cl}, 1)
	return out
}
