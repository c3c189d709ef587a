package tune_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/uniperf/uniperf/fit/tune"
)

// rule is the part of a JSON schema node that Kernel Tuner's T1 and T4
// schemas use: the JSON types allowed, the required keys, the rules of
// named properties and of array items, the allowed values, a pattern.
type rule struct {
	types    []string
	required []string
	props    map[string]*rule
	items    *rule
	enum     []string
	pattern  string
}

// check returns where v breaks r, "" where it does not.
func (r *rule) check(v any, at string) string {
	if r == nil {
		return ""
	}
	if len(r.types) > 0 && !slices.Contains(r.types, jsonType(v)) {
		return fmt.Sprintf("%s: a %s, want %v", at, jsonType(v), r.types)
	}
	if len(r.enum) > 0 && !slices.Contains(r.enum, fmt.Sprint(v)) {
		return fmt.Sprintf("%s: %v is not one of %v", at, v, r.enum)
	}
	if s, ok := v.(string); ok && r.pattern != "" && !regexp.MustCompile(r.pattern).MatchString(s) {
		return fmt.Sprintf("%s: %q does not match %s", at, s, r.pattern)
	}
	switch v := v.(type) {
	case map[string]any:
		for _, k := range r.required {
			if _, ok := v[k]; !ok {
				return fmt.Sprintf("%s: required %s missing", at, k)
			}
		}
		for k, p := range r.props {
			if x, ok := v[k]; ok {
				if e := p.check(x, at+"."+k); e != "" {
					return e
				}
			}
		}
	case []any:
		for i, x := range v {
			if e := r.items.check(x, fmt.Sprintf("%s[%d]", at, i)); e != "" {
				return e
			}
		}
	}
	return ""
}

func jsonType(v any) string {
	switch v.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "boolean"
	}
	return "null"
}

var (
	str    = &rule{types: []string{"string"}}
	num    = &rule{types: []string{"number"}}
	obj    = &rule{types: []string{"object"}}
	xyzStr = &rule{types: []string{"object"}, required: []string{"X"}, props: map[string]*rule{"X": str, "Y": str, "Z": str}}
)

// t4Rules is kernel_tuner/schema/T4/1.0.0/results-schema.json, read by
// hand: a results array of objects that require configuration, times,
// invalidity and correctness, with its types and enum.
var t4Rules = &rule{types: []string{"object"}, props: map[string]*rule{
	"schema_version": {types: []string{"string"}, pattern: `^[0-9]{1,}.[0-9]{1,}.[0-9]{1,}$`},
	"results": {types: []string{"array"}, items: &rule{types: []string{"object"},
		required: []string{"configuration", "times", "invalidity", "correctness"},
		props: map[string]*rule{
			"timestamp":     str,
			"configuration": obj,
			"objectives":    {types: []string{"array"}},
			"times": {types: []string{"object"}, props: map[string]*rule{
				"compilation_time": num, "runtimes": {types: []string{"array"}}, "framework": num, "search_algorithm": num, "validation": num}},
			"invalidity":  {enum: []string{"timeout", "compile", "runtime", "correctness", "constraints", "correct"}},
			"correctness": num,
			"measurements": {types: []string{"array"}, items: &rule{types: []string{"object"}, props: map[string]*rule{
				"name": str, "value": {types: []string{"number", "string", "array"}}, "unit": str}}},
		}}},
}}

// t1Rules is kernel_tuner/schema/T1/1.0.0/input-schema.json's required
// keys and types, read by hand.
var t1Rules = &rule{types: []string{"object"}, required: []string{"ConfigurationSpace", "KernelSpecification"}, props: map[string]*rule{
	"ConfigurationSpace": {types: []string{"object"}, required: []string{"TuningParameters"}, props: map[string]*rule{
		"TuningParameters": {types: []string{"array"}, items: &rule{types: []string{"object"}, required: []string{"Name", "Type", "Values"},
			props: map[string]*rule{"Name": str, "Type": {enum: []string{"int", "uint", "float", "bool", "string"}}, "Values": str}}},
		"Conditions": {types: []string{"array"}, items: &rule{types: []string{"object"}, required: []string{"Parameters", "Expression"},
			props: map[string]*rule{"Parameters": {types: []string{"array"}, items: str}, "Expression": str}}},
	}},
	"KernelSpecification": {types: []string{"object"}, required: []string{"Language", "KernelName", "KernelFile", "GlobalSize", "LocalSize"},
		props: map[string]*rule{
			"Language": {enum: []string{"OpenCL", "CUDA", "Vulkan"}}, "KernelName": str, "KernelFile": str,
			"GlobalSizeType": {enum: []string{"OpenCL", "CUDA", "Vulkan"}}, "GlobalSize": xyzStr, "LocalSize": xyzStr,
		}},
}}

// TestShippedSpacesAreT1 checks the spaces that ship beside the example
// kernels as T1 files against the T1 schema's rules, and that tune reads
// every shipped space (the stencil's is in tune_kernel's form).
func TestShippedSpacesAreT1(t *testing.T) {
	files, err := filepath.Glob("../../examples/*.space.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no shipped spaces: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			t.Fatal(err)
		}
		if _, t1 := v.(map[string]any)["ConfigurationSpace"]; t1 {
			if e := t1Rules.check(v, f); e != "" {
				t.Error(e)
			}
		}
		if _, err := tune.ReadSpace(data, f); err != nil {
			t.Error(err)
		}
	}
}

// TestT4Schema checks WriteT4's output against the T4 schema's rules,
// for a ranking with and without measured times, with int, float,
// string and bool tunables.
func TestT4Schema(t *testing.T) {
	s, err := tune.ReadSpace([]byte(`{"tune_params": {"BX": [16, 32], "f": [0.5], "name": ["a"], "on": [true]}}`), "s")
	if err != nil {
		t.Fatal(err)
	}
	configs, err := s.Configs()
	if err != nil {
		t.Fatal(err)
	}
	results := []tune.Result{{Config: configs[0], Predicted: 1e-3, Rank: 1}, {Config: configs[1], Predicted: 2e-3, Rank: 2, Measured: 3e-3}}
	data, err := tune.WriteT4(s, results, time.Date(2026, 12, 6, 9, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	if e := t4Rules.check(v, "T4"); e != "" {
		t.Fatalf("%s\n%s", e, data)
	}
	// The rules pass what breaks no rule; that they catch a break:
	v.(map[string]any)["results"].([]any)[0].(map[string]any)["invalidity"] = "fine"
	if e := t4Rules.check(v, "T4"); e == "" {
		t.Error("an invalidity outside the schema's enum passes")
	}
}
