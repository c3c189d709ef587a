package counts

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/uniperf/uniperf/measurekernels/library"
)

// TestSubscriptOps checks the operations of subscripts against counts by
// hand, as loopy counts the index expression written out.
func TestSubscriptOps(t *testing.T) {
	cases := []struct {
		a          Affine
		adds, muls int
	}{
		{Affine{}, 0, 0},                                                     // 0
		{Affine{Const: 5}, 0, 0},                                             // 5
		{Affine{Terms: []Term{{"i", 1}}}, 0, 0},                              // i
		{Affine{Terms: []Term{{"i", 1}}, Const: 1}, 1, 0},                    // i + 1
		{Affine{Terms: []Term{{"i", 1}}, Const: -1}, 1, 0},                   // i - 1
		{Affine{Terms: []Term{{"n", 1}, {"i", -1}}}, 1, 0},                   // n - i
		{Affine{Terms: []Term{{"i", -2}}}, 0, 1},                             // -2*i
		{Affine{Terms: []Term{{"i_out", 16}, {"i_in", 1}}, Const: -1}, 2, 1}, // 16*i_out + i_in - 1
		{Affine{Terms: []Term{{"c", 3}, {"j_out", 768}, {"p", 3}}}, 2, 3},    // 3*c + 768*j_out + 3*p
	}
	for _, c := range cases {
		adds, muls := 0, 0
		for _, op := range subscriptOps(c.a) {
			switch op {
			case Op{KindAdd, I32}:
				adds++
			case Op{KindMul, I32}:
				muls++
			default:
				t.Errorf("%v: operation %v", c.a, op)
			}
		}
		if adds != c.adds || muls != c.muls {
			t.Errorf("%v: %d adds and %d muls, want %d and %d", c.a, adds, muls, c.adds, c.muls)
		}
	}
}

// breakdownCase is a kernel at one parameter point for the comparison of
// breakdowns and footprints with the interpreter.
type breakdownCase struct {
	name   string // a library kernel, or a hand case's name
	src    []byte // nil for a library kernel
	consts map[string]int64
	params map[string]int64
}

// breakdownCases are every library kernel at the sizes of the plan and
// count checks (splits that do not divide among them) and the hand cases.
func breakdownCases() []breakdownCase {
	var out []breakdownCase
	seen := map[string]bool{}
	for _, c := range append(planChecks(), countChecks()...) {
		key := fmt.Sprint(c.kernel, c.consts, c.params)
		if !seen[key] {
			seen[key] = true
			out = append(out, breakdownCase{name: c.kernel, consts: c.consts, params: c.params})
		}
	}
	for _, c := range handCases() {
		out = append(out, breakdownCase{name: c.name, src: []byte(c.src), params: c.params})
	}
	return append(out, langBreakdownCases()...)
}

// largestSizes keeps, of the cases of each kernel and constants, the one
// whose sizes multiply to the most (the first of equals), in the cases'
// order. The split into parts is the same code at every size, and the
// counts at the other sizes, where pieces change, stay checked under
// -short: against the plan's enumeration by TestCountMatchesPlanAndRun,
// the plan against the interpreter by TestPlanMatchesExecution.
func largestSizes(cases []breakdownCase) []breakdownCase {
	key := func(c breakdownCase) string { return fmt.Sprint(c.name, c.src, c.consts) }
	size := func(c breakdownCase) float64 {
		v := 1.0
		for _, p := range c.params {
			v *= float64(p)
		}
		return v
	}
	best := map[string]int{}
	for i, c := range cases {
		if j, ok := best[key(c)]; !ok || size(c) > size(cases[j]) {
			best[key(c)] = i
		}
	}
	var out []breakdownCase
	for i, c := range cases {
		if best[key(c)] == i {
			out = append(out, c)
		}
	}
	return out
}

func (c breakdownCase) kernel(t *testing.T) *Kernel {
	t.Helper()
	src, file := c.src, c.name+".knl"
	if src == nil {
		var err error
		if src, err = library.Source(c.name); err != nil {
			t.Fatal(err)
		}
		file = library.FileName(c.name)
	}
	k, err := ParseKernel(file, src, c.consts)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// countedWith caches CountWith per kernel, constants and options.
var countedWith sync.Map

func (c breakdownCase) counted(t *testing.T, k *Kernel, opts Options) *Counted {
	t.Helper()
	key := fmt.Sprint(c.name, c.consts, opts)
	if v, ok := countedWith.Load(key); ok {
		return v.(*Counted)
	}
	counted, err := CountWith(k, opts)
	if err != nil {
		t.Fatal(err)
	}
	countedWith.Store(key, counted)
	return counted
}

// TestBreakdownMatchesRun splits the properties of every library kernel
// and of the hand cases by instruction and by array, with and without
// subscript arithmetic, and compares each part with what the reference
// interpreter's statements did (by instruction) or did to each array (by
// array); the parts of every property must sum to it. Under -short it
// takes each kernel at its largest size only (largestSizes).
func TestBreakdownMatchesRun(t *testing.T) {
	cases := breakdownCases()
	if testing.Short() {
		cases = largestSizes(cases)
	}
	for _, c := range cases {
		for _, opts := range []Options{{}, {CountSubscripts: true}} {
			t.Run(fmt.Sprintf("%s/%v/%v/%+v", c.name, c.consts, c.params, opts), func(t *testing.T) {
				k := c.kernel(t)
				counted := c.counted(t, k, opts)
				tl, err := Run(k, c.params, randomArrays(t, k, c.params), &RunOptions{Trace: true, CountSubscripts: opts.CountSubscripts})
				if err != nil {
					t.Fatal(err)
				}
				values, err := counted.Eval(c.params)
				if err != nil {
					t.Fatal(err)
				}
				totals := tl.Totals()
				compareProps(t, sumClasses(values), totals)

				byStmt := checkParts(t, counted, ByInstruction, c.params, values)
				for id, props := range byStmt {
					if id == "" {
						continue
					}
					t.Run(id, func(t *testing.T) { compareProps(t, sumClasses(props), tl.Statements[id]) })
				}
				for id := range tl.Statements {
					if id != "" && byStmt[id] == nil {
						t.Errorf("statement %s did %v, no part", id, tl.Statements[id])
					}
				}

				byArray := checkParts(t, counted, ByArray, c.params, values)
				want := map[string]map[string]int64{}
				add := func(array, name string, v int64) {
					if want[array] == nil {
						want[array] = map[string]int64{}
					}
					want[array][name] += v
				}
				for m, v := range tl.Global {
					add(m.Array, m.property(Global), v)
				}
				for m, v := range tl.Local {
					add(m.Array, m.property(Local), v)
				}
				if !opts.CountSubscripts {
					// The operations of a statement's value belong to the
					// array it assigns to.
					for _, s := range k.Statements {
						if ins, ok := s.(*Instruction); ok {
							for name, v := range tl.Statements[ins.ID] {
								if strings.HasPrefix(name, "flop.") || strings.HasPrefix(name, "int.") {
									add(ins.LHS.Array.Name, name, v)
								}
							}
						}
					}
				}
				for array, props := range byArray {
					if array == "" {
						continue
					}
					got := sumClasses(props)
					if opts.CountSubscripts {
						for name := range got {
							if strings.HasPrefix(name, "flop.") || strings.HasPrefix(name, "int.") {
								delete(got, name)
							}
						}
					}
					t.Run(array, func(t *testing.T) { compareProps(t, got, want[array]) })
				}
			})
		}
	}
}

// checkParts checks BreakdownAt against the property values: the parts
// of each property sum to it, and the kernel as a whole has only the
// launch properties (and by array the barriers). It checks Breakdown's
// parts of fixed classes against BreakdownAt's, and returns the parts'
// values by source and property.
func checkParts(t *testing.T, c *Counted, by Attribution, params, values map[string]int64) map[string]map[string]int64 {
	t.Helper()
	parts, vals, err := c.BreakdownAt(by, params)
	if err != nil {
		t.Fatal(err)
	}
	symbolic, err := c.Breakdown(by)
	if err != nil {
		t.Fatal(err)
	}
	fixed := map[[2]string]string{}
	for _, p := range symbolic {
		if p.Utilization == nil {
			fixed[[2]string{p.Property, p.Source}] = p.Expression
		}
	}
	sums := map[string]int64{}
	out := map[string]map[string]int64{}
	for i, p := range parts {
		sums[p.Property] += vals[i]
		if out[p.Source] == nil {
			out[p.Source] = map[string]int64{}
		}
		out[p.Source][p.Property] += vals[i]
		if p.Source == "" && !strings.HasPrefix(p.Property, "launch.") && (by == ByInstruction || p.Property != "sync.barrier") {
			t.Errorf("by %d: %s has a part of the whole kernel", by, p.Property)
		}
		if e, ok := fixed[[2]string{p.Property, p.Source}]; ok && e != p.Expression {
			t.Errorf("by %d: %s of %s: %s at the parameters, %s symbolically", by, p.Property, p.Source, p.Expression, e)
		} else if !ok && !strings.Contains(p.Property, "/") {
			t.Errorf("by %d: %s of %s: no symbolic part", by, p.Property, p.Source)
		}
	}
	for name, v := range values {
		if !strings.HasPrefix(name, "global.minldst.") && sums[name] != v {
			t.Errorf("by %d: the parts of %s sum to %d, the property is %d", by, name, sums[name], v)
		}
	}
	for name := range sums {
		if _, ok := values[name]; !ok {
			t.Errorf("by %d: parts of %s, which is zero", by, name)
		}
	}
	return out
}

// TestFootprintsMatchRun compares the footprints of every library kernel
// and of the hand cases with the elements the interpreter loaded and
// stored.
func TestFootprintsMatchRun(t *testing.T) {
	for _, c := range breakdownCases() {
		t.Run(fmt.Sprintf("%s/%v/%v", c.name, c.consts, c.params), func(t *testing.T) {
			k := c.kernel(t)
			counted := c.counted(t, k, Options{})
			tl, err := Run(k, c.params, randomArrays(t, k, c.params), &RunOptions{Trace: true})
			if err != nil {
				t.Fatal(err)
			}
			fps, sizes, err := counted.FootprintsAt(c.params)
			if len(counted.plan.indirect) > 0 {
				// Gathers touch cells that are data: refused.
				if err == nil || !strings.Contains(err.Error(), "reads its subscripts from data") {
					t.Fatalf("footprints of a kernel with gathers: err = %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{}
			for i, f := range fps {
				touched := tl.Loaded
				if f.Store {
					touched = tl.Stored
				}
				want := int64(len(touched[f.Array]))
				if sizes[i].Elements != want || sizes[i].Bytes != want*int64(f.DType.Size()) {
					t.Errorf("%s %s: %+v, the interpreter touched %d elements", f.Array, direction(f.Store), sizes[i], want)
				}
				seen[direction(f.Store)+" "+f.Array] = true
			}
			for dir, touched := range map[string]map[string]map[int64]bool{"load": tl.Loaded, "store": tl.Stored} {
				for array, cells := range touched {
					if !seen[dir+" "+array] && len(cells) > 0 {
						t.Errorf("%s %s: no footprint, the interpreter touched %d elements", array, dir, len(cells))
					}
				}
			}
		})
	}
}

// TestBreakdownByHand checks the parts of matmul_tiled, with subscript
// arithmetic, against counts derived by hand at sizes far beyond
// enumeration: n x m times m x ell in 16 x 16 tiles, t = ceil(m/16)
// tiles along k; symbolically and counted at those sizes (CountWithAt).
func TestBreakdownByHand(t *testing.T) {
	k := breakdownCase{name: "matmul_tiled"}.kernel(t)
	const n, m, ell = 4096, 1000, 2048
	const tiles = (m + 15) / 16
	params := map[string]int64{"n": n, "m": m, "ell": ell}
	// insn_2, ta[i_in, pa] = a[16*i_out + i_in, 16*k_out + pa], runs for
	// every element of a in each of the ell/16 group columns: two adds
	// and two muls in a's subscripts, one load and one local store.
	// insn_3 likewise for b in each of the n/16 group rows. insn_5 adds
	// the m products of its reduction and once per tile into acc, and
	// loads two tile elements per product; insn_6 stores c, with two
	// adds and two muls. Each barrier runs once per tile on all n*ell
	// work-items.
	aLoads, bLoads := int64(n*m*(ell/16)), int64(m*ell*(n/16))
	want := map[string]map[string]int64{
		"insn_2":    {"global.load.f32.stride=1": aLoads, "local.store.f32": aLoads, "int.i32.add": 2 * aLoads, "int.i32.mul": 2 * aLoads},
		"insn_3":    {"global.load.f32.stride=1": bLoads, "local.store.f32": bLoads, "int.i32.add": 2 * bLoads, "int.i32.mul": 2 * bLoads},
		"insn_5":    {"flop.f32.mul": n * m * ell, "flop.f32.add": n*m*ell + n*ell*tiles, "local.load.f32": 2 * n * m * ell},
		"insn_6":    {"global.store.f32.stride=1": n * ell, "int.i32.add": 2 * n * ell, "int.i32.mul": 2 * n * ell},
		"barrier_1": {"sync.barrier": tiles * n * ell},
		"barrier_4": {"sync.barrier": tiles * n * ell},
		"":          {"launch.groups": (n / 16) * (ell / 16), "launch.const": 1},
	}
	opts := Options{CountSubscripts: true}
	for _, at := range []bool{false, true} {
		t.Run(fmt.Sprintf("at sizes %v", at), func(t *testing.T) {
			c, err := CountWith(k, opts)
			if at {
				c, err = CountWithAt(k, opts, params)
			}
			if err != nil {
				t.Fatal(err)
			}
			parts, values, err := c.BreakdownAt(ByInstruction, params)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]map[string]int64{}
			for i, p := range parts {
				if got[p.Source] == nil {
					got[p.Source] = map[string]int64{}
				}
				got[p.Source][p.Property] = values[i]
			}
			for _, id := range slices.Sorted(maps.Keys(want)) {
				t.Run(id, func(t *testing.T) { compareProps(t, got[id], want[id]) })
			}
			for id := range got {
				if want[id] == nil {
					t.Errorf("unexpected part %s: %v", id, got[id])
				}
			}
		})
	}
}
