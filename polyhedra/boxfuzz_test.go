package polyhedra

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"
)

// FuzzCardBox counts sets that mix unions, !=, floor, ceil, min and max
// in 3 to 5 dimensions and compares the counts with brute force. The
// fuzzed condition is wrapped in a constant box, -r <= x <= r for every
// dimension, so that the oracle can visit every point of the box and
// evaluate the condition's syntax tree there directly (rational
// arithmetic, floor and ceil by integer division): it shares the parser
// with the package, none of the building, normalising or counting.
//
// Every input is counted with its parameters fixed (Specialize, the
// fallback of uniperf card), and symbolically within a small piece
// budget; a count that stops at its budget is no failure, a wrong number
// is. The budgets keep an input below a second of CPU: the fuzzing
// engine takes an input that runs 10 s for a hang.
func FuzzCardBox(f *testing.F) {
	seeds := []struct {
		cond string
		nd   uint8
	}{
		{"2k - m - 3 <= min(3n - 5, 2i + 2j - 2k + 1) or ((2i + 2k + n - 1 != -2j + 3k - n - 2m + 3 and " +
			"floor((-2i - j - 2n - 2m + 2)/2) <= k - 2m - 5) and ceil((-2i + 3j + k - 2n - 1)/4) <= 2i - 2j - k - 2n + 3m + 3)", 3},
		{"i + j != k and max(i, j - n) <= floor((k + m)/3)", 3},
		{"(i < j or j < k) and ceil((i + 2l)/4) >= min(k, n)", 4},
		{"not (i mod 3 = 1) and j + k <= max(n, m, l - o) or 2i = o", 5},
		{"floor(i/2) + ceil(j/3) != k and (l >= n or l <= -m)", 4},
		{"min(i, j, k) >= -n and max(i, j, k) <= m + 1 and i + j + k != 0", 3},
		{"3i + 2j - k >= ceil((n - l)/2) or floor((i - j + o)/5) = m", 5},
		// divs whose period exceeds the variable's range (split in two,
		// not into residue classes)
		{"floor((i + n)/16) <= floor((j - m)/16) + k and floor((-k + 2n)/13) != i", 3},
		{"i + 16*floor((j + n)/16) != k or ceil((l - m)/9) >= floor((i + j)/11)", 4},
	}
	for _, s := range seeds {
		f.Add(s.cond, s.nd, int8(2), int8(1))
	}
	f.Fuzz(func(t *testing.T, cond string, nd uint8, n, m int8) {
		if len(cond) > 320 || strings.ContainsAny(cond, "{};:") || strings.Contains(cond, "exists") {
			return
		}
		dims := []string{"i", "j", "k", "l", "o"}[:3+nd%3]
		r := int64(4)
		if len(dims) == 3 {
			r = 6
		}
		var box []string
		for _, d := range dims {
			box = append(box, fmt.Sprintf("-%d <= %s <= %d", r, d, r))
		}
		src := fmt.Sprintf("[n, m] -> { [%s] : %s and (%s) }", strings.Join(dims, ", "), strings.Join(box, " and "), cond)
		ast, err := parseSetAST(src)
		if err != nil {
			return
		}
		s, err := ParseSet(src)
		if err != nil {
			if !acceptableError(err) {
				t.Fatalf("ParseSet(%q): %v", src, err)
			}
			return
		}
		if len(s.Params()) != 2 {
			return // a name the box does not bound became a parameter
		}
		params := map[string]int64{"n": int64(n % 8), "m": int64(m % 8)}
		want, ok := boxCount(ast.pieces[0].cond, dims, r, params)
		if !ok {
			return
		}
		checkBoxCount(t, src, s, params, want)
	})
}

// checkBoxCount compares the specialised and the symbolic count of s at
// params, and the symbolic count's printed pieces, with want.
func checkBoxCount(t *testing.T, src string, s *Set, params map[string]int64, want int64) {
	sp, err := s.Specialize(params)
	if err != nil {
		t.Fatalf("Specialize(%q): %v", src, err)
	}
	c, err := sp.CardLimits(Limits{MaxPieces: 300})
	if err == nil {
		got, err := c.Eval(nil)
		if err != nil || !got.IsInt64() || got.Int64() != want {
			t.Fatalf("%s at %v: specialised count %v (%v), brute force %d", src, params, got, err, want)
		}
	} else if !acceptableError(err) {
		t.Fatalf("Card of %q specialised to %v: %v", src, params, err)
	}
	c, err = s.CardLimits(Limits{MaxPieces: 150})
	if err != nil {
		if !acceptableError(err) {
			t.Fatalf("Card(%q): %v", src, err)
		}
		return
	}
	got, err := c.Eval(params)
	if err != nil {
		if !acceptableError(err) {
			t.Fatalf("Eval: %v", err)
		}
		return
	}
	if !got.IsInt64() || got.Int64() != want {
		t.Fatalf("%s at %v: Card %s = %s, brute force %d", src, params, c, got, want)
	}
	if shown, ok := shownValue(c, params); ok && shown.Cmp(big.NewRat(want, 1)) != 0 {
		t.Fatalf("%s at %v: printed pieces of %s give %s, brute force %d", src, params, c, shown.RatString(), want)
	}
}

// boxCount counts the points of [-r, r]^len(dims) that satisfy cond; ok
// is false when the condition cannot be evaluated exactly in int64.
func boxCount(cond fNode, dims []string, r int64, params map[string]int64) (n int64, ok bool) {
	env := map[string]int64{}
	for k, v := range params {
		env[k] = v
	}
	ok = true
	var rec func(d int)
	rec = func(d int) {
		if d == len(dims) {
			v, good := evalCond(cond, env)
			ok = ok && good
			if v {
				n++
			}
			return
		}
		for x := -r; x <= r && ok; x++ {
			env[dims[d]] = x
			rec(d + 1)
		}
	}
	rec(0)
	return n, ok
}

// A rat is num/den with den > 0, for the oracle's exact arithmetic.
type rat struct{ num, den int64 }

var errOracle = errors.New("oracle cannot evaluate")

// evalCond evaluates a condition at a point; ok is false on overflow.
func evalCond(f fNode, env map[string]int64) (v, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, isOv := r.(overflowPanic); !isOv && r != errOracle {
				panic(r)
			}
			v, ok = false, false
		}
	}()
	return cond(f, env), true
}

func cond(f fNode, env map[string]int64) bool {
	switch n := f.(type) {
	case *fAnd:
		return cond(n.l, env) && cond(n.r, env)
	case *fOr:
		return cond(n.l, env) || cond(n.r, env)
	case *fNot:
		return !cond(n.x, env)
	case *fBool:
		return n.v
	case *fCmp:
		for i, op := range n.ops {
			for _, a := range n.lists[i] {
				for _, b := range n.lists[i+1] {
					if !compareRat(expr(a, env), expr(b, env), op.text) {
						return false
					}
				}
			}
		}
		return true
	}
	panic(errOracle)
}

func compareRat(a, b rat, op string) bool {
	x, y := mul64(a.num, b.den), mul64(b.num, a.den)
	switch op {
	case "<":
		return x < y
	case "<=":
		return x <= y
	case ">":
		return x > y
	case ">=":
		return x >= y
	case "=", "==":
		return x == y
	}
	return x != y
}

func expr(e eNode, env map[string]int64) rat {
	switch n := e.(type) {
	case *eNum:
		return rat{n.v, 1}
	case *eVar:
		v, ok := env[n.name]
		if !ok {
			panic(errOracle)
		}
		return rat{v, 1}
	case *eNeg:
		x := expr(n.x, env)
		return rat{neg64(x.num), x.den}
	case *eFloor:
		x := expr(n.x, env)
		if n.ceil {
			return rat{neg64(floorDiv(neg64(x.num), x.den)), 1}
		}
		return rat{floorDiv(x.num, x.den), 1}
	case *eMinMax:
		best := expr(n.args[0], env)
		for _, a := range n.args[1:] {
			v := expr(a, env)
			if compareRat(v, best, "<") != n.max && compareRat(v, best, "!=") {
				best = v
			}
		}
		return best
	case *eBin:
		return binRat(n.op, expr(n.l, env), expr(n.r, env))
	}
	panic(errOracle)
}

func binRat(op string, x, y rat) rat {
	switch op {
	case "+":
		return rat{add64(mul64(x.num, y.den), mul64(y.num, x.den)), mul64(x.den, y.den)}
	case "-":
		return rat{sub64(mul64(x.num, y.den), mul64(y.num, x.den)), mul64(x.den, y.den)}
	case "*":
		return rat{mul64(x.num, y.num), mul64(x.den, y.den)}
	case "/":
		if y.num == 0 {
			panic(errOracle)
		}
		num, den := mul64(x.num, y.den), mul64(x.den, y.num)
		if den < 0 {
			num, den = neg64(num), neg64(den)
		}
		return rat{num, den}
	case "%":
		// x - y*floor(x/y) for a positive integer y
		if y.den != 1 || y.num <= 0 {
			panic(errOracle)
		}
		q := floorDiv(x.num, mul64(x.den, y.num))
		return rat{sub64(x.num, mul64(mul64(q, y.num), x.den)), x.den}
	}
	panic(errOracle)
}
