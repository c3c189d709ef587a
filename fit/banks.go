package fit

import "fmt"

// BankLayout is a local-memory bank layout: Banks banks of BankBytes
// bytes each, served to warps of Banks lanes, as package counts classes
// local accesses by bank-conflict degree (counts.Options.Banks and
// BankBytes).
type BankLayout struct {
	Banks     int `json:"banks"`
	BankBytes int `json:"bank_bytes"`
}

// MaxBanks and MaxBankBytes are the largest layout package counts
// counts for.
const (
	MaxBanks     = 64
	MaxBankBytes = 16
)

// Validate checks that package counts can count for the layout: 1 to
// MaxBanks banks of 1 to MaxBankBytes bytes.
func (b BankLayout) Validate() error {
	if b.Banks < 1 || b.Banks > MaxBanks || b.BankBytes < 1 || b.BankBytes > MaxBankBytes {
		return fmt.Errorf("bank layout %d banks of %d bytes: want 1 to %d banks of 1 to %d bytes", b.Banks, b.BankBytes, MaxBanks, MaxBankBytes)
	}
	return nil
}

// String says the layout in words: "32 banks of 4 bytes".
func (b BankLayout) String() string { return fmt.Sprintf("%d banks of %d bytes", b.Banks, b.BankBytes) }
