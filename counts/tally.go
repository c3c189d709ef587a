package counts

// MemAccess identifies memory traffic to one array in one direction.
// ReadOnly marks the loads of a readonly global array, Indirect accesses
// whose subscripts read data, Atomic the additions of atomic_add (Store
// is then set).
type MemAccess struct {
	Array    string
	DType    DType
	Store    bool
	ReadOnly bool
	Indirect bool
	Atomic   bool
}

// Tally is what a run of the reference interpreter performed, counted
// per execution: every global and local load and store (per array and
// direction), every operation by kind and type, every barrier encountered
// by every work-item, and the work-groups launched.
type Tally struct {
	Global   map[MemAccess]int64
	Local    map[MemAccess]int64
	Ops      map[Op]int64
	Barriers int64
	Groups   int64
	// Statements splits Global, Local, Ops and Barriers by the statement
	// that performed them: statement id -> property name, as in Totals.
	Statements map[string]map[string]int64

	// Sites, LocalSites, Footprints, Loaded and Stored are filled in when
	// RunOptions.Trace is set.
	Sites      []*SiteTrace
	LocalSites []*LocalSiteTrace
	Footprints map[string]map[int64]bool // global array -> flattened indices accessed
	// Loaded and Stored split Footprints by direction.
	Loaded, Stored map[string]map[int64]bool
}

// SiteTrace records what one global access site (an array reference in an
// instruction) did during a run.
type SiteTrace struct {
	Instruction string
	Site        int // index among the instruction's global accesses, left-hand side first
	Array       string
	Store       bool
	Count       int64
	// Strides holds each observed difference between the flattened
	// indices accessed by work-items adjacent along l.0 (local ids lx and
	// lx+1, everything else equal) at the same point of the iteration,
	// with the number of times it was observed.
	Strides map[int64]int64
}

// Totals returns the tally by property name, without stride classes:
// global.load.f32, global.store.f64, local.load.f32,
// global.load.indirect.i32, global.atomic.f32.add, flop.f32.add,
// int.i32.add, sync.barrier, launch.groups, launch.const. Zero entries
// are left out.
func (t *Tally) Totals() map[string]int64 {
	m := map[string]int64{}
	add := func(name string, v int64) {
		if v != 0 {
			m[name] += v
		}
	}
	for k, v := range t.Global {
		add(k.property(Global), v)
	}
	for k, v := range t.Local {
		add(k.property(Local), v)
	}
	for k, v := range t.Ops {
		add(k.Property(), v)
	}
	add("sync.barrier", t.Barriers)
	add("launch.groups", t.Groups)
	add("launch.const", 1)
	return m
}

// memProperty names the traffic of a space in one direction at one type,
// without stride class: global.load.f32, global.ldg.f32 (a readonly
// array's loads), local.store.f64.
func memProperty(space Space, m MemAccess) string {
	return space.String() + "." + accessDirection(m.Store, m.ReadOnly) + "." + m.DType.MemName()
}

func direction(store bool) string {
	if store {
		return "store"
	}
	return "load"
}

// LocalSiteTrace records what one local access site (an array reference
// in an instruction) did during a run: for each time a work-group
// executed it, the flattened index each of the group's work-items
// accessed, by its linear local id (l.0 fastest), so that the warps of
// a group and the banks they ask for can be read off.
type LocalSiteTrace struct {
	Instruction string
	Array       string
	Store       bool
	// Instances maps an execution (the work-group and the values of the
	// sequential inames in scope) to work-item -> flattened index.
	Instances map[string]map[int64]int64
}

// property names the traffic m counts in space, without stride class.
// An indirect load of a readonly array counts as indirect: its data-chosen
// addresses, not the read-only path, are what set its cost.
func (m MemAccess) property(space Space) string {
	switch {
	case m.Atomic:
		return atomicProperty(space, m.DType)
	case m.Indirect:
		return indirectProperty(space, m.Store, m.DType)
	}
	return memProperty(space, m)
}

// indirectProperty names the traffic of indirect accesses of one space,
// direction and type: global.load.indirect.f32, local.store.indirect.i32,
// global.load.indirect.b8 (narrow types by width, as memProperty names
// them). They have no stride class or bank-conflict degree: the addresses
// are data.
func indirectProperty(space Space, store bool, t DType) string {
	return space.String() + "." + direction(store) + ".indirect." + t.MemName()
}

// atomicProperty names the atomic additions to one space at one type:
// global.atomic.i32.add, local.atomic.f32.add. Their cost depends on
// how many work-items add to one address at once (contention), which
// the counts cannot know; the measurement classes that price them take
// it as a parameter.
func atomicProperty(space Space, t DType) string {
	return space.String() + ".atomic." + t.MemName() + ".add"
}
