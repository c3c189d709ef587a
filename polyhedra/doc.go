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
// # Sets, counting and quasi-polynomials
//
// A [Set] is a finite union of basic sets: conjunctions of affine
// constraints with int64 coefficients (overflow is [ErrOverflow]) over
// the parameters, the dimensions and divs floor(e/m); projection is
// exact over the integers, and a union is made disjoint by subtraction.
// [Set.Card] sums one dimension at a time over chambers (Faulhaber's
// formulas, residue classes for divs), so that only parameters and
// floors of parameters remain: a [PwQPolynomial], pieces with exact
// rational coefficients, put in a normal form when first printed.
// [PwQPolynomial.Add], [PwQPolynomial.Scale] and [PwQPolynomial.Mul]
// combine functions exactly, [PwQPolynomial.Max] takes the pointwise
// maximum where the differences are affine, [PwQPolynomial.Gist] drops
// what the assumptions imply, and [Set.Specialize] fixes parameters,
// which is what uniperf card falls back to past its budget. Each
// operation has a work budget: past it a count fails with
// [*ComplexityError], past [Limits] with [*BudgetError], and no budget
// ever changes a result that is returned. How each step works, what it
// costs and how it compares with barvinok (BenchmarkCardCorpus) is
// docs/counting-sets.md in the repository.
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
