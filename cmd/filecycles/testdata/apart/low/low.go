// Package low is imported by high.
package low

// One is used by package high.
const One = 1
