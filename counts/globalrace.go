package counts

// The interpreter detects write-write races in global memory: two
// work-items that store different values to one element with no barrier
// between them, so that the result depends on the order the device runs
// them in. Work-items of different groups are never separated by a
// barrier. This file keeps the record of stores that the compiled stores
// check (interp.storeRace).

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
