package cimport

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
)

// SHOC's spmv_csr_vector_kernel, a warp a row, does not import as it
// stands; testdata/own/spmv_csr_vector_lanes.cl is it edited as the
// refusals say (TestSpmvVectorRefusals). It runs in TestPortsRun and
// TestPortsOnPoCL with the other ports, against a Go SpMV.
func init() {
	ports = append(ports, port{"own/spmv_csr_vector_lanes.cl", "spmv_csr_vector_lanes", nil,
		[]map[string]int64{{"dim": 10, "nnz": 1000, "maxtrips": 3}, {"dim": 37, "nnz": 3000, "maxtrips": 2}}})
	fixInputs["spmv_csr_vector_kernel"] = func(p map[string]int64, in map[string][]float32) {
		dim, nnz, trips := p["dim"], p["nnz"], p["maxtrips"]
		rows := in["rowDelimiters"]
		rows[0] = 0
		for i := range dim {
			rows[i+1] = rows[i] + float32(min(i*37%(32*trips+1), nnz-int64(rows[i])))
		}
		for j := range in["cols"] {
			in["cols"][j] = float32((int64(j)*7919 + 13) % dim)
		}
	}
	originals["spmv_csr_vector_lanes"] = func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		rows, cols, val, vec := in["rowDelimiters"], in["cols"], in["val"], in["vec"]
		out := clone(in["out"])
		for i := range p["dim"] {
			var t float32
			for j := int64(rows[i]); j < int64(rows[i+1]); j++ {
				t += val[j] * vec[int64(cols[j])]
			}
			out[i] = t
		}
		return map[string][]float32{"out": out}
	}
}

// TestSpmvVectorRefusals imports the original spmv_csr_vector_kernel
// with the host's launch (vecWidth, the device's preferred multiple,
// 32; work-groups of 128; a warp a row) and checks that each construct
// the import cannot take is refused at its line and column, saying what
// to write: removing each in turn, as the edited file does, reaches the
// next.
func TestSpmvVectorRefusals(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "shoc", "spmv.cl"))
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	flags := []string{"--kernel", "spmv_csr_vector_kernel", "-D", "SINGLE_PRECISION", "-D", "vecWidth=32", "--local", "128", "--global", "dim*32",
		"--array", "val=nnz", "--array", "vec=dim", "--array", "cols=nnz", "--array", "rowDelimiters=dim+1", "--array", "out=dim", "--trips", "j=maxtrips"}
	lane, row := "int id = t & (vecWidth-1);", "int myRow = (get_group_id(0) * vecsPerBlock) + (t / vecWidth);"
	for _, c := range []struct {
		edits [][2]string // replaced in the source before importing
		want  string
	}{
		{nil, "spmv.cl:126:16: & is not affine in the indices: & 31 is the work-item's lane in a run of 32, its index modulo 32, quasi-affine, which .knl takes in conditions but not as a value; make the lane and the run indices of their own: launch work-groups of 32 x 4 (--local 32,4)"},
		{[][2]string{{lane, "int id = t % vecWidth;"}}, "spmv.cl:126:16: % is not affine in the indices: % 32 is the work-item's lane in a run of 32"},
		{[][2]string{{lane, "int id = t - 32*(t/32);"}}, "spmv.cl:126:23: / is not affine in the indices: / 32 is the run of 32 work-items it belongs to"},
		{[][2]string{{lane, "int id = 0;"}}, "spmv.cl:129:55: / is not affine in the indices: / 32 is the run of 32 work-items"},
		{[][2]string{{lane, "int id = 0;"}, {row, "int myRow = get_group_id(0);"}},
			"spmv.cl:151:9: a barrier inside an if (the if at line 134): not every work-item would reach it; move it out of the if: close the if before the barrier and test its condition again in an if after it"},
	} {
		s := src
		for _, e := range c.edits {
			if !strings.Contains(s, e[0]) {
				t.Fatalf("no %q in spmv.cl", e[0])
			}
			s = strings.Replace(s, e[0], e[1], 1)
		}
		opts, err := ParseFlags(flags)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Import("spmv.cl", []byte(s), opts)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("edits %q: %v\nwant %s", c.edits, err, c.want)
		}
	}
	// Without -D vecWidth=32 the mask is no constant.
	opts, err := ParseFlags(flags[:4])
	if err != nil {
		t.Fatal(err)
	}
	opts.Local, opts.Global = []string{"128"}, []string{"dim*32"}
	opts.Arrays = map[string]string{"val": "nnz", "vec": "dim", "cols": "nnz", "rowDelimiters": "dim+1", "out": "dim"}
	opts.Trips = map[string]string{"j": "maxtrips"}
	want := "spmv.cl:126:16: & is not affine in the indices: & by vecWidth - 1, which is no constant; give it a value with -D (-D vecWidth=VALUE"
	if _, err := Import("spmv.cl", []byte(src), opts); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("%v\nwant %s", err, want)
	}
}

// TestSpmvVectorLanesCounts counts the edited kernel against a hand
// derivation at two sizes. With G = ceil(dim/4) groups of 32 x 4, W =
// 128*G work-items and T = maxtrips trips of the row's loop (j += 32,
// a masked loop: j = j_start + 32*j_it, 1 mul and 1 add a trip, and the
// body under j < vecEnd):
//
//   - the if (myRow < dim) with an else, tested once (4*g1 + l1: 1 mul,
//     1 add), reads the row's two ends at the 32*dim work-items of the
//     rows (all lanes of a warp the same element: stride 0, readonly);
//     j_start = vecStart + l0 is 1 add at every work-item;
//   - per trip, at every work-item (an upper bound): the gathers cols[j]
//     (i32), val[j] and vec[col] (f32), 1 mul and 1 add;
//   - partialSums: 2 stores at every work-item, and in the reduction's
//     5 steps (bar = 16, 8, 4, 2, 1, unrolled) 2 loads, 1 add and 1
//     store at bar lanes of each of the 4 rows: 31*4*G each; 6 barriers
//     at every work-item;
//   - the final store, lane 0 of each row (stride 0 along the lanes),
//     reads partialSums once; its guard's 4*g1 + l1 costs 1 mul and 1
//     add at every work-item.
func TestSpmvVectorLanesCounts(t *testing.T) {
	p := portNamed(t, "spmv_csr_vector_lanes")
	cs, err := counts.Count(parsed(t, p))
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range p.sizes {
		dim, tr := size["dim"], size["maxtrips"]
		g := (dim + 3) / 4
		w := 128 * g
		want := map[string]int64{"flop.f32.add": w*tr + 124*g, "flop.f32.mul": w * tr, "global.ldg.i32.stride=0": 64 * dim,
			"global.load.indirect.f32": 2 * w * tr, "global.load.indirect.i32": w * tr, "global.store.f32.stride=0": dim,
			"int.i32.add": 3*w + w*tr, "int.i32.mul": 2*w + w*tr, "launch.const": 1, "launch.groups": g,
			"local.load.f32": 248*g + dim, "local.store.f32": 2*w + 124*g, "sync.barrier": 6 * w}
		got, err := cs.Eval(size)
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(nonzero(got), want) {
			t.Errorf("at %v: counts\n%v\nwant\n%v", size, nonzero(got), want)
		}
	}
}
