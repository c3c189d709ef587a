package main

import (
	"reflect"
	"strings"
	"testing"
)

func TestParamSets(t *testing.T) {
	got, err := paramSets([]string{"m=1,2", "k=7"}, []string{"n=2^3..2^5"})
	if err != nil {
		t.Fatal(err)
	}
	var want []map[string]int64
	for _, m := range []int64{1, 2} {
		for _, n := range []int64{8, 16, 32} {
			want = append(want, map[string]int64{"m": m, "k": 7, "n": n})
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}

	for _, c := range []struct {
		sweep string
		want  []int64
	}{
		{"n=3..6", []int64{3, 4, 5, 6}},
		{"n=10..40:15", []int64{10, 25, 40}},
		{"n=10..44:15", []int64{10, 25, 40}},
		{"n=-2..-2", []int64{-2}},
		{"n=2^0..2^2", []int64{1, 2, 4}},
		{"n=9223372036854775806..9223372036854775807", []int64{9223372036854775806, 9223372036854775807}},
	} {
		_, values, err := parseSweep(c.sweep)
		if err != nil || !reflect.DeepEqual(values, c.want) {
			t.Errorf("%s: %v, %v; want %v", c.sweep, values, err, c.want)
		}
	}
}

// Tied names take one value together: --param nx=ny=1,2 with a sweep of k
// is 2 × 2 sets, not 2 × 2 × 2.
func TestParamSetsTied(t *testing.T) {
	got, err := paramSets([]string{"nx=ny=1024,2048"}, []string{"k = j=2^0..2^1"})
	if err != nil {
		t.Fatal(err)
	}
	want := []map[string]int64{
		{"nx": 1024, "ny": 1024, "k": 1, "j": 1}, {"nx": 1024, "ny": 1024, "k": 2, "j": 2},
		{"nx": 2048, "ny": 2048, "k": 1, "j": 1}, {"nx": 2048, "ny": 2048, "k": 2, "j": 2},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
	b, err := parseParams([]string{"n=m=ell=64", "k=3"})
	if err != nil || !reflect.DeepEqual(b, map[string]int64{"n": 64, "m": 64, "ell": 64, "k": 3}) {
		t.Errorf("parseParams: %v, %v", b, err)
	}
	for _, c := range []struct {
		params, sweeps []string
		want           string
	}{
		{[]string{"nx==1,2"}, nil, "an empty name"},
		{[]string{"nx=nx=1"}, nil, "nx tied to itself"},
		{[]string{"nx=ny=1", "ny=2"}, nil, "ny given twice"},
		{nil, []string{"a==1..2"}, "malformed: an empty name"},
		{[]string{"n=1"}, []string{"m=n=1..2"}, "n given twice"},
	} {
		if _, err := paramSets(c.params, c.sweeps); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v %v: %v, want %q", c.params, c.sweeps, err, c.want)
		}
	}
	if _, err := parseParams([]string{"n=m=1", "m=2"}); err == nil || !strings.Contains(err.Error(), "m given twice") {
		t.Errorf("parseParams twice: %v", err)
	}
}

func TestParamSetsErrors(t *testing.T) {
	for _, c := range []struct {
		params, sweeps []string
		want           string
	}{
		{[]string{"n"}, nil, "want NAME=VALUE"},
		{[]string{"n=1,x"}, nil, `"x" is not an integer`},
		{[]string{"n=99999999999999999999"}, nil, "does not fit"},
		{[]string{"n=1"}, []string{"n=1..2"}, "n given twice"},
		{nil, []string{"n=5..1"}, "A <= B"},
		{nil, []string{"n=2^3..8"}, "powers"},
		{nil, []string{"n=2^3..2^63"}, "<= 62"},
		{nil, []string{"n=1..2:0"}, "positive"},
		{nil, []string{"n=0..1000000000"}, "more than"},
		{nil, []string{"n=-4611686018427387904..4611686018427387904"}, "more than"},
		{nil, []string{"n=-9223372036854775808..9223372036854775807:2"}, "more than"},
		{nil, []string{"n=0..999:1", "m=0..999:1"}, "more than"},
		{nil, []string{"n"}, "malformed"},
	} {
		_, err := paramSets(c.params, c.sweeps)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v %v: error %v, want one containing %q", c.params, c.sweeps, err, c.want)
		}
	}
}

// FuzzParamSets feeds --param and --sweep arbitrary text: the expansion
// must be an error or at most maxParamSets sets, each binding the same
// names, in bounded time and memory. The seeds
// (testdata/fuzz/FuzzParamSets) hold tied names, a stepped sweep, powers
// of two, and a sweep whose width 2^63 wrapped to -1 in int64 and ran
// out of memory.
func FuzzParamSets(f *testing.F) {
	f.Fuzz(func(t *testing.T, param, sweep string) {
		sets, err := paramSets([]string{param}, []string{sweep})
		if err != nil {
			return
		}
		if len(sets) == 0 || len(sets) > maxParamSets {
			t.Fatalf("%d sets", len(sets))
		}
		for _, s := range sets {
			if len(s) != len(sets[0]) {
				t.Fatalf("sets bind %v and %v", s, sets[0])
			}
		}
	})
}
