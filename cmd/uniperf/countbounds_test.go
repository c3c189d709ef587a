package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A kernel with a boundary condition (affine: exact) and a data-dependent
// predicate (an upper bound): count marks the upper bounds, in its table
// and in JSON. At n = 10: a[i - 1] is read 9 times, a[i] 10 times in each
// instruction, and b[i] at most 10 times.
func TestCountCommandUpperBounds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "clip.knl")
	src := "kernel clip\ndomain [n] -> { [i] : 0 <= i < n }\narray a f32 [n]\narray b f32 [n]\n" +
		"b[i] = if(i > 0, a[i - 1], 0.0f) + a[i]\nif a[i] > 1: b[i] = 2*b[i]\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out := runCount(t, path, "--param", "n=10", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	var res struct {
		Properties []struct {
			Name       string
			Value      *int64
			UpperBound bool `json:"upper_bound"`
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	got, upper := map[string]int64{}, map[string]bool{}
	for _, p := range res.Properties {
		got[p.Name], upper[p.Name] = *p.Value, p.UpperBound
	}
	compareCounts(t, "clip", got, map[string]int64{"flop.f32.add": 10, "flop.f32.mul": 10, "global.load.f32.stride=0": 39,
		"global.store.f32.stride=0": 20, "global.minldst.f32.stride=0": 20, "launch.groups": 1, "launch.const": 1})
	for name, want := range map[string]bool{"flop.f32.add": false, "flop.f32.mul": true, "global.load.f32.stride=0": true,
		"global.store.f32.stride=0": true, "global.minldst.f32.stride=0": true, "launch.groups": false} {
		if upper[name] != want {
			t.Errorf("%s: upper_bound %v, want %v", name, upper[name], want)
		}
	}
	code, out = runCount(t, path, "--param", "n=10")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	for _, line := range countTable(out) {
		f := strings.Fields(line)
		if len(f) == 0 || upper[f[0]] == strings.HasSuffix(line, "; upper bound: counted as if its data-dependent conditions held") {
			continue
		}
		t.Errorf("line %q: upper bound %v", line, upper[f[0]])
	}
}
