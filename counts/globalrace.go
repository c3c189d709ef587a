package counts

import "strconv"

// This file detects write-write races in global memory: two work-items
// that store different values to one element with no barrier between
// them, so that the result depends on the order the device runs them in.
// Work-items of different groups are never separated by a barrier.

// globalWrites records, per element of a global array, the work-item
// that last stored to it and the barrier epoch of the store.
type globalWrites struct {
	writer []int64 // the group's linear index times the group size plus the work-item's, plus 1; 0: none
	epoch  []int64
}

func newGlobalWrites(n int) *globalWrites {
	return &globalWrites{writer: make([]int64, n), epoch: make([]int64, n)}
}

// race records a store to element j by work-item me at epoch and returns
// the earlier writer it races with: another work-item, of another group
// or of this group since its last barrier, that stored a different value
// (same reports that the value is unchanged).
func (g *globalWrites) race(j, me, groupSize, epoch int64, same bool) (int64, bool) {
	w := g.writer[j]
	if w != 0 && w != me && !same && ((w-1)/groupSize != (me-1)/groupSize || g.epoch[j] == epoch) {
		return w, true
	}
	g.writer[j], g.epoch[j] = me, epoch
	return 0, false
}

// itemID is the current work-item's writer number for globalWrites.
func (in *interp) itemID() int64 {
	g, gid := in.g.groups, in.st.gid
	group := gid[0] + g[0]*(gid[1]+g[1]*gid[2])
	return group*in.groupSize() + int64(in.st.wi) + 1
}

func (in *interp) groupSize() int64 { return in.g.local[0] * in.g.local[1] * in.g.local[2] }

// describeWriter names the work-item and group of a writer number.
func (in *interp) describeWriter(w int64) string {
	n := in.groupSize()
	group, wi := (w-1)/n, (w-1)%n
	g := in.g.groups
	return "work-item " + in.describeItem(int32(wi)) + " of group (" + strconv.FormatInt(group%g[0], 10) + ", " +
		strconv.FormatInt(group/g[0]%g[1], 10) + ", " + strconv.FormatInt(group/(g[0]*g[1]), 10) + ")"
}

// storeRace returns the check of a store to a global array: it fails the
// instruction when the store races with an earlier one.
func (in *interp) storeRace(a *Array, cx *cctx) func(st *state, j int64, same bool) {
	gw := in.writes[a.Name]
	if gw == nil {
		n := int64(1)
		for _, e := range in.sizes[a.Name] {
			n *= e
		}
		gw = newGlobalWrites(int(n))
		in.writes[a.Name] = gw
	}
	return func(st *state, j int64, same bool) {
		if w, race := gw.race(j, in.itemID(), in.groupSize(), st.epoch, same); race {
			in.fail(cx.ins, "stores to %s, which %s stored a different value to with no barrier in between (a write-write race)", in.cellName(a, j), in.describeWriter(w))
		}
	}
}
