package counts

// LocalBytes returns the bytes of k's local arrays, the local memory a
// work-group declares (their shapes are constant), saturating at
// math.MaxInt64: no device holds that much, and a limit checked
// against it stays refused rather than wrapping round.
func (k *Kernel) LocalBytes() int64 {
	var total int64
	for _, a := range k.Arrays {
		if a.Space == Local {
			total = satAdd(total, a.constBytes())
		}
	}
	return total
}

// constBytes returns the bytes of an array of constant shape (a local or
// private one), saturating at math.MaxInt64.
func (a *Array) constBytes() int64 {
	size := int64(a.DType.Size())
	for _, d := range a.Shape {
		size = satMul(size, max(d.Const, 0))
	}
	return size
}
