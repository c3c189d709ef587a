package main

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/datasets/inputfile"
)

// caseFlags are the flags that give predict's cases.
type caseFlags struct {
	consts, params, sweeps []string
	configs                string
	stdin                  io.Reader
}

// predictCase is one prediction of a kernel: its consts and parameters.
type predictCase struct {
	consts, params map[string]int64
}

// predictCases expands predict's --const, --param, --sweep and
// --configs into the cases to predict: every configuration of --configs
// (or none), with every combination of the --const values, with every
// parameter set; the last varies fastest.
func predictCases(f caseFlags, kernel string) ([]predictCase, error) {
	constSets, err := bindingSets("--const", f.consts, nil)
	if err != nil {
		return nil, err
	}
	sets, err := paramSets(f.params, f.sweeps)
	if err != nil {
		return nil, err
	}
	// The names are checked against the kernel at its default consts.
	// Where those do not parse (a placeholder const that every call
	// overrides, const LX = 0), the parse with the given consts reports
	// what is wrong, as before the check; --configs needs the names.
	declared, params, err := kernelDecls(kernel)
	switch {
	case err == nil:
		if err := checkCaseNames(kernel, declared, params, f.consts, f.params, f.sweeps); err != nil {
			return nil, err
		}
	case f.configs != "":
		return nil, err
	}
	configs := []map[string]int64{{}}
	if f.configs != "" {
		if configs, err = readConfigs(f.configs, f.stdin); err != nil {
			return nil, err
		}
	}
	if len(configs)*len(constSets)*len(sets) > maxParamSets {
		return nil, fmt.Errorf("--configs, --const and --param make more than %d predictions", maxParamSets)
	}
	var out []predictCase
	for i, cfg := range configs {
		for _, cs := range constSets {
			for _, ps := range sets {
				c := predictCase{maps.Clone(cs), maps.Clone(ps)}
				for _, name := range slices.Sorted(maps.Keys(cfg)) {
					dst, flag := c.params, "--param"
					if slices.Contains(declared, name) {
						dst, flag = c.consts, "--const"
					} else if !slices.Contains(params, name) {
						return nil, unknownName(fmt.Sprintf("--configs %s: configuration %d", f.configs, i+1), kernel, name,
							"const or parameter", "consts and parameters", append(slices.Clone(declared), params...))
					}
					if _, dup := dst[name]; dup {
						return nil, fmt.Errorf("--configs %s: configuration %d binds %s, which %s binds too", f.configs, i+1, name, flag)
					}
					dst[name] = cfg[name]
				}
				out = append(out, c)
			}
		}
	}
	return out, nil
}

// kernelDecls lists the consts and the size parameters kernel declares.
func kernelDecls(kernel string) (consts, params []string, err error) {
	file, src, err := kernelSource(kernel)(kernel)
	if err != nil {
		return nil, nil, err
	}
	k, err := counts.ParseKernel(file, src, nil)
	if err != nil {
		return nil, nil, err
	}
	return constNames(k), k.Params, nil
}

// hasParams reports whether kernel declares size parameters: a kernel
// whose sizes are all consts (one imported with every size as -D) is
// predicted and measured without --param, at its one size. The kernel is
// read with the first binding of constFlags (--const), since a
// placeholder const that every call overrides (const LX = 0) may not
// parse at its default. A kernel that cannot be read even so is not
// asked for parameters: the command's own reading says what is wrong,
// with its place.
func hasParams(kernel string, constFlags []string) bool {
	sets, err := bindingSets("--const", constFlags, nil)
	if err != nil {
		return false
	}
	file, src, err := kernelSource(kernel)(kernel)
	if err != nil {
		return false
	}
	k, err := counts.ParseKernel(file, src, sets[0])
	return err == nil && len(k.Params) > 0
}

// readConfigs reads --configs: a file, or stdin for "-", of
// configurations, each a set of NAME=integer bindings: JSON (an array of
// objects, or one object a line) or CSV (a header of names, then one
// row a configuration).
func readConfigs(path string, stdin io.Reader) ([]map[string]int64, error) {
	var data []byte
	var err error
	if path == "-" {
		if stdin == nil {
			return nil, fmt.Errorf("--configs -: no standard input")
		}
		data, err = inputfile.ReadAll("standard input", stdin)
	} else {
		data, err = inputfile.ReadText(path)
	}
	if err != nil {
		return nil, fmt.Errorf("--configs %s: %w", path, err)
	}
	trimmed := bytes.TrimSpace(data)
	var configs []map[string]int64
	switch {
	case len(trimmed) == 0:
		return nil, fmt.Errorf("--configs %s: no configurations", path)
	case trimmed[0] == '[':
		err = json.Unmarshal(trimmed, &configs)
	case trimmed[0] == '{':
		configs, err = readJSONLines(trimmed)
	default:
		configs, err = readCSVConfigs(trimmed)
	}
	if err != nil {
		return nil, fmt.Errorf("--configs %s: %w (want a JSON array of objects {\"NAME\": integer}, one such object a line, or CSV with a header of names)", path, err)
	}
	if len(configs) == 0 {
		return nil, fmt.Errorf("--configs %s: no configurations", path)
	}
	if len(configs) > maxParamSets {
		return nil, fmt.Errorf("--configs %s: more than %d configurations", path, maxParamSets)
	}
	return configs, nil
}

func readJSONLines(data []byte) ([]map[string]int64, error) {
	var out []map[string]int64
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, len(data)+1) // one line may be the whole input
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		var m map[string]int64
		if err := json.Unmarshal([]byte(text), &m); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		out = append(out, m)
	}
	return out, sc.Err()
}

func readCSVConfigs(data []byte) ([]map[string]int64, error) {
	rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil {
		return nil, err
	}
	header := rows[0]
	for i, h := range header {
		header[i] = strings.TrimSpace(h)
		if header[i] == "" || slices.Contains(header[:i], header[i]) {
			return nil, fmt.Errorf("line 1: column %d: an empty or repeated name", i+1)
		}
	}
	var out []map[string]int64
	for r, row := range rows[1:] {
		m := make(map[string]int64, len(row))
		for i, cell := range row {
			v, err := parseInt(cell)
			if err != nil {
				return nil, fmt.Errorf("line %d: %s: %w", r+2, header[i], err)
			}
			m[header[i]] = v
		}
		out = append(out, m)
	}
	return out, nil
}
