package cimport

// A pointer into an array, uint *s_WarpHist = s_Hist + (threadIdx.x >>
// 5)*256 (cuda-samples' per-warp sub-histograms), or a device
// function's pointer parameter bound to one, is the array and an
// offset computed where the pointer is set: p[i], *(p + i) and an
// atomic on p + d are the array's elements at offset + i.

// pointer resolves e as a pointer: an array, a pointer variable, either
// plus integers, or &a[i] of a one-dimensional array. ok is false where
// e is none of these.
func (t *translator) pointer(e *expr) (*variable, bool, error) {
	base, subs := e, []*expr(nil)
	switch {
	case e.op == "binary" && e.text == "+":
		base, subs = t.pointerSum(e)
	case e.op == "unary" && e.text == "&" && e.args[0].op == "index" && e.args[0].args[0].op == "id":
		base, subs = e.args[0].args[0], []*expr{e.args[0].args[1]}
	}
	if !t.isArray(base) {
		return nil, false, nil
	}
	v := t.lookup(base.text)
	if len(subs) == 0 {
		return v, true, nil
	}
	arr := v
	off := &value{kind: vInt, a: aff{}}
	if v.kind == "ptr" {
		arr, off = v.base, v.off
	}
	if a := t.arrayNamed(arr.name); len(a.dims) > 1 {
		return nil, false, errorAt(e.p, "a pointer into %s, which has %d dimensions: index the array itself", base.text, len(a.dims))
	}
	val, err := t.eval(offset(off, subs[0]))
	if err != nil {
		return nil, true, err
	}
	if val.kind == vCond || val.kind == vData && !isIntType(val.dtype) {
		return nil, true, errorAt(e.p, "the offset of a pointer into %s is not an integer; convert it with (int)(...), which truncates", base.text)
	}
	return &variable{kind: "ptr", base: arr, off: val, name: arr.name, dtype: arr.dtype, scope: -1}, true, nil
}

// advance moves the pointer v by p += off or p -= off (cuda-samples'
// d_Src += baseY*pitch + baseX): a pointer into its array from there on.
// Only at the kernel's top level, where every later use sees the move.
func (t *translator) advance(lhs *expr, v *variable, op string, rhs *expr, p pos) error {
	if op != "+=" && op != "-=" || t.inLoop > 0 || t.inIf > t.guards || len(t.fns) > 0 {
		return errorAt(p, "%s: a pointer may only be moved by += or -= at the kernel's top level (not in a loop, an if or a device function); index it instead", lhs.text)
	}
	e := rhs
	if op == "-=" {
		e = &expr{op: "unary", text: "-", args: []*expr{rhs}, p: rhs.p}
	}
	np, _, err := t.pointer(&expr{op: "binary", text: "+", args: []*expr{lhs, e}, p: p})
	if err != nil {
		return err
	}
	if v.kind == "array" {
		base := *v
		np.base = &base
	}
	*v = *np
	return nil
}
