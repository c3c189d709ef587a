package hierarchy

import (
	"fmt"
	"sort"

	"github.com/uniperf/uniperf/fit/models"
)

// PartPrefix begins the names of an explanation's part totals
// ("part.memory"), which follow its terms and are not terms themselves.
const PartPrefix = "part."

// partNames names the parts of a prediction in its explanation.
var partNames = [nParts]string{additive: "added", memoryPart: "memory", computePart: "compute", groupsPart: "groups"}

// explainTerms returns the terms of a form's prediction from counts
// aligned with props and priced by values, largest first, each its
// count (as priced: grid-filled, ties merged) times its weight and the
// part it falls in, then the parts' totals, saying which part of a max
// form sets the time: a term of a part below the largest adds nothing,
// so that a ranking between launches bound by the same part turns on
// that part's terms alone.
func explainTerms(form string, props []string, values, cnt []float64) []models.Quantity {
	var out []models.Quantity
	for j, p := range props {
		t := values[j] * cnt[j]
		if t == 0 {
			continue
		}
		k := partOf(form, p)
		out = append(out, models.Quantity{Name: p, Value: t, Unit: "s",
			Note: fmt.Sprintf("%.6g × %.4g s, %s part", cnt[j], values[j], partNames[k])})
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Value > out[b].Value })
	part := partTimes(form, props, values, cnt)
	b := bound(part)
	for k := additive; k < nParts; k++ {
		if part[k] == 0 {
			continue
		}
		note := "added to the largest of the memory, compute and groups parts"
		switch {
		case form == FormSum:
			note = "the sum form adds every term"
		case k == b:
			note = "the largest of the memory, compute and groups parts: it sets the time"
		case k != additive:
			note = fmt.Sprintf("below the %s part: adds nothing", partNames[b])
		}
		out = append(out, models.Quantity{Name: PartPrefix + partNames[k], Value: part[k], Unit: "s", Note: note})
	}
	return out
}
