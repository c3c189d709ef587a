package fit

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Collinearity is a group of properties that the measurement set cannot
// tell apart: some combination of their columns (scaled to unit norm) is
// zero, or nearly so.
type Collinearity struct {
	Properties []string `json:"properties"`
	// Ratio is the smallest σ_k/σ_1 among the singular directions that
	// involve the group: 0 or about 1e-16 for an exact dependency.
	Ratio float64 `json:"singular_ratio"`
	// Exact is true when the ratio is below the rank tolerance, so that the
	// group lowers the rank.
	Exact bool `json:"exact"`
}

func (c Collinearity) String() string {
	kind := "nearly collinear"
	if c.Exact {
		kind = "collinear"
	}
	return fmt.Sprintf("%s (σ/σ₁ = %.1e): %s", kind, c.Ratio, strings.Join(c.Properties, ", "))
}

// involved is the threshold on null-space projector entries: entries of a
// dependency among k columns are about 1/k, rounding noise about ε·κ.
const involved = 1e-6

// collinear groups the properties that take part in the singular directions
// with σ_k/σ_1 < nearCollinear. The groups are the connected components of
// the non-zero pattern of the projector P = V_s V_sᵀ onto those directions.
// P does not depend on which basis the SVD picked for a repeated singular
// value, so two independent dependencies (a = b, c = 2d) come out as two
// groups even when the basis vectors mix them.
func collinear(sv []float64, v *mat.Dense, names []string, tol float64) []Collinearity {
	var small []int
	for k, s := range sv {
		if s < nearCollinear*sv[0] || s <= tol*sv[0] {
			small = append(small, k)
		}
	}
	if len(small) == 0 {
		return nil
	}
	n := len(names)
	proj := func(i, j int) float64 {
		var p float64
		for _, k := range small {
			p += v.At(i, k) * v.At(j, k)
		}
		return p
	}
	comp := make([]int, n)
	for i := range comp {
		comp[i] = -1
	}
	var groups [][]int
	for i := 0; i < n; i++ {
		if comp[i] >= 0 || proj(i, i) <= involved {
			continue
		}
		g := len(groups)
		comp[i] = g
		members := []int{i}
		for q := 0; q < len(members); q++ {
			for j := 0; j < n; j++ {
				if comp[j] < 0 && math.Abs(proj(members[q], j)) > involved {
					comp[j] = g
					members = append(members, j)
				}
			}
		}
		groups = append(groups, members)
	}
	out := make([]Collinearity, len(groups))
	for g, members := range groups {
		c := Collinearity{Ratio: math.Inf(1)}
		slices.Sort(members)
		for _, i := range members {
			c.Properties = append(c.Properties, names[i])
		}
		for _, k := range small {
			var w float64
			for _, i := range members {
				w += v.At(i, k) * v.At(i, k)
			}
			if w > involved/float64(len(small)) {
				c.Ratio = math.Min(c.Ratio, sv[k]/sv[0])
			}
		}
		c.Exact = c.Ratio <= tol
		out[g] = c
	}
	return out
}
