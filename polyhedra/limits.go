package polyhedra

import (
	"fmt"
	"runtime/metrics"
	"unicode/utf8"
)

// Limits bound the resources of one operation on sets: a count, a
// projection, an emptiness test. Past a limit the operation fails with
// *BudgetError instead of growing until the machine runs out of memory.
// The zero value means the defaults. No limit ever changes a result that
// is returned.
type Limits struct {
	// MaxPieces bounds the basic sets one operation creates: chambers,
	// residue classes, pieces of differences and cells of sums. A piece
	// of a count takes a few kilobytes, so the default of
	// DefaultMaxPieces keeps a count far below a gigabyte; the library
	// kernels of uniperf need a few hundred each.
	MaxPieces int64
	// MaxHeap bounds the Go heap, in bytes, checked every few hundred
	// pieces while the operation runs; 0 means DefaultMaxHeap. The heap
	// is the whole process's, so a program that holds much memory of its
	// own should raise it.
	MaxHeap int64
	// MaxPoints bounds the candidate points an enumeration tests (the
	// points of the bounding shadows, which may be far more than the
	// set's own); 0 means DefaultMaxPoints, seconds of work.
	MaxPoints int64
}

// The defaults of Limits.
const (
	DefaultMaxPieces = 10_000
	DefaultMaxHeap   = 4 << 30
	DefaultMaxPoints = 10_000_000
)

func (l Limits) withDefaults() Limits {
	if l.MaxPieces <= 0 {
		l.MaxPieces = DefaultMaxPieces
	}
	if l.MaxHeap <= 0 {
		l.MaxHeap = DefaultMaxHeap
	}
	if l.MaxPoints <= 0 {
		l.MaxPoints = DefaultMaxPoints
	}
	return l
}

// BudgetError reports an operation stopped at one of its Limits.
type BudgetError struct {
	Limit string // which limit: "pieces", "heap" or "points"
	Value int64  // the limit's value
	Set   string // the set operated on, in isl notation, when known
}

func (e *BudgetError) Error() string {
	var s string
	switch e.Limit {
	case "heap":
		s = fmt.Sprintf("the heap grew past the memory budget of %d MiB", e.Value>>20)
	case "points":
		s = fmt.Sprintf("more than %d candidate points to enumerate (the enumeration budget)", e.Value)
	default:
		s = fmt.Sprintf("more than %d basic sets (the piece budget) needed", e.Value)
	}
	if e.Set != "" {
		s += " for " + Brief(e.Set)
	}
	return s
}

// briefLen bounds the characters of a set that an error message quotes.
const briefLen = 200

// Brief shortens a set's text for an error message: a set past budgets
// often runs to kilobytes, which buried the cause. The whole text stays
// in the error's fields (BudgetError.Set).
func Brief(set string) string {
	if len(set) <= briefLen {
		return set
	}
	cut := briefLen
	for cut > 0 && !utf8.RuneStart(set[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d characters)", set[:cut], len(set))
}

// budgetPanic unwinds out of an operation at a limit, like overflowPanic;
// catch turns it back into the error.
type budgetPanic struct{ err *BudgetError }

// heapCheckEvery is how many pieces pass between two looks at the heap.
const heapCheckEvery = 256

// A budget counts the work shared by all bsets derived from one
// operation: elimination steps and polynomial terms (bounded by
// workLimit), Fourier–Motzkin runs (fmLimitCalls) and pieces (Limits).
type budget struct {
	used, fmCalls int64
	pieces        int64
	nextHeapCheck int64
	rows          int64 // constraints created by projection steps
	nextRowCheck  int64
	limits        Limits
	subject       func() string // the set operated on, for BudgetError
}

func newBudget(l Limits) *budget {
	return &budget{limits: l.withDefaults(), nextHeapCheck: heapCheckEvery}
}

// charge records n new pieces; past a limit it unwinds with budgetPanic.
func (w *budget) charge(n int) {
	if w == nil {
		return
	}
	w.pieces += int64(n)
	if w.pieces > w.limits.MaxPieces {
		w.stop("pieces", w.limits.MaxPieces)
	}
	if w.pieces >= w.nextHeapCheck {
		w.nextHeapCheck = w.pieces + heapCheckEvery
		if heapBytes() > w.limits.MaxHeap {
			w.stop("heap", w.limits.MaxHeap)
		}
	}
}

func (w *budget) stop(limit string, value int64) {
	e := &BudgetError{Limit: limit, Value: value}
	if w.subject != nil {
		e.Set = w.subject()
	}
	panic(budgetPanic{e})
}

// heapBytes returns the bytes of heap objects, live or not yet swept: an
// upper bound of the live heap that costs no stop of the world.
func heapBytes() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}
