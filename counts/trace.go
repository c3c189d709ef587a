package counts

import (
	"maps"
	"strconv"
)

// tracer records global and local accesses for RunOptions.Trace.
type tracer struct {
	sites  []*siteRec
	locals []*LocalSiteTrace
	// loaded and stored hold, per global array, the flattened indices
	// accessed in each direction; the footprints are their union.
	loaded, stored map[string]map[int64]bool
	global         func(array string, store bool, gid, lid [3]int64, flat int64)
	iteration      func(site, array string, store bool, gid [3]int64, iter string, flat int64)
}

type siteRec struct {
	info  SiteTrace
	lanes map[string]map[int64]int64 // instance -> l.0 local id -> flattened index
	cells map[int64]bool             // the site's array's entry in loaded or stored
}

func newTracer() *tracer {
	return &tracer{loaded: map[string]map[int64]bool{}, stored: map[string]map[int64]bool{}}
}

func (t *tracer) newSite(ins *Instruction, site int, a *Array, store bool) *siteRec {
	s := &siteRec{info: SiteTrace{Instruction: ins.ID, Site: site, Array: a.Name, Store: store, Strides: map[int64]int64{}},
		lanes: map[string]map[int64]int64{}}
	t.sites = append(t.sites, s)
	dir := t.loaded
	if store {
		dir = t.stored
	}
	if dir[a.Name] == nil {
		dir[a.Name] = map[int64]bool{}
	}
	s.cells = dir[a.Name]
	return s
}

// record notes one access. The instance key holds everything but the
// l.0 local id: the group, the other local ids and the values of the
// sequential inames in scope (ctx).
func (t *tracer) record(s *siteRec, st *state, gid [3]int64, ctx []int, flat int64) {
	s.info.Count++
	s.cells[flat] = true
	if t.global != nil {
		t.global(s.info.Array, s.info.Store, gid, st.lid, flat)
	}
	if t.iteration != nil {
		t.iteration(s.info.Instruction+"/"+strconv.Itoa(s.info.Site), s.info.Array, s.info.Store, gid, iterationKey(st, ctx), flat)
	}
	key := make([]byte, 0, 64)
	for _, x := range gid {
		key = strconv.AppendInt(key, x, 10)
		key = append(key, ',')
	}
	key = strconv.AppendInt(key, st.lid[1], 10)
	key = append(key, ',')
	key = strconv.AppendInt(key, st.lid[2], 10)
	for _, slot := range ctx {
		key = append(key, ',')
		key = strconv.AppendInt(key, st.v[slot], 10)
	}
	lanes := s.lanes[string(key)]
	if lanes == nil {
		lanes = map[int64]int64{}
		s.lanes[string(key)] = lanes
	}
	lanes[st.lid[0]] = flat
}

func (t *tracer) newLocalSite(ins *Instruction, a *Array, store bool) *LocalSiteTrace {
	s := &LocalSiteTrace{Instruction: ins.ID, Array: a.Name, Store: store, Instances: map[string]map[int64]int64{}}
	t.locals = append(t.locals, s)
	return s
}

// recordLocal notes one local access by work-item wi of its group.
func recordLocal(s *LocalSiteTrace, st *state, ctx []int, flat int64) {
	key := make([]byte, 0, 64)
	for _, x := range st.gid {
		key = strconv.AppendInt(key, x, 10)
		key = append(key, ',')
	}
	for _, slot := range ctx {
		key = strconv.AppendInt(key, st.v[slot], 10)
		key = append(key, ',')
	}
	lanes := s.Instances[string(key)]
	if lanes == nil {
		lanes = map[int64]int64{}
		s.Instances[string(key)] = lanes
	}
	lanes[int64(st.wi)] = flat
}

func (t *tracer) result() ([]*SiteTrace, map[string]map[int64]bool) {
	out := make([]*SiteTrace, len(t.sites))
	for i, s := range t.sites {
		for _, lanes := range s.lanes {
			for l, f := range lanes {
				if g, ok := lanes[l+1]; ok {
					s.info.Strides[g-f]++
				}
			}
		}
		info := s.info
		out[i] = &info
	}
	return out, t.footprints()
}

// footprints unites the loaded and stored indices of each array.
func (t *tracer) footprints() map[string]map[int64]bool {
	fp := map[string]map[int64]bool{}
	for _, dir := range []map[string]map[int64]bool{t.loaded, t.stored} {
		for name, cells := range dir {
			if fp[name] == nil {
				fp[name] = map[int64]bool{}
			}
			maps.Copy(fp[name], cells)
		}
	}
	return fp
}

// iterationKey names the iteration of the sequential inames in scope
// (their slots ctx) that st is at.
func iterationKey(st *state, ctx []int) string {
	key := make([]byte, 0, 32)
	for _, slot := range ctx {
		key = strconv.AppendInt(key, int64(slot), 10)
		key = append(key, '=')
		key = strconv.AppendInt(key, st.v[slot], 10)
		key = append(key, ',')
	}
	return string(key)
}
