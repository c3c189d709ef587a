package tune

import (
	"os"
	"strings"
	"testing"
)

func readSpace(t *testing.T, path string) *Space {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ReadSpace(data, path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestMatmulSpace enumerates the T1 space of the matmul example (Kernel
// Tuner's values, with a work-group of at most 1024 work-items as its
// condition) and compares it with nested loops over the values its
// script lists, filtered by the condition written in Go, and checks the
// launch against the grid Kernel Tuner computes by hand.
func TestMatmulSpace(t *testing.T) {
	s := readSpace(t, "../../examples/matmul_kernel.space.json")
	got, err := s.Configs()
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, bx := range []int64{16, 32, 64} {
		for _, by := range []int64{1, 2, 4, 8, 16, 32} {
			for _, tx := range []int64{1, 2, 4, 8} {
				for _, ty := range []int64{1, 2, 4, 8} {
					if bx*by <= 1024 {
						want = append(want, strings.Join([]string{"block_size_x=" + itoa(bx), "block_size_y=" + itoa(by), "tile_size_x=" + itoa(tx), "tile_size_y=" + itoa(ty)}, " "))
					}
				}
			}
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d configurations, want %d", len(got), len(want))
	}
	for i, c := range got {
		if s.Label(c) != want[i] {
			t.Errorf("configuration %d: %s, want %s", i, s.Label(c), want[i])
		}
		groups, local, err := s.Launch.Shape(s.Env(c))
		if err != nil {
			t.Fatal(err)
		}
		bx, by, tx, ty := s.Value(c, 0).I, s.Value(c, 1).I, s.Value(c, 2).I, s.Value(c, 3).I
		if groups != [3]int64{4096 / (bx * tx), 4096 / (by * ty), 1} || local != [3]int64{bx, by, 1} {
			t.Errorf("%s: groups %v local %v", s.Label(c), groups, local)
		}
	}
}

func itoa(v int64) string { return IntValue(v).String() }

// TestSpaceErrors checks that bad spaces are refused with the place and
// the cause.
func TestSpaceErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`[]`, "not a JSON object"},
		{`{}`, "neither a T1 input file"},
		{`{"tune_params": {"a": []}}`, "non-empty list"},
		{`{"tune_params": {"a": [1]}, "restrictions": ["b > 1"]}`, "b is not a tunable"},
		{`{"tune_params": {"a": [1]}, "restrictions": ["a >"]}`, `restrictions[0] "a >": 1:4:`},
		{`{"ConfigurationSpace": {"TuningParameters": [{"Name": "a", "Type": "int", "Values": "[1, lambda: 2]"}]}}`, "TuningParameters[0] (a): Values"},
		{`{"tune_params": {"a": [1, 2, 3, 4, 5, 6, 7, 8], "b": "list(range(10000))", "c": "list(range(10000))"}}`, "combinations"},
		{`{"tune_params": {"a": [1, 0]}, "restrictions": ["10 // a > 1"]}`, "at a=0: 1:4: division by zero"},
	} {
		s, err := ReadSpace([]byte(c.src), "s.json")
		if err == nil {
			_, err = s.Configs()
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.src, err, c.want)
		}
	}
}

// TestTuneParamsOrder checks that tune_params keep the file's order,
// which sets the enumeration order, and tune_params_keys overrides it.
func TestTuneParamsOrder(t *testing.T) {
	s, err := ReadSpace([]byte(`{"tune_params": {"z": [1, 2], "a": ["x", "y"]}}`), "s")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := s.Configs()
	if len(got) != 4 || s.Label(got[1]) != "z=1 a=y" {
		t.Errorf("got %d configurations, second %s", len(got), s.Label(got[1]))
	}
	s, err = ReadSpace([]byte(`{"tune_params_keys": ["a", "z"], "tune_params": {"z": [1, 2], "a": ["x", "y"]}}`), "s")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Configs(); s.Label(got[1]) != "a=x z=2" {
		t.Errorf("second %s", s.Label(got[1]))
	}
}
