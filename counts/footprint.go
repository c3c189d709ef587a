package counts

import (
	"github.com/uniperf/uniperf/polyhedra"
)

// Footprint is the set of distinct elements of a global array that a
// kernel's loads, or its stores, touch over the whole launch: the union,
// over the array's references in that direction, of the images of their
// execution domains under their subscripts. An element that several
// work-items, loop iterations or references touch counts once, so the
// count is exact whether or not a reference's subscripts are injective.
type Footprint struct {
	Array string
	DType DType
	Store bool
	// Elements is the number of elements, a piecewise quasi-polynomial
	// in the parameters in isl notation.
	Elements string
	// Bytes is Elements times the size of an element.
	Bytes string
	// UpperBound is set when a reference in this direction executes
	// under a condition that is not affine (see Counted.UpperBound): the
	// footprint then counts it as if it always executed.
	UpperBound bool
	// AtSizes is set when the footprint has no symbolic form and was
	// counted at the parameters given to Counted.FootprintsAt; Elements
	// and Bytes are then its values there.
	AtSizes bool
}

// FootprintSize is the size of a footprint at given parameters.
type FootprintSize struct {
	Elements, Bytes int64
}

// countedFootprint is a footprint with its count of elements.
type countedFootprint struct {
	Footprint
	elements *polyhedra.PwQPolynomial
}
