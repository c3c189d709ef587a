package fit

import (
	"fmt"
	"strings"
)

// RankError reports a rank-deficient fit: the measurement rows do not
// determine every weight.
type RankError struct {
	Rank       int            // numerical rank of the column-scaled matrix
	Properties int            // properties in the fit (after dropping zero ones)
	Condition  float64        // σ_1/σ_n of the column-scaled matrix
	Collinear  []Collinearity // groups, exact ones included
}

func (e *RankError) Error() string {
	var groups []string
	for _, c := range e.Collinear {
		if c.Exact {
			groups = append(groups, "{"+strings.Join(c.Properties, ", ")+"}")
		}
	}
	return fmt.Sprintf("fit: rank %d of %d properties (condition number %.3g): collinear over the measurement rows: %s; "+
		"add measurement kernels that vary these properties independently, or ask for the minimum-norm solution",
		e.Rank, e.Properties, e.Condition, strings.Join(groups, "; "))
}
