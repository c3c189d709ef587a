package counts

import "fmt"

// An array's extent is written in the domains' notation (isl's) and must
// come out affine in the parameters, products of parameters allowed
// (Array.Shape): floor(e/d), ceil(e/d) and mod fold where e holds consts
// only, and an extent that divides a parameter is a parameter of its own,
// tied to the others by an assumption. The refusals here say so, since a
// C programmer writes the host's n / 2 as n // 2 or n/2.

// parseExtent reads the extent of array name's dimension.
func (c *cursor) parseExtent(name string) qaff {
	pos := c.peek().pos
	c.products = true
	r := c.parseRSum()
	c.products = false
	if t := c.peek(); t.is("//") {
		c.failAt(t.pos, "array %s: an extent divides as domains do, with floor(e/d) (floor(H/2) for H // 2 of a const H); where it divides a parameter, %s", name, parameterExtent(name))
	}
	q, ok := r.integer()
	switch {
	case ok:
		return q
	case r.q.isConst():
		c.failAt(pos, "array %s: the extent (%s)/%d is not an integer: write floor(e/d) or ceil(e/d)", name, r.q, r.den)
	}
	c.failAt(pos, "array %s: the extent (%s)/%d divides a parameter, and a shape is affine in the parameters: %s", name, r.q, r.den, parameterExtent(name))
	return qaff{}
}

// parameterExtent says how to write an extent that divides a parameter.
func parameterExtent(name string) string {
	return dividedParameter("extent", "array "+name+" f32 [nh]")
}

// dividedParameter says how to write what divides a parameter where the
// counts need it affine in the parameters (an extent, a data-bounded
// loop's max): as a parameter of its own, used as use shows.
func dividedParameter(what, use string) string {
	return fmt.Sprintf("declare a parameter for the %s and tie it to the others with an assumption (%s with assume 2*nh <= n <= 2*nh + 1 for n // 2, or assume n = 2*nh where n is even)", what, use)
}
