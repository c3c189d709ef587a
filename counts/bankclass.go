package counts

// bankClass is the part of a local access's executions that falls in
// one conflict class: those of the warps whose degree, rounded up to a
// power of two, is degree. lanes is how many active lanes of a
// work-group those warps have.
type bankClass struct {
	degree, lanes int64
}
