package models

import (
	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/gpus"
)

// DefaultBanks is the bank layout of package counts' default, 32 banks of
// 4 bytes, which a device without a known layout is counted with.
var DefaultBanks = fit.BankLayout{Banks: counts.DefaultBanks, BankBytes: counts.DefaultBankBytes}

// DeviceBanks returns the local-memory bank layout of the device a
// measurement table names, from the local_banks of the shipped device
// file whose name or alias it is, and that file; DefaultBanks and "" where
// no shipped file names the device or its file gives no layout (a CPU).
func DeviceBanks(device string) (fit.BankLayout, string) {
	d, err := gpus.Lookup(device)
	if err != nil || d.LocalBanks == nil {
		return DefaultBanks, ""
	}
	return fit.BankLayout{Banks: d.LocalBanks.Banks, BankBytes: d.LocalBanks.BankBytes}, d.File
}

// TablesBanks returns the bank layout of the device the tables were
// measured on (DeviceBanks), or an error where they name several.
func TablesBanks(tables map[string]*datasets.Table) (fit.BankLayout, error) {
	device, err := OneDevice(tables)
	if err != nil {
		return fit.BankLayout{}, err
	}
	banks, _ := DeviceBanks(device)
	return banks, nil
}

// WeightsBanks returns the bank layout w was fitted with: the one it
// records, or DefaultBanks for weights that record none.
func WeightsBanks(w *fit.Weights) fit.BankLayout {
	if w.Banks == nil {
		return DefaultBanks
	}
	return *w.Banks
}
