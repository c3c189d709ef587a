package fit

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

// FilledStrideTies returns the ties that price a filled strided global
// access like a stride-1 one of the same direction and type: a property
// global.D.T.stride=k/k, D load, ldg or store (k > 1: a work-item's
// accesses of stride k that, with the others of its group, use every
// element of the span), is tied to global.D.T.stride=1. Such accesses
// move the same cache lines as stride-1 ones, and where the hardware
// coalesces a group's accesses into lines, as a GPU does, they cost the
// same; the measurement rows alone often cannot tell their weights from
// those of the other properties of
// the few kernels that have them (uniperf fit --coverage shows it). The
// map is keyed by the tied property and holds only properties present in
// properties.
func FilledStrideTies(properties []string) map[string]string {
	return TiesBy(properties, filledStrideTarget)
}

// TiesBy returns the ties of the properties that target ties: each
// property p for which target(p) gives (to, true), tied to to.
func TiesBy(properties []string, target func(p string) (string, bool)) map[string]string {
	ties := map[string]string{}
	for _, p := range properties {
		if to, ok := target(p); ok {
			ties[p] = to
		}
	}
	return ties
}

// filledStrideTarget is the stride-1 property a filled strided access
// property is tied to.
func filledStrideTarget(p string) (string, bool) {
	head, class, ok := strings.Cut(p, ".stride=")
	if !ok || !strings.HasPrefix(head, "global.load.") && !strings.HasPrefix(head, "global.ldg.") && !strings.HasPrefix(head, "global.store.") {
		return "", false
	}
	num, den, ok := strings.Cut(class, "/")
	k, err := strconv.Atoi(num)
	if !ok || err != nil || num != den || k < 2 {
		return "", false
	}
	return head + ".stride=1", true
}

// ReadOnlyStrideTies returns ties with the ties added that price a
// strided readonly load like a plain load of its class: a property
// global.ldg.T.stride=C, C a class of stride 2 or more (k/s or k/>4), is
// tied to global.load.T.stride=C, or to the property ties tie that to
// (FilledStrideTies' stride-1 load of a filled class), replacing a tie
// of its own. uniperf fit adds these ties unless told not to (chosen on
// PoCL's rows, docs/model.md); they are not a law: where the read-only
// data path is a cache of its own (a GPU's __ldg) a strided readonly
// load may cost other than a plain one, and where it is the same path
// (a CPU) the rows of the two may still say otherwise. The map is new, keyed by the tied property, and holds
// the ties of the readonly properties in properties and of the readonly
// counterparts of the plain strided loads in properties, so that weights
// fitted on rows without readonly loads (a fold that leaves their class
// out) price them too.
func ReadOnlyStrideTies(properties []string, ties map[string]string) map[string]string {
	out := maps.Clone(ties)
	if out == nil {
		out = map[string]string{}
	}
	for _, p := range properties {
		head, class, ok := strings.Cut(p, ".stride=")
		if !ok || !strings.Contains(class, "/") {
			continue
		}
		typ, isLdg := strings.CutPrefix(head, "global.ldg.")
		if !isLdg {
			if typ, ok = strings.CutPrefix(head, "global.load."); !ok {
				continue
			}
		}
		to := "global.load." + typ + ".stride=" + class
		if next, tied := ties[to]; tied {
			to = next
		}
		out["global.ldg."+typ+".stride="+class] = to
	}
	return out
}

// ReadOnlyStrideFallback is ReadOnlyStrideTies for the strided readonly
// loads that no row prices on its own: a property in counted, which some
// row of the fit counts (nonzero, so that the fit gives it a column and
// a weight of its own), keeps the tie ties give it, or none; the others
// are tied as ReadOnlyStrideTies ties them. It is the tie as a fallback
// (uniperf fit --ldg-fallback, not the default): a table with strided
// readonly rows fits those loads by their own rows, and one without (a
// GPU table, a fold that leaves their class out) still prices them by
// the plain loads.
func ReadOnlyStrideFallback(properties []string, counted map[string]bool, ties map[string]string) map[string]string {
	out := ReadOnlyStrideTies(properties, ties)
	for p, c := range counted {
		if !c {
			continue
		}
		if to, ok := ties[p]; ok {
			out[p] = to
		} else {
			delete(out, p)
		}
	}
	return out
}

// TieColumns merges the counts of every tied property into its target's
// column, so that a fit gives both one weight: it returns the properties
// without the tied ones (a target absent from properties is added at the
// end) and the samples with their counts so merged. The samples are new;
// their other fields are those given.
func TieColumns(properties []string, samples []Sample, ties map[string]string) ([]string, []Sample) {
	if len(ties) == 0 {
		return properties, samples
	}
	index := map[string]int{}
	var out []string
	for _, p := range properties {
		if _, tied := ties[p]; !tied {
			index[p] = len(out)
			out = append(out, p)
		}
	}
	for _, p := range slices.Sorted(maps.Keys(ties)) {
		if _, ok := index[ties[p]]; !ok && slices.Contains(properties, p) {
			index[ties[p]] = len(out)
			out = append(out, ties[p])
		}
	}
	merged := make([]Sample, len(samples))
	for i, s := range samples {
		c := make([]float64, len(out))
		for j, p := range properties {
			if to, tied := ties[p]; tied {
				p = to
			}
			c[index[p]] += s.Counts[j]
		}
		merged[i] = s
		merged[i].Counts = c
	}
	return out, merged
}

// TieCheck records how a fit chose to tie properties or not: the
// leave-one-class-out error of the measurement rows (the geometric mean
// over the classes of each class's geometric-mean relative error) with
// the ties and with every weight apart, over the Rows that both predict.
type TieCheck struct {
	Tied  float64 `json:"tied"`
	Apart float64 `json:"apart"`
	Rows  int     `json:"rows"`
}
