package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestCountHierarchyGemm checks count --hierarchy on the gemm example
// against hand-derived counts at ni=9, nj=33, nk=5 (work-groups of 32×8:
// 2 along j, 2 along i): each work-group reads its 8 (or 1) rows of a in
// full and its 32 (or 1) columns of b in full, so a is read by 2 groups
// and b by 2; c[i, j] is loaded 1 + nk times by its work-item, after
// stores.
func TestCountHierarchyGemm(t *testing.T) {
	code, out, msg := runCountAll(t, "../../examples/gemm.knl", "--hierarchy", "--json", "--param", "ni=9", "--param", "nj=33", "--param", "nk=5")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, msg)
	}
	var res struct {
		Kernel    string
		Hierarchy []struct {
			Name, Array, Expression string
			Value                   *int64
			Approximate             bool
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	const ni, nj, nk = 9, 33, 5
	want := map[string]int64{
		"global.footprint.launch.bytes a":         4 * ni * nk,
		"global.footprint.group.bytes a":          4 * ni * nk * 2,
		"global.footprint.launch.bytes b":         4 * nk * nj,
		"global.footprint.group.bytes b":          4 * nk * nj * 2,
		"global.footprint.launch.bytes c":         4 * ni * nj,
		"global.footprint.group.bytes c":          4 * ni * nj,
		"global.load.reuse.workitem a":            0,
		"global.load.reuse.workitem b":            0,
		"global.load.reuse.workitem c":            0,
		"global.load.reuse.workitem.stored c":     ni * nj * nk,
		"global.footprint.launch.bytes (all)":     4 * (ni*nk + nk*nj + ni*nj),
		"global.footprint.group.bytes (all)":      4 * (2*ni*nk + 2*nk*nj + ni*nj),
		"global.load.reuse.workitem (all)":        0,
		"global.load.reuse.workitem.stored (all)": ni * nj * nk,
	}
	if len(res.Hierarchy) != len(want) {
		t.Errorf("%d counts, want %d: %s", len(res.Hierarchy), len(want), out)
	}
	for _, h := range res.Hierarchy {
		key := h.Name + " " + h.Array
		if w, ok := want[key]; !ok || h.Value == nil || *h.Value != w || h.Approximate || h.Expression == "" {
			t.Errorf("%s: %+v, want value %d", key, h, w)
		}
	}
	code, out, msg = runCountAll(t, "../../examples/gemm.knl", "--hierarchy")
	if code != 0 || !strings.Contains(out, "4 * ni * nk * floor((31 + nj)/32)") || !strings.Contains(out, "where") {
		t.Errorf("exit %d, symbolic output:\n%s%s", code, out, msg)
	}
}

// TestCountHierarchyRefusals checks the usage errors and a refused
// array.
func TestCountHierarchyRefusals(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"matmul_tiled", "--hierarchy", "--by", "array"}, "--hierarchy lists arrays"},
		{[]string{"matmul_tiled", "--hierarchy", "--footprint"}, "--hierarchy lists arrays"},
		{[]string{"../../examples/pathfinder.knl", "--hierarchy"}, "memory hierarchy of wall"},
		{[]string{"../../examples/pathfinder.knl", "--hierarchy"}, "counted exactly at those sizes"},
	} {
		code, _, msg := runCountAll(t, c.args...)
		if code != 2 || !strings.Contains(msg, c.want) {
			t.Errorf("%v: exit %d, %q; want exit 2 and %q", c.args, code, msg, c.want)
		}
	}
}

// TestCountHierarchyAtSizes checks count --hierarchy on pathfinder, whose
// wall[row*cols + c] has no symbolic footprint, at cols=300 against
// counts derived by hand: work-groups of 256 columns, the second with 44;
// each group reads its columns of wall and its columns plus two of src,
// 258 and 46 cells, and stores its columns of dst.
func TestCountHierarchyAtSizes(t *testing.T) {
	code, out, msg := runCountAll(t, "../../examples/pathfinder.knl", "--hierarchy", "--json", "--param", "cols=300", "--param", "rows=3", "--param", "row=1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, msg)
	}
	var res struct {
		Hierarchy []struct {
			Name, Array, Expression string
			Value                   *int64
			AtSizes                 bool `json:"at_sizes"`
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	want := map[string]int64{
		"global.footprint.launch.bytes wall": 4 * 300,
		"global.footprint.group.bytes wall":  4 * 300,
		"global.footprint.launch.bytes src":  4 * 302,
		"global.footprint.group.bytes src":   4 * (258 + 46),
		"global.footprint.launch.bytes dst":  4 * 300,
		"global.footprint.group.bytes dst":   4 * 300,
	}
	for _, h := range res.Hierarchy {
		key := h.Name + " " + h.Array
		if h.Value == nil || !h.AtSizes {
			t.Errorf("%s: %+v, want a value counted at these sizes", key, h)
		} else if w, ok := want[key]; ok && *h.Value != w {
			t.Errorf("%s = %d, want %d", key, *h.Value, w)
		}
	}
	code, out, _ = runCountAll(t, "../../examples/pathfinder.knl", "--hierarchy", "--param", "cols=300", "--param", "rows=3", "--param", "row=1")
	if code != 0 || !strings.Contains(out, "no symbolic form: counted at these sizes") {
		t.Errorf("exit %d, table:\n%s", code, out)
	}
}

// TestCountHierarchyIndirect checks count --hierarchy on spmv_ellpackr at
// dim=1000, maxrl=20 (8 groups of 128 work-items): vec, gathered 20000
// times, is bounded by its 1000 cells of 4 bytes for the launch and 8 ×
// 4000 bytes over the groups, and its note says which way each count
// errs; val, read in a loop whose trips are data, is counted as if the
// loop always ran to maxrl: 20 × 1000 cells of 4 bytes.
func TestCountHierarchyIndirect(t *testing.T) {
	code, out, msg := runCountAll(t, "../../examples/spmv_ellpackr.knl", "--hierarchy", "--param", "dim=1000", "--param", "maxrl=20")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, msg)
	}
	for _, want := range []string{
		"global.footprint.launch.bytes  vec         4000    (no symbolic form: counted at these sizes); approximate: an upper bound,",
		"global.footprint.group.bytes   vec         32000   (no symbolic form: counted at these sizes); approximate: an upper bound,",
		"global.load.reuse.workitem     vec         0       (no symbolic form: counted at these sizes); approximate: a lower bound,",
		"global.footprint.launch.bytes  val         80000   (no symbolic form: counted at these sizes); approximate: counted as if its data-dependent conditions held\n",
		"global.footprint.launch.bytes  (all)       172000  (no symbolic form: counted at these sizes); approximate: it sums approximate counts",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no line %q in\n%s", want, out)
		}
	}
}
