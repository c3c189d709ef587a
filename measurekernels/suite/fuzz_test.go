package suite

import (
	"testing"
)

// FuzzParse feeds arbitrary text to the suite parser and expands every
// kernel of a suite it accepts: errors are fine, panics are not. The seed
// corpus (testdata/fuzz/FuzzParse) holds the shipped suites and small
// variations.
func FuzzParse(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse("fuzz.json", data)
		if err != nil {
			return
		}
		for _, k := range s.Kernels {
			for class := range s.GroupSets {
				for _, p := range k.Sizes.P {
					if _, err := s.Cases(k, class, p); err != nil {
						return
					}
				}
			}
		}
	})
}

// FuzzEvalExpr checks that size expressions never panic and that a value
// they return is consistent with re-evaluation.
func FuzzEvalExpr(f *testing.F) {
	f.Fuzz(func(t *testing.T, src string, n int64) {
		vars := map[string]int64{"N": n, "K": 3}
		v, err := evalExpr(src, vars)
		if err != nil {
			return
		}
		w, err := evalExpr(src, vars)
		if err != nil || v != w {
			t.Fatalf("%q evaluates to %d, then %d, %v", src, v, w, err)
		}
	})
}
