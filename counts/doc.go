// Package counts reads GPU kernels written in the .knl format, builds
// their typed intermediate representation and schedule, executes them
// with a reference interpreter, and defines their performance-relevant
// properties (see Properties), the kernel properties of Stevens and
// Klöckner's unified, hardware-fitted performance model (seed 001), and
// counts them symbolically. Internally each property is a sum of products
// of numbers of points of integer sets; package polyhedra counts the sets
// as piecewise quasi-polynomials in the size parameters, and an exact
// enumerator checks them against the interpreter.
//
// [ParseKernel] reads a kernel, [Kernel.Launch] computes its launch grid,
// [Run] interprets it, [Count] (or [CountWith]) counts it; a [Counted]
// also splits its properties by instruction or array
// ([Counted.Breakdown]) and counts the footprints of its global arrays
// ([Counted.Footprints]). The main types are [Kernel] (the parsed kernel:
// domains, inames, arrays, statements and Schedule), the expression nodes
// of [Expr], the schedule nodes of [Node] ([Loop], [Instruction],
// [Barrier]), [Tally] (what the interpreter did), [Counted] (the symbolic
// counts of a kernel), [Evaluator] (chosen counts compiled for fast
// evaluation) and [Weighted] (a weighted sum of the counts compiled for
// fast evaluation: a linear prediction).
//
// # The .knl format
//
// A .knl file is a sequence of statements, one per line. A statement
// continues onto the next line while a bracket ( [ { is open, so domains
// and long instructions may span lines. '#' starts a comment that runs
// to the end of the line. The statements are:
//
//	kernel NAME                          the kernel's name; first (after consts)
//	const NAME = INT                     a compile-time integer constant
//	domain [PARAMS] -> { [INAMES] : CONSTRAINTS }
//	assume CONSTRAINTS                   assumptions on the parameters
//	array NAME DTYPE [SHAPE] [order=F]   a global array (order=F: column-major)
//	local NAME DTYPE [SHAPE]             a work-group local array
//	private NAME DTYPE [SHAPE]           a per-work-item temporary
//	split INAME FACTOR [OUTER INNER]     INAME = FACTOR*OUTER + INNER
//	tag INAME TAG {, INAME TAG}          g.0-2, l.0-2, l.auto, unr, ilp, seq
//	LHS = EXPR [{ANNOTATIONS}]           an instruction
//	LHS OP= EXPR [{ANNOTATIONS}]         LHS = LHS OP (EXPR), for OP + - * / (loopy's
//	                                     and C's compound assignment: a load,
//	                                     the operation and a store)
//	<DTYPE> NAME = EXPR, <> NAME = EXPR  an instruction declaring a private scalar
//	<> NAME[INAME, ...] = EXPR           ... declaring a private array (see below)
//	if COND: INSTRUCTION                 a predicated instruction
//	barrier [{ANNOTATIONS}]              a local barrier (also "... lbarrier")
//	for INAME {, INAME}  ...  end        loopy's block: what is inside runs in INAMEs too
//	if COND ... [elif COND ...] [else ...] end
//	                                     loopy's block: what is inside is predicated
//
// DTYPE is f32, f64, i32 or i64 (float32, float64, int32 and int64 are
// accepted too). A SHAPE lists extents in brackets, [n, m + 1]; extents
// are sums of integer multiples of parameters and of their products
// ([n*n], [nz*ny*nx]) for global arrays and constant for local
// and private ones; a missing shape makes a scalar. Declarations may come
// in any order, but not inside blocks; a constant must be declared before
// its first use. ANNOTATIONS are comma-separated KEY=VALUE pairs, in
// loopy's syntax:
//
//	id=NAME               the statement's id
//	dep=ID:ID:...         statements it depends on, which must come earlier
//	                      (statements run in textual order: dependencies are
//	                      checks). An ID may hold * wildcards and then stands
//	                      for every earlier statement whose id it matches; a
//	                      leading * (loopy: the list is exhaustive) is
//	                      accepted, so dep=* says there are none
//	inames=INAME:INAME:...  inames it runs in besides those it mentions
//	                      (loopy's leading + is accepted)
//	if=COND:COND:...      predicates, as loopy's if=: it runs where all hold
//	tags=NAME:NAME:...    labels (loopy's instruction tags); they change nothing
//
// "<> t[k, l] = EXPR", as in loopy, declares a private array whose
// subscripts are inames: its extent along each is the greatest value of
// the iname plus one, which must be a constant that the domains imply
// whatever the parameters (and the least value must not be negative).
// Where an iname's domain bounds it instead by a constant lower bound of
// at least 0 and one upper bound in the parameters alone (0 <= i < n),
// the temporary is loopy's global temporary: an array in global memory
// whose extent along i is n (its accesses count as a global array's, and
// Run, like a launch, takes its data with the other global arrays').
//
// "tag x l.auto" gives x a local axis as loopy does, instruction by
// instruction in textual order: among the l.auto inames an instruction
// uses that have no axis yet, those that are the last subscript of one
// of its references (unit stride) come first, then the others in the
// order of their tags, and each takes the lowest axis that no other
// iname of the instruction has; inames that never meet in an
// instruction may share an axis, and one that no instruction uses takes
// the lowest axis no l.N tag takes. x's extent must be a constant, from
// which the work-group size follows (split an iname of parametric extent and tag
// the parts instead). loopy's ilp.unr, ilp.seq and ord are accepted as
// ilp, ilp and seq.
//
// A for block adds its inames to the statements inside, instructions and
// barriers alike, as inames= does: "for k_out ... end" around two barriers
// and the instructions between them is the same kernel as annotating each
// with inames=k_out. An if block predicates the instructions inside by its
// condition, an elif branch by its condition and the failure of the
// earlier ones, an else branch by the failure of all; barriers may not
// stand inside an if block, where not every work-item would reach them.
// Blocks nest. loopy's with blocks are refused.
//
// Constants are substituted textually, as whole identifiers, in every
// later statement; ParseKernel's consts argument overrides their values
// (work-group and tile sizes are constants for that reason).
//
// Domains use isl's set notation, which loopy uses, so a loopy domain
// string can be copied: an optional parameter list, one tuple of inames,
// and constraints built from chained comparisons (< <= > >= = == !=) of
// comma-separated expression lists ("0 <= i, j < n"), and, or and
// parentheses. Expressions are affine with integer coefficients ("2i" and
// "2*i"), floor(e), ceil(e), "e mod d" and "e % d" for positive constants
// d, and division by non-zero constants: as in isl, a rational expression
// in a constraint means what it says of rational numbers, so
// "i <= n/16" is 16*i <= n and "j/2 + 1/3 < n" is 3*j + 2 < 6*n.
// Array extents must stay integer (write floor(n/2)). Unions with ';' and
// exists are not supported. A domain may
// mention inames of other domains (including inames that a split creates):
// they act as its parameters, which is how the bounds of inner loops
// depend on outer ones. Every other name in a domain, shape or assumption
// is a size parameter of the kernel.
//
// Instructions use loopy's (pymbolic's, Python's) expression syntax.
// From the loosest binding to the tightest: or; and; not; the comparisons
// < <= > >= == != (which do not chain); |; ^; &; << >>; + -; * / // %;
// unary - + ~; ** (which binds tighter than unary minus and associates
// to the right). Operands are parentheses, integer and floating-point
// literals (a trailing f makes a single-precision literal: 1.5f), array
// references a[i, j + 1], temporaries, inames and parameters as values,
// the functions exp, log, sqrt, rsqrt, sin, cos, fabs (one argument) and
// pow, fmin, fmax, fmod (two), the conditional values if(COND, THEN,
// ELSE) (also written THEN if COND else ELSE, Python's conditional
// expression, which binds loosest of all) and select(ELSE, THEN, COND)
// (OpenCL's argument order: the value is THEN where COND holds), and the
// reductions sum, product, max and min
// over one iname or a tuple of them: sum(k, a[i, k]*b[k, j]),
// sum((k, l), ...). A reference may carry loopy's tag, a$first[i], a
// label that changes nothing. Subscripts must be affine in the inames;
// their coefficients may be products of parameters, so that the
// flattened indexing of PolyBench and CUDA kernels, a[i*n + j] or
// a[(k*ny + j)*nx + i] of an array [nz*ny*nx], is written as they write
// it. A product of two inames (i*j) is refused: no set of package
// polyhedra can hold it. // and % by positive integer constants are
// allowed too, as in loopy's loc[i_inner, (j_inner + r + 4) % 16]: they
// are quasi-affine, as the domains' mod is, so counts stay exact; their
// dividend must be affine (no products, no further divisions), and the
// l.0 iname may not stand inside one in a global array's subscript,
// where the access would have no one stride between work-items.
//
// Comparisons and and, or and not make conditions, which are not numbers:
// they stand where a condition is expected (a predicate, the COND of
// if() and select(), an operand of and, or, not), and "a*(i > 0)" is an
// error (write if(i > 0, a, 0)). Where a condition is expected, a number
// is one too, as in C and loopy's if=: it holds where it is not zero.
//
// A tiled matrix multiplication:
//
//	kernel matmul
//	const T = 16
//	domain [n, m, ell] -> { [i, j, k] : 0 <= i < n and 0 <= j < ell and 0 <= k < m }
//	domain { [pa] : 0 <= pa < T and T*k_out + pa < m }
//	domain { [pb] : 0 <= pb < T and T*k_out + pb < m }
//	array a f32 [n, m]
//	array b f32 [m, ell]
//	array c f32 [n, ell]
//	local ta f32 [T, T]
//	local tb f32 [T, T]
//	private acc f32
//	split i T i_out i_in
//	split j T j_out j_in
//	split k T k_out k_in
//	tag i_out g.1, i_in l.1, j_out g.0, j_in l.0, pa l.0, pb l.1
//	acc = 0
//	barrier {inames=k_out}
//	ta[i_in, pa] = a[i, T*k_out + pa]
//	tb[pb, j_in] = b[T*k_out + pb, j]
//	barrier {inames=k_out}
//	acc = acc + sum(k_in, ta[i_in, k_in]*tb[k_in, j_in]) {inames=k_out}
//	c[i, j] = acc
//
// Errors name the file, line and column and say what was expected:
// syntax errors, undeclared arrays and names, non-affine or
// data-dependent subscripts, out-of-range or unknown tags, an instruction
// that uses two inames with the same hardware tag, unknown functions,
// reductions over parallel inames, barriers inside parallel inames or if
// blocks, dependencies on later or unknown statements, unclosed or
// unopened blocks, conditions used as numbers, and type errors. Where a
// loopy spelling has no meaning here (with blocks, loopy annotations other
// than those above, integer / in a comparison), the error says what to
// write instead.
//
// Names are written into the OpenCL C or CUDA C generated from the
// kernel as they are, so a kernel, iname, parameter or array may not take
// a name that those languages reserve: a keyword or type of C, C++,
// OpenCL C or CUDA (half, int, float4, class, threadIdx), a macro or
// function the generated code uses (INFINITY, expf, min, imin), or one
// reserved to C implementations (__x, _X). Such a name is refused where it
// is declared, with a name to write instead:
//
//	array half f32 [n]
//	test.knl:3:7: array half: "half" is reserved in the OpenCL C or CUDA C that uniperf generates from the kernel (a keyword, type or built-in there); rename it, for example to half_k
//
// An iname split away never reaches the generated code and may take any
// name.
//
// # Splits and tags
//
// "split i 16 i_out i_in" replaces iname i, in its domain's tuple, by
// i_out and i_in, substitutes 16*i_out + i_in for i in every domain and
// every later use of i (subscripts, values, reductions and annotations),
// and adds 0 <= i_in <= 15. The new names default to i_outer and
// i_inner. Splits apply in file order, so a split iname may be split
// again. Where 16 does not divide the extent of i, the domain itself
// excludes the surplus points: that is the guard.
//
// Inames tagged g.N are work-group indices along hardware axis N, inames
// tagged l.N work-item indices; all others (seq, unr, ilp, untagged) are
// sequential loops. unr and ilp are hints for code generation (the code
// generator of package measurekernels/codegen unrolls unr loops) and change
// nothing here.
//
// # Execution semantics
//
// The domain of a set of inames is the intersection of the domains that
// declare them and, transitively, of the domains declaring the inames
// those mention; the domain projected onto a set S of inames is the set of
// values of S that extend to a point of that intersection.
//
// An instruction runs in the inames of its Within list: those it mentions
// outside reductions, those of its inames= annotation, and the parallel
// inames of its domain on hardware axes none of those is tagged with (two
// such inames on one axis are an error: name one with inames=). It
// executes once for each point of the domain projected onto Within. So an
// instruction runs only on the work-items and groups whose indices lie in
// its domain: where a split does not divide, the surplus work-items skip
// it, and the guard follows from the domain. On a hardware axis where
// Within has no iname at all, it runs on every work-item (or group) along
// the axis: counts are totals over all work-items, and work that does not
// depend on an axis is done redundantly along it, as with loopy's
// count_redundant_work.
//
// A reduction is an inner loop of its instruction: its body is evaluated
// at each point of the domain projected onto the instruction's inames plus
// the reduction's (and any enclosing reduction's) inames, starting from
// the neutral element of its operator.
//
// Conditions evaluate as in C. At each point of an instruction's
// execution domain its predicate, if it has one, is evaluated first; the
// right-hand side is evaluated and the left-hand side stored only where
// it holds. "X and Y" evaluates Y only where X holds, "X or Y" only where
// X fails. if(COND, THEN, ELSE) evaluates COND and then the branch it
// chooses, as C's COND ? THEN : ELSE: so if(i > 0, a[i - 1], 0) never
// reads a[-1]. select(ELSE, THEN, COND) evaluates all three, as the
// arguments of OpenCL's select are: it is what a GPU does when it
// computes both sides of a branch and picks one, and a reference out of
// bounds in either value is an error. The inames a condition mentions are
// inames of its instruction, like those of its right-hand side.
//
// The schedule orders statements textually and nests each in loops over
// its sequential inames, in domain order (see Node). A Loop over iname k
// inside loops over O runs k through the values of the domain projected
// onto O and k, for the current values of O, in increasing order; an
// instruction inside is guarded by its own execution domain. A barrier
// executes once per point of the domain projected onto its inames, on
// every work-item of every group.
//
// The launch grid follows from the tagged inames (see Kernel.Launch): the
// number of groups along axis a is the largest extent of the inames tagged
// g.a, the group size the largest extent of those tagged l.a, and iname x
// takes value min(x) + q on index q.
//
// # Types
//
// Arrays and temporaries have their declared types; inames and parameters
// used as values are i32. A literal is weak: it takes the type of what it
// is combined with, as in loopy and numpy ("2*a[i]" is f32 for an f32
// array). Otherwise, for + - * / ** // % and two-argument functions:
//
//   - a floating-point type wins over an integer type (i32 + f32 is f32);
//   - within floats or within integers, the wider type wins;
//   - a weak float literal combined with an integer gives f64;
//   - an expression of literals only takes the type of the instruction's
//     left-hand side (f64 for a float literal assigned to an integer).
//
// / and ** need a floating-point result ("i / 2" is an error: write //);
// // needs integers and rounds towards negative infinity, like Python and
// isl, and % on integers is the matching remainder. % on floating-point
// values is C's fmod: its result has the sign of the dividend (unlike
// Python's). The bitwise operators & | ^ ~ and the shifts << >> need
// integers; a right shift is arithmetic (it rounds towards negative
// infinity), a shift count must lie between 0 and the type's width less
// one, and a left shift that overflows is an error, as every integer
// overflow is. The operands of a comparison, and the two values of if()
// and select(), take their common type by the rules above; a condition
// has type Bool, which no array has. One-argument functions need
// floating-point arguments (an integer literal becomes a float). The right-hand side is converted
// to the left-hand side's type. A "<> t = e" temporary gets e's type (i32
// or f64 if e is literals only). Every conversion is an explicit *Cast in
// the IR, and costs nothing.
//
// # Operations
//
// Each arithmetic node counts one operation of its kind (see OpKind) at
// its type, per evaluation: + and - are add, * mul, / div, ** and pow()
// pow, exp() exp, % on floating-point values and fmod() fmod, and the
// other functions special; for integers // and % are div, & | ^ and ~
// bitwise, << and >> shift (loopy's "bw" and "shift"). A reduction counts
// one operation of its operator's kind (sum: add, product: mul, max and
// min: special) per point of its body. Negation, conversions,
// comparisons, and, or, not and the choice of a conditional value are
// free, as in loopy. Integer arithmetic on values (i + 1 used as a value)
// is counted, as int.i32.add and so on, in conditions too.
//
// Subscript arithmetic is address computation, not work, and Count leaves
// it out, as loopy's get_op_map does with count_within_subscripts=False.
// CountWith with Options.CountSubscripts counts it, as loopy does by
// default: each subscript, written as a sum of terms after splitting and
// constant substitution, costs an int.i32.add per + or - and an
// int.i32.mul per coefficient other than 1 and -1, once per evaluation of
// its access (left-hand sides, local and private arrays included). a[i, k
// + 1] with i split by 16 is a[16*i_out + i_in, k + 1]: two adds and a
// mul; a flattened a[i*n + j] costs an add and a mul (one more mul per
// further parameter a term multiplies by), and a // or % by a constant
// an int.i32.div besides its dividend's operations. An iname used as a value costs
// nothing either way, split or not.
//
// Operations and memory accesses count per evaluation, so conditions
// decide what counts. A predicate and everything of an instruction that
// is always evaluated count over its whole execution domain; what a
// condition guards (the assignment of a predicated instruction, a branch
// of if(), the second operand of and and or) counts where the condition
// lets it be evaluated. Where the conditions are affine in the inames and
// parameters (integer comparisons of affine expressions, with // and %
// by positive constants, under and, or and not), that is the execution
// domain intersected with the set where they hold, and the count is
// exact; != and or make unions. So are comparisons of f64 values that
// are i32 affine expressions converted and divided by integer literals
// up to 2^20 (loopy's k/2.0 == ell, which is k == 2*ell): f64 computes
// them exactly at every i32 value. Where a condition is not affine (it
// reads an array or a temporary, compares other floating-point values,
// multiplies inames), what it guards counts as if it always held: the count is an
// upper bound, and the property says so (Counted.UpperBound,
// Property.UpperBound; a footprint, Footprint.UpperBound). The affine
// conditions around it still bound it: under "i < 4 and a[i] > 0", an if
// block on i < 4 or {if=a[i] > 0:i < 4}, it counts where i < 4. Both values
// of select() are always evaluated and always count. loopy counts both
// branches of if() everywhere; that is the upper bound here, and the
// exact count where the condition is affine.
//
// # Properties
//
// The properties of seed 001 section 2 are named as in the measurement
// and weight tables:
//
//	global.load.<t>.stride=<c>    global loads of element type t in stride class c
//	global.store.<t>.stride=<c>   global stores
//	global.minldst.<t>.stride=<c> min(loads, stores) of the same type and class
//	local.load.<t>, local.store.<t>
//	local.<t>.conflict=<d>        local loads and stores of bank-conflict degree k,
//	                              d/2 < k <= d (d = 2, 4, ..., the number of banks),
//	                              counted again: a correction term, as minldst is
//	flop.<t>.<kind>               floating-point operations (f32, f64; kinds add, mul,
//	                              div, pow, exp, special and fmod of OpKind)
//	int.<t>.<kind>                integer operations (i32, i64; kinds add, mul, div,
//	                              bitwise and shift)
//	sync.barrier                  barriers, summed over every work-item that meets them
//	launch.groups                 work-groups launched
//	launch.const                  1
//
// An operation or array reference inside an instruction counts once per
// point of the domain projected onto the instruction's Within plus the
// inames of the reductions enclosing it, times the launch size of every
// hardware axis on which Within has no iname (the redundant work of the
// execution semantics above). Private temporaries are registers and are
// not counted. The element type t names the access size: f32 and i32 are
// 32-bit, f64 and i64 64-bit.
//
// The stride of a global reference is the coefficient, in elements, of
// the Within iname tagged l.0 in the array's flattened index (row-major,
// or column-major for order=F arrays), as an absolute value: 0 (uniform)
// when Within has no l.0 iname or the subscripts do not use it. A
// coefficient that depends on the parameters (a[j, i] with i on l.0 in an
// n x n array strides by n, as a[i*n + j] of an array [n*n] does along
// i) is put in the >4 class whatever the parameters' values, so that the
// class of a reference never changes with the problem size; the property
// says where the class is exact (Property.Assumed: "n > 4"). Strides 0
// and 1 are classes "0" and "1".
//
// The footprint of an array indexed by flattened subscripts is counted
// over the dimensions their coefficients imply: a[i*n + j] counts as
// a[i, j] of an array [., n]. That needs the coefficients of the
// array's subscripts to form a chain 1, n, n*m, ..., each the one before
// times one parameter, and every index but the outermost to stay within
// 0 and its parameter less one wherever it is accessed (a term of
// parameters alone joins whichever dimension keeps it so: a[i*n + n - 1
// - j] is a[i, n - 1 - j]). Where not (a[i*n + j*m], a[i*n + j + 1] with
// j up to n - 1, or products in the subscripts of an array of several
// dimensions), and only where a strided access needs the footprint, Count
// fails and says why: the footprint would not be exact.
//
// Other strides are split by utilization. The footprint of a global
// array is the set of its cells that any reference to it (load or store,
// in any instruction) touches; the filled-in footprint is its bounding
// box in index space, the cells whose every subscript lies between the
// least and the greatest value that subscript takes in the footprint, so
// that the gaps striding leaves along any dimension are filled in. The
// utilization u is the number of cells of the footprint over the number
// of cells of the filled-in footprint. A reference of stride s in
// 2..4 is in class "k/s" and one of a larger or parameter-dependent
// stride in class "k/>4", where k is u times s (times 4 for >4), rounded
// to the nearest integer (halves up) and at least 1. The rounding makes
// the class robust to edge effects: a[2*i] over 0 <= i < 4096 touches
// 4096 of 8191 cells, u*2 rounds to 1, class 1/2.
//
// A local reference with bank conflicts counts a second time, in the
// conflict class of its degree. Local memory is
// Options.Banks banks (32 by default) of Options.BankBytes bytes (4):
// consecutive words lie in consecutive banks, a warp is as many
// work-items as there are banks, in the order of the linear local id (l.0
// fastest), and lanes that ask one bank for different words are served
// one after another (the same word is broadcast). The degree of a warp's
// access is the largest number of distinct words one bank is asked for,
// over the words an element spans (so that a stride-1 access of 8-byte
// elements, two passes wide, is free of conflicts); a reference's degree
// is the largest of any warp of a work-group, rounded up to a power of
// two: t[c] with c on l.0 has degree 1, t[2*c] 2, t[32*c] 32, and the
// column read t[d, s] of a 16 x 16 tile with d on l.0 and s on l.1 has
// degree 8, of a 16 x 17 tile 2 (its warp spans two rows, and the 16th
// lane of the second meets the first of the first in bank 0). The degree
// is decided once per reference, from the work-group shape and the
// subscripts (see Kernel's bankDegree): the other inames and the
// parameters move every lane's address alike and are taken at zero. The
// work-group's size along an axis is the largest constant extent of the
// inames tagged with it, and an axis whose extent depends on the
// parameters counts as a warp wide. Devices with other banks are counted
// with their Options; the default is that of NVIDIA GPUs since Fermi and
// AMD GPUs since GCN.
//
// Barriers count once per point of the domain projected onto their
// inames, times the number of work-items launched. The launch size along
// an axis is the largest extent max - min + 1 of the inames tagged with
// it, as in Kernel.Launch.
//
// # Symbolic counts
//
// Count counts every property of a kernel once: each set of the counting
// plan (the domain projected onto the inames an operation executes in,
// the tagged inames' extents, and the footprints of arrays with strided
// accesses) is counted with package polyhedra, and the launch size of an
// axis with several tagged inames is the maximum of their extents
// (polyhedra's Max; should it fail, the size of the union of the inames'
// spans is counted instead). Evaluation needs the maximum only where the
// assumptions hold, and taking it of counts simplified against them is
// half the work; as the sets include the assumptions, their counts are
// zero elsewhere, and the maximum everywhere, which Properties prints, is
// formed from it when first needed. A property is then a sum of terms,
// each a coefficient times a product of such counts. The sets are
// independent, so Count queues each for counting the moment the plan
// finds it, and GOMAXPROCS workers count them in that order, the maxima
// first once their sets are counted. Before a set goes to polyhedra, the
// plan eliminates the existential inames it can exactly: one fixed by an
// equality, one bounded on one side, the outer iname of a tile, and one
// with coefficient ±1 in all its inequalities (pairing its lower and
// upper bounds). A part of the existential inames that no constraint
// links to the kept ones (the loops a projection leaves out) only says
// whether those loops run, and is simplified once per plan however many
// projections leave it out. Counting a library kernel takes 0.06 to 1.5
// ms (BenchmarkCountLibrary, two cores of an AMD EPYC): 0.82 ms for
// matmul_tiled, 1.4 ms for nbody, 1.5 ms for finite_diff. A footprint's
// extent along a dimension is the interval from the smallest to the
// largest index: the values t that some reference's index is at least
// and some reference's index is at most, an intersection of two unions
// of one set per reference.
//
// (*Counted).Eval evaluates every property exactly at given parameters;
// the stride classes of strided accesses follow from the footprint's
// cells and bounding box evaluated there. Properties lists the counts as
// expressions, a strided class with the placeholder k and the footprint
// it follows from; PropertiesAt resolves the classes at given
// parameters. (*Counted).Compile builds an Evaluator of chosen
// properties for predictions: all counts it needs are compiled together
// (polyhedra.CompileSet) with the constraints that the kernel's
// assumptions imply removed, and evaluated once per call. Parameters
// must satisfy the assumptions, and a count that overflows int64 is an
// error, never a wrong value.
//
// # Breakdowns
//
// (*Counted).Breakdown splits each property into parts, each a piecewise
// quasi-polynomial, that sum to it; BreakdownAt does so at given
// parameters, with the classes of strided accesses resolved there, and
// gives each part's value. ByInstruction attributes each term to the
// statement that performs it: the operations and memory traffic of an
// instruction (its reductions included), or for sync.barrier the barrier.
// ByArray attributes memory traffic and subscript arithmetic to the array
// accessed, and the operations of an instruction's value to the array or
// temporary it assigns to. launch.groups and launch.const, and by array
// sync.barrier, belong to the kernel as a whole (Part.Source ""). The
// minima global.minldst.* are not sums and have no parts.
//
// # Footprints
//
// The footprint of a global array in one direction is the set of its
// elements that the kernel's loads (or stores) touch over the whole
// launch: the union, over the references in that direction, of the image
// of each reference's execution domain (the domain projected onto its
// instruction's Within and its enclosing reductions' inames) under its
// subscripts. (*Counted).Footprints counts it with package polyhedra, as
// the set { [e_0, ...] : exists a point x of the domain with e_d =
// subscript_d(x) }, in elements and in bytes (times the element size);
// FootprintsAt evaluates both. The count is exact whatever the
// subscripts: an element touched by several work-items, iterations or
// references counts once (b[i + j] over n x m points is n + m - 1
// elements), and elements no point touches do not count (a[3*i] over n
// points is n elements). A footprint follows from the execution domains
// alone: subscripts are affine, so no value read at run time changes it,
// and where an execution domain only bounds what runs (a condition on
// data), the footprint is an upper bound in the same way. Local and
// private arrays, which live per work-group and per work-item, have no
// footprint.
//
// # Bounds
//
// The symbolic counts hold for any sizes; at given sizes,
// Counted.CheckBounds finds the least and greatest value of every
// subscript of every reference (global, local and private arrays,
// temporaries included) over its execution domain and reports the first
// that leaves its array. uniperf's count (with --param), predict and
// measure check it first, so that no count prices an access that no run
// could make. References under conditions that read data are left to the
// interpreter, which checks every access it makes.
//
// # The reference interpreter
//
// Run executes the schedule work-group by work-group, the work-items of a
// group in lock-step, with private temporaries per work-item, local arrays
// per group, a race check on local memory and a write-write race check
// on global memory; see Run. Its Tally counts
// every global and local load and store, operation and barrier it
// performs, in the categories of the property names, in total and per
// statement; traced, it records the elements of every global array each
// direction touched. These are the oracles of the symbolic counts,
// breakdowns and footprints.
package counts
