package codegen_test

import "testing"

// 8- and 16-bit integers on PoCL compute what Go computes with C's
// integer promotions: testdata/lang/narrow.knl at values where u8 + i8
// and i16 * i16 leave the narrow ranges before the result is stored.
func TestNarrowOnPoCL(t *testing.T) {
	k := langKernel(t, "narrow", consts{"LX": 16})
	const n = 40
	a, s, w := make([]uint8, n), make([]int16, n), make([]uint16, n)
	for i := range n {
		a[i] = uint8(255 - 6*i)
		s[i] = int16(-32767 + 1637*i)
		w[i] = uint16(60000 - 37*i)
	}
	out := runOnPoCL(t, k, map[string]int64{"n": n}, map[string]any{"a": a, "s": s, "w": w})
	b, o, s2, w2 := out["b"].([]uint8), out["o"].([]int32), out["s"].([]int16), out["w"].([]uint16)
	for i := range n {
		ti := int(int8(int(a[i]) / 2))
		wb, wo, ws := uint8((int(a[i])+ti)/2), int32(int(s[i])*int(s[i])-int(a[i])), -s[i]
		ww := uint16(int(w[i]) + 3*int(a[i]))
		if b[i] != wb || o[i] != wo || s2[i] != ws || w2[i] != ww {
			t.Errorf("element %d: b %d o %d s %d w %d, want %d %d %d %d", i, b[i], o[i], s2[i], w2[i], wb, wo, ws, ww)
		}
	}
}
