package polyhedra_test

import (
	"errors"
	"fmt"

	"github.com/uniperf/uniperf/polyhedra"
)

func ExampleParseSet() {
	s, err := polyhedra.ParseSet("[n, m] -> { [i, j] : 0 <= i < n and 0 <= j <= i and j < m }")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Params(), s.Dims())
	fmt.Println(s)
	// Output:
	// [n m] [i j]
	// [n, m] -> { [i, j] : i >= 0 and i < n and j >= 0 and j < m and j <= i }
}

func ExampleSet_Card() {
	s, _ := polyhedra.ParseSet("[n] -> { [i, j] : 0 <= j <= i < n }")
	c, err := s.Card()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c)
	v, _ := c.Eval(map[string]int64{"n": 10})
	fmt.Println(v)
	// Output:
	// [n] -> { (1/2 * n + 1/2 * n^2) : n >= 1 }
	// 55
}

func ExampleSet_Card_strided() {
	s, _ := polyhedra.ParseSet("[n] -> { [i] : 0 <= i < n and exists q : i = 2q }")
	c, _ := s.Card()
	fmt.Println(c)
	// Output:
	// [n] -> { (n - floor(n/2)) : n >= 1 }
}

func ExampleSet_Card_tiled() {
	s, _ := polyhedra.ParseSet("[n, m, l] -> { [io, ii, jo, ji] : 0 <= ii < 16 and 0 <= 16io + ii < n and " +
		"0 <= ji < 16 and 0 <= 16jo + ji < m }")
	c, _ := s.Card()
	fmt.Println(c)
	// Output:
	// [n, m, l] -> { n * m : n >= 1 and m >= 1 }
}

func ExamplePwQPolynomial_Compile() {
	s, _ := polyhedra.ParseSet("[n, m] -> { [i, j] : 0 <= i < n and 0 <= j < m and j <= i }")
	c, _ := s.Card()
	// Arguments in the caller's order.
	prog, err := c.Compile([]string{"m", "n"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, args := range [][]int64{{3, 10}, {10, 3}} {
		v, err := prog.Eval(args)
		fmt.Println(v, err)
	}
	// Output:
	// 27 <nil>
	// 6 <nil>
}

func ExampleSet_Project() {
	s, _ := polyhedra.ParseSet("{ [i, j] : 0 <= j < 4 and i = 3j }")
	p, _ := s.Project([]string{"i"})
	fmt.Println(p)
	// Output:
	// { [i] : i mod 3 = 0 and i >= 0 and i <= 9 }
}

func ExampleSet_Image() {
	// The footprint of a[i + j] over a 4 x 3 iteration space.
	s, _ := polyhedra.ParseSet("{ [i, j] : 0 <= i < 4 and 0 <= j < 3 }")
	fp, _ := s.Image(&polyhedra.AffineMap{
		In:    []string{"i", "j"},
		Out:   []string{"x"},
		Exprs: []polyhedra.LinExpr{{Coeffs: map[string]int64{"i": 1, "j": 1}}},
	})
	c, _ := fp.Card()
	fmt.Println(fp, c)
	// Output:
	// { [x] : x >= 0 and x <= 5 } { 6 }
}

func ExampleSet_Bounds() {
	s, _ := polyhedra.ParseSet("[n] -> { [i, j] : 0 <= i < n and i <= j < n and j mod 2 = 0 }")
	lb, _ := s.Bounds("j", []string{"i"})
	vars := map[string]string{"n": "N", "i": "i0"}
	for _, b := range lb {
		fmt.Println("if", polyhedra.ConjunctionC(b.Guard, vars))
		fmt.Println("for j from", b.Lower[0].C(vars), "to", b.Upper[0].C(vars), "if", polyhedra.ConjunctionC(b.Filter, vars))
	}
	// Output:
	// if (i0 >= 0) && (N - i0 - 1 >= 0)
	// for j from i0 to N - 1 if (j - 2*floordiv(j, 2) == 0)
}

func ExamplePwQPolynomial_Mul() {
	// The work-items of a launch: groups times group size.
	count := func(src string) *polyhedra.PwQPolynomial {
		s, _ := polyhedra.ParseSet(src)
		c, _ := s.Card()
		return c
	}
	groups := count("[n] -> { [g] : 0 <= 16g < n }")
	size := count("[n] -> { [l] : 0 <= l < 16 and l < n }")
	items, err := groups.Mul(size)
	fmt.Println(items, err)
	// Output:
	// [n] -> { n : n >= 1 and n <= 15; 16 * floor((15 + n)/16) : n >= 16 } <nil>
}

func ExamplePwQPolynomial_Max() {
	// The launch size of an axis shared by two loops of different extent.
	count := func(src string) *polyhedra.PwQPolynomial {
		s, _ := polyhedra.ParseSet(src)
		c, _ := s.Card()
		return c
	}
	a := count("[n] -> { [i] : 0 <= i < 16 and i < n }")
	b := count("[n] -> { [j] : 0 <= j < 18 and j < n + 2 }")
	m, err := a.Max(b)
	fmt.Println(m, err)
	// Output:
	// [n] -> { (2 + n) : n >= -1 and n <= 15; 18 : n >= 16 } <nil>
}

func ExamplePwQPolynomial_Gist() {
	s, _ := polyhedra.ParseSet("[n, m] -> { [i] : 0 <= i < n and i < m }")
	c, _ := s.Card()
	// Known: n >= 1 and m >= n.
	ctx, _ := polyhedra.ParseSet("[n, m] -> { [] : n >= 1 and m >= n }")
	g, err := c.Gist(ctx)
	fmt.Println(c)
	fmt.Println(g, err)
	// Output:
	// [n, m] -> { n : n >= 1 and m >= n; m : m >= 1 and m < n }
	// [n, m] -> { n } <nil>
}

func ExampleCompileSet() {
	var fs []*polyhedra.PwQPolynomial
	for _, src := range []string{"[n] -> { [i, j] : 0 <= j <= i < n }", "[n] -> { [g] : 0 <= 16g < n }"} {
		s, _ := polyhedra.ParseSet(src)
		c, _ := s.Card()
		fs = append(fs, c)
	}
	ps, err := polyhedra.CompileSet(fs, []string{"n"})
	if err != nil {
		fmt.Println(err)
		return
	}
	out := make([]int64, ps.Len())
	for _, n := range []int64{10, 4_000_000_000} {
		err := ps.Eval([]int64{n}, out)
		fmt.Println(out, err)
	}
	// Output:
	// [55 1] <nil>
	// [8000000002000000000 250000000] <nil>
}

// A count past its budget fails with *BudgetError; with the parameters
// fixed, the same set is cheap to count. At n = 6, the 12 points with
// i = 1 or 4 count, and of the 24 others all but (0, 3) and (2, 4).
func ExampleSet_CardLimits() {
	s, _ := polyhedra.ParseSet("[n] -> { [i, j] : 0 <= i, j < n and (i mod 3 = 1 or 2j != i + n) }")
	_, err := s.CardLimits(polyhedra.Limits{MaxPieces: 3})
	var be *polyhedra.BudgetError
	fmt.Println(errors.As(err, &be), be.Limit, be.Value)
	sp, _ := s.Specialize(map[string]int64{"n": 6})
	c, _ := sp.CardLimits(polyhedra.Limits{MaxPieces: 100})
	fmt.Println(c)
	// Output:
	// true pieces 3
	// { 34 }
}
