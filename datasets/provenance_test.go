package datasets

import (
	"testing"
)

// TestPaperTableOneVM checks what docs/datasets.md says of the embedded
// PoCL paper table's provenance: the 34 core kernels' measurement rows
// are those of epyc21/pocl-epyc-paper-core.arrow, measured again on the
// 2096 MHz VM, row for row and time for time, with none of the run of
// 2026-11-25 left among them; its 16 test rows are that run's; and its
// metadata is the 2096 MHz VM's. The independent record is the epyc21
// table as measured, kept beside it.
func TestPaperTableOneVM(t *testing.T) {
	paper, err := OpenShipped("pocl-epyc-paper.arrow")
	if err != nil {
		t.Fatal(err)
	}
	core, err := Read("epyc21/pocl-epyc-paper-core.arrow")
	if err != nil {
		t.Fatal(err)
	}
	if paper.Meta.ClockMHz != core.Meta.ClockMHz || paper.Meta.GlobalMemBytes != core.Meta.GlobalMemBytes {
		t.Errorf("metadata %d MHz, %d bytes; want the 2096 MHz VM's %d MHz, %d bytes", paper.Meta.ClockMHz, paper.Meta.GlobalMemBytes, core.Meta.ClockMHz, core.Meta.GlobalMemBytes)
	}
	kernels := map[string]bool{}
	byKey := map[Key]Row{}
	for _, r := range core.Rows {
		kernels[r.Kernel] = true
		byKey[r.Key()] = r
	}
	const first = "2026-11-25"
	var tests, matched int
	for _, r := range paper.Rows {
		day := r.Timestamp.Format("2006-01-02")
		if r.Role == RoleTest {
			tests++
			if day != first {
				t.Errorf("test row %s measured %s, want %s", r.Key(), day, first)
			}
			continue
		}
		if !kernels[r.Kernel] {
			continue
		}
		c, ok := byKey[r.Key()]
		if !ok {
			t.Errorf("measurement row %s (%s) is not in the epyc21 table", r.Key(), day)
			continue
		}
		matched++
		if r.TimeS != c.TimeS || !r.Timestamp.Equal(c.Timestamp) {
			t.Errorf("row %s: %g s at %v, epyc21 has %g s at %v", r.Key(), r.TimeS, r.Timestamp, c.TimeS, c.Timestamp)
		}
	}
	if tests != 16 || matched != len(core.Rows) || len(core.Rows) != 813 || len(kernels) != 34 {
		t.Errorf("%d test rows, %d of the epyc21 table's %d rows (%d kernels) found; want 16 and all 813 of 34 kernels", tests, matched, len(core.Rows), len(kernels))
	}
}
