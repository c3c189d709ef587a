package counts

import (
	"strconv"
)

// tracer records global accesses for RunOptions.Trace.
type tracer struct {
	sites      []*siteRec
	footprints map[string]map[int64]bool
	// loaded and stored split footprints by direction.
	loaded, stored map[string]map[int64]bool
}

type siteRec struct {
	info  SiteTrace
	lanes map[string]map[int64]int64 // instance -> l.0 local id -> flattened index
}

func newTracer() *tracer {
	return &tracer{footprints: map[string]map[int64]bool{}, loaded: map[string]map[int64]bool{}, stored: map[string]map[int64]bool{}}
}

func (t *tracer) newSite(ins *Instruction, site int, a *Array, store bool) *siteRec {
	s := &siteRec{info: SiteTrace{Instruction: ins.ID, Site: site, Array: a.Name, Store: store, Strides: map[int64]int64{}},
		lanes: map[string]map[int64]int64{}}
	t.sites = append(t.sites, s)
	dir := t.loaded
	if store {
		dir = t.stored
	}
	for _, m := range []map[string]map[int64]bool{t.footprints, dir} {
		if m[a.Name] == nil {
			m[a.Name] = map[int64]bool{}
		}
	}
	return s
}

// record notes one access. The instance key holds everything but the
// l.0 local id: the group, the other local ids and the values of the
// sequential inames in scope (ctx).
func (t *tracer) record(s *siteRec, st *state, gid [3]int64, ctx []int, flat int64) {
	s.info.Count++
	t.footprints[s.info.Array][flat] = true
	if s.info.Store {
		t.stored[s.info.Array][flat] = true
	} else {
		t.loaded[s.info.Array][flat] = true
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
	return out, t.footprints
}
