package counts

// Cache hints: "array a f32 [n] readonly" declares a global array that
// the kernel only reads. Its loads may take the read-only data path
// (CUDA's __ldg and const __restrict__ pointers, OpenCL's const restrict
// pointers), which tuned kernels use and which can cost other than a
// plain load, so they count as their own properties, global.ldg.T.stride=C
// beside global.load.T.stride=C. The name keeps the direction.type.stride
// shape of the other global properties, which every model reads.

// arrayAttribute reads one of the words after an array's shape:
// order=F or order=C, or readonly.
func (b *builder) arrayAttribute(c *cursor, a *rawArray) {
	t := c.ident("order=F, order=C or readonly")
	switch t.text {
	case "order":
		c.expect("=")
		o := c.ident("F or C")
		switch o.text {
		case "F":
			a.colMajor = true
		case "C":
		default:
			c.failAt(o.pos, "unknown order %q (want F for column-major or C for row-major)", o.text)
		}
	case "readonly":
		if a.space != Global {
			c.failAt(t.pos, "readonly marks global arrays that are read through the read-only cache; a %s array is not: drop readonly", a.space)
		}
		a.readOnly = true
	default:
		c.failAt(t.pos, "unknown array attribute %q (want order=F, order=C or readonly)", t.text)
	}
}

// accessDirection names the direction of an access in a property: load,
// store, or ldg for a load of a readonly global array.
func accessDirection(store, readOnly bool) string {
	switch {
	case store:
		return "store"
	case readOnly:
		return "ldg"
	}
	return "load"
}
