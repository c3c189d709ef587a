package cimport

// C's integer / and % round towards zero, .knl's // and % towards minus
// infinity: they agree where the dividend and divisor cannot be
// negative, which C's unsigned int says (u32 here), and differ elsewhere,
// so a signed division of data is refused with what to write.
const signedDivision = ".knl's // and % round towards minus infinity, C's towards zero, so they differ where the dividend may be negative; not translated (of an unsigned char or short by a positive constant it is): declare the operands unsigned int where they cannot be negative, whose / and % translate, or compute in floating point (floorf(x/d), fmodf(x, d))"

// floatOperator says what to write for an integer operator that C
// refuses on floating-point operands.
func floatOperator(op string) string {
	if op == "%" {
		return "write fmodf(x, y) (fmod for doubles)"
	}
	return "convert the operand to an integer first ((int)x " + op + " ...)"
}
