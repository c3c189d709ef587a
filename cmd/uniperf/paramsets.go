package main

import (
	"errors"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strings"
)

// maxParamSets bounds the parameter sets one command line may expand to.
const maxParamSets = 100000

// paramSets expands --param NAME=V1,V2,... flags and --sweep ranges into
// every combination of their values, in the order given (the last flag
// varies fastest). Names tied in one flag (--param nx=ny=V1,V2) take the
// same value together rather than every combination. A name given twice
// is an error.
func paramSets(params, sweeps []string) ([]map[string]int64, error) {
	return bindingSets("--param", params, sweeps)
}

// bindingSets is paramSets for flag, named in errors (--param or
// --const).
func bindingSets(flag string, params, sweeps []string) ([]map[string]int64, error) {
	type axis struct {
		names  []string
		values []int64
	}
	var axes []axis
	seen := map[string]bool{}
	add := func(flag string, names []string, values []int64) error {
		for _, name := range names {
			if seen[name] {
				return fmt.Errorf("%s: %s given twice", flag, name)
			}
			seen[name] = true
		}
		axes = append(axes, axis{names, values})
		return nil
	}
	for _, f := range params {
		names, list, err := tiedNames(f)
		if err != nil {
			return nil, fmt.Errorf("%s %q: %w (want NAME=VALUE, NAME=V1,V2,... or NAME1=NAME2=V1,V2,... to tie names)", flag, f, err)
		}
		var values []int64
		for _, s := range strings.Split(list, ",") {
			v, err := parseInt(s)
			if err != nil {
				return nil, fmt.Errorf("%s %q: %w", flag, f, err)
			}
			values = append(values, v)
		}
		if err := add(flag+" "+f, names, values); err != nil {
			return nil, err
		}
	}
	for _, f := range sweeps {
		names, values, err := parseSweep(f)
		if err != nil {
			return nil, err
		}
		if err := add("--sweep "+f, names, values); err != nil {
			return nil, err
		}
	}
	sets := []map[string]int64{{}}
	for _, a := range axes {
		if len(sets)*len(a.values) > maxParamSets {
			return nil, fmt.Errorf("the %s and --sweep values make more than %d sets", flag, maxParamSets)
		}
		var next []map[string]int64
		for _, s := range sets {
			for _, v := range a.values {
				m := maps.Clone(s)
				for _, name := range a.names {
					m[name] = v
				}
				next = append(next, m)
			}
		}
		sets = next
	}
	return sets, nil
}

// tiedNames splits NAME1=NAME2=...=SPEC into the names, which take one
// value together, and the text after the last '='.
func tiedNames(f string) ([]string, string, error) {
	i := strings.LastIndexByte(f, '=')
	if i < 0 {
		return nil, "", errors.New("no '='")
	}
	names := strings.Split(f[:i], "=")
	for j, n := range names {
		names[j] = strings.TrimSpace(n)
		if names[j] == "" {
			return nil, "", errors.New("an empty name")
		}
		if slices.Contains(names[:j], names[j]) {
			return nil, "", fmt.Errorf("%s tied to itself", names[j])
		}
	}
	return names, f[i+1:], nil
}

// parseSweep reads NAME=A..B (every integer from A to B), NAME=A..B:S
// (step S) or NAME=2^A..2^B (the powers of two from 2^A to 2^B); names
// tied as NAME1=NAME2=A..B take each value together.
func parseSweep(f string) ([]string, []int64, error) {
	bad := func(why string) ([]string, []int64, error) {
		return nil, nil, fmt.Errorf("--sweep %q: %s (want NAME=A..B, NAME=A..B:STEP or NAME=2^A..2^B, or NAME1=NAME2=... to tie names)", f, why)
	}
	name, spec, err := tiedNames(f)
	if err != nil {
		return bad("malformed: " + err.Error())
	}
	lo, hi, ok := strings.Cut(spec, "..")
	if !ok {
		return bad("malformed")
	}
	if strings.HasPrefix(strings.TrimSpace(lo), "2^") {
		a, err1 := parseInt(strings.TrimPrefix(strings.TrimSpace(lo), "2^"))
		b, err2 := parseInt(strings.TrimPrefix(strings.TrimSpace(hi), "2^"))
		switch {
		case err1 != nil || err2 != nil || !strings.HasPrefix(strings.TrimSpace(hi), "2^"):
			return bad("both ends must be powers 2^K")
		case a < 0 || b > 62 || a > b:
			return bad("want 0 <= A <= B <= 62")
		}
		var values []int64
		for k := a; k <= b; k++ {
			values = append(values, int64(1)<<k)
		}
		return name, values, nil
	}
	step := int64(1)
	if h, s, ok := strings.Cut(hi, ":"); ok {
		v, err := parseInt(s)
		if err != nil || v <= 0 {
			return bad("the step must be a positive integer")
		}
		hi, step = h, v
	}
	a, err1 := parseInt(lo)
	b, err2 := parseInt(hi)
	if err1 != nil || err2 != nil || a > b {
		return bad("the ends must be integers with A <= B")
	}
	// b - a in uint64, where it is exact for any a <= b: in int64 it
	// wraps from 2^63 on (-2^62..2^62 is -1), which passed this bound and
	// then appended values until memory ran out.
	if (uint64(b)-uint64(a))/uint64(step) >= maxParamSets {
		return bad(fmt.Sprintf("more than %d values", maxParamSets))
	}
	var values []int64
	for v := a; v <= b; v += step {
		values = append(values, v)
		if v > b-step {
			break
		}
	}
	return name, values, nil
}

// parseInt reads an exact 64-bit integer.
func parseInt(s string) (int64, error) {
	s = strings.TrimSpace(s)
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return 0, fmt.Errorf("%q is not an integer", s)
	}
	if !v.IsInt64() {
		return 0, fmt.Errorf("%s does not fit in a 64-bit integer", s)
	}
	return v.Int64(), nil
}
