package suite

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/library"
)

func TestEvalExpr(t *testing.T) {
	vars := map[string]int64{"N": 64, "K": 3}
	for src, want := range map[string]int64{"N": 64, "N/2": 32, "8*N": 512, "N - K*2": 58, "-(N+1)": -65, " ( N ) / 4 * 3 ": 48, "7": 7} {
		if got, err := evalExpr(src, vars); err != nil || got != want {
			t.Errorf("%q = %d, %v; want %d", src, got, err, want)
		}
	}
	for src, msg := range map[string]string{"N/3": "not an exact", "M": "unknown variable M", "N+": "unexpected end",
		"(N": "missing )", "N N": "unexpected", "9223372036854775807+1": "overflows", "N/0": "not an exact", "N % 2": "unexpected"} {
		if _, err := evalExpr(src, vars); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: got %v, want an error containing %q", src, err, msg)
		}
	}
}

// The paper suite's group sets and size cases, typed from seed 001 §4.1
// and §5.
func TestPaperSuiteFollowsTheSeed(t *testing.T) {
	s, err := Load("paper")
	if err != nil {
		t.Fatal(err)
	}
	wantGroups := map[string]map[string][][]int64{
		"small": {"1d": {{192}, {224}, {256}}, "2d": {{16, 12}, {16, 14}, {16, 16}}},
		"med":   {"1d": {{128}, {256}, {384}}, "2d": {{16, 12}, {16, 16}, {32, 16}}},
		"large": {"1d": {{256}, {384}, {512}}, "2d": {{16, 16}, {24, 16}, {32, 16}}},
	}
	if !reflect.DeepEqual(s.GroupSets, wantGroups) {
		t.Errorf("group sets %v", s.GroupSets)
	}
	sizes := map[string]Sizes{
		"matmul_tiled":       {P: []int{7, 8, 9}, T: []int{0, 1, 2, 3}, Step: 1},
		"matmul_naive":       {P: []int{6, 8, 9}, T: []int{0, 1, 2, 3}, Step: 1},
		"vector_scale_add":   {P: []int{18, 20, 21}, T: []int{0, 1, 2, 3}, Step: 2},
		"transpose_prefetch": {P: []int{10, 11}, T: []int{0, 1, 2, 3}, Step: 1},
		"global_copy":        {P: []int{17, 18, 19, 20}, T: []int{0, 1, 2, 3, 4, 5, 6, 7, 8}, Step: 1},
		"stride3_filled":     {P: []int{15, 16, 17}, T: []int{0, 1, 2, 3}, Step: 3},
		"arith_pow_f64":      {P: []int{7, 8}, T: []int{0, 1, 2}, Step: 1},
		"empty":              {P: []int{8, 9, 10}, T: []int{0, 1, 2, 3, 4, 5}, Step: 1},
		"finite_diff":        {P: []int{10, 11}, T: []int{0, 1, 2, 3}, Step: 1},
		"matmul_skinny":      {P: []int{9, 10}, T: []int{0, 1, 2, 3}, Step: 1},
		"convolution":        {P: []int{6, 7, 8}, T: []int{0, 1, 2, 3}, Step: 1},
		"nbody":              {P: []int{10, 11}, T: []int{0, 1, 2, 3}, Step: 1},
	}
	byName := map[string]*Kernel{}
	classes := map[string]bool{}
	for _, k := range s.Kernels {
		byName[k.Kernel] = k
		if k.Role == "measurement" {
			classes[k.Class] = true
		}
	}
	for name, want := range sizes {
		if k := byName[name]; k == nil || !reflect.DeepEqual(k.Sizes, want) {
			t.Errorf("%s: sizes %+v, want %+v", name, k, want)
		}
	}
	// The seed's nine classes and uniperf's global_strided, vector_norms,
	// vector_sums, matvec, uniform_loads, arith_mix, global_fan, empty_1d,
	// the three grid-fill classes, local_bank and arith_int, and the
	// opt-in global_int and local_int (integer memory), global_f16 (half
	// precision), global_ldg (the read-only data path), gather and
	// atomic_add (indirect accesses and atomics), reg_chain (chains
	// through registers), local_stores (local stores between barriers),
	// local_atomic (atomic additions to local memory), uniform_store
	// (a store every work-item makes to one address), scatter (stores
	// at subscripts read from data) and global_int_strided (i32 loads
	// and stores in the stride classes other than 1).
	own := []string{"global_strided", "vector_norms", "vector_sums", "matvec", "uniform_loads", "arith_mix", "global_fan", "empty_1d",
		"grid_fill_chain", "grid_fill_stream", "grid_fill_local", "local_bank", "arith_int", "global_int", "local_int", "global_f16", "global_ldg", "gather", "atomic_add",
		"reg_chain", "local_stores", "local_atomic", "uniform_store", "scatter", "global_int_strided"}
	if len(classes) != 9+len(own) || slices.ContainsFunc(own, func(c string) bool { return !classes[c] }) {
		t.Errorf("%d measurement classes %v, want the seed's 9 and %v", len(classes), classes, own)
	}
	// Seed 001 reports its test kernels with 256 work-items per group, at
	// four sizes.
	for _, name := range []string{"finite_diff", "matmul_skinny", "nbody", "convolution"} {
		k := byName[name]
		groups, err := s.Groups(k, "large")
		if err != nil || len(groups) != 1 {
			t.Fatalf("%s: groups %v, %v", name, groups, err)
		}
		items := int64(1)
		for _, g := range groups[0] {
			items *= g
		}
		if k.Role != "test" || items != 256 {
			t.Errorf("%s: role %s, groups %v", name, k.Role, groups)
		}
		if b, keep := s.Budget(k); b <= 0 || keep != 4 {
			t.Errorf("%s: budget %g s for %d sizes, want 4 sizes", name, b, keep)
		}
	}
	if k := byName["arith_add_f32"]; !reflect.DeepEqual(k.Extra, map[string][]int64{"K": {256, 512, 728}}) {
		t.Errorf("arithmetic k values %v", k.Extra)
	}
}

// Every library kernel is in the paper and quick suites, but for
// matvec_t, which the paper suite no longer measures (matvec_t_unrolled
// took its place; the kernel stays for the tables measured with it), and
// the memory-hierarchy classes, which only the opt-in hierarchy suite
// lists (adding them to the others would change their plans); and every
// const a suite sets is declared by the kernel: the kernels parse with the
// consts of every case.
func TestSuitesMatchTheLibrary(t *testing.T) {
	h, err := Load("hierarchy")
	if err != nil {
		t.Fatal(err)
	}
	paper, err := Load("paper")
	if err != nil {
		t.Fatal(err)
	}
	optIn := map[string]bool{}
	for _, k := range h.Kernels {
		optIn[k.Kernel] = !slices.ContainsFunc(paper.Kernels, func(p *Kernel) bool { return p.Kernel == k.Kernel })
	}
	for _, name := range Names() {
		s, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		listed := map[string]bool{}
		for _, k := range s.Kernels {
			listed[k.Kernel] = true
			src, err := library.Source(k.Kernel)
			if err != nil {
				t.Errorf("suite %s: %v", name, err)
				continue
			}
			for _, class := range []string{"small", "med", "large"} {
				groups, err := s.Groups(k, class)
				if err != nil {
					t.Fatal(err)
				}
				for _, v := range k.Variants {
					for _, g := range groups {
						kern, err := counts.ParseKernel(library.FileName(k.Kernel), src, s.Consts(k, v, g))
						if err != nil {
							t.Errorf("suite %s, %s %q, group %v: %v", name, k.Kernel, v.Name, g, err)
							continue
						}
						params, err := k.CheckParams(v)
						if err != nil {
							t.Fatal(err)
						}
						for _, p := range kern.Params {
							if _, ok := params[p]; !ok {
								t.Errorf("suite %s, %s %q: parameter %s is not bound", name, k.Kernel, v.Name, p)
							}
						}
					}
				}
			}
		}
		for _, lib := range library.Names() {
			if name == "hierarchy" || optIn[lib] && !listed[lib] {
				continue
			}
			if !listed[lib] && (name != "paper" || lib != "matvec_t") {
				t.Errorf("suite %s lacks library kernel %s", name, lib)
			}
		}
	}
}

func TestCases(t *testing.T) {
	s, err := Load("paper")
	if err != nil {
		t.Fatal(err)
	}
	var mm, ar *Kernel
	for _, k := range s.Kernels {
		switch k.Kernel {
		case "matmul_tiled":
			mm = k
		case "arith_div_f64":
			ar = k
		}
	}
	cases, err := s.Cases(mm, "small", 7)
	if err != nil {
		t.Fatal(err)
	}
	// 4 sizes x 4 shapes x 3 group sizes.
	if len(cases) != 48 {
		t.Fatalf("%d matmul cases, want 48", len(cases))
	}
	c := cases[4] // t=0, second shape, second group size
	if want := map[string]int64{"n": 128, "m": 128, "ell": 64}; !reflect.DeepEqual(c.Params, want) || c.Variant.Name != "n=m, l=n/2" {
		t.Errorf("case 4: %s %v", c.Variant.Name, c.Params)
	}
	if want := map[string]int64{"LX": 16, "LY": 14}; !reflect.DeepEqual(c.Consts, want) {
		t.Errorf("case 4 consts %v", c.Consts)
	}
	if last := cases[47]; last.Params["n"] != 512 || last.Params["ell"] != 1024 || last.T != 3 {
		t.Errorf("last case %v", last.Params)
	}
	cases, err = s.Cases(ar, "large", 8)
	if err != nil {
		t.Fatal(err)
	}
	// 3 sizes x 3 k values x 3 group sizes.
	if len(cases) != 27 || cases[3].Params["nk"] != 512 || cases[26].Params["n"] != 1024 {
		t.Errorf("arith cases: %d, %v, %v", len(cases), cases[3].Params, cases[26].Params)
	}
	if _, err := s.Cases(mm, "huge", 7); err == nil {
		t.Error("unknown size class accepted")
	}
	// A p lowered past the smallest size, or one past an int64's powers
	// of two, is an error, not a shift that panics (measuring PoCL held
	// to one thread lowered empty_1d's p to -1).
	for _, p := range []int{-1, 63} {
		if _, err := s.Cases(ar, "large", p); err == nil || !strings.Contains(err.Error(), "is not a size") {
			t.Errorf("p = %d: %v, want a size out of range", p, err)
		}
	}
}

func TestParseRejects(t *testing.T) {
	good := `{"name": "x", "group_consts": ["LX"], "group_sets": {"small": {"1d": [[64]]}},
	 "kernels": [{"kernel": "k", "class": "c", "role": "measurement", "groups": "1d",
	   "variants": [{"name": "v", "params": {"n": "N"}}], "sizes": {"p": [4], "t": [0], "step": 1}, "check": {"N": 10}}]}`
	if _, err := Parse("good.json", []byte(good)); err != nil {
		t.Fatalf("good suite: %v", err)
	}
	for change, msg := range map[[2]string]string{
		{`"role": "measurement"`, `"role": "train"`}:            `role "train"`,
		{`"N": 10`, `"M": 10`}:                                  "check must bind N",
		{`"params": {"n": "N"}`, `"params": {"n": "N/4"}`}:      "not an exact",
		{`[[64]]`, `[[64, 2]]`}:                                 "not a positive 1d size",
		{`"step": 1`, `"step": 1, "stride": 2`}:                 "unknown field",
		{`"p": [4]`, `"p": [44]`}:                               "out of range",
		{`"groups": "1d"`, `"groups": "3d"`}:                    "neither 1d nor 2d",
		{`"check"`, `"group_sizes": [[16, 16]], "check"`}:       "not a positive 1d size",
		{`"check"`, `"run_seconds": -1, "check"`}:               "non-negative",
		{`"group_consts"`, `"run_seconds": -1, "group_consts"`}: "non-negative time",
	} {
		bad := strings.Replace(good, change[0], change[1], 1)
		_, err := Parse("bad.json", []byte(bad))
		if err == nil || !strings.Contains(err.Error(), msg) || !strings.HasPrefix(err.Error(), "bad.json: ") {
			t.Errorf("%v: got %v, want an error containing %q", change, err, msg)
		}
	}
}

func TestBudget(t *testing.T) {
	s, err := Parse("b.json", []byte(`{"name": "b", "group_consts": ["LX"], "group_sets": {"small": {"1d": [[64], [128]]}}, "run_seconds": 0.5,
	 "kernels": [{"kernel": "a", "class": "c", "role": "measurement", "groups": "1d",
	   "variants": [{"name": "v", "params": {"n": "N"}}], "sizes": {"p": [4], "t": [0, 1, 2], "step": 1}, "check": {"N": 10}},
	  {"kernel": "b", "class": "c", "role": "test", "groups": "1d", "group_sizes": [[256]], "run_seconds": 2, "min_sizes": 9,
	   "variants": [{"name": "v", "params": {"n": "N"}}], "sizes": {"p": [4], "t": [0, 1, 2], "step": 1}, "check": {"N": 10}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if b, keep := s.Budget(s.Kernels[0]); b != 0.5 || keep != DefaultMinSizes {
		t.Errorf("suite budget: %g s, %d sizes", b, keep)
	}
	// min_sizes is capped by the number of sizes.
	if b, keep := s.Budget(s.Kernels[1]); b != 2 || keep != 3 {
		t.Errorf("kernel budget: %g s, %d sizes", b, keep)
	}
	if g, err := s.Groups(s.Kernels[1], "small"); err != nil || !reflect.DeepEqual(g, [][]int64{{256}}) {
		t.Errorf("group_sizes: %v, %v", g, err)
	}
	if g, err := s.Groups(s.Kernels[0], "small"); err != nil || len(g) != 2 {
		t.Errorf("suite groups: %v, %v", g, err)
	}
}
