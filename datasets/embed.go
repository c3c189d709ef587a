package datasets

import (
	"embed"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// shipped holds the tables committed under datasets/ (measured on real
// devices) and this directory's README.md. A pattern must match at least
// one file, and there may be no table yet, so the single pattern matches
// the README as well as every *.arrow file: "*[.][am][rd]*" is a name with
// a dot followed by "ar" (.arrow) or "md" (.md).
//
//go:embed *[.][am][rd]*
var shipped embed.FS

// Shipped lists the names of the embedded tables (e.g.
// "pocl-epyc-quick.arrow"), sorted.
func Shipped() []string {
	entries, err := fs.ReadDir(shipped, ".")
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		if !e.IsDir() && path.Ext(e.Name()) == ".arrow" {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names
}

// OpenShipped reads and validates an embedded table by name.
func OpenShipped(name string) (*Table, error) {
	data, err := ShippedBytes(name)
	if err != nil {
		return nil, err
	}
	return Decode("embedded "+name, data)
}

// ShippedBytes returns the bytes of an embedded table by name, for callers
// that record what they read (a hash of it, say) as well as decode it.
func ShippedBytes(name string) ([]byte, error) {
	if !strings.HasSuffix(name, ".arrow") {
		return nil, &Error{File: name, Row: -1, Err: fs.ErrNotExist}
	}
	data, err := shipped.ReadFile(name)
	if err != nil {
		return nil, &Error{File: name, Row: -1, Err: fs.ErrNotExist}
	}
	return data, nil
}
