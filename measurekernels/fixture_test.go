package measurekernels

import (
	"fmt"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/codegen"
	"github.com/uniperf/uniperf/measurekernels/gpu"
	"github.com/uniperf/uniperf/measurekernels/suite"
)

// The harness tests run hand-written OpenCL versions of three library
// kernels in place of generated code, so that they test the harness (and
// its correctness check against the reference interpreter) on their own.
var fixtureSources = map[string]string{
	"empty": `__kernel void empty(int n) {}`,
	"vector_scale_add": `
__kernel void vector_scale_add(__global const float *x, __global const float *y, __global float *z, int n) {
	int i = get_group_id(0) * LX + get_local_id(0);
	if (STRIDE * i < n)
		z[STRIDE * i] = 2.5f * x[STRIDE * i] + 1.5f * y[STRIDE * i];
}`,
	"global_store_index": `
__kernel void global_store_index(__global float *a, int n) {
	int i = get_group_id(0) * LX + get_local_id(0);
	if (i < n)
		a[i] = i;
}`,
	"global_copy": `
__kernel void global_copy(__global const float *a, __global float *b, int n) {
	int i = get_group_id(0) * LX + get_local_id(0);
	if (i < n)
		b[i] = a[i] BUG;
}`,
}

// fixture returns a generator of the fixture sources. bugs maps a kernel
// name to text that replaces BUG (empty by default) or, for any other
// kernel, to a whole replacement source.
func fixture(bugs map[string]string) Generator {
	return func(k *counts.Kernel, b gpu.Backend) (*codegen.Code, error) {
		src, ok := fixtureSources[k.Name]
		if !ok {
			return nil, fmt.Errorf("no fixture for %s", k.Name)
		}
		if bug, ok := bugs[k.Name]; ok && !strings.Contains(src, "BUG") {
			src = bug
		}
		src = strings.ReplaceAll(src, "BUG", bugs[k.Name])
		var defs strings.Builder
		for name, v := range k.ConstMap() {
			fmt.Fprintf(&defs, "#define %s %d\n", name, v)
		}
		code := &codegen.Code{Backend: b, Entry: k.Name, Source: defs.String() + src}
		for _, a := range k.Arrays {
			if a.Space == counts.Global {
				code.Args = append(code.Args, codegen.Arg{Name: a.Name, Array: a})
			}
		}
		for _, p := range k.Params {
			code.Args = append(code.Args, codegen.Arg{Name: p})
		}
		return code, nil
	}
}

// fixtureSuite has the three fixture kernels at small sizes; group 48 does
// not divide the sizes, so the guards matter.
func fixtureSuite(t *testing.T, extra string) *suite.Suite {
	t.Helper()
	src := `{"name": "fixture", "group_consts": ["LX", "LY"],
	 "group_sets": {"large": {"1d": [[64], [48]], "2d": [[16, 16]]}},
	 "kernels": [
	  {"kernel": "global_copy", "class": "global_stride1", "role": "measurement", "groups": "1d",
	   "variants": [{"name": "copy", "params": {"n": "N"}}], "sizes": {"p": [12, 14], "t": [0, 1], "step": 2}, "check": {"N": 1000}},
	  {"kernel": "vector_scale_add", "class": "vector_scale_add", "role": "measurement", "groups": "1d",
	   "variants": [{"name": "stride=1", "params": {"n": "N"}, "consts": {"STRIDE": 1}},
	                {"name": "stride=3", "params": {"n": "N"}, "consts": {"STRIDE": 3}}],
	   "sizes": {"p": [12], "t": [0, 1], "step": 1}, "check": {"N": 1000}},
	  {"kernel": "empty", "class": "empty", "role": "measurement", "groups": "2d",
	   "variants": [{"name": "n x n", "params": {"n": "N"}}], "sizes": {"p": [6], "t": [0, 1], "step": 1}, "check": {"N": 40}}
	  ` + extra + `]}`
	s, err := suite.Parse("fixture.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return s
}
