package cimport

import "fmt"

// shiftRight translates x >> C of an affine x that d = 2^C does not
// divide. An arithmetic shift rounds towards minus infinity, as .knl's
// // does (C's / rounds towards zero, so / of an index is refused where
// it does not divide): a warp's index threadIdx.x >> 5 is the run of
// the split work-item index where the split applies (lanes.go), counted
// once where C computes it. Elsewhere it is data, x // d; where x reads
// a work-item index, a private holds it, set where C computes it: a
// floor of the l.0 index in a global array's subscript has no one
// stride between work-items, which the counts refuse, while a subscript
// read from a private is an indirect access, which they count.
func (t *translator) shiftRight(e *expr, x aff, d int64) (*value, error) {
	v, hint, err := t.lane(e, x, d, ">>")
	if err != nil || v != nil {
		return v, err
	}
	text := t.instrAff(x)
	text = paren(text, affPrec(text), precMul) + " // " + formatInt(d)
	if t.inFlag || !t.readsWorkItem(x) {
		return &value{kind: vData, text: text, prec: precMul, dtype: "i32"}, nil
	}
	key := priced{e, t.steps}
	name, ok := t.shifted[key]
	if !ok {
		name = t.private("shifted", "i32")
		t.shifted[key] = name
		t.emit(&item{kind: "instr", text: name + " = " + text, p: e.p})
		why := "it is no work-item index plus group indices times multiples of " + formatInt(d)
		if hint != "" {
			why = hint
		}
		t.notes = append(t.notes, fmt.Sprintf(">> at line %d:%d is data, %s = %s, not a run of the work-item index (%s): a subscript it stands in is an indirect access", e.p.line, e.p.col, name, text, why))
	}
	return &value{kind: vData, text: name, prec: precAtom, dtype: "i32"}, nil
}

// readsWorkItem reports whether x reads a work-item index: an axis's
// local index, its lane or run, or the global index a C variable names.
func (t *translator) readsWorkItem(x aff) bool {
	for _, ax := range t.axes {
		for _, n := range []string{ax.local, ax.lane, ax.run, ax.named} {
			if _, ok := x[n]; ok && n != "" {
				return true
			}
		}
	}
	return false
}
