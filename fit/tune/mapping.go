package tune

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Mapping computes a kernel's consts from a configuration's tunables:
// each const it binds is an expression of the tunables, by default the
// tunable of the same name.
type Mapping struct {
	consts []string
	exprs  []*Expr
}

// NewMapping maps the tunables of s onto a kernel whose consts are
// kernelConsts. exprs gives a const's expression where it is not the
// tunable of the same name ("BX": "block_size_x", "TW":
// "block_size_x*tile_size_x", or a constant "16"). Consts that neither
// exprs nor a tunable of that name bind keep the kernel's values. It
// returns the tunables that no const reads, which do not change a
// prediction.
func NewMapping(s *Space, kernelConsts []string, exprs map[string]string) (*Mapping, []string, error) {
	m := &Mapping{}
	tunables := s.index()
	read := map[string]bool{}
	for _, c := range slices.Sorted(maps.Keys(exprs)) {
		if !slices.Contains(kernelConsts, c) {
			return nil, nil, fmt.Errorf("--map %s=%s: the kernel has no const %s (its consts: %s)", c, exprs[c], c, orNone(kernelConsts))
		}
	}
	for _, c := range kernelConsts {
		src, ok := exprs[c]
		if !ok {
			if _, isTunable := tunables[c]; !isTunable {
				continue
			}
			src = c
		}
		e, err := ParseExpr(src)
		if err != nil {
			return nil, nil, fmt.Errorf("--map %s=%s: %w", c, src, err)
		}
		for _, n := range e.Names() {
			if _, ok := tunables[n]; !ok {
				return nil, nil, fmt.Errorf("--map %s=%s: %s is not a tunable of the space (tunables: %s)", c, src, n, strings.Join(s.Names(), ", "))
			}
			read[n] = true
		}
		m.consts = append(m.consts, c)
		m.exprs = append(m.exprs, e)
	}
	var unused []string
	for _, p := range s.Params {
		if !read[p.Name] {
			unused = append(unused, p.Name)
		}
	}
	return m, unused, nil
}

func orNone(list []string) string {
	if len(list) == 0 {
		return "none"
	}
	return strings.Join(list, ", ")
}

// Consts lists the consts the mapping binds, in the kernel's order.
func (m *Mapping) Consts() []string { return slices.Clone(m.consts) }

// Bind returns the consts of configuration c, each an exact integer.
func (m *Mapping) Bind(s *Space, c Config) (map[string]int64, error) {
	env := s.Env(c)
	out := make(map[string]int64, len(m.consts))
	for i, e := range m.exprs {
		v, err := e.Eval(env)
		if err != nil {
			return nil, fmt.Errorf("const %s = %s at %s: %w", m.consts[i], e, s.Label(c), err)
		}
		n, ok := v.Integer()
		if !ok {
			return nil, fmt.Errorf("const %s = %s at %s is %s, not an integer", m.consts[i], e, s.Label(c), v)
		}
		out[m.consts[i]] = n
	}
	return out, nil
}
