package counts

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

const nestHeader = "kernel k\ndomain [n] -> { [i] : 0 <= i < n }\narray a f32 [n]\narray b f32 [n]\n"

// nested wraps core in depth copies of open ... close.
func nested(open, core, close string, depth int) string {
	return strings.Repeat(open, depth) + core + strings.Repeat(close, depth)
}

// Nesting past maxNesting is refused with the place and the limit, before
// any recursive pass runs (200,000 parentheses overflowed the stack);
// nesting just below it parses and counts what a hand count says.
func TestNestingBounded(t *testing.T) {
	deep := maxNesting + 50
	cases := []struct{ name, src, want string }{
		{"parentheses", nestHeader + "b[i] = " + nested("(", "a[i]", ")", 200_000) + "\n", "5:264: expression nested more than 256 levels"},
		{"unary minus", nestHeader + "b[i] = " + strings.Repeat("- ", deep) + "a[i]\n", "5:520: expression nested more than 256"},
		{"not", nestHeader + "b[i] = if(" + strings.Repeat("not ", deep) + "i > 0, a[i], 0)\n", "5:1031: expression nested more than 256"},
		{"conditional chain", nestHeader + "b[i] = " + strings.Repeat("a[i] if i > 0 else ", deep) + "a[i]\n", "expression nested more than 256"},
		{"if calls", nestHeader + "b[i] = " + nested("if(i > 0, ", "a[i]", ", 0)", deep) + "\n", "expression nested more than 256"},
		{"subscripts", nestHeader + "b[i] = a[" + nested("i + 0*a[", "i", "]", deep) + "]\n", "expression nested more than 256"},
		{"domain", "kernel k\ndomain [n] -> { [i] : 0 <= " + nested("(", "i", ")", deep) + " < n }\n", "2:"},
		{"blocks", nestHeader + strings.Repeat("if i > 0\n", deep) + "b[i] = a[i]\n" + strings.Repeat("end\n", deep),
			fmt.Sprintf("%d:1: for and if blocks nested more than 256 deep", 5+maxNesting)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseKernel("deep.knl", []byte(c.src), nil)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "256") {
				t.Fatalf("error %v, want one containing %q and the limit", err, c.want)
			}
		})
	}
}

// Just below the limit, nested parentheses, if() calls and if blocks
// count what a hand count says: at n = 10, a[i] is loaded 10 times, or 10
// - k times under the conditions i > 0, ..., i > k-1.
func TestNestingBelowLimitCounts(t *testing.T) {
	const depth = 200
	var blocks strings.Builder
	for k := range 7 {
		fmt.Fprintf(&blocks, "if i > %d\n", k)
	}
	cases := []struct {
		name, src string
		loads     int64
	}{
		{"parentheses", nestHeader + "b[i] = " + nested("(", "a[i]", ")", depth) + "\n", 10},
		{"if calls", nestHeader + "b[i] = " + nested("if(i > 0, ", "a[i]", ", 0)", depth) + "\n", 9},
		{"blocks", nestHeader + blocks.String() + strings.Repeat("if i >= 0\n", depth-7) + "b[i] = a[i]\n" + strings.Repeat("end\n", depth), 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			k, err := ParseKernel("deep.knl", []byte(c.src), nil)
			if err != nil {
				t.Fatal(err)
			}
			counted, err := Count(k)
			if err != nil {
				t.Fatal(err)
			}
			v, err := counted.Eval(map[string]int64{"n": 10})
			if err != nil {
				t.Fatal(err)
			}
			if got := v["global.load.f32.stride=1"] + v["global.load.f32.stride=0"]; got != c.loads {
				t.Fatalf("loads %d, want %d (%v)", got, c.loads, v)
			}
		})
	}
}

// The set of a chain of n comparisons joined by and (what nested if
// blocks make) is built in work linear in n: doubling n must not
// quadruple the bytes allocated, as the pairwise clone of the growing
// conjunction did.
func TestLogicChainLinear(t *testing.T) {
	chain := func(n int) Expr {
		conds := make([]string, n)
		for k := range conds {
			conds[k] = fmt.Sprintf("i > %d", k)
		}
		src := nestHeader + "if " + strings.Join(conds, " and ") + ": b[i] = a[i]\n"
		k, err := ParseKernel("chain.knl", []byte(src), nil)
		if err != nil {
			t.Fatal(err)
		}
		return k.Statements[0].(*Instruction).Pred
	}
	allocated := func(n int) uint64 {
		e := chain(n)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		d, ok := affineCond(e)
		runtime.ReadMemStats(&after)
		if !ok || len(d) != 1 || len(d[0]) != n {
			t.Fatalf("chain of %d: %d disjuncts, ok %v", n, len(d), ok)
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := allocated(2000), allocated(8000)
	if ratio := float64(large) / float64(small); ratio > 8 {
		t.Fatalf("bytes for 2000 comparisons %d, for 8000 %d: ratio %.1f, want about 4 (linear), not 16", small, large, ratio)
	}
}

// A flat chain of n comparisons joined by and, in a domain or as the
// condition of an if() value, is parsed and counted in work linear in n
// (issue 45: a 1 MB chain took minutes; each and copied the conjunction
// so far, in the domain parser and in the counting plan's where): doubling
// twice must not multiply the bytes allocated by 16. Every comparison
// holds (i >= k - k), so a[i] is loaded n = 10 times by hand count.
func TestAndChainsLinear(t *testing.T) {
	chain := func(n int) string {
		conds := make([]string, n)
		for k := range conds {
			conds[k] = fmt.Sprintf("i >= %d - %d", k, k)
		}
		return strings.Join(conds, " and ")
	}
	cases := []struct{ name, src string }{
		{"domain", "kernel k\ndomain [n] -> { [i] : 0 <= i < n and %s }\narray a f32 [n]\narray b f32 [n]\nb[i] = a[i]\n"},
		{"if value", nestHeader + "b[i] = if(%s, a[i], 0)\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			allocated := func(n int) uint64 {
				src := fmt.Sprintf(c.src, chain(n))
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				k, err := ParseKernel("chain.knl", []byte(src), nil)
				if err != nil {
					t.Fatal(err)
				}
				counted, err := Count(k)
				runtime.ReadMemStats(&after)
				if err != nil {
					t.Fatal(err)
				}
				v, err := counted.Eval(map[string]int64{"n": 10})
				if err != nil {
					t.Fatal(err)
				}
				if got := v["global.load.f32.stride=1"] + v["global.load.f32.stride=0"]; got != 10 {
					t.Fatalf("chain of %d: %d loads of a[i] at n = 10, want 10 (%v)", n, got, v)
				}
				return after.TotalAlloc - before.TotalAlloc
			}
			small, large := allocated(2000), allocated(8000)
			if ratio := float64(large) / float64(small); ratio > 8 {
				t.Fatalf("bytes for 2000 comparisons %d, for 8000 %d: ratio %.1f, want about 4 (linear), not 16", small, large, ratio)
			}
		})
	}
}

// A NUL byte is refused at its place before the source is copied.
func TestLexRefusesNUL(t *testing.T) {
	_, err := ParseKernel("nul.knl", []byte("kernel k\nab\x00c\n"), nil)
	if err == nil || err.Error() != "nul.knl:2:3: a NUL byte: a kernel is a text file" {
		t.Fatalf("error %v", err)
	}
}
