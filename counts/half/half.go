// Package half converts between IEEE 754 binary16 (half precision) and
// Go's float32 and float64, rounding to nearest, ties to even, as C's
// conversions to half do (OpenCL's vstore_half, CUDA's __float2half_rn).
//
// A Float holds the 16 bits of a half: a sign, five exponent bits (bias
// 15) and ten fraction bits. Its values are the subnormals down to 2^-24,
// the normals up to 65504, the infinities and NaNs. Go has no half
// arithmetic; neither have the kernels that store halves without
// cl_khr_fp16: a half is converted to float, computed on, and rounded
// back when stored.
package half

import "math"

// Float is a half-precision value, as its bits.
type Float uint16

// Exponent and fraction fields of the formats.
const (
	fracBits  = 10
	bias      = 15
	expMask   = 0x1f << fracBits
	signMask  = 0x8000
	f64Frac   = 52
	f64Bias   = 1023
	f64ExpAll = 0x7ff
)

// Float64 is h's value, exactly (NaN payloads included).
func (h Float) Float64() float64 {
	sign := uint64(h&signMask) << 48
	exp := int(h&expMask) >> fracBits
	frac := uint64(h & (1<<fracBits - 1))
	switch exp {
	case 0: // zero or subnormal: frac * 2^-24, exact in float64
		v := float64(frac) * 0x1p-24
		if sign != 0 {
			v = -v
		}
		return v
	case 0x1f: // infinities and NaNs keep their payload
		return math.Float64frombits(sign | f64ExpAll<<f64Frac | frac<<(f64Frac-fracBits))
	}
	return math.Float64frombits(sign | uint64(exp-bias+f64Bias)<<f64Frac | frac<<(f64Frac-fracBits))
}

// Float32 is h's value, exactly (NaN payloads included).
func (h Float) Float32() float32 {
	v := h.Float64()
	if math.IsNaN(v) {
		// Go's float64 to float32 conversion may quiet a signalling NaN.
		frac := uint32(h & (1<<fracBits - 1))
		return math.Float32frombits(uint32(h&signMask)<<16 | 0xff<<23 | frac<<(23-fracBits))
	}
	return float32(v)
}

// FromFloat64 rounds f to the nearest half, ties to even: magnitudes
// from 65520 up become infinities, below 2^-25 zeros (of f's sign), and
// a NaN stays a NaN with the top bits of its payload.
func FromFloat64(f float64) Float {
	b := math.Float64bits(f)
	sign := Float(b>>48) & signMask
	exp := int(b>>f64Frac) & f64ExpAll
	frac := b & (1<<f64Frac - 1)
	if exp == f64ExpAll {
		if frac == 0 {
			return sign | expMask
		}
		payload := Float(frac >> (f64Frac - fracBits))
		if payload == 0 {
			payload = 1 << (fracBits - 1) // a NaN whose payload is in the dropped bits
		}
		return sign | expMask | payload
	}
	e := exp - f64Bias
	switch {
	case exp == 0 || e < -26: // below half the least subnormal
		return sign
	case e > bias:
		return sign | expMask
	}
	m := frac | 1<<f64Frac // f = m * 2^(e-52)
	shift := f64Frac - fracBits
	if e < 1-bias {
		shift += 1 - bias - e // a subnormal's unit is 2^-24
	}
	q := m >> shift
	rest, halfway := m&(1<<shift-1), uint64(1)<<(shift-1)
	if rest > halfway || rest == halfway && q&1 == 1 {
		q++
	}
	if e < 1-bias {
		return sign | Float(q) // 1024 is the least normal's bits
	}
	if q == 1<<(fracBits+1) {
		q >>= 1
		e++
		if e > bias {
			return sign | expMask
		}
	}
	return sign | Float(e+bias)<<fracBits | Float(q-1<<fracBits)
}

// FromFloat32 rounds f to the nearest half, ties to even, as FromFloat64.
func FromFloat32(f float32) Float {
	if f != f {
		b := math.Float32bits(f)
		payload := Float(b>>(23-fracBits)) & (1<<fracBits - 1)
		if payload == 0 {
			payload = 1 << (fracBits - 1)
		}
		return Float(b>>16)&signMask | expMask | payload
	}
	return FromFloat64(float64(f))
}
