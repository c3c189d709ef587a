package counts

import (
	"slices"
	"sync"

	"github.com/uniperf/uniperf/polyhedra"
)

// Shared holds what the counts at fixed sizes of many bindings of one
// kernel's consts have in common, for the calls of CountWithAt that
// name it in their Options, as a tuner counts a space: the counts of the
// independent parts of their sets (see countFixed), and the
// bank-conflict classes of their local accesses, which depend on the
// work-group's shape and the accesses' strides across the lanes only.
// It holds at most maxShared of each and finds the others anew. The
// zero value is not ready for use; a Shared is safe for concurrent use.
type Shared struct {
	mu      sync.Mutex
	lim     polyhedra.Limits
	sets    map[string]*counting
	classes map[string][]bankClass
}

// maxShared bounds the parts and the classes a Shared keeps: a part of
// the convolution's sets is a few kilobytes of text and count, and 10^4
// bindings of it need under a thousand.
const maxShared = 1 << 14

// NewShared returns an empty Shared.
func NewShared() *Shared {
	return &Shared{sets: map[string]*counting{}, classes: map[string][]bankClass{}}
}

// count counts the set text within lim, once for every caller that
// shares s with the same limits; the first caller counts it, the others
// wait for its count.
func (s *Shared) count(text string, lim polyhedra.Limits) (*polyhedra.PwQPolynomial, error) {
	if s == nil {
		return countSet(text, lim)
	}
	s.mu.Lock()
	if len(s.sets) == 0 {
		s.lim = lim
	}
	r, ok := s.sets[text]
	if !ok && (s.lim != lim || len(s.sets) >= maxShared) {
		s.mu.Unlock()
		return countSet(text, lim)
	}
	if !ok {
		r = &counting{done: make(chan struct{})}
		s.sets[text] = r
	}
	s.mu.Unlock()
	if !ok {
		r.n, r.err = countSet(text, lim)
		close(r.done)
	}
	<-r.done
	return r.n, r.err
}

// bankClasses returns the classes kept under key, if any.
func (s *Shared) bankClasses(key string) ([]bankClass, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.classes[key]
	return slices.Clone(c), ok
}

// keepBankClasses keeps c under key while there is room.
func (s *Shared) keepBankClasses(key string, c []bankClass) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.classes) < maxShared {
		s.classes[key] = slices.Clone(c)
	}
}
