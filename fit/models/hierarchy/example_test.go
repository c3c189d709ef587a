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

// A recurrence along each row and a running sum: x[i, k] reads the
// cell the iteration k - 1 stored, s[i] the cell every earlier
// iteration stored; y[i, k] reads only its own iteration's cell.
func ExampleChains() {
	src := []byte(`kernel recur
const LX = 64
domain [n] -> { [i, k] : 0 <= i < n and 1 <= k < n }
array x f32 [n*n]
array y f32 [n*n]
array s f32 [n]
split i LX i_out i_in
tag i_in l.0, i_out g.0
x[i*n + k] = 0.5f*x[i*n + k - 1]
y[i*n + k] = 2.0f*y[i*n + k]
s[i] += x[i*n + k]
`)
	k, err := counts.ParseKernel("recur.knl", src, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	chains := hierarchy.Chains(k)
	for _, st := range k.Statements {
		if in, ok := st.(*counts.Instruction); ok {
			_, chain := chains[in.StatementID()]
			fmt.Printf("%s: chain %v\n", in.LHS.Array.Name, chain)
		}
	}
	// Output:
	// x: chain true
	// y: chain false
	// s: chain true
}

// A running sum and a scaled load in a private temporary: t adds to
// the value the iteration before left, u is loaded afresh each
// iteration before it is scaled, so its second statement reads this
// iteration's value.
func ExampleRegisterChains() {
	src := []byte(`kernel regs
const LX = 64
domain [n] -> { [i, k] : 0 <= i < n and 0 <= k < n }
array a f32 [n*n]
array s f32 [n]
array v f32 [n]
private t f32
private u f32
split i LX i_out i_in
tag i_in l.0, i_out g.0
t = 0 {id=init}
for k
  t = t + a[i*n + k] {id=sum, dep=init}
  u = a[i*n + k] {id=load}
  u = 2.0f*u {id=scale, dep=load}
end
s[i] = t {dep=sum}
v[i] = u {dep=scale}
`)
	k, err := counts.ParseKernel("regs.knl", src, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	chains := hierarchy.RegisterChains(k)
	for _, st := range k.Statements {
		if in, ok := st.(*counts.Instruction); ok {
			_, chain := chains[in.StatementID()]
			fmt.Printf("%s: chain %v\n", in.StatementID(), chain)
		}
	}
	// Output:
	// init: chain false
	// sum: chain true
	// load: chain false
	// scale: chain false
	// insn_4: chain false
	// insn_5: chain false
}
