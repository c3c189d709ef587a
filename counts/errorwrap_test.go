package counts

import (
	"errors"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/polyhedra"
)

// An Error keeps its cause reachable: the extent 2^62*n overflows int64
// at n = 4 (2^64), and the bounds check's Error, which formats the
// overflow into its message, must still be an ErrOverflow to errors.Is.
// Before, errorf kept only the cause's text.
func TestErrorWrapsCause(t *testing.T) {
	src := `kernel big
domain [n] -> { [i] : 0 <= i < n }
array a f32 [4611686018427387904*n]
array b f32 [n]
split i 16 io ii
tag ii l.0, io g.0
b[i] = a[i]
`
	k, err := ParseKernel("big.knl", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Count(k)
	if err != nil {
		t.Fatal(err)
	}
	err = c.CheckBounds(map[string]int64{"n": 4})
	var e *Error
	if !errors.As(err, &e) || !strings.HasPrefix(err.Error(), "big.knl:3:7: array a: extent") {
		t.Fatalf("CheckBounds at n=4: %v, want big.knl:3:7's extent refused", err)
	}
	if !errors.Is(err, polyhedra.ErrOverflow) {
		t.Errorf("CheckBounds at n=4: %q is not polyhedra.ErrOverflow to errors.Is", err)
	}
	// 2^62*n fits at n = 1: the check passes (every a[i], i < 1, is within).
	if err := c.CheckBounds(map[string]int64{"n": 1}); err != nil {
		t.Errorf("CheckBounds at n=1: %v", err)
	}
}

// errorf takes the first error among its arguments as the cause, and
// none where there is none.
func TestErrorfCause(t *testing.T) {
	sentinel := errors.New("sentinel")
	other := errors.New("other")
	e := errorf("f.knl", Pos{2, 5}, "array %s: %v then %v", "a", sentinel, other)
	if e.Error() != "f.knl:2:5: array a: sentinel then other" {
		t.Errorf("message %q", e)
	}
	if !errors.Is(e, sentinel) || errors.Is(e, other) {
		t.Errorf("errors.Is: sentinel %v (want true), other %v (want false)", errors.Is(e, sentinel), errors.Is(e, other))
	}
	if e := errorf("f.knl", Pos{}, "no cause %d", 3); e.Err != nil {
		t.Errorf("Err = %v, want nil", e.Err)
	}
}
