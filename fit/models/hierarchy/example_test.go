package hierarchy_test

import (
	"fmt"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/fit/models/hierarchy"
)

// A work-item per row: the diagonal's load runs vectorised across the
// work-items (no loop), the row sum's loads one work-item at a time
// (the loop over k holds no barrier), walking the row in order.
func ExampleScalar() {
	src := []byte(`kernel rows
const LX = 64
domain [n] -> { [i, k] : 0 <= i < n and 0 <= k < n }
array a f32 [n*n]
array d f32 [n]
array s f32 [n]
split i LX i_out i_in
tag i_in l.0, i_out g.0
d[i] = a[i*n + i]
s[i] += a[i*n + k]
`)
	k, err := counts.ParseKernel("rows.knl", src, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	scalar := hierarchy.Scalar(k)
	for _, st := range k.Statements {
		if in, ok := st.(*counts.Instruction); ok {
			fmt.Printf("%s: one work-item at a time %v\n", in.LHS.Array.Name, scalar[in.StatementID()])
		}
	}
	// Output:
	// d: one work-item at a time false
	// s: one work-item at a time true
}
