package cimport

import (
	"maps"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
)

// guardedSrc stores a[i] where i < n, in groups of 256.
const guardedSrc = "__global__ void k(float *a, int n)\n{\n    int i = blockIdx.x*blockDim.x + threadIdx.x;\n    if (i < n) a[i] = 1.0f;\n}\n"

// countGroups imports src with flags and counts it at params.
func countGroups(t *testing.T, src string, params map[string]int64, flags ...string) (map[string]int64, *Result) {
	t.Helper()
	opts, err := ParseFlags(flags)
	if err != nil {
		t.Fatal(err)
	}
	c, r := importCountedWith(t, "k.cu", src, opts)
	got, err := c.Eval(params)
	if err != nil {
		t.Fatalf("%v\n%s", err, r.Knl)
	}
	return got, r
}

// TestGroupsDivideAsC checks that --groups computes gridDim as C does,
// its division truncated: the host's (n + 255)/256 launches what C
// launches, and n/256 one group fewer unless 256 divides n. The groups
// and the stores counted at n = 1, 255, 256, 257 are checked against
// Go's integer division, which truncates as C's does: the work-items
// that store are those launched below n. A launch that may leave out
// work-items the guard admits is warned of, in the Result and the
// .knl's header, unless --assume says that 256 divides n.
func TestGroupsDivideAsC(t *testing.T) {
	for _, c := range []struct {
		groups string
		assume []string
		launch func(n int64) int64
		warn   bool
	}{
		{"(n+255)/256", nil, func(n int64) int64 { return (n + 255) / 256 }, false},
		{"n/256", nil, func(n int64) int64 { return n / 256 }, true},
		{"(n-1)/256+1", nil, func(n int64) int64 { return (n-1)/256 + 1 }, false},
		{"n/256", []string{"--assume", "n % 256 == 0"}, func(n int64) int64 { return n / 256 }, false},
	} {
		for _, n := range []int64{1, 255, 256, 257} {
			if c.assume != nil && n%256 != 0 {
				continue
			}
			flags := append([]string{"--local", "256", "--groups", c.groups, "--array", "a=n"}, c.assume...)
			got, r := countGroups(t, guardedSrc, map[string]int64{"n": n}, flags...)
			g := c.launch(n)
			if got["launch.groups"] != g {
				t.Errorf("--groups %s at n = %d: %d groups, C launches %d\n%s", c.groups, n, got["launch.groups"], g, r.Knl)
			}
			if want := min(n, 256*g); got["global.store.f32.stride=1"] != want {
				t.Errorf("--groups %s at n = %d: %d stores, C's launch makes %d\n%s", c.groups, n, got["global.store.f32.stride=1"], want, r.Knl)
			}
			warned := len(r.Warnings) > 0
			if warned != c.warn || warned != strings.Contains(string(r.Knl), "# warning: ") {
				t.Errorf("--groups %s %v: warnings %q, want one: %v\n%s", c.groups, c.assume, r.Warnings, c.warn, r.Knl)
			}
			if warned && !strings.Contains(r.Warnings[0], "--groups n/256 (axis 0) may launch fewer work-items than the guard at line 4 admits") ||
				warned && !strings.Contains(r.Warnings[0], "(n + 255)/256") || warned && !strings.Contains(r.Warnings[0], "--assume 'n % 256 == 0'") {
				t.Errorf("--groups %s: warning %q does not say where and what to write", c.groups, r.Warnings[0])
			}
		}
	}
}

// TestGroupsUnguarded checks that without a guard every work-item that
// --groups n/256 launches stores, 256*(n/256) of them in C's
// arithmetic, with no warning: no guard says how many are meant.
func TestGroupsUnguarded(t *testing.T) {
	src := "__global__ void k(float *a, int n)\n{\n    a[blockIdx.x*blockDim.x + threadIdx.x] = 1.0f;\n}\n"
	for _, n := range []int64{1, 255, 256, 257, 600} {
		got, r := countGroups(t, src, map[string]int64{"n": n}, "--local", "256", "--groups", "n/256", "--array", "a=n")
		if want := 256 * (n / 256); got["global.store.f32.stride=1"] != want || len(r.Warnings) > 0 {
			t.Errorf("n = %d: %d stores, warnings %q; C's launch makes %d, no warning\n%s", n, got["global.store.f32.stride=1"], r.Warnings, want, r.Knl)
		}
	}
}

// TestGroupsNegativeDividend checks --groups N/D + C with C > 0, where
// C's truncation towards zero and a floor differ for N < 0: the .knl
// assumes N >= 0, so that counts at n = 557 are C's ((557 - 300)/256 +
// 1 = 2 groups) and at n = 100 ((-200)/256 + 1 = 1 group in C) they are
// refused; a constant negative dividend is refused at import.
func TestGroupsNegativeDividend(t *testing.T) {
	got, r := countGroups(t, guardedSrc, map[string]int64{"n": 557}, "--local", "256", "--groups", "(n-300)/256+1", "--array", "a=n")
	if got["launch.groups"] != (557-300)/256+1 {
		t.Errorf("%d groups at n = 557, C launches %d\n%s", got["launch.groups"], (557-300)/256+1, r.Knl)
	}
	for _, want := range []string{"\nassume 299 < n\n", "# assumed: n - 300 >= 0: --groups (n-300)/256+1 adds 1 to a quotient, which C truncates towards zero\n"} {
		if !strings.Contains(string(r.Knl), want) {
			t.Errorf("no %q in\n%s", want, r.Knl)
		}
	}
	k, err := counts.ParseKernel("k.knl", r.Knl, nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := counts.Count(k)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Eval(map[string]int64{"n": 100}); err == nil || !strings.Contains(err.Error(), "violate the assumptions") {
		t.Errorf("at n = 100: %v, want the assumption violated", err)
	}
	opts, err := ParseFlags([]string{"--local", "256", "--groups", "(100-300)/256+1", "--array", "a=n"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Import("k.cu", []byte(guardedSrc), opts)
	if err == nil || !strings.Contains(err.Error(), "--groups (100-300)/256+1: the dividend -200 is negative, and C truncates its quotient towards zero") {
		t.Errorf("--groups (100-300)/256+1: %v, want a refusal of the negative dividend", err)
	}
}

// TestGroupsDividendFallingWithN checks --groups (1-n)/256 + 5, whose
// dividend falls as n grows: the .knl assumes 1 - n >= 0, and so n = 1,
// where C launches 0 + 5 = 5 groups, as --groups 5 launches. The lower
// bounds of the launch's indices (0 <= bx, 0 <= tx) must stay in the
// domain: an index is not negative because the box says so, and the
// assumption may not prove the box from itself (without them bx is
// unbounded below). The counts at n = 1 are those of --groups 5: the
// one work-item below n stores.
func TestGroupsDividendFallingWithN(t *testing.T) {
	want, _ := countGroups(t, guardedSrc, map[string]int64{"n": 1}, "--local", "256", "--groups", "5", "--array", "a=n")
	if want["global.store.f32.stride=1"] != 1 {
		t.Fatalf("--groups 5 at n = 1: counts %v, want 1 store", nonzero(want))
	}
	got, r := countGroups(t, guardedSrc, map[string]int64{"n": 1}, "--local", "256", "--groups", "(1-n)/256+5", "--array", "a=n")
	if !maps.Equal(nonzero(got), nonzero(want)) {
		t.Errorf("--groups (1-n)/256+5 at n = 1: counts %v, want those of --groups 5, %v\n%s", nonzero(got), nonzero(want), r.Knl)
	}
	if !strings.Contains(string(r.Knl), "0 <= tx and 0 <= bx and ") {
		t.Errorf("the launch's box is not in the domain:\n%s", r.Knl)
	}
}

// TestGroupsExactNegativeDividend checks --groups (n-512)/256 + 1 where
// --assume says 256 divides n: the division is exact, so C's truncation
// and a floor agree for a negative dividend too, and the .knl assumes
// nothing of its sign. At n = 256 C launches (256-512)/256 + 1 = 0
// groups, and nothing stores; at n = 1024, 3 groups of which all store.
func TestGroupsExactNegativeDividend(t *testing.T) {
	for _, n := range []int64{256, 1024} {
		got, r := countGroups(t, guardedSrc, map[string]int64{"n": n}, "--local", "256", "--groups", "(n-512)/256+1", "--array", "a=n", "--assume", "n % 256 == 0")
		if want := 256 * ((n-512)/256 + 1); got["global.store.f32.stride=1"] != want {
			t.Errorf("n = %d: %d stores, C's launch makes %d\n%s", n, got["global.store.f32.stride=1"], want, r.Knl)
		}
	}
}
