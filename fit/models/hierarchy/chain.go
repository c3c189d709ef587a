package hierarchy

import (
	"strings"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/fit/models"
)

// ChainPrefix starts the features of Config.Chain: chain.global.<type>
// counts the executions of the instructions that load a global cell an
// earlier iteration of their own sequential loop stored (Chains), each a
// step of a dependence chain through memory that no throughput term
// prices: the load waits on the store before it. The type is named as
// the memory properties name it (counts.DType.MemName): a u32 chain is
// chain.global.i32, an 8- or 16-bit one chain.global.b8 or b16.
const ChainPrefix = "chain.global."

// Chains returns, by statement ID, the element type of each instruction
// of k that carries a value through global memory from one iteration of
// an enclosing sequential loop to a later one: it stores A[f] and loads
// A[g] where g is f at an earlier value of the loop's iname, as w[i] +=
// ... in a loop over j (g = f, f independent of j) or adi's X[i2] =
// X[i2] - X[i2 - 1]... (g is f at i2 - 1). Atomic and indirect accesses
// are left out: their cells are not known from the subscripts.
func Chains(k *counts.Kernel) map[string]counts.DType {
	out := map[string]counts.DType{}
	var walk func(nodes []counts.Node, loops []string)
	walk = func(nodes []counts.Node, loops []string) {
		for _, n := range nodes {
			switch n := n.(type) {
			case *counts.Loop:
				walk(n.Body, append(loops[:len(loops):len(loops)], n.Iname))
			case *counts.Instruction:
				if carries(n, loops) {
					out[n.StatementID()] = n.LHS.Type()
				}
			}
		}
	}
	walk(k.Schedule, nil)
	return out
}

// carries reports whether s loads a global cell that it stored in an
// earlier iteration of one of loops.
func carries(s *counts.Instruction, loops []string) bool {
	lhs := s.LHS
	if s.Atomic || lhs.Array.Space != counts.Global || lhs.IsIndirect() || len(loops) == 0 {
		return false
	}
	found := false
	counts.Walk(s.RHS, func(e counts.Expr) bool {
		a, ok := e.(*counts.Access)
		if !ok || a.Array != lhs.Array || a.IsIndirect() || len(a.Index) != len(lhs.Index) {
			return !found
		}
		for _, l := range loops {
			if earlier(lhs.Index, a.Index, l) {
				found = true
			}
		}
		return !found
	})
	return found
}

// earlier reports whether subscripts g are subscripts f at iname l
// lowered by a constant d >= 1: f - g is d times f's coefficient of l in
// every dimension, or, where f does not depend on l, g is f.
func earlier(f, g []counts.Affine, l string) bool {
	d := int64(0)
	for i := range f {
		diff, ok := sub(f[i], g[i])
		if !ok {
			return false
		}
		step := coeffs(f[i].CoeffOf(l))
		if step == nil {
			return false
		}
		if len(step) == 0 {
			if len(diff) != 0 {
				return false
			}
			continue
		}
		m, ok := multiple(diff, step)
		if !ok || m < 1 || (d != 0 && m != d) {
			return false
		}
		d = m
	}
	return true
}

// coeffs is a as a map from term name ("" for the constant) to its
// coefficient, zeros left out; nil where a has floors, which are not
// compared.
func coeffs(a counts.Affine) map[string]int64 {
	if len(a.Floors) > 0 {
		return nil
	}
	out := map[string]int64{}
	for _, t := range a.Terms {
		if t.Coeff != 0 {
			out[t.Name] += t.Coeff
		}
	}
	if a.Const != 0 {
		out[""] = a.Const
	}
	return out
}

// sub returns f - g as coefficients; false where either has floors that
// differ.
func sub(f, g counts.Affine) (map[string]int64, bool) {
	if len(f.Floors) > 0 || len(g.Floors) > 0 {
		if f.String() != g.String() {
			return nil, false
		}
		return map[string]int64{}, true
	}
	out := coeffs(f)
	for n, c := range coeffs(g) {
		out[n] -= c
		if out[n] == 0 {
			delete(out, n)
		}
	}
	return out, true
}

// multiple returns m where diff is m times step (step not empty).
func multiple(diff, step map[string]int64) (int64, bool) {
	if len(diff) != len(step) {
		return 0, false
	}
	m := int64(0)
	for n, s := range step {
		c := diff[n]
		if c%s != 0 || (m != 0 && c/s != m) {
			return 0, false
		}
		m = c / s
	}
	return m, true
}

// chainSteps returns a launch's Chains features: by ChainPrefix and
// type, the executions of the instructions that carry a value through
// global memory, each storing once (its global stores).
func chainSteps(c *counts.Counted, params map[string]int64) (map[string]int64, error) {
	chains := Chains(c.Kernel())
	if len(chains) == 0 {
		return nil, nil
	}
	parts, vals, err := c.BreakdownAt(counts.ByInstruction, params)
	if err != nil {
		return nil, err
	}
	out := map[string]int64{}
	for i, p := range parts {
		if t, ok := chains[p.Source]; ok && strings.HasPrefix(p.Property, "global.store.") {
			out[ChainPrefix+t.MemName()] += vals[i]
		}
	}
	return out, nil
}

func isChain(p string) bool { return strings.HasPrefix(p, ChainPrefix) }

func chainStepsOf(env *models.Env, c models.Case) (map[string]int64, error) {
	k, err := env.Counter.Kernel(c.Kernel, c.Consts)
	if err != nil {
		return nil, err
	}
	return once("chain", k, c.Params, func() (map[string]int64, error) { return chainSteps(k, c.Params) })
}
