package counts

// grid is the launch grid of a kernel at concrete parameters.
type grid struct {
	groups, local [3]int64
	// lb is the lower bound of each tagged iname: work-group (or
	// work-item) index q along its axis runs that iname at lb + q.
	lb map[int]int64
	// tagged lists the slots of the tagged inames per hardware axis:
	// tagged[0][a] for g.a, tagged[1][a] for l.a.
	tagged [2][3][]int
}

// Launch returns the launch grid at the given parameters: the global size
// (work-items) and the work-group size along each hardware axis. The
// number of work-groups along axis a is the largest extent of the inames
// tagged g.a, the work-group size the largest extent of those tagged l.a
// (several inames may share an axis, say a prefetch iname and a compute
// iname); an axis without tagged inames has size 1. An iname's extent is
// max - min + 1 over the values it takes on its axis (IndexDomain), and
// value min + q runs on index q. A work-group iname takes the values of
// the kernel domain projected onto it, so no group is launched without
// work. A local iname takes its own range where the domain bounds it by
// itself, with the constraints that mention it and parameters only, as a
// C host launches the block size the kernel was written for:
// "split i 256" launches groups of 256 work-items at every n, ceil(n/256)
// of them, the work-items past n idle, and jacobi-1d's interior
// 1 <= i < n - 1, split by 256, runs i_in from 0 at every n, work-item 0
// of the first group idle. Where the domain bounds a local iname only
// together with other inames (0 <= l and 16*g + l < n), it takes the
// values of the domain projected onto it at params. Inames of shorter
// extent than their axis, and work-items whose values lie outside the
// domain, are idle in the instructions that run in those inames;
// barriers and instructions that run in no iname of an axis run on all
// of its work-items.
func (k *Kernel) Launch(params map[string]int64) (global, local [3]int64, err error) {
	e, err := newEngine(k, params)
	if err != nil {
		return global, local, err
	}
	return e.launch()
}

// IndexBases returns, at the given parameters, the value each tagged
// iname takes at index 0 of its hardware axis (its least value in
// IndexDomain): the work-group or work-item with index q runs iname x at
// bases[x] + q. Inames whose projection is empty are left out.
func (k *Kernel) IndexBases(params map[string]int64) (bases map[string]int64, err error) {
	e, err := newEngine(k, params)
	if err != nil {
		return nil, err
	}
	defer recoverRun(&err)
	g, err := e.grid()
	if err != nil {
		return nil, err
	}
	bases = map[string]int64{}
	for slot, lb := range g.lb {
		bases[k.Inames[slot].Name] = lb
	}
	return bases, nil
}

func (e *engine) launch() (global, local [3]int64, err error) {
	defer recoverRun(&err)
	g, err := e.grid()
	if err != nil {
		return global, local, err
	}
	for a := range 3 {
		// Parameters up to 2^40 and a local iname's own range can give
		// a grid whose work-items no int64 holds; wrapped round, it
		// would read as empty or negative.
		if global[a], err = mulInt(g.groups[a], g.local[a]); err != nil {
			return [3]int64{}, [3]int64{}, errorf(e.file, Pos{}, "the launch grid along axis %d, %d groups of %d work-items, has more work-items than 64-bit integers hold (at %s)", a, g.groups[a], g.local[a], e.paramString())
		}
	}
	return global, g.local, nil
}

func (e *engine) grid() (*grid, error) {
	g := &grid{lb: map[int]int64{}}
	for a := range 3 {
		g.groups[a], g.local[a] = 1, 1
	}
	seen := [2][3]bool{}
	for _, in := range e.k.Inames {
		if !in.Tag.Parallel() {
			continue
		}
		kind := 0
		if in.Tag.Kind == LocalID {
			kind = 1
		}
		slot := e.slot[in.Name]
		g.tagged[kind][in.Tag.Axis] = append(g.tagged[kind][in.Tag.Axis], slot)
		dom, err := e.indexDomain(in.Name)
		if err != nil {
			return nil, err
		}
		q := e.newQuery(dom, nil, []string{in.Name})
		v := append([]int64(nil), e.base...)
		lo, hi, ok := q.extremes(v)
		extent := int64(0)
		if ok {
			extent = hi - lo + 1
			g.lb[slot] = lo
			values := extent
			if !q.convex() {
				values = 0
				q.each(v, func() { values++ })
			}
			if values != extent {
				return nil, errorf(e.file, e.k.Domains[in.Domain].pos, "iname %s (%s) takes %d values between %d and %d at %s, not all of them: a hardware index must run over a contiguous range",
					in.Name, in.Tag, values, lo, hi, e.paramString())
			}
		}
		size := &g.groups[in.Tag.Axis]
		if kind == 1 {
			size = &g.local[in.Tag.Axis]
		}
		if !seen[kind][in.Tag.Axis] || extent > *size {
			*size = extent
		}
		seen[kind][in.Tag.Axis] = true
	}
	return g, nil
}
