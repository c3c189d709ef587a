package polyhedra_test

import (
	"errors"
	"fmt"

	"github.com/uniperf/uniperf/polyhedra"
)

// Each x != c doubles the basic sets of a set: eight dimensions need 256,
// past a budget of 100 while the set is parsed. At given parameters
// CountAt counts it point by point: 3 values of 4 on each of 8 axes.
func ExampleCountAt() {
	src := "[n] -> { [a, b, c, d, e, f, g, h] : 0 <= a, b, c, d, e, f, g, h < n and " +
		"a != 1 and b != 1 and c != 1 and d != 1 and e != 1 and f != 1 and g != 1 and h != 1 }"
	_, err := polyhedra.ParseSetLimits(src, polyhedra.Limits{MaxPieces: 100})
	var be *polyhedra.BudgetError
	fmt.Println(errors.As(err, &be), be.Limit)
	n, err := polyhedra.CountAt(src, map[string]int64{"n": 4}, polyhedra.Limits{}, 1<<30)
	fmt.Println(n, err)
	// Output:
	// true pieces
	// 6561 <nil>
}

func ExampleCheckNames() {
	fmt.Println(polyhedra.CheckNames("[n] -> { [i] : 0 <= i < nn }"))
	fmt.Println(polyhedra.CheckNames("{ [i] : 0 <= i < 1e3 }"))
	fmt.Println(polyhedra.CheckNames("{ [i] : 0 <= i < n }"))
	// Output:
	// 1:25: nn is neither a declared parameter (n) nor a dimension (i)
	// 1:18: 1e3 is not an integer: write it out in full
	// <nil>
}
