package counts

import (
	"fmt"
	"maps"
	"slices"

	"github.com/uniperf/uniperf/counts/half"
)

// RunOptions adjusts Run.
type RunOptions struct {
	// Trace records, per global access site, the strides between
	// adjacent work-items, per local access site the index each
	// work-item of a group accessed, and per global array the flattened
	// indices accessed, in all and by direction (Tally.Sites,
	// Tally.LocalSites, Tally.Footprints, Tally.Loaded and Tally.Stored). It is slow; use it at small sizes.
	Trace bool
	// CountSubscripts counts the arithmetic of every subscript evaluated
	// as integer operations, as Options.CountSubscripts does.
	CountSubscripts bool
	// global, when set, is called for every global access in the order
	// the work-items perform them: the tests' oracle of the
	// memory-hierarchy counts.
	global func(array string, store bool, gid, lid [3]int64, flat int64)
	// iteration, when set, is called for every global access at a site
	// with affine subscripts, with the site ("instruction/index", as
	// SiteTrace names it), the sequential inames in scope and their
	// values (iter, "slot=value" pairs): the tests' oracle of the
	// per-iteration footprints.
	iteration func(site, array string, store bool, gid [3]int64, iter string, flat int64)
}

// Run executes a kernel with the reference interpreter at concrete
// parameters. arrays maps every global array's name to a Go slice of its
// element type ([]float32, []float64, []int32, []uint32, []int64, []int8,
// []uint8, []int16, []uint16, or []half.Float of package counts/half) holding exactly
// the array's number of elements; stores write into these slices. It may
// also map a scalar argument's name to its value (a Go number its type
// holds exactly); a scalar argument not in arrays takes its declared
// value (Array.Value).
//
// Execution follows the kernel's schedule work-group by work-group (in
// order of group index, axis 0 fastest). Within a group the work-items
// run in lock-step: each schedule node is executed by all work-items of
// the group (local id 0 fastest) before the next node starts. Each
// work-item has its own private temporaries and each group its own local
// arrays; both start out poisoned (NaN, or a sentinel for integers).
// Local memory accesses are checked for races: a work-item that reads a
// cell another work-item wrote, or writes a cell another work-item read
// or wrote, with no barrier in between, is an error unless the write
// leaves the value unchanged; it says to add a barrier between the two
// accesses. Stores to global memory are checked for write-write races: a
// work-item that stores a different value to an element another
// work-item stored to, of another group or of its own with no barrier in
// between, is an error naming both work-items and their groups and what
// removes the race: within a group a barrier between the stores; across
// groups, which no barrier orders, an element per work-item or one
// work-item storing (and, for x = x + v, atomic_add). Out-of-bounds subscripts, integer overflow,
// integer division by zero and conversions of non-finite or out-of-range
// values to integers are errors naming the instruction.
//
// The returned Tally counts what was executed, in the categories of the
// symbolic counts.
func Run(k *Kernel, params map[string]int64, arrays map[string]any, opts *RunOptions) (t *Tally, err error) {
	if opts == nil {
		opts = &RunOptions{}
	}
	e, err := newEngine(k, params)
	if err != nil {
		return nil, err
	}
	return e.run(opts, arrays)
}

func (e *engine) run(opts *RunOptions, arrays map[string]any) (t *Tally, err error) {
	defer recoverRun(&err)
	k := e.k
	g, err := e.grid()
	if err != nil {
		return nil, err
	}
	in := &interp{k: k, e: e, g: g, counterIndex: map[counterKey]int{}, countSubscripts: opts.CountSubscripts}
	if err := in.bindArrays(arrays); err != nil {
		return nil, err
	}
	if opts.Trace || opts.global != nil || opts.iteration != nil {
		in.trace = newTracer()
		in.trace.global = opts.global
		in.trace.iteration = opts.iteration
	}
	nodes, err := in.compileNodes(k.Schedule, nil)
	if err != nil {
		return nil, err
	}
	in.run(nodes)
	return in.tally(), nil
}

func (in *interp) bindArrays(arrays map[string]any) error {
	in.sizes = map[string][]int64{}
	in.global = map[string]any{}
	in.localMems = map[string]*localMem{}
	in.privMems = map[string]*privMem{}
	in.trips = map[string]int64{}
	in.scalars = map[string]Number{}
	in.writes = map[string]*globalWrites{}
	for _, a := range in.k.Arrays {
		ext := make([]int64, len(a.Shape))
		n := int64(1)
		for d, s := range a.Shape {
			v, err := s.Eval(in.e.params)
			if err == nil {
				n, err = mulInt(n, v)
			}
			if err != nil {
				return errorf(in.k.File, a.Pos, "array %s: size overflows 64-bit integers", a.Name)
			}
			if v <= 0 {
				return errorf(in.k.File, a.Pos, "array %s: extent %d along dimension %d is not positive at %s", a.Name, v, d, in.e.paramString())
			}
			ext[d] = v
		}
		in.sizes[a.Name] = ext
		if n > 1<<34 {
			return errorf(in.k.File, a.Pos, "array %s: %d elements is too large for the reference interpreter", a.Name, n)
		}
		switch a.Space {
		case Global:
			data, ok := arrays[a.Name]
			if !ok {
				return errorf(in.k.File, a.Pos, "no data for global array %s", a.Name)
			}
			if err := checkSlice(a, data, n); err != nil {
				return errorf(in.k.File, a.Pos, "%v", err)
			}
			in.global[a.Name] = data
		case Local:
			in.localMems[a.Name] = newLocalMem(a.DType, int(n))
		case Private:
			in.privMems[a.Name] = &privMem{size: int(n), float: a.DType.IsFloat()}
		case Argument:
			in.scalars[a.Name] = a.Value
			if v, ok := arrays[a.Name]; ok {
				lit, err := scalarData(a, v)
				if err != nil {
					return errorf(in.k.File, a.Pos, "%v", err)
				}
				in.scalars[a.Name] = lit
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(arrays)) {
		if a := in.k.arrayIndex[name]; a == nil || (a.Space != Global && a.Space != Argument) {
			return errorf(in.k.File, Pos{}, "data given for %s, which is not a global array or scalar argument of the kernel", name)
		}
	}
	nwi := in.g.local[0] * in.g.local[1] * in.g.local[2]
	if nwi > 1<<20 {
		return errorf(in.k.File, Pos{}, "work-group size %d is too large for the reference interpreter", nwi)
	}
	in.nWorkItems = int(nwi)
	for _, p := range in.privMems {
		p.alloc(in.nWorkItems)
	}
	return nil
}

func checkSlice(a *Array, data any, n int64) error {
	var length int
	var ok bool
	switch a.DType {
	case F32:
		var s []float32
		s, ok = data.([]float32)
		length = len(s)
	case F64:
		var s []float64
		s, ok = data.([]float64)
		length = len(s)
	case I32:
		var s []int32
		s, ok = data.([]int32)
		length = len(s)
	case I64:
		length, ok = sliceLen[int64](data)
	case U32:
		length, ok = sliceLen[uint32](data)
	case I8:
		length, ok = sliceLen[int8](data)
	case U8:
		length, ok = sliceLen[uint8](data)
	case I16:
		length, ok = sliceLen[int16](data)
	case U16:
		length, ok = sliceLen[uint16](data)
	case F16:
		var s []half.Float
		s, ok = data.([]half.Float)
		length = len(s)
	}
	if !ok {
		return fmt.Errorf("array %s has element type %s; its data must be a []%s, not %T", a.Name, a.DType, goType(a.DType), data)
	}
	if int64(length) != n {
		return fmt.Errorf("array %s has %d elements at these parameters, but its data has %d", a.Name, n, length)
	}
	return nil
}

func goType(t DType) string {
	return map[DType]string{F32: "float32", F64: "float64", I32: "int32", I64: "int64", I8: "int8", U8: "uint8", I16: "int16", U16: "uint16", F16: "half.Float", U32: "uint32"}[t]
}

// run executes every work-group.
func (in *interp) run(nodes []xnode) {
	in.st.v = append([]int64(nil), in.e.base...)
	in.groupCtr = in.counter(counterKey{kind: 3})
	g := in.g
	var gid [3]int64
	for gid[2] = 0; gid[2] < g.groups[2]; gid[2]++ {
		for gid[1] = 0; gid[1] < g.groups[1]; gid[1]++ {
			for gid[0] = 0; gid[0] < g.groups[0]; gid[0]++ {
				in.startGroup(gid)
				for _, n := range nodes {
					n.exec(in)
				}
			}
		}
	}
}

func (in *interp) startGroup(gid [3]int64) {
	st := &in.st
	st.counters[in.groupCtr]++
	st.epoch++
	st.gid = gid
	for a := range 3 {
		for _, s := range in.g.tagged[0][a] {
			st.v[s] = in.g.lb[s] + gid[a]
		}
	}
	for _, m := range in.localMems {
		m.poison()
	}
	for _, p := range in.privMems {
		p.poison()
	}
}

func (in *interp) tally() *Tally {
	t := &Tally{Global: map[MemAccess]int64{}, Local: map[MemAccess]int64{}, Ops: map[Op]int64{}, Statements: map[string]map[string]int64{}}
	for i, k := range in.counterKeys {
		v := in.st.counters[i]
		if v == 0 {
			continue
		}
		var name string
		switch k.kind {
		case 0:
			if k.space == Global {
				t.Global[k.mem] += v
			} else {
				t.Local[k.mem] += v
			}
			name = k.mem.property(k.space)
		case 1:
			t.Ops[k.op] += v
			name = k.op.Property()
		case 2:
			t.Barriers += v
			name = "sync.barrier"
		case 3:
			t.Groups += v
			continue
		}
		if t.Statements[k.stmt] == nil {
			t.Statements[k.stmt] = map[string]int64{}
		}
		t.Statements[k.stmt][name] += v
	}
	if in.trace != nil {
		t.Sites, t.Footprints = in.trace.result()
		t.Loaded, t.Stored = in.trace.loaded, in.trace.stored
		t.LocalSites = in.trace.locals
	}
	return t
}

func sliceLen[T integer](data any) (int, bool) {
	s, ok := data.([]T)
	return len(s), ok
}
