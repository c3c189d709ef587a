package polyhedra

import (
	"fmt"
	"math"
	"math/bits"
)

// overflowPanic unwinds out of the checked arithmetic below. Deep inside the
// algorithms an overflow can occur in any of thousands of places; threading
// an error through each of them would bury the mathematics, so the checked
// helpers panic and every exported entry point converts the panic back into
// an error with catch.
type overflowPanic struct{}

// catch turns an overflowPanic into an error wrapping ErrOverflow, naming
// the operation, and a budgetPanic into its *BudgetError. Any other panic
// is a bug and keeps unwinding.
func catch(err *error, op string) {
	if r := recover(); r != nil {
		if b, ok := r.(budgetPanic); ok {
			*err = fmt.Errorf("%s: %w", op, b.err)
			return
		}
		if _, ok := r.(overflowPanic); !ok {
			panic(r)
		}
		*err = fmt.Errorf("%s: %w", op, ErrOverflow)
	}
}

// tryNoOverflow runs f and reports whether it finished without overflow.
// It serves optional work (pruning, simplification) that can simply be
// skipped when numbers grow too large.
func tryNoOverflow(f func()) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, isOv := r.(overflowPanic); !isOv {
				panic(r)
			}
			ok = false
		}
	}()
	f()
	return true
}

// must returns c, or panics with overflowPanic when !ok.
func must(c int64, ok bool) int64 {
	if !ok {
		panic(overflowPanic{})
	}
	return c
}

func add64(a, b int64) int64 { return must(addOK(a, b)) }

// addOK returns a + b and whether it did not overflow.
func addOK(a, b int64) (int64, bool) {
	c := a + b
	return c, (c > a) == (b > 0)
}

func sub64(a, b int64) int64 {
	c := a - b
	if (c < a) != (b > 0) {
		panic(overflowPanic{})
	}
	return c
}

func mul64(a, b int64) int64 { return must(mulOK(a, b)) }

// mulOK returns a * b and whether it did not overflow. The high word of
// the signed 128-bit product is the unsigned one less b when a < 0 and a
// when b < 0; the product fits when that is the sign extension of the
// low word.
func mulOK(a, b int64) (int64, bool) {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	h := int64(hi) - (a>>63)&b - (b>>63)&a
	return int64(lo), h == int64(lo)>>63
}

func neg64(a int64) int64 {
	if a == math.MinInt64 {
		panic(overflowPanic{})
	}
	return -a
}

// abs64 returns |a| as an unsigned-compatible value; |MinInt64| is returned
// as MinInt64 whose uint64 conversion is 2^63, which mul64 relies on.
func abs64(a int64) int64 {
	if a < 0 {
		return -a
	}
	return a
}

// floorDiv returns floor(a/b) for b > 0.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

func gcd64(a, b int64) int64 {
	if a == math.MinInt64 || b == math.MinInt64 {
		panic(overflowPanic{})
	}
	a, b = abs64(a), abs64(b)
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func lcm64(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	return mul64(a/gcd64(a, b), b)
}

// rowGCD returns the gcd of row[1:], the coefficients of the variables.
func rowGCD(row []int64) int64 {
	var g int64
	for _, v := range row[1:] {
		if v != 0 {
			g = gcd64(g, v)
			if g == 1 {
				return 1
			}
		}
	}
	return g
}

// addScaled sets dst += k*src, element-wise over len(src).
func addScaled(dst []int64, k int64, src []int64) {
	if k == 0 {
		return
	}
	for j, v := range src {
		if v != 0 {
			dst[j] = add64(dst[j], mul64(k, v))
		}
	}
}

func isZeroRow(row []int64) bool {
	for _, v := range row {
		if v != 0 {
			return false
		}
	}
	return true
}

func negRow(row []int64) []int64 {
	out := make([]int64, len(row))
	for j, v := range row {
		out[j] = neg64(v)
	}
	return out
}

func copyRow(row []int64) []int64 { return append([]int64(nil), row...) }

func equalRows(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for j := range a {
		if a[j] != b[j] {
			return false
		}
	}
	return true
}

// splitBySign splits rows by the sign of their entry in column col:
// positive, negative and zero.
func splitBySign(rows [][]int64, col int) (pos, neg, zero [][]int64) {
	for _, r := range rows {
		switch {
		case r[col] > 0:
			pos = append(pos, r)
		case r[col] < 0:
			neg = append(neg, r)
		default:
			zero = append(zero, r)
		}
	}
	return pos, neg, zero
}
