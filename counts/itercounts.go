package counts

import "github.com/uniperf/uniperf/polyhedra"

// iterCounts are the per-iteration counts and the shared loads of each
// load reference of stride 0 or 1, with its property.
type iterCounts struct {
	counts []countedHierarchy
	shared []sharedLoads
}

type sharedLoads struct {
	property string
	n        *polyhedra.PwQPolynomial
}
