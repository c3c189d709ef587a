package tune

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Param is a tunable parameter and the values it takes.
type Param struct {
	Name   string
	Values []Value
}

// Restriction is a condition every valid configuration meets.
type Restriction struct {
	Expr *Expr
	// Where names the restriction in errors: "restriction 2".
	Where string
	// last is the index of the last parameter the restriction reads, so
	// that enumeration tests it as soon as that parameter is bound.
	last int
}

// Space is a tuning space: tunable parameters, the restrictions on their
// combinations, and, from a T1 file, how Kernel Tuner launches each
// configuration.
type Space struct {
	Params       []Param
	Restrictions []Restriction
	// Launch is the launch of T1's KernelSpecification, nil where the
	// input has none.
	Launch *Launch
	// byName indexes Params by name, once their names are distinct.
	byName map[string]int
}

// Config is one configuration: for each parameter of its space, in the
// order of Space.Params, the index of its value in Param.Values (four
// bytes a parameter, so that millions of configurations fit in memory).
type Config []int32

// Value returns the value of parameter i in configuration c.
func (s *Space) Value(c Config, i int) Value { return s.Params[i].Values[c[i]] }

// Limits on spaces, so that memory and time stay bounded.
const (
	// MaxCombinations bounds the combinations enumerated before
	// restrictions (their product over the parameters).
	MaxCombinations = 50_000_000
	// MaxConfigs bounds the valid configurations of a space.
	MaxConfigs = 5_000_000
)

// ReadSpace reads a tuning space from JSON in one of two forms: Kernel
// Tuner's T1 input file (ConfigurationSpace.TuningParameters, whose
// Values are Python expressions such as "[1, 2, 4]" or
// "[16*i for i in range(1, 9)]", and ConfigurationSpace.Conditions, whose
// Expression is a restriction; KernelSpecification's LocalSize,
// GridDivX/Y/Z and ProblemSize give the launch), or the tune_kernel
// form that Kernel Tuner's cache files and scripts use: "tune_params",
// an object of value lists (in the order of "tune_params_keys" where
// given, else of the file), and "restrictions", a list of expressions.
// name labels errors.
func ReadSpace(data []byte, name string) (*Space, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("%s: not a JSON object: %w", name, err)
	}
	var s *Space
	var err error
	switch {
	case top["ConfigurationSpace"] != nil:
		s, err = readT1(top, name)
	case top["tune_params"] != nil:
		s, err = readTuneParams(top, name)
	default:
		return nil, fmt.Errorf("%s: neither a T1 input file (ConfigurationSpace) nor tune_kernel's tune_params and restrictions", name)
	}
	if err != nil {
		return nil, err
	}
	return s, s.check(name)
}

type t1File struct {
	ConfigurationSpace struct {
		TuningParameters []struct {
			Name   string
			Type   string
			Values json.RawMessage
		}
		Conditions []struct {
			Expression string
		}
	}
	KernelSpecification *t1Kernel
}

func readT1(top map[string]json.RawMessage, name string) (*Space, error) {
	var f t1File
	raw, _ := json.Marshal(top)
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, fmt.Errorf("%s: T1 input: %w", name, err)
	}
	s := &Space{}
	for i, p := range f.ConfigurationSpace.TuningParameters {
		where := fmt.Sprintf("%s: ConfigurationSpace.TuningParameters[%d] (%s)", name, i, p.Name)
		values, err := parseValues(p.Values, where)
		if err != nil {
			return nil, err
		}
		s.Params = append(s.Params, Param{Name: p.Name, Values: values})
	}
	for i, c := range f.ConfigurationSpace.Conditions {
		if err := s.addRestriction(c.Expression, fmt.Sprintf("%s: ConfigurationSpace.Conditions[%d].Expression", name, i)); err != nil {
			return nil, err
		}
	}
	if k := f.KernelSpecification; k != nil {
		l, err := k.launch(name)
		if err != nil {
			return nil, err
		}
		s.Launch = l
	}
	return s, nil
}

// parseValues reads a parameter's values: a JSON list, or a string
// holding a Python expression of a list.
func parseValues(raw json.RawMessage, where string) ([]Value, error) {
	var text string
	var v Value
	if err := json.Unmarshal(raw, &text); err == nil {
		e, err := ParseExpr(text)
		if err != nil {
			return nil, fmt.Errorf("%s: Values %q: %w", where, text, err)
		}
		if v, err = e.Eval(func(string) (Value, bool) { return Value{}, false }); err != nil {
			return nil, fmt.Errorf("%s: Values %q: %w", where, text, err)
		}
	} else {
		x, err := decodeJSON(raw)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		if v, err = valueOfJSON(x); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
	}
	if v.Kind != List || len(v.L) == 0 {
		return nil, fmt.Errorf("%s: the values must be a non-empty list, not %s", where, v)
	}
	for _, x := range v.L {
		if x.Kind == List {
			return nil, fmt.Errorf("%s: a value is a list (%s): give numbers, strings or bools", where, x)
		}
	}
	return v.L, nil
}

func readTuneParams(top map[string]json.RawMessage, name string) (*Space, error) {
	order, err := objectKeys(top["tune_params"])
	if err != nil {
		return nil, fmt.Errorf("%s: tune_params: %w", name, err)
	}
	if raw := top["tune_params_keys"]; raw != nil {
		if err := json.Unmarshal(raw, &order); err != nil {
			return nil, fmt.Errorf("%s: tune_params_keys: %w", name, err)
		}
	}
	var params map[string]json.RawMessage
	if err := json.Unmarshal(top["tune_params"], &params); err != nil {
		return nil, fmt.Errorf("%s: tune_params: %w", name, err)
	}
	if len(order) != len(params) {
		return nil, fmt.Errorf("%s: tune_params_keys lists %d names but tune_params has %d", name, len(order), len(params))
	}
	s := &Space{}
	for _, p := range order {
		raw, ok := params[p]
		if !ok {
			return nil, fmt.Errorf("%s: tune_params_keys names %s, which tune_params lacks", name, p)
		}
		values, err := parseValues(raw, fmt.Sprintf("%s: tune_params.%s", name, p))
		if err != nil {
			return nil, err
		}
		s.Params = append(s.Params, Param{Name: p, Values: values})
	}
	if raw := top["restrictions"]; raw != nil {
		var list []string
		if err := json.Unmarshal(raw, &list); err != nil {
			var one string
			if json.Unmarshal(raw, &one) != nil {
				return nil, fmt.Errorf("%s: restrictions: give a list of expressions (strings)", name)
			}
			list = []string{one}
		}
		for i, r := range list {
			if err := s.addRestriction(r, fmt.Sprintf("%s: restrictions[%d]", name, i)); err != nil {
				return nil, err
			}
		}
	}
	return s, nil
}

// objectKeys returns the keys of a JSON object in the order written.
func objectKeys(raw json.RawMessage) ([]string, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	t, err := d.Token()
	if err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("not an object")
	}
	var keys []string
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return nil, err
		}
		keys = append(keys, t.(string))
		var skip json.RawMessage
		if err := d.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

func (s *Space) addRestriction(src, where string) error {
	e, err := ParseExpr(src)
	if err != nil {
		return fmt.Errorf("%s %q: %w", where, src, err)
	}
	s.Restrictions = append(s.Restrictions, Restriction{Expr: e, Where: where})
	return nil
}

// check refuses duplicate or empty names and restrictions that read
// names the space lacks, and orders the restrictions for enumeration.
func (s *Space) check(name string) error {
	if len(s.Params) == 0 {
		return fmt.Errorf("%s: the space has no tunable parameters", name)
	}
	index := s.index()
	if len(index) != len(s.Params) {
		for i, p := range s.Params {
			if index[p.Name] != i {
				return fmt.Errorf("%s: tunable %s given twice", name, p.Name)
			}
		}
	}
	combos := 1
	for _, p := range s.Params {
		if strings.TrimSpace(p.Name) == "" {
			return fmt.Errorf("%s: a tunable without a name", name)
		}
		if combos > MaxCombinations/len(p.Values) {
			return fmt.Errorf("%s: the parameters make more than %d combinations: %w", name, MaxCombinations, ErrTooLarge)
		}
		combos *= len(p.Values)
	}
	for i := range s.Restrictions {
		r := &s.Restrictions[i]
		r.last = -1
		for _, n := range r.Expr.Names() {
			j, ok := index[n]
			if !ok {
				return fmt.Errorf("%s %q: %s is not a tunable of the space (tunables: %s)", r.Where, r.Expr, n, strings.Join(s.Names(), ", "))
			}
			r.last = max(r.last, j)
		}
	}
	return nil
}

func (s *Space) index() map[string]int {
	if len(s.byName) == len(s.Params) {
		return s.byName
	}
	m := make(map[string]int, len(s.Params))
	for i, p := range s.Params {
		if _, dup := m[p.Name]; !dup {
			m[p.Name] = i
		}
	}
	if len(m) == len(s.Params) {
		s.byName = m
	}
	return m
}

// Names lists the tunables in order.
func (s *Space) Names() []string {
	out := make([]string, len(s.Params))
	for i, p := range s.Params {
		out[i] = p.Name
	}
	return out
}

// Env returns the binding of the space's names to c's values, for
// evaluating expressions.
func (s *Space) Env(c Config) func(string) (Value, bool) {
	index := s.index()
	return func(name string) (Value, bool) {
		i, ok := index[name]
		if !ok {
			return Value{}, false
		}
		return s.Params[i].Values[c[i]], true
	}
}

// Configs enumerates the valid configurations in Kernel Tuner's order
// (the last parameter varies fastest), testing each restriction as soon
// as the parameters it reads are bound. A restriction that cannot be
// evaluated (a division by zero, types that do not compare) is an error
// naming it and the configuration.
func (s *Space) Configs() ([]Config, error) {
	index := s.index()
	cur := make(Config, len(s.Params))
	env := func(name string) (Value, bool) {
		i, ok := index[name]
		if !ok {
			return Value{}, false
		}
		return s.Params[i].Values[cur[i]], true
	}
	byDepth := make([][]Restriction, len(s.Params))
	var always []Restriction
	for _, r := range s.Restrictions {
		if r.last < 0 {
			always = append(always, r)
			continue
		}
		byDepth[r.last] = append(byDepth[r.last], r)
	}
	for _, r := range always {
		ok, err := r.Expr.Holds(env)
		if err != nil {
			return nil, fmt.Errorf("%s %q: %w", r.Where, r.Expr, err)
		}
		if !ok {
			return nil, nil
		}
	}
	var out []Config
	var walk func(d int) error
	walk = func(d int) error {
		for j := range s.Params[d].Values {
			cur[d] = int32(j)
			ok := true
			for _, r := range byDepth[d] {
				holds, err := r.Expr.Holds(env)
				if err != nil {
					return fmt.Errorf("%s %q at %s: %w", r.Where, r.Expr, s.prefix(cur[:d+1]), err)
				}
				if !holds {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			if d+1 < len(s.Params) {
				if err := walk(d + 1); err != nil {
					return err
				}
				continue
			}
			if len(out) == MaxConfigs {
				return fmt.Errorf("the space has more than %d valid configurations: %w", MaxConfigs, ErrTooLarge)
			}
			out = append(out, append(Config(nil), cur...))
		}
		return nil
	}
	return out, walk(0)
}

// prefix renders the first len(c) tunables' values, "block_size_x=16
// tile_size_x=2".
func (s *Space) prefix(c Config) string {
	parts := make([]string, len(c))
	for i := range c {
		parts[i] = s.Params[i].Name + "=" + s.Value(c, i).Text()
	}
	return strings.Join(parts, " ")
}

// Label renders a configuration, "block_size_x=16 block_size_y=4".
func (s *Space) Label(c Config) string { return s.prefix(c) }
