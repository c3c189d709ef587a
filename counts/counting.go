package counts

import (
	"errors"
	"fmt"

	"github.com/uniperf/uniperf/polyhedra"
)

// counting is the eventual outcome of counting one set.
type counting struct {
	done   chan struct{}
	n      *polyhedra.PwQPolynomial
	gisted *polyhedra.PwQPolynomial // n where the assumptions hold
	// assumed, when n is nil, is a maximum of counts that equals n where
	// the assumptions hold, n being zero elsewhere (see startMax).
	assumed *polyhedra.PwQPolynomial
	err     error
}

// maxOf returns the maximum of functions.
func maxOf(fs []*polyhedra.PwQPolynomial) (*polyhedra.PwQPolynomial, error) {
	m := fs[0]
	for _, f := range fs[1:] {
		var err error
		if m, err = m.Max(f); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// countSet counts the points of a set, given in isl notation,
// symbolically, within lim.
func countSet(text string, lim polyhedra.Limits) (*polyhedra.PwQPolynomial, error) {
	return countSetAt(text, nil, lim)
}

// countSetAt counts the points of a set, given in isl notation, within
// lim; with values, at those parameter values (a constant function).
// Fixing the parameters first keeps the count cheap.
func countSetAt(text string, values map[string]int64, lim polyhedra.Limits) (*polyhedra.PwQPolynomial, error) {
	s, err := polyhedra.ParseSetLimits(text, lim)
	if err == nil && values != nil {
		s, err = s.Specialize(values)
	}
	if err != nil {
		return nil, err
	}
	n, err := s.CardLimits(lim)
	var be *polyhedra.BudgetError
	if errors.As(err, &be) && be.Set != "" {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s, err)
	}
	return n, nil
}
