package cimport

// atomicAdds lists the atomic additions .knl's atomic_add says, with
// the sign of what each adds and, for those of one argument, the
// amount: CUDA's atomicAdd and atomicSub, OpenCL's atomic_add,
// atomic_sub, atomic_inc and atomic_dec (and the atom_ spellings of
// OpenCL 1.0's extensions).
var atomicAdds = map[string]struct {
	sign  string // "" or "-"
	fixed string // the amount of atomic_inc and atomic_dec
}{
	"atomicAdd": {}, "atomicAdd_block": {}, "atomicAdd_system": {}, "atomic_add": {}, "atom_add": {},
	"atomicSub": {sign: "-"}, "atomicSub_block": {sign: "-"}, "atomicSub_system": {sign: "-"}, "atomic_sub": {sign: "-"}, "atom_sub": {sign: "-"},
	"atomic_inc": {fixed: "1"}, "atom_inc": {fixed: "1"}, "atomic_dec": {fixed: "-1"}, "atom_dec": {fixed: "-1"},
}

// atomic translates an atomic addition standing as a statement, whose
// old value is not used, into atomic_add(TARGET, EXPR); ok is false
// where e is no atomic call.
func (t *translator) atomic(e *expr) (bool, error) {
	f := e.args[0]
	if f.op != "id" || !isAtomic(f.text) {
		return false, nil
	}
	args := e.args[1:]
	kind, ok := atomicAdds[f.text]
	if !ok {
		why := "only atomic additions are in .knl (atomic_add)"
		if f.text == "atomicInc" || f.text == "atomicDec" {
			why = "CUDA's atomicInc and atomicDec wrap at their second argument, which atomic_add does not; write atomicAdd(&x, 1) where the count cannot reach it"
		}
		return true, errorAt(e.p, "%s: %s", f.text, why)
	}
	want := 2
	if kind.fixed != "" {
		want = 1
	}
	if len(args) != want {
		return true, errorAt(e.p, "%s takes %d arguments", f.text, want)
	}
	target := args[0]
	if target.op == "unary" && target.text == "&" {
		target = target.args[0]
	} else {
		target = &expr{op: "unary", text: "*", args: []*expr{target}, p: target.p}
	}
	arr, ref, err := t.ref(target)
	if err != nil {
		return true, err
	}
	if arr.space == "private" || arr.dtype != "f32" && arr.dtype != "i32" && arr.dtype != "u32" {
		return true, errorAt(args[0].p, "%s: .knl's atomic_add adds to an element of a global or __shared__ array of float, int or unsigned int, not of %s %s", f.text, arr.space, arr.dtype)
	}
	arr.stored = true
	amount := kind.fixed
	if amount == "" {
		v, err := t.eval(args[1])
		if err != nil {
			return true, err
		}
		text, err := t.dataText(v, args[1].p)
		if err != nil {
			return true, err
		}
		amount = text
		if kind.sign != "" {
			amount = "-" + paren(text, v.prec, precUnary)
		}
	}
	t.emit(&item{kind: "instr", text: "atomic_add(" + ref + ", " + amount + ")", p: e.p})
	return true, nil
}
