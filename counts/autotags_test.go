package counts

import "testing"

// TestAutoTagsPerInstruction checks loopy's assignment of l.auto axes,
// derived by hand: per instruction, the unit-stride iname (the last
// subscript) first, so that inames of different instructions share axes
// (b0 and c, both last subscripts, before b1, in the order of the tags).
func TestAutoTagsPerInstruction(t *testing.T) {
	src := `kernel k
domain { [a0, a1, b0, b1, c] : 0 <= a0, a1, b0, b1 < 4 and 0 <= c < 8 }
array x f32 [4, 4]
array y f32 [4, 4]
array z f32 [8]
tag a0 l.auto, a1 l.auto, b0 l.auto, b1 l.auto, c l.auto
x[a0, a1] = 1
y[b1, b0] = z[c]
`
	k, err := ParseKernel("test.knl", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a1": "l.0", "a0": "l.1", "b0": "l.0", "c": "l.1", "b1": "l.2"}
	for n, tag := range want {
		if got := k.Iname(n).Tag.String(); got != tag {
			t.Errorf("%s: %s, want %s", n, got, tag)
		}
	}
}
