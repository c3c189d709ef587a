package counts

import "testing"

// An extent that divides exactly is the quotient (the domains' notation
// reads n/2 as a rational): 6/2 is 3, (2n + 6)/2 is n + 3, and a floor of
// consts folds; a divided parameter is refused (TestParseErrors).
func TestExtentQuotients(t *testing.T) {
	src := "kernel k\nconst H = 6\ndomain [n] -> { [i] : 0 <= i < n }\narray a f32 [H/2, (2*n + 6)/2, floor(7/2), H mod 4]\na[0, i, 0, 0] = 1\n"
	k, err := ParseKernel("k.knl", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"3", "n + 3", "3", "2"}
	for d, e := range k.Arrays[0].Shape {
		if got := e.String(); got != want[d] {
			t.Errorf("extent %d is %s, want %s", d, got, want[d])
		}
	}
}
