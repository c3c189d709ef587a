package cimport

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
)

// SHOC's spmv_csr_vector_kernel, a warp a row, imports as it stands,
// its work-item index split into lanes and rows (lanes.go), where the
// host's dim is a multiple of the 4 rows a group holds (barrierif.go);
// testdata/own/spmv_csr_vector_lanes.cl is it edited by hand as the
// refusals said before. Both run in TestPortsRun and TestPortsOnPoCL
// with the other ports, against a Go SpMV.
var spmvVectorFlags = []string{"--kernel", "spmv_csr_vector_kernel", "-D", "SINGLE_PRECISION", "-D", "vecWidth=32", "--local", "128", "--global", "dim*32",
	"--array", "val=nnz", "--array", "vec=dim", "--array", "cols=nnz", "--array", "rowDelimiters=dim+1", "--array", "out=dim", "--trips", "j=maxtrips"}

func init() {
	ports = append(ports, port{"own/spmv_csr_vector_lanes.cl", "spmv_csr_vector_lanes", nil,
		[]map[string]int64{{"dim": 10, "nnz": 1000, "maxtrips": 3}, {"dim": 37, "nnz": 3000, "maxtrips": 2}}},
		port{"shoc/spmv.cl", "spmv_csr_vector", append(slices.Clone(spmvVectorFlags), "--assume", "dim % 4 == 0"),
			[]map[string]int64{{"dim": 12, "nnz": 1000, "maxtrips": 3}, {"dim": 36, "nnz": 3000, "maxtrips": 2}}})
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
	spmv := func(p map[string]int64, in map[string][]float32) map[string][]float32 {
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
	originals["spmv_csr_vector_lanes"], originals["spmv_csr_vector"] = spmv, spmv
}

// TestSpmvVectorRefusals imports the original spmv_csr_vector_kernel
// with the host's launch (vecWidth, the device's preferred multiple,
// 32; work-groups of 128; a warp a row) and checks what is refused, at
// its line and column, saying what to write: without --assume 'dim %
// 4 == 0' the barriers inside if (myRow < dim), which the last group's
// rows past dim would skip; with it, but a launch of more groups than
// dim rows need, the same, as no assumption makes the if hold there;
// lanes of a divisor the work-group's size is no multiple of; and,
// without -D vecWidth=32, the mask, which is no constant.
func TestSpmvVectorRefusals(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "shoc", "spmv.cl"))
	if err != nil {
		t.Fatal(err)
	}
	barrier := "spmv.cl:151:9: a barrier inside an if (the if at line 134): not every work-item would reach it; move it out of the if: close the if before the barrier and test its condition again in an if after it (where the if computes a value the code after the barrier reads, set it in an else too)"
	hint := "; or, where the host makes dim a multiple of 4, say so with --assume 'dim % 4 == 0': the if then holds at every work-item launched, and every one reaches the barrier"
	noMask := slices.Clone(spmvVectorFlags)
	k := slices.Index(noMask, "vecWidth=32")
	noMask = slices.Delete(noMask, k-1, k+1)
	for _, c := range []struct {
		flags []string
		want  string
		hint  bool // the refusal suggests --assume
	}{
		{spmvVectorFlags, barrier + hint, true},
		{withFlag(append(slices.Clone(spmvVectorFlags), "--assume", "dim % 4 == 0"), "--global", "dim*32 + 128"), barrier, false},
		{withFlag(spmvVectorFlags, "--local", "48"), "spmv.cl:126:16: & is not affine in the indices: & 31 of the work-item index, whose lanes and runs of 32 are no indices of a work-group of 48 along axis 0, which 32 does not divide; launch work-groups whose size along the axis 32 divides", false},
		{noMask, "spmv.cl:126:16: & is not affine in the indices: & by vecWidth - 1, which is no constant; give it a value with -D (-D vecWidth=VALUE", false},
	} {
		opts, err := ParseFlags(c.flags)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Import("spmv.cl", b, opts)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "--assume") != c.hint {
			t.Errorf("flags %q: %v\nwant %s", c.flags, err, c.want)
		}
	}
}

// withFlag is flags with the value of flag name replaced.
func withFlag(flags []string, name, value string) []string {
	out := slices.Clone(flags)
	out[slices.Index(out, name)+1] = value
	return out
}

// TestSpmvVectorCounts counts the original against the edited kernel,
// whose counts TestSpmvVectorLanesCounts derives by hand, at two sizes
// where dim is a multiple of 4 (as --assume says). With W = 32*dim
// work-items, the original computes t & 31 and t / 32 once each at
// every work-item (an AND and a shift, W int.i32.bitwise and W
// int.i32.shift), which the edit reads as get_local_id(0) and
// get_local_id(1); and it tests myRow < dim once, where the edit tests
// it again with id == 0 for the final store (myRow = 4*g + row: W
// int.i32.mul and W int.i32.add more in the edit). The rest is the
// same: every work-item of every group passes the test at these sizes.
func TestSpmvVectorCounts(t *testing.T) {
	orig, lanes := portNamed(t, "spmv_csr_vector"), portNamed(t, "spmv_csr_vector_lanes")
	oc, err := counts.Count(parsed(t, orig))
	if err != nil {
		t.Fatal(err)
	}
	lc, err := counts.Count(parsed(t, lanes))
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range orig.sizes {
		w := 32 * size["dim"]
		got, err := oc.Eval(size)
		if err != nil {
			t.Fatal(err)
		}
		want, err := lc.Eval(size)
		if err != nil {
			t.Fatal(err)
		}
		for prop, d := range map[string]int64{"int.i32.bitwise": w, "int.i32.shift": w, "int.i32.mul": -w, "int.i32.add": -w} {
			want[prop] += d
		}
		if !maps.Equal(nonzero(got), nonzero(want)) {
			t.Errorf("at %v: counts\n%v\nwant\n%v", size, nonzero(got), nonzero(want))
		}
	}
	// At a dim that is no multiple of 4 the .knl's assumption refuses.
	if _, err := oc.Eval(map[string]int64{"dim": 10, "nnz": 1000, "maxtrips": 3}); err == nil {
		t.Error("counts at dim = 10: no error, want the assumption dim % 4 == 0 broken")
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
