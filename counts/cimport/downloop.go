package cimport

// A loop that counts down by one, for (m = BLOCK_SIZE - 2; m >= 0; m--)
// in Rodinia's needle, is written as an iname over the variable's own
// values tagged down, which the .knl runs from its largest value to its
// least as C does, so that the body reads m itself: a test tx <= m costs
// nothing, as in C, where an iteration count m_it with m = 14 - m_it
// would cost a subtraction at each use. Any other step keeps the
// iteration count (name_it).

// countsDown reports whether a loop stepping by step counts down by one.
func countsDown(step poly) bool { return step.equal(constPoly(-1)) }

// tripOf is the number of iterations before the one where the loop's
// iname has value iname: iname itself, or start - iname where the loop
// counts down.
func tripOf(iname string, start aff, down bool) (aff, bool) {
	if !down {
		return affIname(iname), true
	}
	return start.add(affIname(iname), -1)
}

// downTags lists the tags of the inames of loops that count down.
func (t *translator) downTags() []string {
	var out []string
	for _, d := range t.down {
		out = append(out, d+" down")
	}
	return out
}
