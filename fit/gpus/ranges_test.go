package gpus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// extremes are the values a hostile or mistyped device file puts in a
// number: zero, negative, the int64 extremes, the float64 extremes, tiny,
// and one past float64 (which JSON allows and Go cannot hold).
var extremes = []string{"0", "-1", "9223372036854775807", "-9223372036854775808", "1e308", "-1e308",
	"1e-308", "1e309", "4294967297", "1.5"}

// numberPaths lists the paths of every number in a decoded JSON object.
func numberPaths(v any, prefix []string, out *[][]string) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			numberPaths(x, append(slices.Clone(prefix), k), out)
		}
	case json.Number:
		*out = append(*out, prefix)
	}
}

func setPath(v any, path []string, x json.Number) {
	m := v.(map[string]any)
	for _, k := range path[:len(path)-1] {
		m = m[k].(map[string]any)
	}
	m[path[len(path)-1]] = x
}

func decodeNumbers(t *testing.T, data []byte) map[string]any {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v map[string]any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// Every number of every shipped file, set to each extreme value, is either
// refused on load with an error naming the field, or accepted, and then
// occupancy and the models' parameter getters on every block shape the
// limits allow neither panic nor return nonsense. Before the ranges,
// shared_alloc_unit or warp_alloc_granularity = MaxInt64 passed Parse and
// made ActiveBlocks divide by zero.
func TestDeviceFileExtremeValues(t *testing.T) {
	refused := 0
	for _, name := range Names() {
		data, err := shipped.ReadFile("devices/" + name + ".json")
		if err != nil {
			t.Fatal(err)
		}
		var paths [][]string
		numberPaths(decodeNumbers(t, data), nil, &paths)
		for _, path := range paths {
			for _, x := range extremes {
				v := decodeNumbers(t, data)
				setPath(v, path, json.Number(x))
				src, err := json.Marshal(v)
				if err != nil {
					t.Fatal(err)
				}
				// A map's entry (cycles.weights.add) that JSON cannot
				// hold is named by its map and line:col.
				field := path[len(path)-1]
				if path[0] == "cycles" {
					field = "cycles"
				}
				d, err := Parse(name+".json", src)
				if err != nil {
					refused++
					if !strings.Contains(err.Error(), field) {
						t.Errorf("%s: %s = %s: error %q does not name the field", name, strings.Join(path, "."), x, err)
					}
					continue
				}
				exerciseDevice(t, fmt.Sprintf("%s: %s = %s", name, strings.Join(path, "."), x), d)
			}
		}
	}
	if refused == 0 {
		t.Fatal("no extreme value refused")
	}
}

// exerciseDevice runs occupancy over block shapes from the smallest to the
// device's limits and checks the result against the limits themselves.
func exerciseDevice(t *testing.T, what string, d *Device) {
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("%s: panic %v", what, r)
		}
	}()
	l := d.Limits
	for _, threads := range []int{1, l.WarpSize, l.MaxThreadsPerBlock} {
		for _, regs := range []int{0, 1, l.MaxRegsPerThread} {
			for _, shared := range []int{0, 1, l.MaxSharedPerBlock} {
				o, err := ActiveBlocks(l, Resources{ThreadsPerBlock: threads, RegsPerThread: regs, SharedPerBlock: shared})
				if err != nil {
					continue
				}
				if o.BlocksPerSM < 1 || o.BlocksPerSM > l.MaxBlocksPerSM || o.ActiveWarps > l.MaxWarpsPerSM ||
					!(o.Fraction > 0 && o.Fraction <= 1) {
					t.Errorf("%s: %d threads, %d regs, %d shared: %+v", what, threads, regs, shared, o)
				}
			}
		}
	}
	_, _ = d.HongKimParams()
	_, _ = d.ResiosParams()
}

// The file's numbers outside their physical ranges are refused with the
// range, including the two that used to divide by zero in ActiveBlocks.
func TestDeviceFileRanges(t *testing.T) {
	cases := []struct{ from, to, want string }{
		{`"shared_alloc_unit": 256`, `"shared_alloc_unit": 9223372036854775807`,
			"limits.shared_alloc_unit must be 1 to 1048576, have 9223372036854775807"},
		{`"max_blocks_per_sm": 16`, `"max_blocks_per_sm": 16, "warp_alloc_granularity": 9223372036854775807`,
			"limits.warp_alloc_granularity must be 0 (absent) or 1 to 1024, have 9223372036854775807"},
		{`"max_blocks_per_sm": 16`, `"max_blocks_per_sm": 16, "warp_alloc_granularity": -2`,
			"limits.warp_alloc_granularity must be 0 (absent) or 1 to 1024, have -2"},
		{`"sm_count": 2`, `"sm_count": 9223372036854775807`, "sm_count must be 1 to 65536"},
		{`"clock_hz": 1e9`, `"clock_hz": 1e308`, "clock_hz must be 1000 to 1e+12, have 1e+308"},
		{`"clock_hz": 1e9`, `"clock_hz": 1e9, "mem_bandwidth_bytes_per_s": 1e-300`, "mem_bandwidth_bytes_per_s must be 0 (absent) or 1000 to 1e+18"},
		{`"clock_hz": 1e9`, `"clock_hz": 1e9, "hongkim": {"issue_cycles": 1e308, "source": "x"}`,
			"hongkim.issue_cycles must be 0 (absent) or 1e-09 to 1e+09, have 1e+308"},
		{`"clock_hz": 1e9`, `"clock_hz": 1e9, "cycles": {"weights": {"add": -0.5}, "source": "x"}`, "cycles.weights.add must be"},
		{`"clock_hz": 1e9`, `"clock_hz": 1e9, "resios": {"simulation": {"max_sim_warps": 100000000}, "source": "x"}`,
			"resios.simulation.max_sim_warps must be 0 (absent) or 1 to 65536, have 100000000"},
	}
	for _, c := range cases {
		if !strings.Contains(minimal, c.from) {
			t.Fatalf("minimal lacks %s", c.from)
		}
		_, err := Parse("min.json", []byte(strings.Replace(minimal, c.from, c.to, 1)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.to, err, c.want)
		}
	}
}
