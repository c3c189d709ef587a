package counts

import (
	"maps"
	"slices"
	"strings"
)

// finish resolves the collected statements into a Kernel: it applies the
// splits to the domains, attaches tags, classifies names into inames and
// parameters, checks declarations, resolves and types the instructions and
// builds the schedule.
func (b *builder) finish() (*Kernel, error) {
	if b.name.text == "" {
		return nil, errorf(b.file, Pos{}, "no 'kernel NAME' statement")
	}
	for _, name := range slices.Sorted(maps.Keys(b.overrides)) {
		if _, ok := b.constVals[name]; !ok {
			declared := make([]string, len(b.consts))
			for i, c := range b.consts {
				declared[i] = c.Name
			}
			return nil, errorf(b.file, Pos{}, "constant %s is overridden but not declared (the kernel declares %s)", name, listOrNone(declared))
		}
	}
	k := &Kernel{Name: b.name.text, File: b.file, Consts: b.consts, assume: b.assume,
		inameIndex: map[string]*Iname{}, arrayIndex: map[string]*Array{}}
	if k.assume == nil {
		k.assume = dnf{conj{}}
	}
	r := &resolver{b: b, k: k, expand: map[string]Affine{}, splitInto: map[string][2]string{}}
	steps := []func() error{r.domains, r.splits, r.tags, r.params, r.autoTags, r.arrays, r.statements, r.dataLoops, r.checkDeps, r.schedule, r.targetNames}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return k, nil
}

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

func (r *resolver) domains() error {
	r.inamePos = map[string]Pos{}
	for _, rd := range r.b.domains {
		d := &Domain{set: rd.set, pos: rd.pos}
		for _, t := range rd.inames {
			if p, dup := r.inamePos[t.text]; dup {
				return r.errf(t.pos, "iname %s is declared twice (first at %s)", t.text, p)
			}
			r.inamePos[t.text] = t.pos
			d.Inames = append(d.Inames, t.text)
		}
		r.k.Domains = append(r.k.Domains, d)
	}
	return nil
}

func (r *resolver) domainOf(name string) int {
	for i, d := range r.k.Domains {
		if slices.Contains(d.Inames, name) {
			return i
		}
	}
	return -1
}

// splits applies "split i f outer inner": i = f*outer + inner with
// 0 <= inner < f, in every domain and, later, in every subscript.
func (r *resolver) splits() error {
	for _, s := range r.b.splits {
		name := s.iname.text
		if parts, done := r.splitInto[name]; done {
			return r.errf(s.iname.pos, "iname %s was already split into %s and %s", name, parts[0], parts[1])
		}
		di := r.domainOf(name)
		if di < 0 {
			return r.errf(s.iname.pos, "split: %s is not an iname", name)
		}
		if s.outer == s.inner {
			return r.errf(s.iname.pos, "split: the two new inames need different names, not %s twice", s.outer)
		}
		for _, nn := range []string{s.outer, s.inner} {
			if r.nameInUse(nn) {
				return r.errf(s.iname.pos, "split: name %s is already in use", nn)
			}
		}
		e := Affine{Terms: []Term{{s.outer, s.factor}, {s.inner, 1}}}
		for _, d := range r.k.Domains {
			set, err := d.set.subst(name, e.qaff())
			if err != nil {
				return r.errf(s.iname.pos, "split: %v", err)
			}
			d.set = set
		}
		d := r.k.Domains[di]
		idx := slices.Index(d.Inames, name)
		d.Inames = slices.Replace(d.Inames, idx, idx+1, s.outer, s.inner)
		bounds := conj{
			{qname(s.inner), false},
			{qaff{terms: []lterm{{s.inner, -1}}, c: s.factor - 1}, false},
		}
		for i := range d.set {
			d.set[i] = append(bounds[:2:2], d.set[i]...)
		}
		for old, v := range r.expand {
			nv, err := v.subst(name, e)
			if err != nil {
				return r.errf(s.iname.pos, "split: %v", err)
			}
			r.expand[old] = nv
		}
		r.expand[name] = e
		r.splitInto[name] = [2]string{s.outer, s.inner}
		delete(r.inamePos, name)
		r.inamePos[s.outer], r.inamePos[s.inner] = s.iname.pos, s.iname.pos
	}
	for di, d := range r.k.Domains {
		for _, n := range d.Inames {
			in := &Iname{Name: n, Domain: di}
			r.k.Inames = append(r.k.Inames, in)
			r.k.inameIndex[n] = in
		}
	}
	return nil
}

// nameInUse reports whether a name already denotes an iname, a split-away
// iname or an array. A name that other domains mention without declaring
// it is free: it may be an iname that this split creates.
func (r *resolver) nameInUse(n string) bool {
	if _, ok := r.inamePos[n]; ok {
		return true
	}
	if _, ok := r.splitInto[n]; ok {
		return true
	}
	for _, a := range r.b.arrays {
		if a.name.text == n {
			return true
		}
	}
	return false
}

func (r *resolver) tags() error {
	tagged := map[string]Pos{}
	for _, t := range r.b.tags {
		in := r.k.inameIndex[t.iname.text]
		if in == nil {
			return r.unknownIname(t.iname.pos, t.iname.text, "tag")
		}
		if p, dup := tagged[in.Name]; dup {
			return r.errf(t.iname.pos, "iname %s is tagged twice (first at %s)", in.Name, p)
		}
		tagged[in.Name] = t.iname.pos
		if !t.auto {
			in.Tag = t.tag
		}
	}
	return nil
}

// params classifies every name of the domains, array shapes and
// assumptions that is not an iname as a size parameter.
func (r *resolver) params() error {
	r.isParam = map[string]bool{}
	add := func(n string) {
		if !r.isParam[n] {
			r.isParam[n] = true
			r.k.Params = append(r.k.Params, n)
		}
	}
	for di, d := range r.k.Domains {
		names := d.set.names()
		for _, p := range r.b.domains[di].params {
			if slices.Contains(d.Inames, p.text) || r.k.inameIndex[p.text] != nil || r.splitInto[p.text] != [2]string{} {
				return r.errf(p.pos, "%s is listed as a parameter but is an iname", p.text)
			}
		}
		names = orderFirst(names, r.b.domains[di].params)
		for _, n := range names {
			if !slices.Contains(d.Inames, n) {
				d.Outer = append(d.Outer, n)
				if r.k.inameIndex[n] == nil {
					if parts, ok := r.splitInto[n]; ok {
						return r.errf(d.pos, "domain mentions iname %s, which was split into %s and %s", n, parts[0], parts[1])
					}
					add(n)
				}
			}
		}
	}
	for _, a := range r.b.arrays {
		for i, q := range a.shape {
			for _, n := range shapeNames(q) {
				if r.k.inameIndex[n] != nil || r.splitInto[n] != [2]string{} {
					return r.errf(a.shapePos[i], "array %s: shape depends on iname %s; shapes may use parameters only: declare the extent the host allocates in parameters and constants (array %s f32 [n]), and bound %s in its domain", a.name.text, n, a.name.text, n)
				}
				add(n)
			}
		}
	}
	for _, n := range r.k.assume.names() {
		if r.k.inameIndex[n] != nil || r.splitInto[n] != [2]string{} {
			return r.errf(r.b.assumePos[0], "assumptions mention iname %s; they may constrain parameters only: bound %s in its domain instead (domain [n] -> { [%s] : 0 <= %s < n and ... })", n, n, n, n)
		}
		add(n)
	}
	return nil
}

// shapeNames returns the names an extent mentions, the factors of its
// products included.
func shapeNames(q qaff) []string {
	var out []string
	for _, m := range q.names(nil) {
		for _, n := range strings.Split(m, "*") {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// orderFirst moves the declared names to the front, in declared order.
func orderFirst(names []string, declared []token) []string {
	out := make([]string, 0, len(names))
	for _, d := range declared {
		out = append(out, d.text)
	}
	for _, n := range names {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

func (r *resolver) arrays() error {
	for _, ra := range r.b.arrays {
		name := ra.name.text
		switch {
		case r.k.arrayIndex[name] != nil:
			return r.errf(ra.name.pos, "%s is declared twice (first at %s)", name, r.k.arrayIndex[name].Pos)
		case (r.k.inameIndex[name] != nil || r.splitInto[name] != [2]string{}) && !r.b.isDataLoop(name):
			return r.errf(ra.name.pos, "%s is an iname and cannot also name an array", name)
		case r.isParam[name]:
			return r.errf(ra.name.pos, "%s is a parameter and cannot also name an array", name)
		}
		a := &Array{Name: name, DType: ra.dtype, Space: ra.space, ColMajor: ra.colMajor, ReadOnly: ra.readOnly, Pos: ra.name.pos}
		if ra.space == Argument {
			v, err := r.scalarValue(ra)
			if err != nil {
				return err
			}
			a.Value = v
		}
		for i, q := range ra.shape {
			if len(q.floors) > 0 {
				return r.errf(ra.shapePos[i], "array %s: the extent %s takes floor, ceil or mod of a parameter, and a shape is affine in the parameters: %s", name, q, parameterExtent(name))
			}
			if ra.space != Global && !q.isConst() {
				return r.errf(ra.shapePos[i], "%s array %s: shape must be constant, not %s: %s memory is sized when the kernel is compiled, so give the extent with a const (const LX = 256, then %s %s f32 [LX])", ra.space, name, q, ra.space, ra.space, name)
			}
			if q.isConst() && q.c <= 0 {
				return r.errf(ra.shapePos[i], "array %s: extent %d is not positive", name, q.c)
			}
			a.Shape = append(a.Shape, affineOf(q))
		}
		r.k.Arrays = append(r.k.Arrays, a)
		r.k.arrayIndex[name] = a
	}
	return nil
}

func (r *resolver) checkDeps() error {
	seen := map[string]bool{}
	ids := map[string]bool{}
	for _, s := range r.k.Statements {
		ids[s.StatementID()] = true
	}
	for i, s := range r.k.Statements {
		deps, pos := statementDeps(s)
		for _, d := range deps {
			switch {
			case !ids[d]:
				return r.errf(pos, "dep=%s: no statement has that id", d)
			case !seen[d]:
				return r.errf(pos, "dep=%s: that statement does not come earlier; statements run in textual order", d)
			}
		}
		seen[r.k.Statements[i].StatementID()] = true
	}
	return nil
}

func statementDeps(s Statement) ([]string, Pos) {
	switch s := s.(type) {
	case *Instruction:
		return s.Deps, s.Pos
	case *Barrier:
		return s.Deps, s.Pos
	}
	return nil, Pos{}
}
