package hongkim

// The traffic a global access stands for (Model.Traffic).
const (
	// TrafficPaper is seed 002's: every global access is a memory
	// instruction that goes to DRAM.
	TrafficPaper = "paper"
	// TrafficHierarchy is uniperf's extension: only the share of the
	// accesses' bytes that the hierarchy counts place in DRAM are memory
	// instructions; the others were served by caches and issue as
	// computation instructions.
	TrafficHierarchy = "hierarchy"
)
