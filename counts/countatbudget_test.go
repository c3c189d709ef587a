package counts

import (
	"errors"
	"testing"
)

// CountAt's budget bounds the candidate values of all the kernel's sets
// together, and past it the error wraps ErrTooLarge, which the CLI names
// as the enumeration budget; within it the values are a hand count's.
func TestCountAtBudgetShared(t *testing.T) {
	src := `kernel k
domain [n] -> { [i, j] : 0 <= i < n and 0 <= j < n }
array a f32 [n*n]
array b f32 [n*n]
array c f32 [n*n]
b[n*i + j] = a[n*i + j]
c[n*i + j] = 2*a[n*i + j]
`
	k, err := ParseKernel("k.knl", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	params := map[string]int64{"n": 100}
	if _, _, err := CountAt(k, Options{}, params, 1000); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("error %v, want one wrapping ErrTooLarge", err)
	}
	values, _, err := CountAt(k, Options{}, params, 1e7)
	if err != nil {
		t.Fatal(err)
	}
	if values["global.load.f32.stride=0"]+values["global.load.f32.stride=1"] != 2*100*100 || values["flop.f32.mul"] != 100*100 {
		t.Fatalf("values %v, want 20000 loads and 10000 multiplications", values)
	}
}
