package half

import (
	"math"
	"testing"
)

// Bit patterns computed by hand from the binary16 layout (sign, 5-bit
// exponent with bias 15, 10-bit fraction).
func TestKnownPatterns(t *testing.T) {
	for _, c := range []struct {
		f    float64
		bits Float
	}{
		{0, 0x0000},
		{math.Copysign(0, -1), 0x8000},
		{1, 0x3c00},
		{-2, 0xc000},
		{0.5, 0x3800},
		{1.5, 0x3e00},
		{65504, 0x7bff},         // the largest half: (2 - 2^-10) * 2^15
		{65519.99, 0x7bff},      // below the midpoint to 2^16
		{65520, 0x7c00},         // the midpoint rounds to even: infinity
		{-1e6, 0xfc00},          // overflow keeps the sign
		{0x1p-14, 0x0400},       // the least normal
		{0x1p-24, 0x0001},       // the least subnormal
		{0x1p-25, 0x0000},       // halfway to it: even is zero
		{0x1.8p-25, 0x0001},     // above halfway
		{-0x1p-26, 0x8000},      // underflow keeps the sign
		{0x3ffp-24, 0x03ff},     // the largest subnormal
		{0x7ffp-25, 0x0400},     // halfway from it to the least normal: even
		{0.1, 0x2e66},           // 0.0999755859375, error 2.4e-5 below; 0x2e67 is 3.7e-5 above
		{1.0 / 3, 0x3555},       // 0.333251953125
		{1 + 0x1p-11, 0x3c00},   // halfway between 1 and 1+2^-10: even is 1
		{1 + 3*0x1p-11, 0x3c02}, // halfway between 1+2^-10 and 1+2^-9: even is up
		{2048 + 1, 0x6800},      // halfway between 2048 and 2050
		{2048 + 3, 0x6802},      // halfway between 2050 and 2052
		{math.Inf(1), 0x7c00},
		{math.Inf(-1), 0xfc00},
		{3.14159265358979, 0x4248}, // 3.140625
	} {
		if got := FromFloat64(c.f); got != c.bits {
			t.Errorf("FromFloat64(%g) = %#04x, want %#04x", c.f, uint16(got), uint16(c.bits))
		}
		if float64(float32(c.f)) == c.f {
			if got := FromFloat32(float32(c.f)); got != c.bits {
				t.Errorf("FromFloat32(%g) = %#04x, want %#04x", c.f, uint16(got), uint16(c.bits))
			}
		}
	}
	if h := FromFloat64(math.NaN()); h&expMask != expMask || h&(1<<fracBits-1) == 0 {
		t.Errorf("FromFloat64(NaN) = %#04x, not a NaN", uint16(h))
	}
	if h := FromFloat32(float32(math.NaN())); h&expMask != expMask || h&(1<<fracBits-1) == 0 {
		t.Errorf("FromFloat32(NaN) = %#04x, not a NaN", uint16(h))
	}
}

// Every one of the 65536 halves converts to float32 and float64 and back
// to itself, NaN payloads included, and its value is the one its fields
// give: (-1)^s * 2^(e-15) * (1 + f/1024), or 2^-14 * f/1024 where e = 0.
func TestAllHalvesRoundTrip(t *testing.T) {
	for b := range 1 << 16 {
		h := Float(b)
		s, e, f := b>>15, (b>>10)&0x1f, b&0x3ff
		v := h.Float64()
		var want float64
		switch e {
		case 0x1f:
			want = math.Inf(1)
		case 0:
			want = math.Ldexp(float64(f)/1024, -14)
		default:
			want = math.Ldexp(1+float64(f)/1024, e-15)
		}
		if s == 1 {
			want = -want
		}
		switch {
		case e == 0x1f && f != 0:
			if !math.IsNaN(v) || !math.IsNaN(float64(h.Float32())) {
				t.Errorf("%#04x: %g, %g, want NaN", b, v, h.Float32())
			}
		case v != want || math.Signbit(v) != (s == 1) || float64(h.Float32()) != want:
			t.Errorf("%#04x: %g, %g, want %g", b, v, h.Float32(), want)
		}
		if got := FromFloat64(v); got != h {
			t.Errorf("FromFloat64(%#04x's %g) = %#04x", b, v, uint16(got))
		}
		if got := FromFloat32(h.Float32()); got != h {
			t.Errorf("FromFloat32(%#04x's %g) = %#04x", b, h.Float32(), uint16(got))
		}
	}
}

// Between every two adjacent finite halves of one sign, the midpoint
// rounds to the one whose bits are even, and the float32 values just
// beside it to the nearer one. Past the largest half the next value is
// 2^16, where the format would go on, and it rounds to infinity.
func TestMidpointsRoundToEven(t *testing.T) {
	for b := range 0x7c00 {
		for _, sign := range []Float{0, signMask} {
			lo, hi := Float(b)|sign, Float(b+1)|sign
			vlo, vhi := lo.Float64(), hi.Float64()
			if b+1 == 0x7c00 {
				vhi = math.Copysign(65536, vlo)
			}
			mid := (vlo + vhi) / 2 // exact: two 11-bit significands
			even := lo
			if b%2 == 1 {
				even = hi
			}
			if got := FromFloat64(mid); got != even {
				t.Fatalf("FromFloat64(%g), halfway between %#04x and %#04x = %#04x", mid, uint16(lo), uint16(hi), uint16(got))
			}
			m := float32(mid)
			below, above := math.Nextafter32(m, float32(vlo)), math.Nextafter32(m, float32(vhi))
			if got := FromFloat32(m); got != even {
				t.Fatalf("FromFloat32(%g) = %#04x, want %#04x", m, uint16(got), uint16(even))
			}
			if got := FromFloat32(below); got != lo {
				t.Fatalf("FromFloat32(%g), just towards %#04x = %#04x", below, uint16(lo), uint16(got))
			}
			if got := FromFloat32(above); got != hi {
				t.Fatalf("FromFloat32(%g), just towards %#04x = %#04x", above, uint16(hi), uint16(got))
			}
		}
	}
}
