// Package suite describes what uniperf measure runs: for each library
// kernel its class, its role (measurement kernels are fitted on, test
// kernels validate), its variants, its size cases and its family of
// work-group sizes. Suites are JSON files embedded in the binary: "paper"
// follows seed 001 §4.1 and §5, "quick" is a small subset for CI and a
// first look at a device, and "hierarchy", opt-in, holds the
// memory-hierarchy classes (reuse within a group, a buffer re-read from
// L2, one streamed from DRAM, accumulation into global memory, column
// walks at power-of-two and padded pitches).
//
// Size cases follow the seed: a size N = 2^(p + step*t) for t in a list,
// with p chosen per device from a list (the harness raises p until the
// smallest case clearly exceeds launch overhead). A suite may also give a
// time budget, run_seconds, the longest one run of a case should take: on
// a slow device the harness then lowers p, below the seed's list if need
// be, until the first min_sizes sizes fit it, and skips the larger sizes
// that do not (seed 001 chose p per GPU "depending on launch overhead and
// memory limitations"; on a CPU the arithmetic kernels at the seed's sizes
// take minutes a run). A variant maps N, and
// any extra size variables, to the kernel's parameters with integer
// expressions such as "N/2". Work-group sizes come from the seed's six
// sets (1-D and 2-D, Small, Med, Large) and bind the kernel's group-size
// consts (LX, LY).
//
// [Load] reads a shipped suite by name and [Parse] a suite file; a
// [Suite]'s [Suite.Cases] are the points to measure of one [Kernel] entry.
package suite

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"maps"
	"math/bits"
	"slices"
	"sort"
)

//go:embed *.json
var files embed.FS

// Suite is a parsed suite description.
type Suite struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// GroupConsts are the consts that receive the work-group size, one per
	// axis (the library's LX and LY).
	GroupConsts []string `json:"group_consts"`
	// GroupSets maps a size class ("small", "med", "large") and a family
	// ("1d", "2d") to the work-group sizes to run.
	GroupSets map[string]map[string][][]int64 `json:"group_sets"`
	// RunSeconds is the time budget of one run of a case; zero means
	// none. A kernel's own run_seconds overrides it.
	RunSeconds float64   `json:"run_seconds,omitempty"`
	Kernels    []*Kernel `json:"kernels"`
}

// Kernel is one library kernel's entry.
type Kernel struct {
	Kernel string           `json:"kernel"` // library kernel name
	Class  string           `json:"class"`
	Role   string           `json:"role"`   // "measurement" or "test"
	Groups string           `json:"groups"` // work-group family: "1d" or "2d"
	Consts map[string]int64 `json:"consts,omitempty"`
	// Variants are the configurations (shapes, strides) measured.
	Variants []*Variant `json:"variants"`
	Sizes    Sizes      `json:"sizes"`
	// Extra size variables, each taking every listed value (seed 001's
	// arithmetic kernels sum over k = 256, 512, 728).
	Extra map[string][]int64 `json:"extra,omitempty"`
	// Check binds N and the extra variables for the correctness check: a
	// small size, preferably one the work-group sizes do not divide.
	Check map[string]int64 `json:"check"`
	// GroupSizes, when given, are the work-group sizes to run instead of
	// the suite's set (seed 001 reports its test kernels with 256
	// work-items per group only).
	GroupSizes [][]int64 `json:"group_sizes,omitempty"`
	// RunSeconds overrides the suite's time budget for this kernel.
	RunSeconds float64 `json:"run_seconds,omitempty"`
	// MinSizes is how many of the smallest sizes the time budget must
	// leave (default 2, at most len(t)): p is lowered until they fit.
	MinSizes int `json:"min_sizes,omitempty"`
	// OptIn entries are measured only when named (uniperf measure
	// --kernels): a class added after tables were measured with the suite
	// (integer memory) leaves the suite's plan, and those tables' resume,
	// as they were, and is added to a table by naming it.
	OptIn bool `json:"opt_in,omitempty"`
}

// DefaultMinSizes is the number of sizes a time budget leaves by default:
// two, so that every series varies.
const DefaultMinSizes = 2

// Budget returns the kernel's time budget for one run (zero for none) and
// the number of sizes it must leave.
func (s *Suite) Budget(k *Kernel) (runSeconds float64, minSizes int) {
	runSeconds = s.RunSeconds
	if k.RunSeconds > 0 {
		runSeconds = k.RunSeconds
	}
	minSizes = DefaultMinSizes
	if k.MinSizes > 0 {
		minSizes = k.MinSizes
	}
	return runSeconds, min(minSizes, len(k.Sizes.T))
}

// Variant is one configuration of a kernel.
type Variant struct {
	Name   string            `json:"name"`
	Params map[string]string `json:"params"` // parameter -> expression in N and the extras
	Consts map[string]int64  `json:"consts,omitempty"`
}

// Sizes are the size cases N = 2^(p + Step*t).
type Sizes struct {
	P    []int `json:"p"` // candidates for the device-dependent base
	T    []int `json:"t"`
	Step int   `json:"step"`
}

// Families of work-group sizes.
const (
	Groups1D = "1d"
	Groups2D = "2d"
)

// groupDims is the number of axes of a work-group size of each family.
var groupDims = map[string]int{Groups1D: 1, Groups2D: 2}

// isGroupSize reports whether g is a work-group size of family fam: one
// positive extent per axis.
func isGroupSize(fam string, g []int64) bool {
	return len(g) == groupDims[fam] && !slices.ContainsFunc(g, func(v int64) bool { return v < 1 })
}

// Names lists the embedded suites.
func Names() []string {
	entries, err := files.ReadDir(".")
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name()[:len(e.Name())-len(".json")])
	}
	sort.Strings(names)
	return names
}

// Load returns the embedded suite name ("paper", "quick" or "hierarchy").
func Load(name string) (*Suite, error) {
	data, err := files.ReadFile(name + ".json")
	if err != nil {
		return nil, fmt.Errorf("no suite %q (the suites are %v)", name, Names())
	}
	return Parse(name+".json", data)
}

// Parse reads and validates a suite description.
func Parse(file string, data []byte) (*Suite, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var s Suite
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if err := s.validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return &s, nil
}

func (s *Suite) validate() error {
	if s.Name == "" || len(s.Kernels) == 0 || len(s.GroupConsts) == 0 {
		return fmt.Errorf("a suite needs a name, group_consts and kernels")
	}
	if !(s.RunSeconds >= 0) {
		return fmt.Errorf("run_seconds %g: want a non-negative time", s.RunSeconds)
	}
	for class, fams := range s.GroupSets {
		for fam, sizes := range fams {
			if want := groupDims[fam]; want == 0 || want > len(s.GroupConsts) {
				return fmt.Errorf("group set %s/%s: the family must be 1d or 2d with a group const per axis", class, fam)
			}
			for _, g := range sizes {
				if !isGroupSize(fam, g) {
					return fmt.Errorf("group set %s/%s: %v is not a positive %s size", class, fam, g, fam)
				}
			}
		}
	}
	seen := map[string]bool{}
	for _, k := range s.Kernels {
		if err := k.validate(s); err != nil {
			return fmt.Errorf("kernel %s: %w", k.Kernel, err)
		}
		if seen[k.Kernel] {
			return fmt.Errorf("kernel %s: listed twice", k.Kernel)
		}
		seen[k.Kernel] = true
	}
	return nil
}

func (k *Kernel) validate(s *Suite) error {
	if k.Kernel == "" || k.Class == "" {
		return fmt.Errorf("kernel and class are required")
	}
	if k.Role != "measurement" && k.Role != "test" {
		return fmt.Errorf("role %q is neither measurement nor test", k.Role)
	}
	if k.Groups != Groups1D && k.Groups != Groups2D {
		return fmt.Errorf("groups %q is neither 1d nor 2d", k.Groups)
	}
	if len(k.Variants) == 0 || len(k.Sizes.P) == 0 || len(k.Sizes.T) == 0 || k.Sizes.Step < 1 {
		return fmt.Errorf("variants, sizes.p, sizes.t and a positive sizes.step are required")
	}
	if _, ok := k.Check["N"]; !ok {
		return fmt.Errorf("check must bind N")
	}
	if !(k.RunSeconds >= 0) || k.MinSizes < 0 {
		return fmt.Errorf("run_seconds %g and min_sizes %d: want non-negative values", k.RunSeconds, k.MinSizes)
	}
	for _, g := range k.GroupSizes {
		if !isGroupSize(k.Groups, g) {
			return fmt.Errorf("group_sizes: %v is not a positive %s size", g, k.Groups)
		}
	}
	for _, p := range k.Sizes.P {
		for _, t := range k.Sizes.T {
			if e := p + k.Sizes.Step*t; e < 0 || e > 40 {
				return fmt.Errorf("size 2^%d (p=%d, t=%d) is out of range", e, p, t)
			}
		}
	}
	names := map[string]bool{}
	for _, v := range k.Variants {
		if names[v.Name] {
			return fmt.Errorf("variant %q listed twice", v.Name)
		}
		names[v.Name] = true
		if len(v.Params) == 0 {
			return fmt.Errorf("variant %q binds no parameter", v.Name)
		}
		// Evaluating at the check size catches unknown variables and
		// inexact divisions before anything runs.
		if _, err := v.bind(k.Check); err != nil {
			return fmt.Errorf("variant %q at the check size: %w", v.Name, err)
		}
		for c := range v.Consts {
			if slices.Contains(s.GroupConsts, c) {
				return fmt.Errorf("variant %q sets %s, which the work-group size sets", v.Name, c)
			}
		}
	}
	return nil
}

// bind evaluates the variant's parameter expressions.
func (v *Variant) bind(vars map[string]int64) (map[string]int64, error) {
	params := make(map[string]int64, len(v.Params))
	for _, p := range sortedKeys(v.Params) {
		x, err := evalExpr(v.Params[p], vars)
		if err != nil {
			return nil, fmt.Errorf("parameter %s: %w", p, err)
		}
		params[p] = x
	}
	return params, nil
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// Case is one point of the suite: a kernel variant with its consts
// (work-group size included) and parameter values.
type Case struct {
	Entry   *Kernel
	Variant *Variant
	Group   []int64          // work-group size per axis
	Consts  map[string]int64 // every const the suite sets
	Params  map[string]int64
	P, T    int              // the size case, N = 2^(P + Step*T)
	Extra   map[string]int64 // the extra variables' values
}

// Groups returns the work-group sizes of the entry's family in size class
// ("small", "med" or "large"), or the entry's own group_sizes.
func (s *Suite) Groups(k *Kernel, class string) ([][]int64, error) {
	if len(k.GroupSizes) > 0 {
		return k.GroupSizes, nil
	}
	fams, ok := s.GroupSets[class]
	if !ok {
		return nil, fmt.Errorf("suite %s has no group size class %q (it has %v)", s.Name, class, sortedKeys(s.GroupSets))
	}
	sizes, ok := fams[k.Groups]
	if !ok || len(sizes) == 0 {
		return nil, fmt.Errorf("suite %s: group size class %q has no %s sizes", s.Name, class, k.Groups)
	}
	return sizes, nil
}

// Consts returns the consts of a variant run with work-group size group.
func (s *Suite) Consts(k *Kernel, v *Variant, group []int64) map[string]int64 {
	c := map[string]int64{}
	for n, x := range k.Consts {
		c[n] = x
	}
	for n, x := range v.Consts {
		c[n] = x
	}
	for ax, g := range group {
		c[s.GroupConsts[ax]] = g
	}
	return c
}

// Cases expands an entry at base p for every variant, work-group size of
// the class, size case and extra value, smallest sizes first.
func (s *Suite) Cases(k *Kernel, class string, p int) ([]Case, error) {
	groups, err := s.Groups(k, class)
	if err != nil {
		return nil, err
	}
	var out []Case
	for _, t := range k.Sizes.T {
		// N is a power of two that an int64 holds: a p lowered past the
		// smallest size (1) is no size, not a shift that panics.
		e := p + k.Sizes.Step*t
		if e < 0 || e > 62 {
			return nil, fmt.Errorf("%s: size N = 2^%d (p = %d, t = %d) is not a size: the exponent must lie in 0..62", k.Kernel, e, p, t)
		}
		for _, extra := range k.extras() {
			vars := map[string]int64{"N": 1 << e}
			for n, x := range extra {
				vars[n] = x
			}
			for _, v := range k.Variants {
				params, err := v.bind(vars)
				if err != nil {
					return nil, fmt.Errorf("kernel %s variant %q at N=%d: %w", k.Kernel, v.Name, vars["N"], err)
				}
				for _, g := range groups {
					out = append(out, Case{Entry: k, Variant: v, Group: g, Consts: s.Consts(k, v, g),
						Params: params, P: p, T: t, Extra: extra})
				}
			}
		}
	}
	return out, nil
}

// CheckParams are a variant's parameters at the correctness-check size.
func (k *Kernel) CheckParams(v *Variant) (map[string]int64, error) { return v.bind(k.Check) }

// extras lists every combination of the extra variables' values (one
// empty combination when there are none).
func (k *Kernel) extras() []map[string]int64 {
	combos := []map[string]int64{{}}
	for _, name := range sortedKeys(k.Extra) {
		var next []map[string]int64
		for _, c := range combos {
			for _, x := range k.Extra[name] {
				m := map[string]int64{name: x}
				for n, y := range c {
					m[n] = y
				}
				next = append(next, m)
			}
		}
		combos = next
	}
	return combos
}

// SizeClass picks the group size class for a device from its largest
// work-group, as seed 001 §4.1 does by GPU: a device limited to fewer than
// 512 work-items per group (the R9 Fury allows 256) runs the Small sets,
// any other the Large sets.
func SizeClass(maxGroup int64) string {
	if maxGroup < 512 {
		return "small"
	}
	return "large"
}

// Log2 is the exponent of a power of two, or -1.
func Log2(n int64) int {
	if n <= 0 || n&(n-1) != 0 {
		return -1
	}
	return bits.TrailingZeros64(uint64(n))
}
