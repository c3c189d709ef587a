package report

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
)

// This file scores how well predictions rank the work-group-size variants
// of a kernel, the use autotuning makes of them: which of two variants is
// faster, and whether the variant predicted fastest is the fastest.

// The thresholds of a ranking (issue 29): a pair of variants is scored
// only where its measured times are more than RankApart apart, and its
// predictions are a tie where they are within RankTie of each other.
const (
	RankApart = 0.05
	RankTie   = 0.001
)

// VariantGroup is a kernel at one size: the cases that share a kernel, a
// size (Params) and every const binding but the work-group consts, and so
// differ only in their work-group size.
type VariantGroup struct {
	Kernel string
	Params map[string]int64
	// Consts are the bindings the cases share, the work-group consts left out.
	Consts map[string]int64
	// GroupConsts name the work-group consts, sorted, that tell the
	// variants apart.
	GroupConsts []string
	Cases       []Case
}

// Label names the group: its kernel, size and other consts.
func (g VariantGroup) Label() string {
	s := g.Kernel + " " + bindings(g.Params)
	if len(g.Consts) > 0 {
		s += " " + bindings(g.Consts)
	}
	return s
}

// Variant names case i of the group by its work-group consts, "LX=32 LY=8",
// or by its work-group size where it binds none of them.
func (g VariantGroup) Variant(i int) string {
	c := g.Cases[i]
	var s []string
	for _, n := range g.GroupConsts {
		if v, ok := c.Consts[n]; ok {
			s = append(s, fmt.Sprintf("%s=%d", n, v))
		}
	}
	if len(s) == 0 {
		return fmt.Sprintf("@%v", c.LocalSize)
	}
	return strings.Join(s, " ")
}

func bindings(m map[string]int64) string {
	var s []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		s = append(s, fmt.Sprintf("%s=%d", k, m[k]))
	}
	return strings.Join(s, ",")
}

// GroupVariants groups cases by kernel, params and the consts that are not
// work-group consts, which groupConsts names per kernel (a const it does
// not name tells groups apart). Cases without a prediction (Err, or a
// time that is not positive) are left out. It returns the groups of at
// least two cases, in order of their first case; each group's cases keep
// their order.
func GroupVariants(cases []Case, groupConsts map[string][]string) []VariantGroup {
	var out []VariantGroup
	index := map[string]int{}
	for _, c := range cases {
		if c.Err != "" || !(c.Predicted > 0) || !(c.Measured > 0) {
			continue
		}
		gc := groupConsts[c.Kernel]
		other := map[string]int64{}
		for k, v := range c.Consts {
			if !slices.Contains(gc, k) {
				other[k] = v
			}
		}
		g := VariantGroup{Kernel: c.Kernel, Params: c.Params, Consts: other, GroupConsts: slices.Sorted(slices.Values(gc))}
		key := g.Label()
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			out = append(out, g)
		}
		out[i].Cases = append(out[i].Cases, c)
	}
	return slices.DeleteFunc(out, func(g VariantGroup) bool { return len(g.Cases) < 2 })
}

// Ranking scores the predicted order of the variants of groups against
// the measured one.
type Ranking struct {
	Groups int `json:"groups"` // groups of at least two variants
	// Pairs of variants of a group measured more than RankApart apart,
	// and of them those predicted in the measured order (Right), in the
	// other (Wrong), and within RankTie of each other (Tied). Close
	// counts the pairs measured within RankApart, which are not scored.
	Pairs int `json:"pairs"`
	Right int `json:"right"`
	Wrong int `json:"wrong"`
	Tied  int `json:"tied"`
	Close int `json:"close"`
	// PickBest counts the groups whose predicted-fastest variant (the
	// pick) is the measured fastest. Where other variants are predicted
	// within RankTie of the least prediction, the prediction cannot choose
	// among them, and the pick is the slowest measured of them, as a tied
	// pair counts as not right; PickTied counts those groups.
	PickBest int `json:"pick_best"`
	PickTied int `json:"pick_tied"`
	// PickCost is the geometric mean over the groups of the pick's
	// measured time over the fastest measured time; PickWorst is the
	// greatest, in the group Worst (absent where there are no groups).
	PickCost  float64    `json:"pick_cost_geomean,omitempty"`
	PickWorst float64    `json:"pick_cost_worst,omitempty"`
	Worst     *WorstPick `json:"worst_pick,omitempty"`
}

// WorstPick is the group whose pick costs the most, with the variant
// picked and the fastest one.
type WorstPick struct {
	Group   string  `json:"group"`
	Picked  string  `json:"picked"`
	PickedS float64 `json:"picked_seconds"`
	Best    string  `json:"best"`
	BestS   float64 `json:"best_seconds"`
}

// FractionRight is the fraction of the scored pairs that are ordered
// right: ties count as not right. NaN where no pair is scored.
func (r Ranking) FractionRight() float64 {
	if r.Pairs == 0 {
		return math.NaN()
	}
	return float64(r.Right) / float64(r.Pairs)
}

// RankVariants scores the predicted order of each group's variants.
func RankVariants(groups []VariantGroup) Ranking {
	var r Ranking
	var logSum float64
	for _, g := range groups {
		cs := g.Cases
		if len(cs) < 2 {
			continue
		}
		r.Groups++
		for i := range cs {
			for j := i + 1; j < len(cs); j++ {
				r.scorePair(cs[i], cs[j])
			}
		}
		least, best := 0, 0
		for i, c := range cs {
			if c.Measured < cs[best].Measured {
				best = i
			}
			if c.Predicted < cs[least].Predicted {
				least = i
			}
		}
		pick, tied := least, false
		for i, c := range cs {
			if i != least && c.Predicted/cs[least].Predicted-1 <= RankTie {
				tied = true
				if c.Measured > cs[pick].Measured {
					pick = i
				}
			}
		}
		if tied {
			r.PickTied++
		}
		cost := cs[pick].Measured / cs[best].Measured
		if cost == 1 {
			r.PickBest++
		}
		logSum += math.Log(cost)
		if r.Worst == nil || cost > r.PickWorst {
			r.PickWorst = cost
			r.Worst = &WorstPick{Group: g.Label(), Picked: g.Variant(pick), PickedS: cs[pick].Measured,
				Best: g.Variant(best), BestS: cs[best].Measured}
		}
	}
	if r.Groups > 0 {
		r.PickCost = math.Exp(logSum / float64(r.Groups))
	}
	return r
}

// scorePair scores one pair of variants.
func (r *Ranking) scorePair(a, b Case) {
	if a.Measured > b.Measured {
		a, b = b, a
	}
	if b.Measured/a.Measured-1 <= RankApart {
		r.Close++
		return
	}
	r.Pairs++
	lo, hi := min(a.Predicted, b.Predicted), max(a.Predicted, b.Predicted)
	switch {
	case hi/lo-1 <= RankTie:
		r.Tied++
	case a.Predicted < b.Predicted:
		r.Right++
	default:
		r.Wrong++
	}
}
