// Package cycle has two files that use each other.
package cycle

// A uses b.go's B.
func A() int { return B() + 1 }

// T's method is used by b.go.
type T struct{}

// M is used by b.go.
func (T) M() int { return 2 }
