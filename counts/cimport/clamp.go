package cimport

// maxClampArgs bounds the arguments of a clamp, and so the size of the
// conditions built from it.
const maxClampArgs = 8

// clampOf is fn(a, b) as a clamp, nil where an operand is neither
// affine nor a clamp of the same function.
func clampOf(fn string, a, b *value) *clamp {
	var args []aff
	for _, v := range []*value{a, b} {
		switch {
		case v.kind == vInt:
			args = append(args, v.a)
		case v.clamp != nil && v.clamp.fn == fn:
			args = append(args, v.clamp.args...)
		default:
			return nil
		}
	}
	if len(args) > maxClampArgs {
		return nil
	}
	return &clamp{fn: fn, args: args}
}

var flipped = map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<="}

// clampCompare is the affine condition l REL r where l and r are
// affine or clamps: tx >= max(a, b) holds where tx >= a and tx >= b,
// tx <= max(a, b) where either holds, so that a guard built of clamps
// counts exactly where a data condition would be an upper bound. ok is
// false where they are not, or REL is == or != (which a clamp's pieces
// would need), or an integer overflows.
func clampCompare(l *value, rel string, r *value) (*cond, bool) {
	if flipped[rel] == "" {
		return nil, false
	}
	if l.kind == vInt && r.kind == vInt {
		return compare(l.a, rel, r.a)
	}
	if l.clamp == nil {
		if r.clamp == nil || l.kind != vInt {
			return nil, false
		}
		return clampCompare(r, flipped[rel], l)
	}
	if r.kind != vInt && r.clamp == nil {
		return nil, false
	}
	// max(args) > r holds where some argument is > r, max(args) < r
	// where every one is; min the other way round.
	some := (l.clamp.fn == "max") == (rel[0] == '>')
	var out *cond
	for _, a := range l.clamp.args {
		c, ok := clampCompare(&value{kind: vInt, a: a}, rel, r)
		switch {
		case !ok:
			return nil, false
		case out == nil:
			out = c
		case some:
			out = or(out, c)
		default:
			out = and(out, c)
		}
	}
	return out, true
}

// keepsClamp reports whether a store to the data variable v here leaves
// it known as a clamp after: a store in straight-line code where v was
// declared, not in a branch or a loop, whose other path would keep
// another value.
func (t *translator) keepsClamp(v *variable) bool {
	return v.scope == t.scope && v.depth == len(t.frames)
}
