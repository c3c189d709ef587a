// Package oneway has one file that uses the other, and not back.
package oneway

// A uses b.go's B and c.
func A() int { return B() + c }
