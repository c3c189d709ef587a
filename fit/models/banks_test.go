package models

import (
	"testing"

	"github.com/uniperf/uniperf/fit"
)

// The shipped device files give the layouts of NVIDIA's programming
// guides: 16 banks of 4 bytes on compute capability 1.x, 32 of 4 later; a
// CPU and an unknown device count with the default.
func TestDeviceBanks(t *testing.T) {
	for _, c := range []struct {
		device string
		want   fit.BankLayout
		file   bool
	}{
		{"GeForce 8800GT", fit.BankLayout{Banks: 16, BankBytes: 4}, true},
		{"GeForce GTX 280", fit.BankLayout{Banks: 16, BankBytes: 4}, true},
		{"NVIDIA H100 80GB HBM3", fit.BankLayout{Banks: 32, BankBytes: 4}, true},
		{"pthread-skylake-avx512-AMD EPYC", DefaultBanks, false},
		{"no such device", DefaultBanks, false},
	} {
		got, file := DeviceBanks(c.device)
		if got != c.want || (file != "") != c.file {
			t.Errorf("DeviceBanks(%q) = %v, %q; want %v, a file %v", c.device, got, file, c.want, c.file)
		}
	}
	if DefaultBanks != (fit.BankLayout{Banks: 32, BankBytes: 4}) {
		t.Errorf("DefaultBanks = %v", DefaultBanks)
	}
}
