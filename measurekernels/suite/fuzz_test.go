package suite

import (
	"go/ast"
	"go/parser"
	"go/token"
	"math/big"
	"regexp"
	"strings"
	"testing"
)

// FuzzParse feeds arbitrary text to the suite parser and expands every
// kernel of a suite it accepts: errors are fine, panics are not. The seed
// corpus (testdata/fuzz/FuzzParse) holds the shipped suites and small
// variations.
func FuzzParse(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse("fuzz.json", data)
		if err != nil {
			return
		}
		for _, k := range s.Kernels {
			for class := range s.GroupSets {
				for _, p := range k.Sizes.P {
					if _, err := s.Cases(k, class, p); err != nil {
						return
					}
				}
			}
		}
	})
}

// FuzzEvalExpr compares evalExpr with a reference: Go's own expression
// parser, whose grammar agrees with the suite format's on + - * /, unary
// minus and parentheses, evaluated exactly with big integers. Where every
// step fits in 64 bits and every division is exact, evalExpr must return
// the reference's value; anywhere else it must fail.
func FuzzEvalExpr(f *testing.F) {
	f.Fuzz(func(t *testing.T, src string, n int64) {
		vars := map[string]int64{"N": n, "K": 3}
		v, err := evalExpr(src, vars)
		want, ok := referenceEval(src, vars)
		switch {
		case err == nil && (!ok || want != v):
			t.Fatalf("%q at N=%d: evalExpr %d, reference %d (ok %v)", src, n, v, want, ok)
		case err != nil && ok:
			t.Fatalf("%q at N=%d: evalExpr failed (%v), reference %d", src, n, err, want)
		}
	})
}

// suiteChars are the characters of the suite's expression format.
var suiteChars = regexp.MustCompile(`^[0-9A-Za-z_+\-*/() ]*$`)

// referenceEval evaluates src with go/parser and math/big; ok is false
// where src is not in the suite format, names an unknown variable,
// divides inexactly or by zero, or has a step outside int64.
func referenceEval(src string, vars map[string]int64) (int64, bool) {
	// "//" and "/*" start comments in Go, and are errors in the format.
	if !suiteChars.MatchString(src) || strings.Contains(src, "//") || strings.Contains(src, "/*") {
		return 0, false
	}
	// Go reads "--" as one token and "010" as octal: space the minus
	// signs and drop leading zeros, which change nothing in the format.
	norm := strings.ReplaceAll(src, "-", " -")
	norm = regexp.MustCompile(`[0-9]+`).ReplaceAllStringFunc(norm, func(d string) string {
		if t := strings.TrimLeft(d, "0"); t != "" {
			return t
		}
		return "0"
	})
	e, err := parser.ParseExpr(norm)
	if err != nil {
		return 0, false
	}
	v, ok := bigEval(e, vars)
	if !ok {
		return 0, false
	}
	return v.Int64(), true
}

func bigEval(e ast.Expr, vars map[string]int64) (*big.Int, bool) {
	var v *big.Int
	switch n := e.(type) {
	case *ast.BasicLit:
		if n.Kind != token.INT {
			return nil, false
		}
		var ok bool
		if v, ok = new(big.Int).SetString(n.Value, 10); !ok {
			return nil, false
		}
	case *ast.Ident:
		x, ok := vars[n.Name]
		if !ok {
			return nil, false
		}
		v = big.NewInt(x)
	case *ast.ParenExpr:
		return bigEval(n.X, vars)
	case *ast.UnaryExpr:
		x, ok := bigEval(n.X, vars)
		if !ok || n.Op != token.SUB {
			return nil, false
		}
		v = new(big.Int).Neg(x)
	case *ast.BinaryExpr:
		a, ok := bigEval(n.X, vars)
		if !ok {
			return nil, false
		}
		b, ok := bigEval(n.Y, vars)
		if !ok {
			return nil, false
		}
		v = new(big.Int)
		switch n.Op {
		case token.ADD:
			v.Add(a, b)
		case token.SUB:
			v.Sub(a, b)
		case token.MUL:
			v.Mul(a, b)
		case token.QUO:
			if b.Sign() == 0 {
				return nil, false
			}
			var r big.Int
			if v.QuoRem(a, b, &r); r.Sign() != 0 {
				return nil, false
			}
		default:
			return nil, false
		}
	default:
		return nil, false
	}
	return v, v.IsInt64()
}
