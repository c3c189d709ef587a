package counts

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/uniperf/uniperf/polyhedra"
)

// Count counts every property of k symbolically, once per kernel; the
// result evaluates them at any parameters. Each set of the counting plan
// is counted with package polyhedra; products and sums of counts are
// formed with its exact arithmetic, and the launch size of an axis with
// several tagged inames is the maximum of their extents.
func Count(k *Kernel) (*Counted, error) { return CountWith(k, Options{}) }

// CountWith counts every property of k symbolically, as Count does, with
// options.
func CountWith(k *Kernel, opts Options) (*Counted, error) {
	if opts.Banks < 0 || opts.Banks > maxBanks || opts.BankBytes < 0 || opts.BankBytes > 16 {
		return nil, fmt.Errorf("counting kernel %s: %d local-memory banks of %d bytes: want 1 to %d banks of 1 to 16 bytes (0: the default)", k.Name, opts.Banks, opts.BankBytes, maxBanks)
	}
	return countWith(k, opts, nil)
}

// countWith is CountWith, with every parameter fixed at fixed where it
// is not nil (see CountWithAt).
func countWith(k *Kernel, opts Options, fixed map[string]int64) (*Counted, error) {
	p, err := newCountingPlan(k, opts, fixed)
	if err != nil {
		return nil, err
	}
	b := &counter{p: p, c: &Counted{k: k, plan: p, params: slices.Clone(k.Params), fixed: fixed, assumedMax: map[int]*polyhedra.PwQPolynomial{}}, set: map[int]int{}, max: map[string]int{}}
	b.unit = p.add(&uset{pieces: []piece{{}}})
	if err := b.count(); err != nil {
		hint := ""
		if ub := (*polyhedra.UnboundedError)(nil); errors.As(err, &ub) {
			hint = boundHint(ub.Dim)
		}
		return nil, errorf(k.File, Pos{}, "counting kernel %s: %v%s", k.Name, err, hint)
	}
	p.eager = false // sets the plan registers from now on are footprints
	c := b.c
	if err = c.gist(); err != nil {
		return nil, errorf(k.File, Pos{}, "counting kernel %s: %v", k.Name, err)
	}
	c.names = c.possibleNames()
	c.upper = c.upperBounds()
	c.sums = sync.OnceValues(c.groupSums)
	c.footprints = sync.OnceValues(c.countFootprints)
	c.hierarchy = sync.OnceValues(c.countHierarchy)
	c.iterFootprints = sync.OnceValues(c.countIterFootprints)
	if c.all, err = c.compile(c.names); err != nil {
		return nil, err
	}
	return c, nil
}

// gist prepares the counted quantities for evaluation at parameters
// that satisfy the kernel's assumptions (evaluation checks them first),
// dropping the constraints they imply, and counts the assumptions
// themselves: a set without dimensions has one point where they hold.
func (c *Counted) gist() error {
	var err error
	if c.assumed, err = c.plan.ctx.Card(); err != nil {
		return err
	}
	for i, v := range c.values {
		if c.gisted[i] == nil && c.fixed != nil {
			// A count at fixed parameters is exact there; simplifying it
			// against the assumptions is no help.
			c.gisted[i] = v
		}
		if c.gisted[i] != nil {
			continue
		}
		if c.gisted[i], err = v.Gist(c.plan.ctx); err != nil {
			return err
		}
	}
	return nil
}

// possibleNames lists every property that is non-zero at some
// parameters, as far as the structure of the kernel tells: the fixed
// ones, every class a strided access may fall in, and the minima of
// loads and stores of a type and class that both may have.
func (c *Counted) possibleNames() []string {
	seen := map[string]bool{}
	for _, g := range c.groups {
		if g.util < 0 {
			seen[g.name] = true
			continue
		}
		for num := int64(1); num <= c.utils[g.util].den; num++ {
			seen[g.nameAt(num)] = true
		}
	}
	for name := range seen {
		if rest, ok := minLdStRest(name); ok && seen["global.store."+rest] {
			seen["global.minldst."+rest] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// upperBounds lists the properties that some group counted under a
// condition that is not affine: every name its class may take, and the
// minima of loads and stores that involve one.
func (c *Counted) upperBounds() map[string]bool {
	up := map[string]bool{}
	for _, g := range c.groups {
		if !g.upper {
			continue
		}
		if g.util < 0 {
			up[g.name] = true
			continue
		}
		for num := int64(1); num <= c.utils[g.util].den; num++ {
			up[g.nameAt(num)] = true
		}
	}
	for _, name := range c.names {
		if rest, ok := strings.CutPrefix(name, "global.minldst."); ok && (up["global.load."+rest] || up["global.store."+rest]) {
			up[name] = true
		}
	}
	return up
}
