package counts

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"sync"
	"testing"

	"github.com/uniperf/uniperf/polyhedra"
)

// TestCountFixedAgainstEnumeration counts random sets without
// parameters, some of whose variables no constraint links, part by part
// through one Shared, and compares each count with the set's points
// enumerated whole.
func TestCountFixedAgainstEnumeration(t *testing.T) {
	rng := rand.New(rand.NewPCG(44, 1))
	shared := NewShared()
	split := 0
	for n := range 300 {
		u := randomFixedSet(rng)
		want, err := countConcrete(u, "random.knl", nil, nil, 1e7)
		if err != nil {
			t.Fatalf("set %d %s: enumerating: %v", n, u.isl(nil), err)
		}
		got, err := countFixed(u, u.isl(nil), shared, polyhedra.Limits{})
		if err != nil {
			t.Fatalf("set %d %s: %v", n, u.isl(nil), err)
		}
		v, err := got.Eval(nil)
		if err != nil {
			t.Fatal(err)
		}
		if !v.IsInt64() || v.Int64() != want {
			t.Errorf("set %d %s: counted %s, enumerated %d", n, u.isl(nil), v, want)
		}
		if parts, empty := u.independentParts(); empty || len(parts) > 1 {
			split++
		}
	}
	if split < 100 {
		t.Errorf("only %d of 300 sets split into parts; the test exercises too little", split)
	}
}

// randomFixedSet returns a set of one piece over dimensions x0..x3 and
// existential variables e0 and e1, each boxed in a small range, with a
// few constraints that link random pairs (some equalities, some
// constants that may fail).
func randomFixedSet(rng *rand.Rand) *uset {
	dims := []string{"x0", "x1", "x2", "x3"}
	exists := []string{"e0", "e1"}
	var c conj
	for _, v := range slices.Concat(dims, exists) {
		lo, hi := int64(rng.IntN(3)), int64(2+rng.IntN(5))
		c = append(c, cons{e: qaff{terms: []lterm{{v, 1}}, c: -lo}}, cons{e: qaff{terms: []lterm{{v, -1}}, c: hi}})
	}
	vars := slices.Concat(dims, exists)
	for range rng.IntN(4) {
		a, b := vars[rng.IntN(len(vars))], vars[rng.IntN(len(vars))]
		e := qaff{terms: []lterm{{a, int64(rng.IntN(5) - 2)}, {b, int64(rng.IntN(5) - 2)}}, c: int64(rng.IntN(9) - 2)}
		if a == b || e.terms[0].coef == 0 || e.terms[1].coef == 0 {
			continue
		}
		c = append(c, cons{e: e, eq: rng.IntN(5) == 0})
	}
	if rng.IntN(6) == 0 {
		c = append(c, cons{e: qconst(int64(rng.IntN(3) - 1))})
	}
	return &uset{dims: dims, pieces: []piece{{exists: exists, c: c}}}
}

// TestIndependentPartsConvolution checks the parts of the tiled
// convolution's accumulation domain at fixed sizes, derived by hand:
// rows (gy, ty, yi), columns (gx, tx, xi), and the filter's i and j.
func TestIndependentPartsConvolution(t *testing.T) {
	src, err := os.ReadFile("../examples/convolution_kernel.knl")
	if err != nil {
		t.Fatal(err)
	}
	k, err := ParseKernel("convolution_kernel.knl", src, map[string]int64{"BX": 8, "BY": 4, "TX": 2, "TY": 3})
	if err != nil {
		t.Fatal(err)
	}
	p, err := buildPlanFixed(k, Options{}, false, map[string]int64{"h": 100, "w": 90})
	if err != nil {
		t.Fatal(err)
	}
	u := p.sets[p.projection([]string{"gy", "gx", "ty", "tx", "i", "j", "yi", "xi"})]
	parts, empty := u.independentParts()
	if empty {
		t.Fatal("the domain is reported empty")
	}
	var got [][]string
	for _, part := range parts {
		got = append(got, part.dims)
	}
	want := [][]string{{"gy", "ty", "yi"}, {"gx", "tx", "xi"}, {"i"}, {"j"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("parts %v, want %v", got, want)
	}
}

// TestCountWithAtSharedTiles counts bindings of the tiled convolution
// concurrently, sharing one Shared, and compares each with the
// counting plan evaluated by enumeration: bindings that share the
// block and tile sizes of one axis share that axis's parts.
func TestCountWithAtSharedTiles(t *testing.T) {
	src, err := os.ReadFile("../examples/convolution_kernel.knl")
	if err != nil {
		t.Fatal(err)
	}
	params := map[string]int64{"h": 13, "w": 10}
	bindings := [][4]int64{{4, 2, 1, 1}, {4, 2, 2, 3}, {4, 4, 1, 3}, {2, 2, 2, 1}, {8, 2, 1, 1}}
	shared := NewShared()
	kernels := make([]*Kernel, len(bindings))
	counted := make([]map[string]int64, len(bindings))
	errs := make([]error, len(bindings))
	var wg sync.WaitGroup
	for i, b := range bindings {
		consts := map[string]int64{"BX": b[0], "BY": b[1], "TX": b[2], "TY": b[3], "FH": 3, "FW": 5, "PAD": 1}
		if kernels[i], err = ParseKernel("convolution_kernel.knl", src, consts); err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := CountWithAt(kernels[i], Options{Shared: shared}, params)
			if err == nil {
				counted[i], err = c.Eval(params)
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for i, b := range bindings {
		t.Run(fmt.Sprint(b), func(t *testing.T) {
			if errs[i] != nil {
				t.Fatal(errs[i])
			}
			p, err := newPlan(kernels[i], Options{})
			if err != nil {
				t.Fatal(err)
			}
			e, err := p.concrete(params, 1e9)
			if err != nil {
				t.Fatal(err)
			}
			compareProps(t, counted[i], e.props)
			compareProps(t, e.props, counted[i])
		})
	}
	if len(shared.sets) == 0 {
		t.Error("the bindings shared no part")
	}
}
