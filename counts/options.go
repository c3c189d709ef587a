package counts

import "github.com/uniperf/uniperf/polyhedra"

// Options adjusts what CountWith counts.
type Options struct {
	// CountSubscripts counts the arithmetic of array subscripts as
	// integer operations, as loopy's count_within_subscripts does: an
	// int.i32.add per + or - and an int.i32.mul per coefficient other
	// than ±1 of each subscript, written after splitting (a[i] with i
	// split by 16 is a[16*i_out + i_in]: an add and a mul), once per
	// evaluation of the access. Without it, subscripts are address
	// computation and cost nothing.
	CountSubscripts bool
	// Banks and BankBytes are the local-memory banks that local
	// accesses are classed by (see bankClasses): Banks banks of
	// BankBytes bytes, and warps of Banks lanes. Zero means
	// DefaultBanks and DefaultBankBytes.
	Banks, BankBytes int
	// Limits bound the symbolic count of each set of the counting plan
	// (the zero value means polyhedra's defaults). Past them CountWith
	// fails with an error that wraps the *polyhedra.BudgetError or
	// *polyhedra.ComplexityError, so that a caller can fall back to
	// CountAt.
	Limits polyhedra.Limits
	// Shared, when set, shares what the counts that name it have in
	// common (see Shared): the counts of the independent parts of sets
	// at fixed sizes (CountWithAt, and counts at given sizes where no
	// symbolic count exists), and the bank-conflict classes of local
	// accesses, so that a space of bindings of a kernel's consts finds
	// each once.
	Shared *Shared
}
