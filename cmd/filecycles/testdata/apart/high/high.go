// Package high imports low.
package high

import "github.com/uniperf/uniperf/cmd/filecycles/testdata/apart/low"

// Two uses package low.
const Two = low.One + 1
