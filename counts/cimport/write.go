package cimport

import (
	"bytes"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
)

// write prints the .knl: a header saying where every size came from,
// the declarations, and the statements.
func (t *translator) write(file string) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Imported by uniperf import from %s, kernel %s.\n", filepath.Base(file), t.k.name)
	for _, n := range t.notes {
		fmt.Fprintf(&b, "# %s\n", n)
	}
	for _, w := range t.warnings {
		fmt.Fprintf(&b, "# warning: %s\n", w)
	}
	var sizes, values []string
	for _, ax := range t.axes {
		sizes = append(sizes, ax.size.String())
		v, _ := t.value(ax.size)
		values = append(values, fmt.Sprint(v))
	}
	if len(t.opts.tunables) > 0 && !slices.Equal(sizes, values) {
		sizes[len(sizes)-1] += " (" + strings.Join(values, " x ") + ")"
	}
	fmt.Fprintf(&b, "# work-group size %s: --local, from %s\n", strings.Join(sizes, " x "), t.axes[0].sizeSource)
	for a, ax := range t.axes {
		src := ax.boundSource
		if src == "" {
			src = "as many as the kernel's guard needs (no --global or --groups given)"
		}
		fmt.Fprintf(&b, "# work-groups along axis %d: %s\n", a, src)
	}
	for _, a := range t.arrays {
		if a.space == "global" {
			src := a.source
			if why, ok := a.readonly(); ok {
				src += "; readonly: " + why
			}
			fmt.Fprintf(&b, "# array %s: %s\n", a.name, src)
		}
	}
	assumed := t.positiveSizes()
	if len(assumed) > 0 {
		fmt.Fprintf(&b, "# assumed: %s >= 1 (factors of the arrays' extents)\n", strings.Join(assumed, ", "))
	}
	for _, n := range slices.Sorted(maps.Keys(t.opts.tunables)) {
		fmt.Fprintf(&b, "const %s = %d\n", n, t.opts.tunables[n])
	}
	name := t.k.name
	if unusable(name) {
		// CUDA allows a kernel named kernel or pipe, words of .knl or of
		// OpenCL C: the .knl's kernel takes another name.
		name = t.unique(name)
		fmt.Fprintf(&b, "# kernel %s: named %s here, %s being a word of .knl or of the C generated from it\n", t.k.name, name, t.k.name)
	}
	fmt.Fprintf(&b, "kernel %s\n", name)
	fmt.Fprintf(&b, "domain [%s] -> { [%s] : %s }\n", strings.Join(t.params, ", "), strings.Join(t.launchInames(), ", "), t.constraints(t.launchConstraints(), true))
	if len(assumed) > 0 {
		fmt.Fprintf(&b, "assume %s >= 1\n", strings.Join(assumed, ", "))
	}
	if len(t.assumed) > 0 {
		fmt.Fprintf(&b, "assume %s\n", t.constraints(t.assumed, true))
	}
	for _, d := range t.loops {
		fmt.Fprintf(&b, "domain %s\n", d)
	}
	for _, s := range t.scalars {
		fmt.Fprintf(&b, "scalar %s\n", s)
	}
	for _, a := range append(t.arrays, t.privs...) {
		var dims []string
		for _, d := range a.dims {
			dims = append(dims, d.String())
		}
		shape := ""
		if len(dims) > 0 {
			shape = " [" + strings.Join(dims, ", ") + "]"
		}
		kw := map[string]string{"global": "array", "local": "local", "private": "private"}[a.space]
		if _, ok := a.readonly(); ok {
			shape += " readonly"
		}
		fmt.Fprintf(&b, "%s %s %s%s\n", kw, a.name, a.dtype, shape)
	}
	var tags []string
	for a, ax := range t.axes {
		if ax.named != "" {
			fmt.Fprintf(&b, "split %s %s %s %s\n", ax.named, sizeText(ax.size), ax.group, ax.local)
		}
		if ax.split != nil {
			tags = append(tags, fmt.Sprintf("%s l.%d, %s l.%d, %s g.%d", ax.lane, a, ax.run, ax.runAxis, ax.group, a))
			continue
		}
		tags = append(tags, fmt.Sprintf("%s l.%d, %s g.%d", ax.local, a, ax.group, a))
	}
	b.WriteString(t.splitLines())
	tags = append(tags, t.downTags()...)
	fmt.Fprintf(&b, "tag %s\n", strings.Join(tags, ", "))
	t.writeItems(&b, t.root, 0)
	if len(t.lateLoops) > 0 {
		fmt.Fprintf(&b, "# the loops inside data-bounded loops: loops nest in the order of their domains\n")
	}
	for _, d := range t.lateLoops {
		fmt.Fprintf(&b, "domain %s\n", d)
	}
	return b.Bytes(), nil
}

func (t *translator) writeItems(b *bytes.Buffer, items []*item, depth int) {
	ind := strings.Repeat("  ", depth)
	for _, it := range items {
		switch it.kind {
		case "instr":
			fmt.Fprintf(b, "%s%s%s\n", ind, it.text, t.launchAnnotation(it))
		case "barrier":
			fmt.Fprintf(b, "%sbarrier\n", ind)
		case "for", "datafor":
			head := it.iname
			if it.kind == "datafor" {
				head = it.text
				t.dataDepth++
			}
			fmt.Fprintf(b, "%sfor %s\n", ind, head)
			t.writeItems(b, it.body, depth+1)
			if it.kind == "datafor" {
				t.dataDepth--
			}
			fmt.Fprintf(b, "%send\n", ind)
		case "if":
			fmt.Fprintf(b, "%sif %s\n", ind, it.c.format(t.instrAff))
			t.writeItems(b, it.body, depth+1)
			if len(it.els) > 0 {
				fmt.Fprintf(b, "%selse\n", ind)
				t.writeItems(b, it.els, depth+1)
			}
			fmt.Fprintf(b, "%send\n", ind)
		}
	}
}

// launchInames lists the inames of the launch's domain: its axes' (an
// axis's global index is split afterwards), then the data inames.
func (t *translator) launchInames() []string {
	return append(t.axisInames(), t.dataInames...)
}

// axisInames lists the inames of the launch's axes: an axis's global
// index where a C variable names it, its group and work-item indices
// otherwise.
func (t *translator) axisInames() []string {
	var out []string
	for _, ax := range t.axes {
		if ax.named != "" {
			out = append(out, ax.named)
		} else {
			out = append(out, ax.group, ax.local)
		}
	}
	return out
}

// launchConstraints are the launch's box and the hoisted guard: of the
// box, the indices' lower bounds and what the guard does not imply (a
// named axis's bound that it does not imply is the rounded grid,
// roundedGrid). The lower bounds always stay: implied takes the indices
// as not negative, so it cannot decide that they are.
func (t *translator) launchConstraints() []*cond {
	var box, rounded []*cond
	lower := map[*cond]bool{}
	ge := func(e aff) *cond { return &cond{op: "cmp", rel: ">=", e: e} }
	geLower := func(e aff) *cond {
		c := ge(e)
		lower[c] = true
		return c
	}
	for _, ax := range t.axes {
		if ax.named != "" {
			// The split bounds the work-item index; the group index is
			// not negative where the global index is not.
			box = append(box, geLower(aff{ax.group: ax.size, ax.local: constPoly(1)}))
		} else {
			last, _ := ax.size.add(constPoly(1), -1)
			box = append(box, geLower(affIname(ax.local)), ge(aff{ax.local: constPoly(-1), "": last}), geLower(affIname(ax.group)))
		}
		if ax.bound == nil {
			continue
		}
		if text, ok := t.roundedGrid(ax, ax.named); ax.named != "" && !t.implied(ax.bound) && ok {
			rounded = append(rounded, &cond{op: "data", text: text})
		} else {
			box = append(box, ax.bound)
		}
	}
	var out []*cond
	for _, c := range box {
		if lower[c] || !t.implied(c) {
			out = append(out, c)
		}
	}
	return append(append(append(out, rounded...), t.hoisted...), t.dataBounds...)
}

// implied reports whether a hoisted constraint h, alone or with one of
// --assume's comparisons a, implies c: c - h (or c - h - a) has
// non-negative constant coefficients on the launch's indices (which are
// not negative) and a non-negative constant part.
func (t *translator) implied(c *cond) bool {
	ges := []*cond{{op: "cmp", rel: ">=", e: aff{}}}
	for _, a := range t.assumed {
		if a.op == "cmp" && a.rel == ">=" {
			ges = append(ges, a)
		}
	}
	for _, h := range t.hoisted {
		if h.rel != ">=" {
			continue
		}
		for _, a := range ges {
			d, ok := c.e.add(h.e, -1)
			if ok {
				d, ok = d.add(a.e, -1)
			}
			if ok && t.nonNegative(d) {
				return true
			}
		}
	}
	return false
}

// nonNegative reports whether d has non-negative constant coefficients
// on the launch's indices and a non-negative constant part.
func (t *translator) nonNegative(d aff) bool {
	for k, p := range d {
		s, known := t.sign(p)
		if !known || s < 0 || k != "" && !t.isLaunchIname(k) {
			return false
		}
	}
	return true
}

func (t *translator) isLaunchIname(name string) bool {
	for _, ax := range t.axes {
		if name == ax.group || name == ax.local || ax.split != nil && (name == ax.lane || name == ax.run) {
			return true
		}
	}
	return false
}

// positiveSizes lists the size parameters that are factors of a global
// array's extent, a product with a positive coefficient (a [n*m]): an
// array has elements, so they are at least 1, which the counts of
// flattened subscripts need to split them into dimensions (a[i*m] with
// no other term is a[i, 0] only where m >= 1).
func (t *translator) positiveSizes() []string {
	seen := map[string]bool{}
	for _, a := range t.arrays {
		if a.space != "global" || len(a.dims) != 1 || len(a.dims[0]) != 1 {
			continue
		}
		for m, c := range a.dims[0] {
			if c <= 0 || m == "" {
				continue
			}
			for _, f := range strings.Split(m, "*") {
				seen[f] = !t.isTunable(f)
			}
		}
	}
	var out []string
	for _, p := range t.params {
		if seen[p] {
			out = append(out, p)
		}
	}
	return out
}

// launchAnnotation is " {inames=...}" for an instruction under a hoisted
// guard that names no index of the launch (v_2 = v - 1.0f of an inlined
// function, t += val[j]*vec[col] of a private loop): without it, the
// .knl would run it for every work-item launched, not only those inside
// the guard, which the domain holds. An instruction that sets a
// private scalar to a literal counts nothing and needs none, but inside
// a data-bounded loop every instruction runs where the loop's bounds
// were set, on the launch's work-items, which the annotation says.
func (t *translator) launchAnnotation(it *item) string {
	if t.dataDepth == 0 && (len(t.hoisted) == 0 || it.free) {
		return ""
	}
	text := it.text
	names := t.axisInames()
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !isIdentChar(byte(r)) || r > 127 }) {
		words[w] = true
	}
	for _, ax := range t.axes {
		for _, n := range []string{ax.named, ax.group, ax.local, ax.lane, ax.run} {
			if n != "" && words[n] {
				return ""
			}
		}
	}
	return " {inames=" + strings.Join(names, ":") + "}"
}
