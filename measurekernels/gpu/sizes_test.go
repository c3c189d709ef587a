package gpu_test

import (
	"bufio"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/examples"
)

// l2Bytes is the H100's and H200's L2 (50 MB): the largest GPU size of
// every kernel allocates more than it, but for the kernels of insideL2.
const l2Bytes = 50_000_000

// insideL2 are the kernels whose largest GPU size stays inside the L2, and
// why (examples-sizes.tsv says more).
var insideL2 = map[string]string{
	"covariance3":  "O(m^2 n) work on m work-items: seconds a run beyond the L2",
	"correlation4": "O(m^2 n) work on m work-items: seconds a run beyond the L2",
}

// sizesLine is one kernel's line of examples-sizes.tsv.
type sizesLine struct {
	check, gpu, pocl string
}

func readSizes(t *testing.T) map[string]sizesLine {
	t.Helper()
	f, err := os.Open("examples-sizes.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]sizesLine{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 4 {
			t.Fatalf("examples-sizes.tsv:%d: %d columns, want 4 separated by tabs (kernel, check, gpu, pocl)", n, len(cols))
		}
		if _, dup := out[cols[0]]; dup {
			t.Fatalf("examples-sizes.tsv:%d: %s listed twice", n, cols[0])
		}
		out[cols[0]] = sizesLine{cols[1], cols[2], cols[3]}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// points expands sizes as run-examples passes them to uniperf measure:
// sets separated by ";", each the combinations of its --param values, with
// names tied by "=" varying together.
func points(t *testing.T, sizes string) []map[string]int64 {
	t.Helper()
	var out []map[string]int64
	for _, set := range strings.Split(sizes, ";") {
		combos := []map[string]int64{{}}
		for _, flag := range strings.Fields(set) {
			parts := strings.Split(flag, "=")
			if len(parts) < 2 {
				t.Fatalf("%q: want NAME=V1,V2 or NAME1=NAME2=V1,V2", flag)
			}
			names, values := parts[:len(parts)-1], strings.Split(parts[len(parts)-1], ",")
			var next []map[string]int64
			for _, c := range combos {
				for _, v := range values {
					x, err := strconv.ParseInt(v, 10, 64)
					if err != nil {
						t.Fatalf("%q: %v", flag, err)
					}
					m := maps.Clone(c)
					for _, name := range names {
						if _, dup := m[name]; dup {
							t.Fatalf("%q: %s bound twice in %q", flag, name, set)
						}
						m[name] = x
					}
					next = append(next, m)
				}
			}
			combos = next
		}
		out = append(out, combos...)
	}
	return out
}

// globalBytes is what the kernel's global arrays take at params.
func globalBytes(t *testing.T, k *counts.Kernel, params map[string]int64) int64 {
	t.Helper()
	var total int64
	for _, a := range k.Arrays {
		if a.Space != counts.Global {
			continue
		}
		n := int64(a.DType.Size())
		for _, e := range a.Shape {
			v, err := e.Eval(params)
			if err != nil {
				t.Fatal(err)
			}
			n *= v
		}
		total += n
	}
	return total
}

// TestExampleSizes checks that every kernel of examples/ has a line in
// examples-sizes.tsv, that each column binds exactly the parameters the
// kernel declares (one check size, three GPU and three PoCL sizes), that
// every size satisfies the kernel's assumptions and keeps its accesses in
// bounds, and that the GPU sizes grow from under a megabyte (launch-bound)
// to more than the H100's 50 MB L2, the PoCL sizes staying below them.
func TestExampleSizes(t *testing.T) {
	sizes := readSizes(t)
	files, err := fs.Glob(examples.FS, "*.knl")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != len(sizes) {
		t.Errorf("examples/ has %d kernels, examples-sizes.tsv %d lines", len(files), len(sizes))
	}
	for _, file := range files {
		name := strings.TrimSuffix(file, ".knl")
		t.Run(name, func(t *testing.T) {
			line, ok := sizes[name]
			if !ok {
				t.Fatalf("examples-sizes.tsv has no line for %s", name)
			}
			src, err := fs.ReadFile(examples.FS, file)
			if err != nil {
				t.Fatal(err)
			}
			k, err := counts.ParseKernel(file, src, nil)
			if err != nil {
				t.Fatal(err)
			}
			c, err := counts.Count(k)
			if err != nil {
				t.Fatal(err)
			}
			want := slices.Sorted(slices.Values(k.Params))
			check := func(col string, ps []map[string]int64, n int) {
				if len(ps) != n {
					t.Fatalf("%s: %d sizes, want %d", col, len(ps), n)
				}
				for _, p := range ps {
					if got := slices.Sorted(maps.Keys(p)); !slices.Equal(got, want) {
						t.Fatalf("%s binds %v, want the kernel's parameters %v", col, got, want)
					}
					if err := c.CheckBounds(p); err != nil {
						t.Fatalf("%s at %v: %v", col, p, err)
					}
				}
			}
			check("check", points(t, line.check), 1)
			gpu, pocl := points(t, line.gpu), points(t, line.pocl)
			check("gpu", gpu, 3)
			check("pocl", pocl, 3)
			var b []int64
			for _, p := range gpu {
				b = append(b, globalBytes(t, k, p))
			}
			if !(b[0] < b[1] && b[1] < b[2]) {
				t.Errorf("gpu sizes take %v bytes: want them growing", b)
			}
			if _, small := insideL2[name]; b[0] > 1<<20 || b[2] <= l2Bytes != small || b[2] > 1<<30 {
				t.Errorf("gpu sizes take %v bytes: want the smallest at most 1 MiB, the largest above 50 MB (the L2, unless insideL2 lists the kernel) and at most 1 GiB", b)
			}
			for _, p := range pocl {
				if pb := globalBytes(t, k, p); pb > b[2] {
					t.Errorf("pocl size %v takes %d bytes, more than the largest gpu size (%d)", p, pb, b[2])
				}
			}
		})
	}
}
