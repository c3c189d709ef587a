package gpus

import "fmt"

// Caches are the capacities of the caches that global memory passes
// through, which say at what sizes the memory-hierarchy counts of package
// counts (the distinct bytes a launch or a work-group touches) fit.
type Caches struct {
	// L1PerSM is the capacity, in bytes, of the cache near each SM (each
	// core, on a CPU) that serves global loads: the whole unified L1 and
	// shared-memory array where the two share one (Fermi, Volta and
	// later; the shared-memory carve-out takes its part), 0 where global
	// loads are not cached there (compute capability 1.x and 3.0).
	L1PerSM int64 `json:"l1_bytes_per_sm"`
	// L2 is the capacity, in bytes, of the device's L2 cache in all (a
	// CPU's cores' L2 caches summed), 0 where global memory is not
	// cached (compute capability 1.x).
	L2 int64 `json:"l2_bytes"`
	// L3 is a CPU's last-level cache, in bytes, as its system reports
	// it; 0 when absent.
	L3 int64 `json:"l3_bytes,omitempty"`
	// L3Shared is the part of a CPU's L3 that its cores share and keep
	// their lines in, where the system reports a larger whole (a
	// guest's hypervisor gives the host socket's L3, while its cores
	// sit on one core complex with an L3 of its own), in bytes; 0 when
	// unknown. A launch whose lines fit it finds them there again on its
	// next run (package hierarchy's Config.Warm).
	L3Shared int64 `json:"l3_shared_bytes,omitempty"`
	// L2Ways is the associativity of the L2 cache where the device file
	// gives it (a CPU's, per core): a walk whose byte stride is a
	// multiple of a large power of two reaches only some of its sets
	// (package hierarchy's Config.Conflict). 0 where unknown.
	L2Ways int64 `json:"l2_ways,omitempty"`
	// L1Ways is the associativity of a core's L1 data cache
	// (L1PerSM), where the device file gives it (a CPU's): a walk
	// through local memory, ordinary memory on a CPU, whose stride is a
	// multiple of a large power of two reaches only some of its sets
	// (package hierarchy's Config.LocalConflict). 0 where unknown.
	L1Ways int64 `json:"l1_ways,omitempty"`
	// DTLBEntries is the number of 4 KiB pages the first-level data TLB
	// of a core maps, where the device file gives it (a CPU's): a walk
	// over more pages than that loses each page's translation before it
	// comes back (package hierarchy's Config.ConflictTLB). 0 where
	// unknown.
	DTLBEntries int64  `json:"l1_dtlb_entries,omitempty"`
	Source      string `json:"source"`
}

// Capacities a device file may give: up to 16 MiB per SM, 4 GiB in all.
const (
	maxL1PerSM = 16 << 20
	maxCache   = 4 << 30
	maxWays    = 64
	maxTLB     = 1 << 16
)

// lineBytes is the line size package hierarchy's conflict counts
// take (its LineBytes), over which L1Ways' and L2Ways' sets are counted.
const lineBytes = 64

// validate checks the capacities' ranges and that they name their
// source; with L2Ways, that each of sms cores' L2 holds a power of two
// of sets, as the conflict counts take it (a line's set is its number
// modulo the sets), and with L1Ways that a core's L1 does.
func (c *Caches) validate(sms int) error {
	for _, f := range []struct {
		name     string
		v, limit int64
	}{{"caches.l1_bytes_per_sm", c.L1PerSM, maxL1PerSM}, {"caches.l2_bytes", c.L2, maxCache}, {"caches.l3_bytes", c.L3, maxCache}, {"caches.l3_shared_bytes", c.L3Shared, maxCache}} {
		if f.v < 0 || f.v > f.limit {
			return fmt.Errorf("%s must be 0 to %d bytes, have %d", f.name, f.limit, f.v)
		}
	}
	for _, f := range []struct {
		name string
		ways int64
	}{{"caches.l1_ways", c.L1Ways}, {"caches.l2_ways", c.L2Ways}} {
		if f.ways < 0 || f.ways > maxWays {
			return fmt.Errorf("%s must be 0 (unknown) to %d, have %d", f.name, maxWays, f.ways)
		}
	}
	if c.DTLBEntries < 0 || c.DTLBEntries > maxTLB {
		return fmt.Errorf("caches.l1_dtlb_entries must be 0 (unknown) to %d, have %d", maxTLB, c.DTLBEntries)
	}
	if per := int64(sms) * lineBytes * c.L2Ways; c.L2Ways > 0 && sms > 0 {
		if sets := c.L2 / per; c.L2%per != 0 || sets <= 0 || sets&(sets-1) != 0 {
			return fmt.Errorf("caches.l2_ways %d: each core's L2 (caches.l2_bytes %d over sm_count %d) in %d-byte lines over %d ways is %.6g sets, not a power of two, which the conflict counts need: correct l2_bytes, sm_count or l2_ways, or leave l2_ways out (unknown)",
				c.L2Ways, c.L2, sms, lineBytes, c.L2Ways, float64(c.L2)/float64(per))
		}
	}
	if per := lineBytes * c.L1Ways; c.L1Ways > 0 {
		if sets := c.L1PerSM / per; c.L1PerSM%per != 0 || sets <= 0 || sets&(sets-1) != 0 {
			return fmt.Errorf("caches.l1_ways %d: a core's L1 (caches.l1_bytes_per_sm %d) in %d-byte lines over %d ways is %.6g sets, not a power of two, which the conflict counts need: correct l1_bytes_per_sm or l1_ways, or leave l1_ways out (unknown)",
				c.L1Ways, c.L1PerSM, lineBytes, c.L1Ways, float64(c.L1PerSM)/float64(per))
		}
	}
	if c.Source == "" {
		return fmt.Errorf("caches.source is empty: say where the capacities come from")
	}
	return nil
}
