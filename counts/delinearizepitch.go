package counts

import (
	"errors"
	"maps"
	"math"
	"slices"
	"strings"
)

// This file lets delinearize split a flattened subscript whose pitch is
// an affine expression of a parameter (in[(y + k)*(w + 14) + x + k] of
// an array [(h + 14)*(w + 14)]) rather than the parameter itself. The
// subscript, expanded, weighs y by w and by 14 apart (w*y + 14*y + x +
// 15*k): the split along w alone leaves x + 15*k, whose range the check
// refuses. Written in a parameter w' = w + 14, it is w'*y + x + k, which
// splits as a parameter pitch does, into [y + k, x + k], exact where
// 0 <= x + k <= w + 13 wherever the reference runs: then distinct pairs
// are distinct elements, for any pitch (the check fails at a point where
// w + 14 <= 0, as no index lies in 0..w + 13 there). The pitch is not
// guessed from the subscripts, which do not fix it (w*y + 15*y + x is
// [y, y + x] at pitch w + 14 and [y, x] at pitch w + 15): it is the one
// the array's extent declares, a factor of it.

// pitches maps each parameter delinearize introduces, named after the
// one it shifts with a prime (w'), to its value in the kernel's
// parameters (w + 14).
type pitches map[string]Affine

// of returns the value of the parameter par: its pitch where it is one
// of sh's, par itself otherwise.
func (sh pitches) of(par string) Affine {
	if v, ok := sh[par]; ok {
		return v
	}
	return Affine{Terms: []Term{{par, 1}}}
}

// text writes the value of par for a message: w, or (w + 14).
func (sh pitches) text(par string) string {
	if _, ok := sh[par]; ok {
		return "(" + sh[par].String() + ")"
	}
	return par
}

// back writes the indices dims, which may name sh's parameters, in the
// kernel's parameters.
func (sh pitches) back(dims []Affine) ([]Affine, error) {
	out := slices.Clone(dims)
	for _, fresh := range slices.Sorted(maps.Keys(sh)) {
		for d := range out {
			var err error
			if out[d], err = out[d].subst(fresh, sh[fresh]); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// rewrite returns refs, references to an array of one dimension, with
// their subscripts written in sh's parameters.
func (sh pitches) rewrite(refs []gref) ([]gref, error) {
	out := slices.Clone(refs)
	for i, r := range refs {
		ix := r.index[0]
		for _, fresh := range slices.Sorted(maps.Keys(sh)) {
			v := sh[fresh]
			var err error
			if ix, err = shiftParam(ix, v.Terms[0].Name, fresh, v.Terms[0].Coeff, v.Const); err != nil {
				return nil, err
			}
		}
		out[i].index = []Affine{ix}
	}
	return out, nil
}

// extentPitches returns the affine pitches that the extent of an array
// of one dimension declares: for each parameter p that the extent holds
// to a power e, the pitch a*p + c whose e-th power is a factor of it
// ((h + 14)*(w + 14): w + 14 and h + 14; (2*w + 1)*h: 2*w + 1; (n + 1)*(n
// + 1): n + 1), where that is not p itself.
func extentPitches(ext Affine) pitches {
	sh := pitches{}
	var params []string
	for _, t := range ext.Terms {
		params = append(params, t.Factors()...)
	}
	slices.Sort(params)
	for _, par := range slices.Compact(params) {
		e := int64(0)
		for _, t := range ext.Terms {
			e = max(e, int64(power(t, par)))
		}
		// (a*p + c)^e*R is a^e*R*p^e + e*a^(e-1)*c*R*p^(e-1) + ...: the
		// coefficient of p^(e-1) is e*c/a times that of p^e.
		num, den, ok := proportion(powerCoeff(ext, par, int(e)-1), powerCoeff(ext, par, int(e)))
		if !ok || num == 0 {
			continue
		}
		// den*e overflows for a pitch no int64 a holds (2^62*n^4 + n^3:
		// a = 2^64), and wrapped it can be 0, which shiftParam divides by.
		a, err := mulInt(den, e)
		if err != nil {
			continue
		}
		c := num
		g := gcd(a, absInt(c))
		a, c = a/g, c/g
		fresh := par + "'"
		shifted, err := shiftParam(ext, par, fresh, a, c)
		if err != nil || shifted.Const != 0 || slices.ContainsFunc(shifted.Terms, func(t Term) bool { return power(t, fresh) != int(e) }) {
			continue
		}
		sh[fresh] = Affine{Terms: []Term{{par, a}}, Const: c}
	}
	return sh
}

// power returns how many of t's factors are name.
func power(t Term, name string) int {
	n := 0
	for _, f := range t.Factors() {
		if f == name {
			n++
		}
	}
	return n
}

// powerCoeff returns the coefficient of par^e in a, a polynomial in the
// other names.
func powerCoeff(a Affine, par string, e int) Affine {
	var r Affine
	if e == 0 {
		r.Const = a.Const
	}
	for _, t := range a.Terms {
		if power(t, par) != e {
			continue
		}
		rest := slices.DeleteFunc(t.Factors(), func(f string) bool { return f == par })
		if len(rest) == 0 {
			r.Const += t.Coeff
		} else {
			r.Terms = append(r.Terms, Term{strings.Join(rest, "*"), t.Coeff})
		}
	}
	return r
}

// proportion returns num and den > 0, in lowest terms, such that x is
// num/den times y; ok is false where it is no multiple of y (or y is
// zero, or the products overflow, or a coefficient compared is
// MinInt64).
func proportion(x, y Affine) (num, den int64, ok bool) {
	coeffs := func(a Affine) map[string]int64 {
		m := map[string]int64{}
		if a.Const != 0 {
			m[""] = a.Const
		}
		for _, t := range a.Terms {
			m[t.Name] = t.Coeff
		}
		return m
	}
	xs, ys := coeffs(x), coeffs(y)
	if len(ys) == 0 {
		return 0, 0, false
	}
	if len(xs) == 0 {
		return 0, 1, true
	}
	ref := slices.Sorted(maps.Keys(ys))[0]
	num, den = xs[ref], ys[ref]
	if num == math.MinInt64 || den == math.MinInt64 {
		return 0, 0, false // its negation overflows, so no den > 0 holds it
	}
	if den < 0 {
		num, den = -num, -den
	}
	g := gcd(absInt(num), den)
	num, den = num/g, den/g
	for name, yc := range ys {
		lhs, err1 := mulInt(xs[name], den)
		rhs, err2 := mulInt(yc, num)
		if err1 != nil || err2 != nil || lhs != rhs {
			return 0, 0, false
		}
	}
	for name := range xs {
		if _, in := ys[name]; !in {
			return 0, 0, false
		}
	}
	return num, den, true
}

// errNotMultiple is shiftParam's failure where a coefficient is no
// multiple of the pitch's.
var errNotMultiple = errors.New("a coefficient is no multiple of the pitch's")

// shiftParam returns a with the parameter par replaced by (fresh - c)/k,
// so that fresh is k*par + c: each term with par to the power m must
// have a coefficient that k^m divides.
func shiftParam(a Affine, par, fresh string, k, c int64) (Affine, error) {
	if len(a.Floors) > 0 {
		return Affine{}, errFloorProduct
	}
	r := Affine{Const: a.Const}
	step := Affine{Terms: []Term{{fresh, 1}}, Const: -c}
	for _, t := range a.Terms {
		m := power(t, par)
		coeff := t.Coeff
		for range m {
			if coeff%k != 0 {
				return Affine{}, errNotMultiple
			}
			coeff /= k
		}
		one := Affine{Const: coeff}
		if rest := slices.DeleteFunc(t.Factors(), func(f string) bool { return f == par }); len(rest) > 0 {
			one = Affine{Terms: []Term{{strings.Join(rest, "*"), coeff}}}
		}
		for range m {
			var err error
			if one, err = one.mul(step); err != nil {
				return Affine{}, err
			}
		}
		var err error
		if r, err = r.addScaled(one, 1); err != nil {
			return Affine{}, err
		}
	}
	return r, nil
}

func absInt(a int64) int64 {
	if a < 0 {
		return -a
	}
	return a
}
