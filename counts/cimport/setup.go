package cimport

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// translate sets up the kernel's parameters, arrays and launch axes and
// translates its body; names gives, by axis, the C variable that names
// its global index (nil in the first pass).
func translate(k *kernelFunc, cuda bool, opts Options, from map[string]string, macros map[string]*macro, names []string) (*translator, error) {
	k, err := lowerAggregates(k)
	if err != nil {
		return nil, err
	}
	t := &translator{k: k, cuda: cuda, used: map[string]bool{}, assigned: map[string]bool{}, naming: names != nil,
		scopes: []map[string]*variable{{}}, opts: opts, macros: macros, tripped: map[string]bool{}, priced: map[priced]bool{}, shifted: map[priced]string{}}
	t.cur = &t.root
	t.callDevice = t.inline
	t.dataLoop = t.loopOverData
	t.lane, t.shift = t.laneOf, t.shiftRight
	t.holdingIf, t.assumeHint = t.ifHolding, t.holdsUnder
	for n := range opts.tunables {
		t.used[n] = true
		t.declare(n, &variable{kind: "int", val: affConst(poly{n: 1})})
	}
	if err := t.setParams(opts); err != nil {
		return nil, err
	}
	if err := t.flagParams(); err != nil {
		return nil, err
	}
	if err := t.setAxes(opts, from, macros, names); err != nil {
		return nil, err
	}
	t.setSplits(opts.splits)
	if err := t.setArrays(opts, from, macros); err != nil {
		return nil, err
	}
	if err := t.setConstants(opts, from, macros); err != nil {
		return nil, err
	}
	if err := t.setAssumed(opts, from, macros); err != nil {
		return nil, err
	}
	if err := t.setGridBounds(); err != nil {
		return nil, err
	}
	t.notes = append(t.notes, defineNotes(k, opts)...)
	slices.Sort(t.notes)
	if err := t.block(k.body.body); err != nil {
		return nil, err
	}
	for _, n := range slices.Sorted(maps.Keys(opts.Trips)) {
		if !t.tripped[n] {
			return nil, &Error{Msg: fmt.Sprintf("--trips %s=%s: the kernel has no for loop over %s", n, opts.Trips[n], n)}
		}
	}
	t.hoist()
	if err := t.checkGrid(k.p); err != nil {
		return nil, err
	}
	t.checkLaunch()
	return t, nil
}

// defineNotes says what each -D became: a scalar argument's value, a
// const, a literal (and why not a const), or a bound integer argument.
func defineNotes(k *kernelFunc, opts Options) []string {
	var notes []string
	for n, v := range opts.bound {
		notes = append(notes, fmt.Sprintf("argument %s = %s (-D): the scalar argument's value", n, v))
	}
	for n, v := range opts.Defines {
		_, tunable := opts.tunables[n]
		why, baked := opts.baked[n]
		switch {
		case tunable:
			notes = append(notes, fmt.Sprintf("-D %s=%s: const %s (--const %s=V varies it)", n, v, n, n))
		case baked:
			notes = append(notes, fmt.Sprintf("-D %s=%s: a literal, not a const: %s", n, v, why))
		case slices.ContainsFunc(k.params, func(p param) bool { return p.name == n && p.value != nil }):
			notes = append(notes, fmt.Sprintf("argument %s = %s (-D)", n, v))
		default:
			notes = append(notes, fmt.Sprintf("-D %s=%s", n, v))
		}
	}
	return notes
}

// setParams declares the kernel's arguments: integers are size
// parameters, floating-point values scalar arguments, pointers global
// (or OpenCL __local) arrays.
func (t *translator) setParams(opts Options) error {
	var floats []param
	for _, p := range t.k.params {
		if p.value != nil {
			continue
		}
		if p.typ.ptr > 1 {
			return errorAt(p.p, "argument %s: a pointer to pointers is not understood; pass a flat array", p.name)
		}
		dtype, err := elemType(p.typ, p.p, "argument "+p.name)
		if err != nil {
			return err
		}
		if p.typ.ptr == 0 {
			if dtype == "f16" {
				return errorAt(p.p, "argument %s: a __half argument; pass a float (%s)", p.name, halfArithmetic)
			}
			if dtype == "f32" || dtype == "f64" {
				floats = append(floats, p)
				continue
			}
			if unusable(p.name) {
				// A size keeps its name, which count and predict take.
				return errorAt(p.p, "argument %s is a word of .knl or of the C generated from it (or a name C reserves); rename it", p.name)
			}
			t.used[p.name] = true
			t.params = append(t.params, p.name)
			t.declare(p.name, &variable{kind: "int", val: affConst(poly{p.name: 1})})
		}
	}
	// Scalars are named after the size parameters, whose names are
	// kept, so that a renamed scalar (sum_2) takes no parameter's name.
	for _, p := range floats {
		dtype, _ := elemType(p.typ, p.p, p.name)
		name := t.unique(p.name)
		decl := name + " " + dtype
		if v, ok := t.opts.bound[p.name]; ok {
			decl += " = " + v
		}
		t.scalars = append(t.scalars, decl)
		t.declare(p.name, &variable{kind: "scalar", name: name, dtype: dtype})
	}
	return nil
}

// setConstants declares the file's __constant__ arrays that the kernel
// reads as global arrays (as the hand ports do: constant memory is
// counted as global loads), with their declared extents or --array's.
func (t *translator) setConstants(opts Options, from map[string]string, macros map[string]*macro) error {
	for _, d := range t.k.constants {
		if !usesName(t.k.body, d.name) || t.lookup(d.name) != nil {
			continue
		}
		dtype, err := elemType(d.typ, d.p, d.name)
		if err != nil {
			return err
		}
		a := &array{name: t.unique(d.name), cname: d.name, dtype: dtype, space: "global", p: d.p,
			source: fmt.Sprintf("its __constant__ declaration at line %d", d.p.line)}
		size := constPoly(1)
		for _, e := range d.dims {
			if e == nil {
				return errorAt(d.p, "%s: a __constant__ array without a size; give its size", d.name)
			}
			v, err := t.eval(e)
			if err != nil {
				return err
			}
			c, ok := v.a.poly()
			if k, isConst := c.constant(); v.kind != vInt || !ok || !isConst || k < 1 {
				return errorAt(e.p, "%s: its size must be a positive constant", d.name)
			}
			if size, ok = size.mul(c); !ok {
				return errorAt(e.p, "%s: its size overflows", d.name)
			}
		}
		if ext, ok := opts.Arrays[d.name]; ok {
			v, err := t.arrayExtent(d.name, ext, macros)
			if err != nil {
				return err
			}
			size, a.source = v, fmt.Sprintf("--array %s=%s, from %s", d.name, ext, from["array "+d.name])
		}
		if n := len(d.typ.fields); n > 0 {
			var ok bool
			if size, ok = size.mul(constPoly(int64(n))); !ok {
				return errorOverflow("--array " + d.name)
			}
			a.source += fmt.Sprintf(", %d %ss an element (%s)", n, d.typ.base, strings.Join(d.typ.fields, ", "))
		}
		a.dims = []poly{size}
		t.arrays = append(t.arrays, a)
		t.declare(d.name, &variable{kind: "array", name: a.name, dtype: dtype})
	}
	return nil
}

// usesName reports whether a statement reads or writes the name.
func usesName(s *stmt, name string) bool {
	return stmtHas(s, func(e *expr) bool { return e.op == "id" && e.text == name })
}

// setArrays declares the pointer arguments with the extents of --array.
func (t *translator) setArrays(opts Options, from map[string]string, macros map[string]*macro) error {
	for _, p := range t.k.params {
		if p.value != nil || p.typ.ptr != 1 {
			continue
		}
		dtype, _ := elemType(p.typ, p.p, p.name)
		a := &array{name: t.unique(p.name), cname: p.name, dtype: dtype, space: "global", p: p.p, constRestrict: p.typ.cnst && p.typ.restrict}
		if strings.Contains(p.typ.space, "local") {
			a.space = "local"
		}
		ext, ok := opts.Arrays[p.name]
		if !ok {
			return errorAt(p.p, "the extent of array %s is not in the source: give --array %s=EXTENT (its number of elements, in the integer arguments: --array %s=n*n) or a comment // uniperf: --array %s=EXTENT", p.name, p.name, p.name, p.name)
		}
		v, err := t.arrayExtent(p.name, ext, macros)
		if err != nil {
			return err
		}
		if a.space == "local" {
			if _, ok := t.positive(v); !ok {
				return &Error{Msg: fmt.Sprintf("--array %s=%s: a local array's extent must be a positive constant", p.name, ext)}
			}
		}
		a.source = fmt.Sprintf("--array %s=%s, from %s", p.name, ext, from["array "+p.name])
		if n := len(p.typ.fields); n > 0 {
			if v, ok = v.mul(constPoly(int64(n))); !ok {
				return errorOverflow("--array " + p.name)
			}
			a.source += fmt.Sprintf(", %d %ss an element (%s)", n, p.typ.base, strings.Join(p.typ.fields, ", "))
		}
		a.dims = []poly{v}
		t.arrays = append(t.arrays, a)
		t.declare(p.name, &variable{kind: "array", name: a.name, dtype: dtype})
	}
	return nil
}

// arrayExtent evaluates --array NAME=EXT. A constant extent below 1 is
// refused here, as the flag's fault: the .knl would refuse the array,
// which would read as the importer's.
func (t *translator) arrayExtent(name, ext string, macros map[string]*macro) (poly, error) {
	v, err := t.flagValue(ext, macros, "--array "+name)
	if err != nil {
		return nil, err
	}
	if c, ok := v.constant(); ok && c < 1 {
		return nil, &Error{Msg: fmt.Sprintf("--array %s=%s: an extent must be positive (the number of elements the host allocates), not %d", name, ext, c)}
	}
	return v, nil
}

// setAxes sets up the launch's axes from --local and --global or
// --groups.
func (t *translator) setAxes(opts Options, from map[string]string, macros map[string]*macro, names []string) error {
	if len(opts.Local) == 0 {
		return errorAt(t.k.p, "kernel %s: the work-group size is not in the source; give --local X[,Y[,Z]] (blockDim, or the local work size) or a comment // uniperf: --local X[,Y[,Z]]", t.k.name)
	}
	if len(opts.Global) > 0 && len(opts.Groups) > 0 {
		return &Error{Msg: "give --global or --groups, not both"}
	}
	gnames, lnames := []string{"g0", "g1", "g2"}, []string{"l0", "l1", "l2"}
	if t.cuda {
		gnames, lnames = []string{"bx", "by", "bz"}, []string{"tx", "ty", "tz"}
	}
	for a, text := range opts.Local {
		v, err := t.flagValue(text, macros, "--local")
		if err != nil {
			return err
		}
		if size, ok := t.positive(v); !ok || size > 1<<16 {
			return &Error{Msg: fmt.Sprintf("--local %s: want a positive constant size up to 65536", text)}
		}
		ax := &axis{size: v, sizeSource: from["local"]}
		if a < len(names) && names[a] != "" {
			ax.named = t.unique(names[a])
			t.used[ax.named+"_out"], t.used[ax.named+"_in"] = true, true
			ax.group, ax.local = ax.named+"_out", ax.named+"_in"
		} else {
			ax.group, ax.local = t.unique(gnames[a]), t.unique(lnames[a])
		}
		t.axes = append(t.axes, ax)
	}
	list, flag := opts.Global, "--global"
	if len(opts.Groups) > 0 {
		list, flag = opts.Groups, "--groups"
	}
	if len(list) > len(t.axes) {
		return &Error{Msg: fmt.Sprintf("%s has %d axes, --local %d", flag, len(list), len(t.axes))}
	}
	for a, text := range list {
		ax := t.axes[a]
		var n, den poly
		var c int64
		var err error
		if flag == "--groups" {
			n, den, c, err = t.groupsValue(text, macros)
		} else {
			den = ax.size
			n, err = t.flagValue(text, macros, flag)
		}
		if err != nil {
			return err
		}
		if k, ok := n.constant(); ok && (flag == "--global" || den.equal(constPoly(1))) && k+c <= 0 {
			return &Error{Msg: fmt.Sprintf("%s %s: axis %d launches no work-item; give the host's grid (at least 1)", flag, text, a)}
		}
		ax.launch = &launchSize{flag: flag, text: text, n: n, den: den, c: c}
		var ok bool
		if flag == "--groups" && den.equal(constPoly(1)) {
			if ax.groups, ok = n.add(constPoly(c), 1); !ok {
				return errorOverflow(flag)
			}
		}
		ax.boundSource = fmt.Sprintf("%s %s, from %s", flag, text, from[strings.TrimPrefix(flag, "--")])
	}
	return nil
}

// setAssumed reads --assume: conditions on the integer arguments that
// the host guarantees and C does not say (Rodinia's gaussian launches
// Fan1 for t from 0 to Size - 2). The .knl states them as assume lines,
// under which the counts split flattened subscripts (an index of a row
// stays inside it), and a guard that implies the grid's bound under them
// lets the axis keep its C variable's name.
func (t *translator) setAssumed(opts Options, from map[string]string, macros map[string]*macro) error {
	for _, text := range opts.Assume {
		flag := "--assume " + text
		bad := &Error{Msg: flag + ": want comparisons (<, <=, ==, >=, >) and x % c == 0 (c a positive constant), linear in the kernel's integer arguments and joined by &&"}
		e, err := t.flagExpr(text, macros, "--assume")
		if err != nil {
			return err
		}
		t.inFlag = true
		c, err := t.condition(e)
		t.inFlag = false
		if err != nil {
			return &Error{Msg: fmt.Sprintf("%s: %s (it may use the kernel's integer arguments and the source's macros)", flag, err.(*Error).Msg)}
		}
		conj, ok := assumable(c)
		if !ok {
			return bad
		}
		t.assumed = append(t.assumed, conj...)
		t.notes = append(t.notes, fmt.Sprintf("assumed: %s: --assume, from %s", text, from["assume "+text]))
	}
	return nil
}

// assumable returns the comparisons of c where c is a conjunction of
// comparisons >= and == and of x % c == 0, linear in the parameters
// (an assume line of .knl is a Presburger condition).
func assumable(c *cond) ([]*cond, bool) {
	switch c.op {
	case "and":
		a, ok1 := assumable(c.args[0])
		b, ok2 := assumable(c.args[1])
		return append(a, b...), ok1 && ok2
	case "cmp", "mod":
		ok := c.rel == ">=" || c.rel == "=="
		for k, p := range c.e {
			ok = ok && k == ""
			for m := range p {
				ok = ok && !strings.Contains(m, "*")
			}
		}
		return []*cond{c}, ok
	}
	return nil, false
}

// hoist moves the affine guard around the whole body into the launch
// domain, as a hand port writes it: the work-items outside it do
// nothing, and the domain leaves them out.
//
// Instructions before the guard that set private scalars to literals
// (float c11 = 0.2f;) count nothing, so they move inside it.
func (t *translator) hoist() {
	for {
		n := 0
		for n < len(t.root) && t.root[n].free {
			n++
		}
		if n != len(t.root)-1 {
			return
		}
		g := t.root[n]
		if g.kind != "if" || g.els != nil || !g.c.affine() {
			return
		}
		conj, ok := g.c.conjunction()
		if !ok || !t.constantCoefficients(conj) {
			return
		}
		if len(t.hoisted) == 0 {
			t.guardAt = g.p
		}
		t.hoisted = append(t.hoisted, conj...)
		t.root = append(t.root[:n:n], g.body...)
	}
}

// checkGrid makes sure that the number of groups along each axis is
// bounded: by --global or --groups, or by the hoisted guard.
func (t *translator) checkGrid(p pos) error {
	for a, ax := range t.axes {
		if ax.bound != nil {
			continue
		}
		bounded := slices.ContainsFunc(t.hoisted, func(c *cond) bool {
			s, ok := t.sign(c.e[ax.group])
			return ok && (s < 0 || s > 0 && c.rel == "==")
		})
		if !bounded {
			return errorAt(p, "the number of work-groups along axis %d is not in the source: give --global (the work-items launched, as the host's global work size) or --groups (gridDim), or a comment // uniperf: --groups ...", a)
		}
	}
	return nil
}

// axisNames returns, by axis, the C variable declared at the top level
// to hold the axis's global index (L*group + local) and never assigned
// again, where the axis's domain can be written in it. Where no variable
// holds it but the hoisted guard bounds it (Fan1's
// if (threadIdx.x + blockIdx.x*blockDim.x >= Size - 1 - t) return;), the
// axis is named x, y or z (gid0, gid1 or gid2 in OpenCL C), as a hand
// port names it: the domain then bounds one iname, whose footprints
// count where those of L*group + local in two leave a floor of a floor.
func (t *translator) axisNames() []string {
	names := make([]string, len(t.axes))
	for a, ax := range t.axes {
		if ax.split != nil {
			// A split work-item index keeps the group index and the
			// work-item index of the launch's domain.
			continue
		}
		// A bound of the flags that the guard does not imply would have
		// to be written floor(i/L) in the domain, which the split cannot
		// bound: such an axis keeps its group and work-item inames, but
		// where get_global_id names it and the rounded grid can be
		// written in it (roundedGrid).
		covered := ax.bound == nil || t.implied(ax.bound)
		if _, ok := t.roundedGrid(ax, "v"); !covered && !ok {
			continue
		}
		want := aff{ax.group: ax.size, ax.local: constPoly(1)}
		for _, c := range t.candidates {
			if !t.assigned[c.name] && c.val.equal(want) && !slices.Contains(names, c.name) && (covered || c.launchIndex) {
				names[a] = c.name
				break
			}
		}
		if names[a] == "" && covered && t.guardBounds(ax) {
			names[a] = []string{"gid0", "gid1", "gid2"}[a]
			if t.cuda {
				names[a] = []string{"x", "y", "z"}[a]
			}
		}
	}
	return names
}

// guardBounds reports whether a comparison of the hoisted guard bounds
// the axis's global index, L*group + local times a constant.
func (t *translator) guardBounds(ax *axis) bool {
	return slices.ContainsFunc(t.hoisted, func(h *cond) bool {
		l, ok := h.e[ax.local].constant()
		if !ok || l == 0 || h.op != "cmp" {
			return false
		}
		g, ok := ax.size.mul(constPoly(l))
		return ok && h.e[ax.group].equal(g)
	})
}
