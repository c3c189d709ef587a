package counts

// This file counts the arithmetic of subscripts, which Options.
// CountSubscripts adds to the operations (loopy's count_within_subscripts).

// subscriptOps returns the operations that evaluating an affine subscript
// takes, written as a sum of terms after splitting and constant
// substitution (16*i_out + i_in - 1, or n*i + j flattened): an add for
// each summand after the first (a subtraction is an add), a mul for each
// term whose coefficient is not 1 or -1 and one for each name it
// multiplies beyond the first, and for a floor division (// or % by a
// constant) the operations of its dividend and a div, as loopy counts the sums and products of
// an index expression. Subscripts are i32, like the inames and
// parameters they combine.
func subscriptOps(a Affine) []Op {
	var ops []Op
	summands := len(a.Terms) + len(a.Floors)
	if a.Const != 0 {
		summands++
	}
	for _, f := range a.Floors {
		ops = append(ops, subscriptOps(f.Num)...)
		ops = append(ops, Op{KindDiv, I32})
		if f.Coeff != 1 && f.Coeff != -1 {
			ops = append(ops, Op{KindMul, I32})
		}
	}
	for range summands - 1 {
		ops = append(ops, Op{KindAdd, I32})
	}
	for _, t := range a.Terms {
		muls := len(t.Factors()) - 1
		if t.Coeff != 1 && t.Coeff != -1 {
			muls++
		}
		for range muls {
			ops = append(ops, Op{KindMul, I32})
		}
	}
	return ops
}

// subscripts adds the arithmetic of an access's subscripts, performed
// as often as the access (count), and returns its operations.
func (p *plan) subscripts(acc *Access, count term) []Op {
	var ops []Op
	for _, ix := range acc.Index {
		for _, op := range subscriptOps(ix) {
			p.static[op.Property()] = append(p.static[op.Property()], count)
			ops = append(ops, op)
		}
	}
	return ops
}
