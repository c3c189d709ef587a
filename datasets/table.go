package datasets

import (
	"fmt"
)

// Table is a measurement table in memory: its metadata and rows in order.
type Table struct {
	Meta Meta
	Rows []Row
	// unchecked marks a table read from a file without a checksum.
	unchecked bool
}

// Unchecked reports whether t was read from a file that carries no
// checksum (written before uniperf wrote one: the shipped tables), so
// that damage to its numbers could not be detected. Tables written by
// WriteFile and Writer carry one, checked by Read and Decode.
func (t *Table) Unchecked() bool { return t.unchecked }

// Validate checks the metadata, every row, and that no key occurs twice.
func (t *Table) Validate() error {
	if err := t.Meta.validate(); err != nil {
		return &Error{Row: -1, Err: err}
	}
	seen := make(map[Key]int, len(t.Rows))
	for i, r := range t.Rows {
		if err := validateRow(i, r, t.Meta); err != nil {
			return err
		}
		k := r.Key()
		if j, dup := seen[k]; dup {
			return &Error{Row: i, Err: fmt.Errorf("kernel %s with the same consts, params and local size as row %d", r.Kernel, j)}
		}
		seen[k] = i
	}
	return nil
}
