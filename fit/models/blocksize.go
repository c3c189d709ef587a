package models

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"sort"
	"strings"

	"github.com/uniperf/uniperf/counts"
)

// This file chooses work-group sizes: which consts of a kernel set its
// group size, the candidates to try, their ranking by a model's
// predictions, Resios's launch-configuration heuristic, and the Spearman
// correlation that validates a ranking against measurements.

// GroupConst is a const of a kernel that sets its work-group size along
// one axis (a split factor of an iname tagged l.Axis).
type GroupConst struct {
	Name string
	Axis int
}

// GroupConsts finds the consts that set a kernel's work-group size: those
// whose doubling, or halving (repeatedly, for a small problem whose
// extent caps the group), changes the launch's work-group size. A const that
// changes several axes (matmul_tiled's LY widens the prefetch along l.0
// beyond LX as well as l.1) is the const of an axis no other const
// changes alone. consts are the bindings to start from; the kernel's own
// values fill in the rest. The result is ordered by axis, then name.
func GroupConsts(src Source, kernel string, consts, params map[string]int64) ([]GroupConst, error) {
	file, text, err := src(kernel)
	if err != nil {
		return nil, fmt.Errorf("kernel %s: %w", kernel, err)
	}
	k, err := counts.ParseKernel(file, text, consts)
	if err != nil {
		return nil, err
	}
	_, local, err := k.Launch(params)
	if err != nil {
		return nil, fmt.Errorf("kernel %s: %w", kernel, err)
	}
	changes := map[string][]int{}
	claimed := map[int]bool{}
	for _, c := range k.Consts {
		axes := changedAxes(file, text, k.ConstMap(), c, params, local)
		if len(axes) > 0 {
			changes[c.Name] = axes
		}
		if len(axes) == 1 {
			claimed[axes[0]] = true
		}
	}
	var out []GroupConst
	for name, axes := range changes {
		axis := axes[0]
		for _, a := range axes {
			if len(axes) > 1 && !claimed[a] {
				axis = a
				break
			}
		}
		out = append(out, GroupConst{Name: name, Axis: axis})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Axis != out[j].Axis {
			return out[i].Axis < out[j].Axis
		}
		return out[i].Name < out[j].Name
	})
	return out, nil
}

// changedAxes returns the axes along which the work-group size changes
// when const c takes another value: twice its value, else half, a
// quarter, ... down to 1. Values the kernel rejects tell nothing.
func changedAxes(file string, text []byte, consts map[string]int64, c counts.Const, params map[string]int64, local [3]int64) []int {
	trials := []int64{2 * c.Value}
	for v := c.Value / 2; v >= 1; v /= 2 {
		trials = append(trials, v)
	}
	for _, v := range trials {
		consts[c.Name] = v
		k, err := counts.ParseKernel(file, text, consts)
		if err != nil {
			continue
		}
		_, moved, err := k.Launch(params)
		if err != nil {
			continue
		}
		var axes []int
		for a := range 3 {
			if moved[a] != local[a] {
				axes = append(axes, a)
			}
		}
		if len(axes) > 0 {
			return axes
		}
	}
	return nil
}

// DefaultSizes are the candidate group shapes tried when none are given:
// powers of two from the warp size up to the device's largest block (at
// most 1024 work-items), split over the group consts' axes as evenly as
// powers of two allow, the lower axis taking the larger factor (32×16,
// then 32×32).
func DefaultSizes(groups []GroupConst, warp, maxBlock int) [][]int64 {
	var out [][]int64
	for total := max(warp, 1); total <= min(maxBlock, 1024); total *= 2 {
		k := int(math.Log2(float64(total)) + 0.5)
		shape := make([]int64, len(groups))
		rest := k
		for i := range shape {
			share := (rest + len(shape) - i - 1) / (len(shape) - i) // ceil
			shape[i] = 1 << share
			rest -= share
		}
		if len(shape) > 0 {
			out = append(out, shape)
		}
	}
	return out
}

// Candidate is a case at one work-group shape.
type Candidate struct {
	// Label names the shape by its consts, "LX=32 LY=16".
	Label string
	Case  Case
}

// Candidates binds each shape (one value per group const, in order) into
// the base case's consts.
func Candidates(base Case, groups []GroupConst, shapes [][]int64) ([]Candidate, error) {
	var out []Candidate
	for _, s := range shapes {
		if len(s) != len(groups) {
			return nil, fmt.Errorf("work-group shape %v has %d values for %d group consts (%s)", s, len(s), len(groups), groupNames(groups))
		}
		c := Case{Kernel: base.Kernel, Params: base.Params, Consts: maps.Clone(base.Consts)}
		if c.Consts == nil {
			c.Consts = map[string]int64{}
		}
		var label []string
		for i, g := range groups {
			if s[i] <= 0 {
				return nil, fmt.Errorf("work-group shape %v: %s must be positive", s, g.Name)
			}
			c.Consts[g.Name] = s[i]
			label = append(label, fmt.Sprintf("%s=%d", g.Name, s[i]))
		}
		out = append(out, Candidate{Label: strings.Join(label, " "), Case: c})
	}
	return out, nil
}

func groupNames(groups []GroupConst) string {
	var n []string
	for _, g := range groups {
		n = append(n, g.Name)
	}
	return strings.Join(n, ", ")
}

// Ranked is a candidate's prediction under one model.
type Ranked struct {
	Candidate
	Prediction
	// Rank is 1 for the fastest candidate; ties share the lower rank.
	// Zero when the model could not predict the candidate (Err).
	Rank int
	Err  error
}

// RankCandidates predicts every candidate with a calibrated model and
// ranks them, fastest first. A candidate the model cannot predict keeps
// its error and no rank.
func RankCandidates(env *Env, m Model, cands []Candidate) []Ranked {
	out := make([]Ranked, len(cands))
	var ok []int
	for i, c := range cands {
		out[i].Candidate = c
		p, err := m.Predict(env, c.Case)
		if err != nil {
			out[i].Err = err
			continue
		}
		out[i].Prediction = p
		ok = append(ok, i)
	}
	sort.SliceStable(ok, func(a, b int) bool { return out[ok[a]].Seconds < out[ok[b]].Seconds })
	for r, i := range ok {
		out[i].Rank = r + 1
		if r > 0 && out[i].Seconds == out[ok[r-1]].Seconds {
			out[i].Rank = out[ok[r-1]].Rank
		}
	}
	return out
}

// MeasuredRanks ranks measured times, 1 for the fastest. Unlike the
// predicted ranks of RankCandidates, equal times keep distinct ranks in the
// order given: two timings that agree to the last digit are chance, not a
// tie the model could be credited with.
func MeasuredRanks(seconds []float64) []int {
	order := make([]int, len(seconds))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return seconds[order[a]] < seconds[order[b]] })
	ranks := make([]int, len(seconds))
	for r, i := range order {
		ranks[i] = r + 1
	}
	return ranks
}

// Spearman is the rank correlation of x and y: the Pearson correlation of
// their ranks, ties given the mean of the ranks they span. It needs at
// least two pairs and some spread in both.
func Spearman(x, y []float64) (float64, error) {
	if len(x) != len(y) {
		return 0, fmt.Errorf("spearman: %d values against %d", len(x), len(y))
	}
	if len(x) < 2 {
		return 0, errors.New("spearman: need at least two pairs")
	}
	rx, ry := ranks(x), ranks(y)
	var mx, my float64
	for i := range rx {
		mx += rx[i]
		my += ry[i]
	}
	mx /= float64(len(rx))
	my /= float64(len(ry))
	var sxy, sxx, syy float64
	for i := range rx {
		dx, dy := rx[i]-mx, ry[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return 0, errors.New("spearman: one of the orders is all ties")
	}
	return sxy / math.Sqrt(sxx*syy), nil
}

// ranks gives each value its 1-based rank, ties the mean of their ranks.
func ranks(v []float64) []float64 {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return v[idx[a]] < v[idx[b]] })
	out := make([]float64, len(v))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && v[idx[j+1]] == v[idx[i]] {
			j++
		}
		mean := float64(i+j)/2 + 1
		for k := i; k <= j; k++ {
			out[idx[k]] = mean
		}
		i = j + 1
	}
	return out
}
