package cimport

import (
	"strings"
	"testing"
)

// TestAssume checks that --assume, from the command line or a comment,
// becomes the .knl's assume line, with where it came from, and that what
// is not a conjunction of affine comparisons of the integer arguments is
// refused with what to write.
func TestAssume(t *testing.T) {
	src := "// uniperf: --local 64 --global n --array a=n*m --assume t>=0\n" +
		"__global__ void k(float *a, int n, int m, int t)\n{\n    int i = blockIdx.x*blockDim.x + threadIdx.x;\n" +
		"    if (i < n) a[i*m + t] = 0.0f;\n}\n"
	opts, err := ParseFlags([]string{"--assume", "t < m && n % 64 == 0"})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Import("k.cu", []byte(src), opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"# assumed: t < m && n % 64 == 0: --assume, from the command line\n",
		"# assumed: t>=0: --assume, from the comment at line 1\n",
		"\nassume t < m and n % 64 == 0 and 0 <= t\n",
	} {
		if !strings.Contains(string(r.Knl), want) {
			t.Errorf("no %q in\n%s", want, r.Knl)
		}
	}
	for _, c := range []struct{ assume, want string }{
		{"n != 3", "--assume n != 3: want comparisons"},
		{"n > 0 || m > 0", "--assume n > 0 || m > 0: want comparisons"},
		{"n > threadIdx.x", "--assume n > threadIdx.x: want comparisons"},
		{"n*m > 4", "--assume n*m > 4: want comparisons"},
		{"n > q", "--assume n > q: q is not declared"},
	} {
		opts, err := ParseFlags([]string{"--assume", c.assume})
		if err != nil {
			t.Fatal(err)
		}
		_, err = Import("k.cu", []byte(src), opts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("--assume %s: %v, want %q", c.assume, err, c.want)
		}
	}
}
