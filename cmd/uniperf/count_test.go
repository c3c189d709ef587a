package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
)

// runCount runs uniperf count with args and returns the exit status and
// the standard output.
func runCount(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out bytes.Buffer
	countCmd.SetOut(&out)
	reset := func() {
		countParams, countConsts, countJSON, countBy, countSubscripts, countFootprint = nil, nil, false, "property", false, false
		countBanks, countBankBytes = counts.DefaultBanks, counts.DefaultBankBytes
	}
	t.Cleanup(func() { countCmd.SetOut(nil); reset() })
	reset()
	code := run(append([]string{"count"}, args...))
	return code, out.String()
}

// countTable returns the lines of count's table: after the header, up to
// the blank line before the legend.
func countTable(out string) []string {
	table, _, _ := strings.Cut(strings.TrimSpace(out), "\n\n")
	return strings.Split(table, "\n")[1:]
}

// countValues reads the NAME VALUE columns of count's table.
func countValues(t *testing.T, out string) map[string]int64 {
	t.Helper()
	values := map[string]int64{}
	for _, l := range countTable(out) {
		f := strings.Fields(l)
		v, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		values[f[0]] = v
	}
	return values
}

func compareCounts(t *testing.T, what string, got, want map[string]int64) {
	t.Helper()
	for n, v := range want {
		if got[n] != v {
			t.Errorf("%s: %s = %d, want %d", what, n, got[n], v)
		}
	}
	for n, v := range got {
		if _, ok := want[n]; !ok {
			t.Errorf("%s: unexpected %s = %d", what, n, v)
		}
	}
}

func TestCountCommand(t *testing.T) {
	// matmul_naive at n = 64, 16 x 16 groups: a multiply and an add per
	// (i, j, k); a[i, k] is uniform along j (l.0), b[k, j] stride 1;
	// n^2 stores of c; (64/16)^2 groups.
	code, out := runCount(t, "matmul_naive", "--param", "n=64")
	if code != 0 || !strings.HasPrefix(out, "kernel matmul_naive at n=64\n") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	const n3, n2 = 64 * 64 * 64, 64 * 64
	compareCounts(t, "matmul_naive", countValues(t, out), map[string]int64{"flop.f32.mul": n3, "flop.f32.add": n3,
		"global.load.f32.stride=0": n3, "global.load.f32.stride=1": n3, "global.store.f32.stride=1": n2,
		"global.minldst.f32.stride=1": n2, "launch.groups": 16, "launch.const": 1})
	if !strings.Contains(out, "flop.f32.mul                 262144  [n] -> { n^3 : n >= 1 }") {
		t.Errorf("no expression for flop.f32.mul:\n%s", out)
	}

	// Without parameters: expressions only; the stride-2 class shows k
	// and the footprint it follows from.
	code, out = runCount(t, "vector_scale_add", "--const", "STRIDE=2")
	if code != 0 || !strings.HasPrefix(out, "kernel vector_scale_add, parameters n\n") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	for _, s := range []string{"global.load.f32.stride=k/2", "over the footprint of x: cells = [n] -> { (n - floor(n/2)) : n >= 1 }",
		"launch.groups                  [n] -> { floor((511 + n)/512) : n >= 1 }"} {
		if !strings.Contains(out, s) {
			t.Errorf("no %q in\n%s", s, out)
		}
	}
}

func TestCountCommandJSON(t *testing.T) {
	// A kernel file with a constant override: y = 2*a + 1 over n = 20
	// elements in groups of 8 (3 groups), one load, store, multiply and
	// add per element.
	dir := t.TempDir()
	path := filepath.Join(dir, "ew.knl")
	src := "kernel ew\nconst LX = 4\ndomain [n] -> { [i] : 0 <= i < n }\narray a f32 [n]\narray b f32 [n]\n" +
		"split i LX io ii\ntag io g.0, ii l.0\nb[i] = 2*a[i] + 1\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	// And vector_scale_add with stride 2 at n = 1000: 500 elements, each
	// with loads of x and y, a store of z, two multiplies and an add; a
	// footprint of 500 cells spanning 999, round(2*500/999) = 1: class
	// 1/2; groups of 256 elements cover 512 indices: 2 groups.
	cases := []struct {
		args []string
		want map[string]int64
	}{
		{[]string{path, "--const", "LX=8", "--param", "n=20"}, map[string]int64{"global.load.f32.stride=1": 20,
			"global.store.f32.stride=1": 20, "global.minldst.f32.stride=1": 20, "flop.f32.mul": 20, "flop.f32.add": 20,
			"launch.groups": 3, "launch.const": 1}},
		{[]string{"vector_scale_add", "--const", "STRIDE=2", "--param", "n=1000"}, map[string]int64{"global.load.f32.stride=1/2": 1000,
			"global.store.f32.stride=1/2": 500, "global.minldst.f32.stride=1/2": 500, "flop.f32.mul": 1000, "flop.f32.add": 500,
			"launch.groups": 2, "launch.const": 1}},
	}
	for _, c := range cases {
		code, out := runCount(t, append(c.args, "--json")...)
		if code != 0 {
			t.Fatalf("%v: exit %d", c.args, code)
		}
		var res struct {
			Kernel     string
			Properties []struct {
				Name, Expression string
				Value            *int64
			}
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("%v: %v in %s", c.args, err, out)
		}
		got := map[string]int64{}
		for _, p := range res.Properties {
			if p.Value == nil || !strings.Contains(p.Expression, "->") {
				t.Errorf("%v: property %+v", c.args, p)
				continue
			}
			got[p.Name] = *p.Value
		}
		compareCounts(t, res.Kernel, got, c.want)
	}
	code, out := runCount(t, "matmul_tiled", "--json")
	if code != 0 || strings.Contains(out, `"value"`) || !strings.Contains(out, `"name": "sync.barrier"`) {
		t.Errorf("without parameters: exit %d, output %s", code, out)
	}
}

func TestCountCommandErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.knl")
	if err := os.WriteFile(bad, []byte("kernel bad\ndomain [n] -> { [i] : 0 <= i < n }\narray a f32 [n]\na[i] = 2 *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		msg  string
	}{
		{[]string{filepath.Join(dir, "missing.knl")}, "no such file, and no library kernel"},
		{[]string{"no_such_kernel"}, "no library kernel of that name"},
		{[]string{bad}, bad + ":4:"},
		{[]string{"matmul_tiled", "--param", "n=4"}, "missing parameter m"},
		{[]string{"matmul_tiled", "--param", "n=4", "--param", "k=4"}, "has no parameter k"},
		{[]string{"matmul_tiled", "--param", "n=m=4", "--param", "el=4"}, "has no parameter el (its parameters: n, m, ell; did you mean ell?)"},
		// matmul_tiled.knl declares consts LX and LY: a const it lacks is
		// refused where --const binds it, with the nearest (one edit,
		// case no edit).
		{[]string{"matmul_tiled", "--const", "LZ=4"}, "--const LZ: kernel matmul_tiled has no const LZ (its consts: LX, LY; did you mean LX or LY?)"},
		{[]string{"matmul_tiled", "--const", "LX=8", "--const", "lY=8"}, "--const lY: kernel matmul_tiled has no const lY (its consts: LX, LY; did you mean LY?)"},
		{[]string{"matmul_tiled", "--const", "LX=LQ=8"}, "has no const LQ"},
		{[]string{"matmul_tiled", "--const", "LX"}, "want NAME=VALUE"},
		{[]string{"matmul_naive", "--param", "n=0"}, "violate the assumptions n >= 1"},
		{[]string{"matmul_naive", "--param", "n=3000000"}, "overflow"},
		{[]string{"matmul_naive", "--by", "statement"}, `--by "statement": want property, instruction or array`},
		{[]string{"matmul_naive", "--footprint", "--by", "array"}, "it takes no --by array"},
	}
	for _, c := range cases {
		if code, _ := runCount(t, c.args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", c.args, code)
		}
		consts, err := parseConsts(constFlags(c.args))
		var params map[string]int64
		if err == nil {
			params, err = parseParams(paramFlags(c.args))
		}
		if err == nil {
			err = count(&bytes.Buffer{}, c.args[0], countOptions{consts: consts, params: params, by: byFlag(c.args), footprint: slices.Contains(c.args, "--footprint")})
		}
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%v: error %v, want one containing %q", c.args, err, c.msg)
		}
	}
}

// byFlag extracts the --by value from an argument list.
func byFlag(args []string) string {
	if i := slices.Index(args, "--by"); i >= 0 {
		return args[i+1]
	}
	return "property"
}

// constFlags extracts the --const values from an argument list.
func constFlags(args []string) []string {
	var out []string
	for i := 0; i+1 < len(args); i++ {
		if args[i] == "--const" {
			out = append(out, args[i+1])
		}
	}
	return out
}

// countParts reads count's table with --by: property rows, each followed
// by its part rows (indented), into values by property and by part.
func countParts(t *testing.T, out string) (props map[string]int64, parts map[string]map[string]int64) {
	t.Helper()
	props, parts = map[string]int64{}, map[string]map[string]int64{}
	prop := ""
	for _, l := range countTable(out) {
		f := strings.Fields(l)
		i := 1
		if strings.HasPrefix(l, "  ") && strings.HasPrefix(f[1], "(") && strings.HasSuffix(f[1], ")") {
			i = 2 // the source's position
		}
		v, err := strconv.ParseInt(f[i], 10, 64)
		if err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		if !strings.HasPrefix(l, "  ") {
			prop = f[0]
			props[prop] = v
			continue
		}
		if parts[prop] == nil {
			parts[prop] = map[string]int64{}
		}
		parts[prop][f[0]] = v
	}
	return props, parts
}

func TestCountBy(t *testing.T) {
	// matmul_naive at n = 64 has one instruction, insn_0 (line 15):
	// c[i, j] = sum(k, a[i, k]*b[k, j]). By instruction it does everything
	// but the launch; by array the loads are a's (uniform along j) and
	// b's, the store and the flops c's.
	const n3, n2 = 64 * 64 * 64, 64 * 64
	code, out := runCount(t, "matmul_naive", "--param", "n=64", "--by", "instruction")
	if code != 0 || !strings.HasPrefix(out, "kernel matmul_naive at n=64, by instruction\n") ||
		!strings.Contains(out, "  insn_0 (matmul_naive.knl:15)  262144") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	props, parts := countParts(t, out)
	compareCounts(t, "by instruction", props, map[string]int64{"flop.f32.mul": n3, "flop.f32.add": n3,
		"global.load.f32.stride=0": n3, "global.load.f32.stride=1": n3, "global.store.f32.stride=1": n2,
		"global.minldst.f32.stride=1": n2, "launch.groups": 16, "launch.const": 1})
	want := map[string]map[string]int64{"flop.f32.mul": {"insn_0": n3}, "flop.f32.add": {"insn_0": n3},
		"global.load.f32.stride=0": {"insn_0": n3}, "global.load.f32.stride=1": {"insn_0": n3},
		"global.store.f32.stride=1": {"insn_0": n2}, "launch.groups": {"(kernel)": 16}, "launch.const": {"(kernel)": 1}}
	for name := range props {
		compareCounts(t, "by instruction: "+name, parts[name], want[name])
	}

	code, out = runCount(t, "matmul_naive", "--param", "n=64", "--by", "array")
	if code != 0 || !strings.Contains(out, "  c (matmul_naive.knl:11)    262144") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	_, parts = countParts(t, out)
	want = map[string]map[string]int64{"flop.f32.mul": {"c": n3}, "flop.f32.add": {"c": n3},
		"global.load.f32.stride=0": {"a": n3}, "global.load.f32.stride=1": {"b": n3},
		"global.store.f32.stride=1": {"c": n2}, "launch.groups": {"(kernel)": 16}, "launch.const": {"(kernel)": 1}}
	for name := range props {
		compareCounts(t, "by array: "+name, parts[name], want[name])
	}

	// With subscripts: c[16*i_out + i_in, 16*j_out + j_in] takes two adds
	// and two muls per store, a[16*i_out + i_in, k] and b[k, 16*j_out +
	// j_in] one of each per load: 2n^3 + 2n^2 of each, c's and a's and b's.
	code, out = runCount(t, "matmul_naive", "--param", "n=64", "--by", "array", "--count-subscripts")
	if code != 0 {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	props, parts = countParts(t, out)
	for _, op := range []string{"int.i32.add", "int.i32.mul"} {
		if props[op] != 2*n3+2*n2 {
			t.Errorf("%s = %d, want %d", op, props[op], 2*n3+2*n2)
		}
		compareCounts(t, "subscripts by array: "+op, parts[op], map[string]int64{"a": n3, "b": n3, "c": 2 * n2})
	}

	// JSON: the parts of the stride-2 loads of vector_scale_add, one per
	// array of class k/2 without parameters.
	code, out = runCount(t, "vector_scale_add", "--const", "STRIDE=2", "--by", "instruction", "--json")
	if code != 0 {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	var res struct {
		Kernel, By string
		Properties []struct {
			Name, Expression string
			Value            *int64
			Parts            []struct {
				Source, Position, Expression string
				Value                        *int64
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	strided := 0
	for _, p := range res.Properties {
		if p.Name == "global.load.f32.stride=k/2" {
			strided++
			if len(p.Parts) != 1 || p.Parts[0].Source != "insn_0" || p.Parts[0].Position != "vector_scale_add.knl:15" ||
				p.Parts[0].Value != nil || !strings.HasPrefix(p.Parts[0].Expression, "[n] -> ") {
				t.Errorf("%s: parts %+v", p.Name, p.Parts)
			}
		}
		if strings.HasPrefix(p.Name, "global.minldst.") && len(p.Parts) > 0 {
			t.Errorf("%s has parts", p.Name)
		}
	}
	if res.By != "instruction" || strided != 2 {
		t.Errorf("by %q, %d strided loads in %s", res.By, strided, out)
	}
}

func TestCountFootprint(t *testing.T) {
	// matmul_tiled at n = 40, m = 37, ell = 33: all of a (n x m), of b (m
	// x ell) and of c (n x ell), 4 bytes each.
	code, out := runCount(t, "matmul_tiled", "--footprint", "--param", "n=40", "--param", "m=37", "--param", "ell=33")
	if code != 0 {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	for _, s := range []string{"a  load   f32  1480 elements  5920 bytes  [n, m, ell] -> { n * m : ",
		"b  load   f32  1221 elements  4884 bytes", "c  store  f32  1320 elements  5280 bytes"} {
		if !strings.Contains(out, s) {
			t.Errorf("no %q in\n%s", s, out)
		}
	}
	// finite_diff as JSON without parameters: u is loaded, res stored.
	code, out = runCount(t, "finite_diff", "--footprint", "--json")
	if code != 0 {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	var res struct {
		Properties []any
		Footprints []struct {
			Array, Direction, Type string
			Elements, Bytes        struct {
				Expression string
				Value      *int64
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Properties) != 0 || len(res.Footprints) != 2 {
		t.Fatalf("output %s", out)
	}
	for i, want := range []string{"u load f32 [n] -> { n^2 : n >= 3 }", "res store f32 [n] -> { (4 - 4 * n + n^2) : n >= 3 }"} {
		f := res.Footprints[i]
		if got := f.Array + " " + f.Direction + " " + f.Type + " " + f.Elements.Expression; got != want || f.Elements.Value != nil {
			t.Errorf("footprint %d: %s, want %s", i, got, want)
		}
	}
	// A kernel without global arrays has an empty list.
	if code, out = runCount(t, "empty", "--footprint", "--json"); code != 0 || !strings.Contains(out, `"footprints": []`) {
		t.Errorf("empty: exit %d, output %s", code, out)
	}
}

// TestCountBanks checks --banks: transpose_prefetch's 16 x 17 tile with
// 16 x 16 work-groups counts its n² loads and n² stores again as 2-way
// conflicts on 32 banks (a warp spans two rows, and lane (15, 1) meets
// lane (0, 0) in bank 0: 2·64² = 8192 at n = 64), and none on 16 banks,
// where a warp is one row and 17·d + s mod 16 = d + s differs in every
// lane. 65 banks is refused.
func TestCountBanks(t *testing.T) {
	for _, c := range []struct {
		banks string
		want  bool
	}{{"32", true}, {"16", false}} {
		code, out := runCount(t, "transpose_prefetch", "--param", "n=64", "--banks", c.banks)
		got := slices.ContainsFunc(countTable(out), func(l string) bool {
			f := strings.Fields(l)
			return len(f) > 1 && f[0] == "local.f32.conflict=2" && f[1] == "8192"
		})
		if code != 0 || got != c.want || strings.Contains(out, "conflict=") != c.want {
			t.Errorf("--banks %s: exit %d, conflict=2 of 8192 %v, want %v:\n%s", c.banks, code, got, c.want, out)
		}
	}
	if code, _ := runCount(t, "transpose_prefetch", "--param", "n=64", "--banks", "65"); code != 2 {
		t.Errorf("--banks 65: exit %d, want 2", code)
	}
}
