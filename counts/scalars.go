package counts

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Scalar kernel arguments ("scalar alpha f32 = 0.5") are values the host
// passes by value: every work-item reads them from a register, so a use
// is no memory traffic, and they cannot be assigned.

// scalarValue is the value a scalar argument declares, or 1.
func (r *resolver) scalarValue(ra rawArray) (Number, error) {
	lit := Number{Int: 1, Float: 1}
	if len(ra.value) == 0 {
		return lit, nil
	}
	num := ra.value[len(ra.value)-1]
	neg := len(ra.value) == 2
	if !ra.dtype.IsFloat() {
		if num.kind != tInt {
			return Number{}, r.errf(num.pos, "scalar %s is %s: write an integer value, not %s (or declare it f32 or f64)", ra.name.text, ra.dtype, num.text)
		}
		v, ok := parseInt(num.text, neg)
		if !ok || !inRange(ra.dtype, v) {
			text := num.text
			if neg {
				text = "-" + text
			}
			return Number{}, r.errf(num.pos, "value %s of scalar %s is out of range for %s", text, ra.name.text, ra.dtype)
		}
		lit.Int = v
		return lit, nil
	}
	v, err := strconv.ParseFloat(strings.TrimRight(num.text, "fF"), 64)
	if neg {
		v = -v
	}
	if ra.dtype == F32 {
		v = float64(float32(v))
	}
	if err != nil || math.IsInf(v, 0) {
		return Number{}, r.errf(num.pos, "value %s of scalar %s is out of range for %s", num.text, ra.name.text, ra.dtype)
	}
	lit.Float = v
	return lit, nil
}

// scalarData converts the Go value given for scalar argument a to its
// type: a number of any Go numeric type that a holds exactly.
func scalarData(a *Array, v any) (Number, error) {
	var lit Number
	var f float64
	switch x := v.(type) {
	case float32:
		f = float64(x)
	case float64:
		f = x
	case int:
		f = float64(x)
	case int32:
		f = float64(x)
	case uint32:
		f = float64(x)
	case int64:
		if !a.DType.IsFloat() {
			lit.Int = x
			return lit, checkScalarInt(a, x)
		}
		f = float64(x)
	default:
		return Number{}, fmt.Errorf("scalar argument %s is %s, but its value is a %T (give a number)", a.Name, a.DType, v)
	}
	if a.DType.IsFloat() {
		if a.DType == F32 && float64(float32(f)) != f && !math.IsNaN(f) {
			return Number{}, fmt.Errorf("value %v of scalar argument %s is no f32", f, a.Name)
		}
		lit.Float = f
		return lit, nil
	}
	if f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return Number{}, fmt.Errorf("value %v of scalar argument %s is no integer", f, a.Name)
	}
	lit.Int = int64(f)
	return lit, checkScalarInt(a, lit.Int)
}

func checkScalarInt(a *Array, v int64) error {
	if !inRange(a.DType, v) {
		return fmt.Errorf("value %d of scalar argument %s is out of range for %s", v, a.Name, a.DType)
	}
	return nil
}
