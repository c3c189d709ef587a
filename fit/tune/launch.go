package tune

import (
	"encoding/json"
	"fmt"
)

// Launch is how Kernel Tuner launches a configuration, from a T1 file's
// KernelSpecification: the thread-block size along each axis (LocalSize,
// else the tunables block_size_x, block_size_y and block_size_z, else
// 1) and the grid, ceil(ProblemSize / product of GridDiv) along each
// axis (GridDivX defaults to block_size_x, and so on, as in Kernel
// Tuner). GlobalSize is not read: Kernel Tuner computes the grid from
// the problem size and the divisors.
type Launch struct {
	local   [3]*Expr
	div     [3][]*Expr
	problem [3]*Expr
}

type t1Kernel struct {
	LocalSize                    map[string]string
	GridDivX, GridDivY, GridDivZ []string
	ProblemSize                  json.RawMessage
}

var axes = [3]string{"X", "Y", "Z"}

var blockNames = [3]string{"block_size_x", "block_size_y", "block_size_z"}

func (k *t1Kernel) launch(name string) (*Launch, error) {
	l := &Launch{}
	parse := func(src, where string) (*Expr, error) {
		e, err := ParseExpr(src)
		if err != nil {
			return nil, fmt.Errorf("%s: KernelSpecification.%s %q: %w", name, where, src, err)
		}
		return e, nil
	}
	for a, ax := range axes {
		if src, ok := k.LocalSize[ax]; ok {
			e, err := parse(src, "LocalSize."+ax)
			if err != nil {
				return nil, err
			}
			l.local[a] = e
		}
		for i, src := range [3][]string{k.GridDivX, k.GridDivY, k.GridDivZ}[a] {
			e, err := parse(src, fmt.Sprintf("GridDiv%s[%d]", ax, i))
			if err != nil {
				return nil, err
			}
			l.div[a] = append(l.div[a], e)
		}
	}
	if len(k.ProblemSize) == 0 {
		return nil, nil
	}
	x, err := decodeJSON(k.ProblemSize)
	if err != nil {
		return nil, fmt.Errorf("%s: KernelSpecification.ProblemSize: %w", name, err)
	}
	list, ok := x.([]any)
	if !ok {
		list = []any{x}
	}
	if len(list) > 3 {
		return nil, fmt.Errorf("%s: KernelSpecification.ProblemSize has %d dimensions, at most 3", name, len(list))
	}
	for a, p := range list {
		src := fmt.Sprint(p)
		e, err := parse(src, fmt.Sprintf("ProblemSize[%d]", a))
		if err != nil {
			return nil, err
		}
		l.problem[a] = e
	}
	return l, nil
}

// Shape returns the work-groups and the work-group size along each axis
// of the launch of the configuration env binds (see Space.Env).
func (l *Launch) Shape(env func(string) (Value, bool)) (groups, local [3]int64, err error) {
	withBlocks := func(name string) (Value, bool) {
		if v, ok := env(name); ok {
			return v, true
		}
		for _, b := range blockNames {
			if name == b {
				return IntValue(1), true
			}
		}
		return Value{}, false
	}
	integer := func(e *Expr, what string) (int64, error) {
		v, err := e.Eval(withBlocks)
		if err != nil {
			return 0, fmt.Errorf("%s %q: %w", what, e, err)
		}
		i, ok := v.Integer()
		if !ok || i < 1 {
			return 0, fmt.Errorf("%s %q is %s, not a positive integer", what, e, v)
		}
		return i, nil
	}
	for a := range 3 {
		local[a] = 1
		if e := l.local[a]; e != nil {
			if local[a], err = integer(e, "LocalSize."+axes[a]); err != nil {
				return
			}
		} else if v, ok := env(blockNames[a]); ok {
			if i, ok := v.Integer(); ok && i > 0 {
				local[a] = i
			}
		}
		problem := int64(1)
		if e := l.problem[a]; e != nil {
			if problem, err = integer(e, fmt.Sprintf("ProblemSize[%d]", a)); err != nil {
				return
			}
		}
		div := int64(1)
		divs := l.div[a]
		if divs == nil {
			if v, ok := env(blockNames[a]); ok {
				if i, ok := v.Integer(); ok && i > 0 {
					div = i
				}
			}
		}
		for _, e := range divs {
			d, err := integer(e, "GridDiv"+axes[a])
			if err != nil {
				return groups, local, err
			}
			p, ok := mul(div, d)
			if !ok {
				return groups, local, fmt.Errorf("GridDiv%s: the divisors' product overflows", axes[a])
			}
			div = p
		}
		groups[a] = (problem + div - 1) / div
	}
	return groups, local, nil
}
