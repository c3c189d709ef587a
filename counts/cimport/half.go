package cimport

// Halves (__half, OpenCL C's half) become the .knl's f16, a storage type:
// a load gives a float, a store rounds to the nearest half. What C
// programs without native half arithmetic write translates directly:
// __half2float(x[i]) and OpenCL C's vload_half(i, x) are the load,
// y[i] = __float2half_rn(v) (or __float2half, __double2half, or the
// float itself, which __half's constructor rounds) and vstore_half(v, i,
// y) the store. Arithmetic on __half values (CUDA's half operators,
// __hadd), a half in a variable and any other rounding are half
// arithmetic, which .knl does not have, and are refused.

// halfArithmetic says what .knl does with halves, for refusals.
const halfArithmetic = ".knl's f16 is storage in global and __shared__ arrays: a load gives a float, a store rounds to the nearest half, but half arithmetic is not in .knl"

// roundings are the conversions to half that round to nearest even, as a
// store into an f16 array does.
var roundings = map[string]bool{"__float2half": true, "__float2half_rn": true, "__double2half": true}

// halfArgument is what __half2float(x) and vload_half(i, p) read, x and
// p[i]; a rounding conversion is refused, since it may only be the value
// stored into an f16 array.
func halfArgument(name string, args []*expr, p pos) (*expr, error) {
	switch {
	case roundings[name]:
		return nil, errorAt(p, "%s rounds a value to a half outside a store into a __half array; .knl rounds only there: store it (y[i] = %s(v)) and read it back, or compute in float (%s)", name, name, halfArithmetic)
	case name == "vload_half":
		if len(args) != 2 {
			return nil, errorAt(p, "vload_half takes two arguments, an offset and a pointer")
		}
		return &expr{op: "index", args: []*expr{args[1], args[0]}, p: p}, nil
	}
	if len(args) != 1 {
		return nil, errorAt(p, "%s takes one argument", name)
	}
	return args[0], nil
}

// halfToFloat is v, a half, read as a float.
func halfToFloat(v *value, name string, p pos) (*value, error) {
	if v.kind != vData || v.dtype != "f16" {
		return nil, errorAt(p, "%s reads a half, an element of a __half (half) array: pass it one (%s(h[i])), or, of a float, drop the conversion", name, name)
	}
	out := *v
	out.dtype = "f32"
	return &out, nil
}

// roundedArgument unwraps the rounding conversion of a value stored
// into an f16 array: y[i] = __float2half_rn(v) stores v, which the store
// rounds. __float2half's argument is a float, so a double is converted
// first, as C does.
func roundedArgument(rhs *expr) (*expr, error) {
	f := rhs.args[0]
	if len(rhs.args) != 2 {
		return nil, errorAt(rhs.p, "%s takes one argument", f.text)
	}
	arg := rhs.args[1]
	if f.text != "__double2half" {
		arg = &expr{op: "cast", typ: ctype{base: "float"}, args: []*expr{arg}, p: arg.p}
	}
	return arg, nil
}

// isRounding reports a call of a rounding conversion to half.
func isRounding(e *expr) bool {
	return e.op == "call" && e.args[0].op == "id" && roundings[e.args[0].text]
}

// vstoreHalf reads OpenCL C's vstore_half(v, i, p) (and
// vstore_half_rte, which rounds as it does by default) as the
// assignment p[i] = v; ok is false where e is no such call.
func vstoreHalf(e *expr) (target, v *expr, ok bool, err error) {
	f := e.args[0]
	if f.op != "id" || f.text != "vstore_half" && f.text != "vstore_half_rte" {
		return nil, nil, false, nil
	}
	args := e.args[1:]
	if len(args) != 3 {
		return nil, nil, true, errorAt(e.p, "%s takes three arguments: a value, an offset and a pointer", f.text)
	}
	return &expr{op: "index", args: []*expr{args[2], args[1]}, p: e.p}, args[0], true, nil
}
