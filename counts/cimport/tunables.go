package cimport

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/counts"
)

// A tunable is a -D of a positive integer (-D BLOCK_SIZE=128) that the
// .knl keeps as a const (const BLOCK_SIZE = 128), so that uniperf tune
// and predict --const can vary it: the macro stays a name in the body,
// and the translation carries it symbolically, as it carries the size
// parameters. Where the translation needs its value (an #if reads it, a
// loop is unrolled over it, a division by it is not exact, a step of
// s >>= 1 starts at it) the macro is a literal instead, and the .knl's
// header says why.

// tunableCandidates lists the -D macros that may be tunables: positive
// integer literals that name no argument of the kernel and no word of
// .knl.
func tunableCandidates(k *kernelFunc, opts Options) []string {
	var out []string
	for _, n := range slices.Sorted(maps.Keys(opts.Defines)) {
		v, ok := intLiteral(opts.Defines[n])
		if !ok || v <= 0 || reserved[n] || slices.ContainsFunc(k.params, func(p param) bool { return p.name == n }) {
			continue
		}
		out = append(out, n)
	}
	return out
}

// importer imports one kernel: the lexed source and the options.
type importer struct {
	file       string
	l          *lexed
	cuda       bool
	opts       Options
	from       map[string]string
	predefined map[string]string
}

// withTunables imports with the candidates as consts. Where that fails,
// the translation needs the value of one of them: it tries each left
// out (a literal) in turn, and at last all.
func (im *importer) withTunables(cands []string) (*Result, error) {
	baked := map[string]string{}
	r, err := im.attempt(cands, baked)
	if err == nil || len(cands) == 0 {
		return r, err
	}
	why := "as a const, " + err.Error()
	if e, ok := err.(*Error); ok && e.Line > 0 {
		why = fmt.Sprintf("as a const, line %d:%d: %s", e.Line, e.Col, e.Msg)
	}
	for i, c := range cands {
		if _, ok := baked[c]; ok {
			continue
		}
		b := maps.Clone(baked)
		b[c] = why
		if r, err2 := im.attempt(slices.Delete(slices.Clone(cands), i, i+1), b); err2 == nil {
			return r, nil
		}
	}
	for _, c := range cands {
		if _, ok := baked[c]; !ok {
			baked[c] = why
		}
	}
	return im.attempt(nil, baked)
}

// attempt imports with the tunables given as consts (less those an #if
// reads, which it adds to baked with the reason).
func (im *importer) attempt(tunables []string, baked map[string]string) (*Result, error) {
	names := map[string]bool{}
	for _, n := range tunables {
		names[n] = true
	}
	for {
		k, macros, reads, err := parseTunables(im.l, im.cuda, im.opts, im.predefined, names)
		if err != nil {
			return nil, err
		}
		if len(reads) > 0 {
			for n, p := range reads {
				baked[n] = fmt.Sprintf("#if at line %d reads its value", p.line)
				delete(names, n)
			}
			continue
		}
		opts := im.opts
		opts.tunables = map[string]int64{}
		for n := range names {
			opts.tunables[n], _ = intLiteral(opts.Defines[n])
		}
		opts.baked = baked
		return im.translate(k, macros, opts)
	}
}

// translate translates the kernel and checks that the .knl parses.
func (im *importer) translate(k *kernelFunc, macros map[string]*macro, opts Options) (*Result, error) {
	// The first pass finds the C variables that hold each axis's global
	// index; the second names the axes by them, as a hand port would.
	t, err := translate(k, im.cuda, opts, im.from, macros, nil)
	if err != nil {
		return nil, err
	}
	t, err = translate(k, im.cuda, opts, im.from, macros, t.axisNames())
	if err != nil {
		return nil, err
	}
	knl, err := t.write(im.file)
	if err != nil {
		return nil, err
	}
	if _, err := counts.ParseKernel(k.name+".knl", knl, nil); err != nil {
		return nil, &Error{Line: k.p.line, Col: k.p.col, Msg: fmt.Sprintf("kernel %s: the .knl it translates to is refused (%v); please report this with the source", k.name, err)}
	}
	return &Result{Kernel: k.name, Knl: knl}, nil
}

// isTunable reports whether a monomial's factor is a tunable.
func (t *translator) isTunable(name string) bool {
	_, ok := t.opts.tunables[name]
	return ok
}

// constLike reports whether p is a constant, or a polynomial in the
// tunables alone: what the .knl's consts make a constant.
func (t *translator) constLike(p poly) bool {
	for m := range p {
		if m == "" {
			continue
		}
		for _, f := range strings.Split(m, "*") {
			if !t.isTunable(f) {
				return false
			}
		}
	}
	return true
}

// value evaluates a constant-like polynomial at the tunables' values.
func (t *translator) value(p poly) (int64, bool) {
	if !t.constLike(p) {
		return 0, false
	}
	sum := int64(0)
	for m, c := range p {
		term := c
		if m != "" {
			for _, f := range strings.Split(m, "*") {
				var ok bool
				if term, ok = mulInt(term, t.opts.tunables[f]); !ok {
					return 0, false
				}
			}
		}
		var ok bool
		if sum, ok = addInt(sum, term); !ok {
			return 0, false
		}
	}
	return sum, true
}

// sign returns the sign of a constant-like polynomial that holds
// whatever the (positive) tunables: 1, -1 or 0, and false where its
// coefficients differ in sign or it is not constant-like.
func (t *translator) sign(p poly) (int, bool) {
	if !t.constLike(p) {
		return 0, false
	}
	s := 0
	for _, c := range p {
		cs := 1
		if c < 0 {
			cs = -1
		}
		if s != 0 && cs != s {
			return 0, false
		}
		s = cs
	}
	return s, true
}

// positive reports a constant-like polynomial above 0 for any tunables,
// and its value now.
func (t *translator) positive(p poly) (int64, bool) {
	s, ok := t.sign(p)
	v, _ := t.value(p)
	return v, ok && s > 0
}
