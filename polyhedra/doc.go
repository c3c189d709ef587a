// Package polyhedra counts the integer points of parametric sets exactly.
//
// [ParseSet] reads a [Set] in isl's notation; [Set.Card] counts it into a
// [PwQPolynomial] ([Set.CardLimits] within [Limits]), which
// [PwQPolynomial.Eval] evaluates at parameter values and
// [PwQPolynomial.Compile] compiles into a [Program] ([CompileSet] several
// into a [ProgramSet]). [CountAt] counts a set, from its source, at fixed
// parameter values by enumeration, and [Set.Bounds] gives the loop bounds
// that code generation needs.
//
// Every count uniperf predicts with starts here: a kernel's loop domain,
// written in isl's set notation, is counted symbolically as a piecewise
// quasi-polynomial in the size parameters, once per kernel, and evaluated
// for each problem size.
//
//	s, _ := polyhedra.ParseSet("[n] -> { [i, j] : 0 <= j <= i < n }")
//	c, _ := s.Card()                          // [n] -> { (1/2 * n + 1/2 * n^2) : n >= 1 }
//	v, _ := c.Eval(map[string]int64{"n": 10}) // 55
//
// # Sets
//
// A Set is a finite union of basic sets over named parameters and named
// dimensions. A basic set is a conjunction of affine constraints with
// int64 coefficients (checked: overflow is an error, ErrOverflow) over the
// parameters, the dimensions and divs. A div is floor(e/m) for an affine e
// over earlier columns and an integer m > 1, kept in a canonical form so
// that equal divs are recognised. Divs are functions of the other
// variables, so a basic set has no existential variables: floor(e/m) and
// e mod m parse straight into divs, and an existential variable is
// projected out when the set is built.
//
// Projection is exact over the integers. Eliminating a variable x first
// splits it into residue classes (x = M*x' + r) until no div depends on
// it; an equality a*x + g = 0 then fixes x = -floor(g/a) and leaves the
// divisibility condition g = a*floor(g/a); otherwise each pair of a lower
// bound a*x >= -l and an upper bound c*x <= u contributes
// ceil(-l/a) <= floor(u/c), which is linear once one side is a div.
// Existential variables that no constraint relates, directly or through
// others, are projected apart and the results intersected: the
// variables of a loop domain projected onto one loop mostly fall into
// small independent groups. A row that a div's own definition implies
// (a mod 256 >= 0, left where a tile's variables are projected out) is
// dropped, so that the div does not outlive it. A union is made disjoint
// by subtraction, which is exact because the negation of a constraint
// over divs is again one constraint.
//
// # Counting
//
// Card sums the polynomial 1 over one dimension at a time. For a
// dimension x with lower bounds L_i and upper bounds U_j, the set splits
// into chambers in which one L_i is the largest and one U_j the smallest
// (compared as rational bounds, ties to the first, so the chambers are
// disjoint) and U_j >= L_i - 1; there the sum of t^k from L_i to U_j is
// Faulhaber's S_k(U_j) - S_k(L_i - 1), a polynomial in the remaining
// variables and the divs ceil and floor of the bounds (0 for U_j = L_i -
// 1, which a chamber mostly keeps, so that the normal form can merge
// across it; but with a coefficient c above 1, U_j >= L_i - 1 reaches c
// values past the last point, and where the bound holds another
// dimension it shifts that dimension's chambers, so such a chamber stops
// at U_j = L_i). A summand with divs of x (floor((2n + m - 3i)/5) once j
// is summed over the wedge of issue 26) is summed chamber by chamber of
// x: in each, every residue class x = M*x' + r runs from ceil((L - r)/M)
// to floor((U - r)/M), which never cross by more than one, so the
// classes' sums add up to one polynomial on the chamber's domain, where
// summing each class on its own cut the parameters along M shifted
// copies of every chamber boundary. Divs thus move outward until only
// parameters and floors of parameters remain: a quasi-polynomial.
// Variables with unit coefficients that no div depends on are
// eliminated first, but a variable that a congruence confines to one
// residue class (k mod 2 = 0) and that has one lower and one upper
// bound is only a change of variable, k = 2k', summed in one chamber: it
// ranks by its bounds, behind others with as few chambers (the k mod 2
// set of issue 26, summed over j first, whose lower bounds 1 and k - i
// make two chambers with more bounds on i and k, counted in 8 pieces; k
// first leaves floor((i + j)/2), whose classes j and i then sum in one
// chamber each, in 1 piece), and tiled pairs
// (0 <= ii < T and T*io + ii everywhere else, or io alone with
// coefficient ±1, as projecting a tile's inner variable leaves it) are
// merged into one dimension beforehand, so that a tiled
// matrix-multiplication domain needs neither residue classes nor
// chambers. A redundant bound can hide a tile and adds chambers, so
// bounds are tested for redundancy where a tile's box failed to merge
// or a dimension has several bounds in one direction, not in a box
// (testing every bound took a seventh of the time of counting a tiled
// matrix multiplication). A parameter that the set confines to one
// residue class (a kernel's assumption n mod 256 = 0, or exists e : n =
// 4e + 1) is compressed first: the set is counted over n' with n =
// M*n' + r, whose bounds carry no div of n, and each piece is mapped
// back by n' = (n - r)/M, the congruence kept as its constraint, as
// barvinok compresses parameters; a partial tile of 32 work-items in
// groups of 256 over such an n counted in five overlapping pieces with
// floors of n, printed a quadratic in two of them, and now counts in a
// third of the time and prints n/8. A div with a period above
// 64 is lifted into a new dimension q with m*q <= e <= m*q + m - 1
// instead of splitting into residue classes; q is a function of the other
// variables, so the count is unchanged. Chambers that Fourier–Motzkin
// elimination with integer rounding proves empty are dropped; this only
// saves work, the counts do not depend on it. Before such a run, the
// emptiness and implication tests try a few simple integer points (nine
// in ten emptiness tests of the library kernels' sets find one) and the
// constant bounds that one-variable constraints give; a part of a
// disjunction that another part contains is dropped before a
// conjunction multiplies the parts.
//
// Each operation has a work budget. A set whose exact treatment would
// exceed it (thousands of residue classes, a summand of hundreds of
// terms) fails with *ComplexityError rather than running for hours, and
// one that needs more basic sets (chambers, residue classes, pieces of
// differences, cells) than Limits.MaxPieces, or more heap than
// Limits.MaxHeap, fails with *BudgetError naming the limit and the set
// rather than exhausting the machine's memory (CardLimits; Card uses the
// defaults, far above what loop domains need). No budget ever changes a
// result that is returned. Chained comparisons and unions multiply
// pieces: every disjunct, != and minimum on the smaller side of a
// comparison is one more basic set before the union is made disjoint,
// and each needs its own chambers; x <= min(a, b) and max(a, b) <= x are
// plain conjunctions and cost nothing. A sum of more overlapping pieces
// than can be made disjoint cheaply is kept as such and only normalised.
// BenchmarkCardCorpus times Card on the 217 sets of
// testdata/cardcorpus.tsv and reports the pieces each answer prints: the
// 161 distinct sets that counting the library kernels passes to Card,
// the four sets of issue 26, six classic shapes and 46 seeded random
// sets. BenchmarkCardCorpusPrinted times Card with the printed answer,
// which Card leaves until first use. Against barvinok 0.41.8 (on isl
// 0.27, built from its sources for the comparison; isl_set_card, parse
// excluded, best of 20 in one process, the least of three rounds taken
// in turns with this package's, on 2 cores, 2026-11-28), Card's time is
// 0.108 of barvinok's in geometric mean: 0.086 on the library's sets,
// 0.158 on the classic ones, 0.221 on the random ones, and 0.089 on the
// library's sets with the four of issue 26 (0.142, 0.117, 0.176, 0.265
// and 0.121 before the day's second round of changes, in the same
// rounds; 0.195 overall before the first). It is at most 1.75 times
// barvinok's (the wedge of issue 26; before, the wedge at 2.90 times and
// two sets without dimensions above 2 times). The second round made a
// set without dimensions (22 of the library's) cost one normalisation
// instead of four, and took the two pieces of min(n, 16) as disjoint
// without refining them (25 µs to 5.5 µs; barvinok 33 µs). On the
// issue's four sets barvinok takes 54 µs, 0.76 ms, 0.76 ms and 15 µs
// and answers in 1, 3, 1 and 1 pieces; Card takes 30 µs, 1.33 ms, 78 µs
// and 3 µs (48 µs, 2.11 ms, 97 µs and 5 µs on the morning), in as many
// pieces, and with the printed answer about 0.04, 57, 5 and 0.03 ms
// (0.05, 11, 0.37 and 0.02 ms before the search for few floors, below):
// barvinok's answer is returned in its final form, this package's
// normal form is left to printing. Before counting, each inequality that the set forces
// to hold with equality (FM with integer tightening, where no simple
// point holds it strictly) becomes an equality: the first set holds
// points only at n = 0, where i, j and k are pinned too, and counting
// its rational relaxation's chambers took 60 ms. On the second set the residue classes of i, summed each in
// chambers of its own, left 22 overlapping pieces that could not be
// made disjoint within 96 cells, in 25 ms; summed in the chambers of i
// they leave 9 disjoint pieces that print as barvinok's 3, but each
// polynomial carries a floor for every class (17 to 47 terms), and
// simplifying those is most of its time: normalising a piece leaves a
// canonical div as it is and drops unused divs in one pass, a div that
// two simple points of the domain show to vary needs no FM range, and
// disjointSum's cells share the pieces' common divs and settle splits
// on a coarse grid of sample points. Its count on
// 2m <= n + 1 has period 3 and prints in 8 terms with floors of period
// 3 (below); the other two chambers have periods 15 and 5, and print
// with three and four floors found by the search for few floors (below):
// 755 characters in all, against barvinok's 795 (2.8 kB, then 1.3 kB,
// before).
//
// Specialize fixes parameters to values: a set without parameters is
// counted far more cheaply, which is what uniperf card falls back to
// when a symbolic count exceeds its budget.
//
// # Quasi-polynomials
//
// A PwQPolynomial is a list of pieces: a domain over the parameters and
// divs of them, with a polynomial with exact rational coefficients
// (math/big) in the parameters and those divs. The counted pieces
// (one per chamber of each summation, the residue classes of a summed
// variable sharing its chambers) are refined into disjoint ones, unless
// every two of them hold opposite constraints on the parameters (n <= 16
// and n >= 17, as the two chambers of min(n, 16) do; the refinement took
// three quarters of the time of that count), periodic terms whose residue classes agree
// are replaced by plain polynomials (floor(n/2) + floor((n+1)/2) becomes
// n) and redundant constraints are dropped. The classes are compared
// symbolically only where values at points of the domain do not already
// tell them apart: D + 2 consecutive points (D the degree) whose
// (D+1)-th difference is not 0 cannot lie on one polynomial (this
// settles all 4 comparisons made when the stencil set of issue 26 is
// counted and printed, every one of which finds classes differing).
// Coefficients are computed as int64 fractions where they fit, and
// small ones are shared values. For printing (and IsZero),
// once and only when first asked for, the pieces are put in a normal
// form: every equality a domain implies over the integers is made
// explicit and substituted into the polynomial (a domain may hold only
// n = 0 although no constraint says so, and a cubic in n is then the
// constant it takes there), a one-parameter piece whose periodic
// polynomial equals a plain one on its domain gets the plain one (checked
// at degree + 1 points of every residue class: the footprint of
// work-groups of 256 is n, not a polynomial in floor(n/256)), a piece
// over two or three parameters whose polynomial has a smaller period d
// than its floors gets one with floors floor((L + c)/d) where that has
// fewer terms (fitted exactly at points of every class modulo d, and
// kept only where it agrees with the old one at r + M*a for a in the
// simplex |a| <= D on one class r modulo the old period M and |a| < D on
// the others: both are polynomials of degree D or less on each class,
// whose parts that depend on the class have degree below D, so this
// proves them equal), a piece over one or two parameters whose
// polynomial prints long (200 characters or more, with two floors or
// more) gets one with few floors of other forms where a greedy search
// finds one that prints shorter (floors floor((v.x + c)/q) for the prime
// powers q dividing the period, taken one at a time by a least-squares
// fit in floating point, which only proposes: the same proof decides;
// sparse.go explains it), pieces with equal polynomials are merged
// where their domains unite, two at a time and then all those that
// have one polynomial or whose own it equals on their domains (the
// difference simplifies to zero there; on a line m = n - 1,
// floor((n + m)/2) is n - 1) whose union is the basic set of the
// constraints they all imply, up to points where the polynomial
// vanishes (the k mod 2 set of issue 26, counted with k summed last,
// came in eight pieces along n = m and printed as one), a domain
// boundary on which the polynomial vanishes is moved inward (n(n+1)/2 for n >= 1), a constraint over
// divs that FM proves, both ways, to hold on the rest of the domain
// exactly where a div-free one does is replaced by it (the bounds of
// the wedge's chamber 2m <= n as counted include
// m >= n - floor((2 + n + m)/3) - floor((2n + m)/3), which is m >= 0
// there; the div-free row is the constraint with each floor(e/d) read
// as e/d, its constant found by bisection within the floors' rounding),
// and empty and zero pieces are dropped. On the first set of issue 26 that gives barvinok's
// own answer, { 1 : n = 0 and m >= -2 }, where the pieces as counted are
// three cubics. The equalities are those of constraints that FM with
// integer tightening shows to hold with equality and of parameters it
// pins to one value; an equality of a combination that no constraint
// bounds alone can remain implicit. This takes longer than the rest,
// and a counted function is mostly only evaluated. A
// function whose disjoint form would need too many pieces is kept, and
// printed, as a sum of overlapping pieces ({ A : D1 } + { B : D2 }, as in
// isl's calculator iscc). Add, Scale and Mul combine functions exactly
// (Mul multiplies pairs of pieces on the intersections of their domains);
// Max takes the pointwise maximum where the differences of the
// polynomials are affine, as for the extents of loops, and fails with
// ErrNotAffine elsewhere. Gist drops the constraints that a context (the
// assumptions on the parameters) implies. Eval evaluates exactly, with
// checked int64 arithmetic and big integers where a value does not fit;
// Compile builds a Program that evaluates with checked int64 arithmetic
// in tens of nanoseconds and falls back to exact arithmetic on
// overflow. CompileSet compiles several functions into a ProgramSet that
// computes their shared floor divisions once per call and, for arguments
// small enough that no intermediate value can overflow (a bound proved
// when compiling), evaluates a flat code stream without checks.
//
// # Notation
//
// ParseSet accepts isl's notation: a parameter list [n, m] ->, pieces
// { S[i, j] : condition } separated by ";", and, or, not, exists (q : ...),
// true, false, chained comparisons 0 <= i < n with comma lists (i, j >= 0),
// = and !=, integer coefficients with implicit multiplication (2i),
// + - * /, floor, ceil, mod and %, min and max. Products of two
// variables are syntax errors. Unparenthesised, exists q : ... extends to
// the end of the enclosing condition. Names that are neither parameters
// nor dimensions become parameters, as in isl. Sets and quasi-polynomials
// print in the same notation.
//
// # Code generation
//
// Bounds gives the loop bounds of one dimension given outer ones, and
// Set.C, Expr.C and Constraint.C render membership tests and bounds as C
// expressions with a floordiv(a, b) helper.
package polyhedra
