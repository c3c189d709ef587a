package counts

import (
	"errors"
	"strings"
	"testing"
)

// TestDelinearizeCheckOverflow checks that a bound of the range check of
// a flattened subscript's index that overflows int64 is named as the
// cause, with the array's place: below 0, -1 - e, where e holds -2^63 (a
// constant or a coefficient, whose negation has no int64); above the
// pitch, e - (m + 3), where e's constant lies within 3 of -2^63 and the
// pitch is one that an extent (m + 3)*... declares. Where the reference
// runs nowhere the check passes, overflow or not, as it did before it
// named the overflow.
func TestDelinearizeCheckOverflow(t *testing.T) {
	const head = "kernel k\ndomain [n, m] -> { [i, j] : 0 <= i < n and 0 <= j < m }\narray a f32 [n*m]\narray b f32 [n, m]\ntag i l.0\n"
	for _, tc := range []struct{ body, want string }{
		{"b[i, j] = a[i*m + j - 9223372036854775807 - 1]\n",
			"test.knl:3:7: array a: checking that index j - 9223372036854775808 stays within 0..m-1: integer overflow in -1 - (j - 9223372036854775808), the bound below 0: its constants or coefficients are too large for 64-bit integers"},
		{"b[i, j] = a[i*m + (-9223372036854775807 - 1)*j]\n",
			"test.knl:3:7: array a: checking that index -9223372036854775808*j stays within 0..m-1: integer overflow in -1 - (-9223372036854775808*j), the bound below 0"},
	} {
		k, err := ParseKernel("test.knl", []byte(head+tc.body), nil)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Count(k)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || !errors.Is(err, errOverflow) {
			t.Errorf("%s: error %v, want one starting %q, wrapping the overflow", strings.TrimSpace(tc.body), err, tc.want)
		}
	}

	above := Affine{Const: -9223372036854775807, Terms: []Term{{"j", 1}}}
	shifted := pitches{"m'": {Const: 3, Terms: []Term{{"m", 1}}}}
	for _, tc := range []struct{ domain, want string }{
		{"0 <= i < n and 0 <= j < m", "test.knl:3:7: array a: checking that index j - 9223372036854775807 stays within 0..(m + 3)-1: integer overflow in j - 9223372036854775807 - (m + 3), the bound above (m + 3)-1"},
		{"0 <= i < n and 0 <= j < m and m < 0", ""},
	} {
		k, err := ParseKernel("test.knl", []byte(strings.Replace(head, "0 <= i < n and 0 <= j < m", tc.domain, 1)+"b[i, j] = a[i*m + j]\n"), nil)
		if err != nil {
			t.Fatal(err)
		}
		p, err := newPlan(k, Options{})
		if err != nil {
			t.Fatal(err)
		}
		err = p.checkDelinearized("a", gref{inames: []string{"i", "j"}}, above, "m'", "", shifted)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want) || !errors.Is(err, errOverflow)) {
			t.Errorf("domain %s: error %v, want %q", tc.domain, err, tc.want)
		}
	}
}
