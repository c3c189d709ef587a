package examples_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
)

// TestExamplesConflicts checks the bank-conflict classes of every example
// with local accesses against a brute-force reading of the
// interpreter's trace at the example's sizes: each execution of a local
// access by a work-group is split into warps of 32 work-items by linear
// local id, each warp's degree is the most distinct 4-byte words any of
// 32 banks is asked for (over the words an element spans), rounded up to
// a power of two, and the warp's active work-items count in that class.
// A class counted as an upper bound must price at least the passes the
// trace has (the sum of degree times accesses).
func TestExamplesConflicts(t *testing.T) {
	for name, ex := range kernels {
		k := parse(t, name)
		if !slices.ContainsFunc(k.Arrays, func(a *counts.Array) bool { return a.Space == counts.Local }) {
			continue
		}
		t.Run(name, func(t *testing.T) {
			c, err := counts.Count(k)
			if err != nil {
				t.Fatal(err)
			}
			in := inputs(k, ex.params)
			data := map[string]any{}
			for n, s := range in {
				data[n] = toRun(k, n, s)
			}
			tl, err := counts.Run(k, ex.params, data, &counts.RunOptions{Trace: true})
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.Eval(ex.params)
			if err != nil {
				t.Fatal(err)
			}
			traced := map[string]int64{}
			for _, s := range tl.LocalSites {
				a := k.Array(s.Array)
				for _, lanes := range s.Instances {
					for d, n := range warpDegrees(lanes, int64(a.DType.Size())) {
						traced[conflictName(a.DType, d)] += n
					}
				}
			}
			upper, passes, tracedPasses := false, int64(0), int64(0)
			for p, n := range got {
				if strings.Contains(p, ".conflict=") {
					upper = upper || c.UpperBound(p)
					passes += n * degreeOf(p)
				}
			}
			for p, n := range traced {
				tracedPasses += n * degreeOf(p)
			}
			if upper {
				if passes < tracedPasses {
					t.Errorf("conflicts counted as an upper bound: %d passes, traced %d", passes, tracedPasses)
				}
				return
			}
			for d := int64(2); d <= 64; d *= 2 {
				for _, typ := range []counts.DType{counts.F32, counts.F64, counts.I32, counts.I64} {
					p := conflictName(typ, d)
					if got[p] != traced[p] {
						t.Errorf("%s: counted %d, traced %d", p, got[p], traced[p])
					}
				}
			}
		})
	}
}

// warpDegrees returns, per conflict degree above 1, the lanes of the warps
// of one execution (linear local id -> flattened element index) that
// have that degree.
func warpDegrees(lanes map[int64]int64, elem int64) map[int64]int64 {
	span := max(elem/4, 1)
	type key struct{ warp, bank int64 }
	words := map[key]map[int64]bool{}
	active := map[int64]int64{}
	for id, flat := range lanes {
		w := id / 32
		active[w]++
		for x := flat * elem / 4; x < flat*elem/4+span; x++ {
			b := key{w, ((x % 32) + 32) % 32}
			if words[b] == nil {
				words[b] = map[int64]bool{}
			}
			words[b][x] = true
		}
	}
	most := map[int64]int64{}
	for b, ws := range words {
		most[b.warp] = max(most[b.warp], (int64(len(ws))+span-1)/span)
	}
	out := map[int64]int64{}
	for w, m := range most {
		d := int64(1)
		for d < m {
			d *= 2
		}
		if d > 1 {
			out[d] += active[w]
		}
	}
	return out
}

// conflictName is the conflict class property of a type and degree.
func conflictName(t counts.DType, d int64) string {
	return "local." + t.String() + ".conflict=" + strconv.FormatInt(d, 10)
}

// degreeOf is the degree of a conflict class property.
func degreeOf(p string) int64 {
	d, _ := strconv.ParseInt(p[strings.LastIndex(p, "=")+1:], 10, 64)
	return d
}
