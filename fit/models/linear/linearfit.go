package linear

import (
	"fmt"
	"maps"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/report"
)

// Options adjust the linear model's calibration and
// CrossValidate.
type Options struct {
	Fit fit.Options
	// NoInteger leaves the int.* properties out of the fit, as seed 001
	// does; by default they are fitted like the others (a property no
	// row exercises enters no fit either way).
	NoInteger bool
	// Fill, where set, is the grid fill applied to the counts (see
	// fit.GridFill): Samples scales every row's counts by its factors, and
	// Calibrate fits on counts so scaled, choosing the saturation among
	// SaturationCandidates (the one given is ignored there). Where Fill's
	// Latency is set (to any value), Calibrate gives the latency-bound
	// properties a saturation of their own, reads from the rows of the
	// grid-fill classes the saturations they pin (the coalesced global accesses'
	// too, see readFill), and chooses the others among the same
	// candidates (by coordinate search). Units of 0 are the rows'
	// device's (Row.Units).
	Fill *fit.GridFill
	// Ties, where set, price each tied property by its target's weight
	// (fit.Weights.Ties): Samples merges their counts into the target's
	// column, and Calibrate fits one weight for both and records the
	// ties in the weights.
	Ties map[string]string
	// ChooseTies makes Calibrate offer the ties of fit.FilledStrideTies
	// (filled strided global accesses priced as stride-1 ones) and keep
	// them where leave-one-class-out cross-validation on the rows prefers
	// them (see calibrateTies), except on a device whose shipped device
	// file says it is a CPU. Ties, if set, is then ignored.
	ChooseTies bool
	// ReadOnlyTies prices each strided readonly load by the weight of
	// the plain load of its class (fit.ReadOnlyStrideTies), added to Ties
	// or to the ties ChooseTies keeps. uniperf fit sets it unless told
	// --own-ldg, --no-ties or --free: chosen in session 15 on PoCL's rows
	// (docs/model.md), and the only way the GPU tables, which have no
	// strided readonly rows, price those loads. Off, they have weights of
	// their own.
	ReadOnlyTies bool
	// ReadOnlyFallback, with ReadOnlyTies, ties only the strided readonly
	// loads that no row counts (fit.ReadOnlyStrideFallback): one that a
	// row counts keeps a weight of its own, as without ReadOnlyTies. An
	// option (uniperf fit --ldg-fallback), not the default.
	ReadOnlyFallback bool
	// FillRows are measurement rows from other tables (of the same
	// device through another backend, say) that a grid-fill class may be
	// read from (see readFill): where rows of the fitted rows' device
	// among them hold a class that the fitted rows hold too, in wider
	// work-groups, the class's saturation is read from them instead.
	// They enter no fit.
	FillRows []models.Row
}

// DefaultOptions are uniperf fit's default options, which its flags
// adjust and hierstudy's form linear fits with: the non-negative fit
// with the grid fill (a saturation of their own for the latency-bound
// properties), the filled strided ties where cross-validation keeps
// them, and the strided readonly loads priced by the plain loads.
func DefaultOptions() Options {
	return Options{Fit: fit.DefaultOptions(), Fill: &fit.GridFill{Latency: new(int64)}, ChooseTies: true, ReadOnlyTies: true}
}

// Samples counts every row and returns the properties that occur in any of
// them (sorted) with one fit sample per row. Counting errors name the row.
func Samples(c *models.Counter, rows []models.Row, opts Options) ([]string, []fit.Sample, error) {
	c.Prepare(rows)
	values := make([]map[string]int64, len(rows))
	seen := map[string]bool{}
	for i, r := range rows {
		v, err := c.Counts(r.Kernel, r.Consts, r.Params)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", r.Label(), err)
		}
		values[i] = v
		for p := range v {
			if !opts.NoInteger || !models.IntegerOp(p) {
				seen[p] = true
			}
		}
	}
	props := slices.Sorted(maps.Keys(seen))
	samples := make([]fit.Sample, len(rows))
	for i, r := range rows {
		cnt := make([]float64, len(props))
		for j, p := range props {
			cnt[j] = float64(values[i][p])
		}
		if opts.Fill != nil {
			s, err := rowShape(r)
			if err != nil {
				return nil, nil, err
			}
			cnt = fillCounts(opts.Fill, s, props, cnt)
		}
		samples[i] = fit.Sample{Kernel: r.Kernel, Class: r.Class, Label: r.Label(), Counts: cnt, Time: r.TimeS}
	}
	// The merge follows the fill: a tied property and its target are
	// global accesses alike, scaled by the same factor.
	props, samples = fit.TieColumns(props, samples, opts.Ties)
	return props, samples, nil
}

// fillUnits returns the compute units for the grid fill: those opts
// gives, or else those of the rows' device, which must be one.
func fillUnits(rows []models.Row, opts Options) (int64, error) {
	if opts.Fill.Units > 0 {
		return opts.Fill.Units, nil
	}
	var units int64
	for _, r := range rows {
		if units != 0 && r.Units != units {
			return 0, fmt.Errorf("fit: %s has %d compute units, other rows %d: the grid fill is fitted for one device", r.Label(), r.Units, units)
		}
		units = r.Units
	}
	if units < 1 {
		return 0, fmt.Errorf("fit: the grid fill needs the device's compute units, and the rows give none")
	}
	return units, nil
}

// calibrateFill fits the weights with the grid fill of each saturation
// candidate on the same counts and keeps the fit with the least training
// error (the geometric mean over the classes of each class's
// geometric-mean relative error), so that the saturations are chosen on
// the rows fitted and nothing else. With one saturation every candidate is
// fitted. With a second for the latency-bound properties (fit.LatencyBound)
// the saturations that a fill class's rows pin are read from them first
// (readFill: the shared, the latency-bound and the coalesced global accesses' own),
// and those left are searched: the pair by coordinate search rather than
// over all pairs, a tenth of the fits, which cross-validation repeats for
// every class: the best shared saturation first, then the latency-bound
// one with the other held, then the other with it held, until neither
// moves.
func calibrateFill(c *models.Counter, rows []models.Row, opts Options) (*fit.Weights, error) {
	units, err := fillUnits(rows, opts)
	if err != nil {
		return nil, err
	}
	raw := opts
	raw.Fill = nil
	props, samples, err := Samples(c, rows, raw)
	if err != nil {
		return nil, err
	}
	shapes := make([]shape, len(rows))
	for i, r := range rows {
		if shapes[i], err = rowShape(r); err != nil {
			return nil, err
		}
	}
	f := &fillFitter{props: props, samples: samples, shapes: shapes, opts: opts.Fit, done: map[[3]int64]fillFit{}}
	base := fit.GridFill{Units: units}
	var read []fit.SaturationReading
	if opts.Fill.Latency != nil {
		if read, err = readFill(rows, opts.FillRows, &base); err != nil {
			return nil, err
		}
	}
	best, err := f.search(base, read, opts.Fill.Latency != nil)
	if best != nil {
		best.Diagnostics.FillRead = read
	}
	return best, err
}

// search fits the grid fills that the saturations not read (see
// readFill) leave open and returns the fit of least training error:
// base's saturations where read (a reading with an Error read nothing),
// the candidates for the others; with latency false one saturation for
// every property.
func (f *fillFitter) search(base fit.GridFill, read []fit.SaturationReading, latency bool) (*fit.Weights, error) {
	has := func(of string) bool {
		return slices.ContainsFunc(read, func(r fit.SaturationReading) bool { return r.Of == of && r.Error == "" })
	}
	fill := func(sat, lat int64) *fit.GridFill {
		g := base
		g.Saturation = sat
		if latency {
			g.Latency = &lat
		}
		return &g
	}
	over := func(each func(v int64) *fit.GridFill) []*fit.GridFill {
		var cands []*fit.GridFill
		for _, v := range SaturationCandidates {
			cands = append(cands, each(v))
		}
		return cands
	}
	var best *fit.Weights
	var firstErr error
	switch sat, lat := base.Saturation, base.Latency; {
	case has(fit.SharedSaturation) && has(fit.LatencySaturation):
		best, firstErr = f.best([]*fit.GridFill{fill(sat, *lat)}, nil)
	case has(fit.SharedSaturation):
		best, firstErr = f.best(over(func(v int64) *fit.GridFill { return fill(sat, v) }), nil)
	case has(fit.LatencySaturation):
		best, firstErr = f.best(over(func(v int64) *fit.GridFill { return fill(v, *lat) }), nil)
	default:
		best, firstErr = f.best(over(func(v int64) *fit.GridFill { return fill(v, v) }), nil)
		if best == nil || !latency {
			break
		}
		for range len(SaturationCandidates) {
			sat := best.Fill.Saturation
			best, _ = f.best(over(func(v int64) *fit.GridFill { return fill(sat, v) }), best)
			lat := *best.Fill.Latency
			best, _ = f.best(over(func(v int64) *fit.GridFill { return fill(v, lat) }), best)
			if best.Fill.Saturation == sat {
				break
			}
		}
	}
	if best == nil {
		// Every candidate failed alike (a rank or input error); the first
		// says why.
		return nil, firstErr
	}
	return best, nil
}

// fillFitter fits one set of samples with the grid fills a search asks
// for, each pair of saturations once.
type fillFitter struct {
	props   []string
	samples []fit.Sample
	shapes  []shape
	opts    fit.Options
	done    map[[3]int64]fillFit
}

type fillFit struct {
	w   *fit.Weights
	err error
}

func fillKey(g *fit.GridFill) [3]int64 {
	k := [3]int64{g.Saturation, -1, -1}
	if g.Latency != nil {
		k[1] = *g.Latency
	}
	if g.Global != nil {
		k[2] = *g.Global
	}
	return k
}

// best fits the candidates not fitted before, side by side, and returns
// the one of least training error, in candidate order among equals, or
// incumbent where none is less; and the first candidate's error, where
// none fitted.
func (f *fillFitter) best(cands []*fit.GridFill, incumbent *fit.Weights) (*fit.Weights, error) {
	var todo []*fit.GridFill
	for _, fill := range cands {
		if _, ok := f.done[fillKey(fill)]; !ok {
			todo = append(todo, fill)
		}
	}
	fits := make([]fillFit, len(todo))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for k, fill := range todo {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			scaled := slices.Clone(f.samples)
			for i := range scaled {
				scaled[i].Counts = fillCounts(fill, f.shapes[i], f.props, f.samples[i].Counts)
			}
			w, err := fit.Fit(f.props, scaled, f.opts)
			if w != nil {
				w.Fill = fill
			}
			fits[k] = fillFit{w, err}
		}()
	}
	wg.Wait()
	for k, fill := range todo {
		f.done[fillKey(fill)] = fits[k]
	}
	best := incumbent
	var firstErr error
	for _, fill := range cands {
		r := f.done[fillKey(fill)]
		if r.err != nil {
			if firstErr == nil {
				firstErr = r.err
			}
			continue
		}
		if best == nil || r.w.Diagnostics.TrainingError < best.Diagnostics.TrainingError ||
			math.IsNaN(best.Diagnostics.TrainingError) {
			best = r.w
		}
	}
	return best, firstErr
}

// Predict returns the predicted time of kernel name (consts bound) at
// params, with its terms sorted by decreasing share.
func Predict(c *models.Counter, w *fit.Weights, name string, consts, params map[string]int64) (float64, []fit.Term, error) {
	t, terms, _, err := PredictLaunch(c, w, name, consts, params)
	return t, terms, err
}

// PredictLaunch is Predict that also returns the launch and the factor
// that w's grid fill scaled its counts by. Where w has no grid fill the
// Launch is zero: finding a launch searches the kernel's domain, and
// nothing needs it then.
func PredictLaunch(c *models.Counter, w *fit.Weights, name string, consts, params map[string]int64) (float64, []fit.Term, Launch, error) {
	var s shape
	if w.Fill != nil {
		var err error
		if s, err = launchShape(c, name, consts, params); err != nil {
			return 0, nil, Launch{}, err
		}
	}
	return predictShape(c, w, name, consts, params, s)
}

// PredictAt is PredictLaunch for a binding whose launch at params the
// caller has found already (global and local sizes, as
// counts.Kernel.Launch returns them): tune and predict find it to check
// each binding, and finding it a second time here cost tune 5% of its
// time.
func PredictAt(c *models.Counter, w *fit.Weights, name string, consts, params map[string]int64, global, local [3]int64) (float64, []fit.Term, Launch, error) {
	return predictShape(c, w, name, consts, params, shapeOf(global[:], local[:]))
}

// predictShape is PredictLaunch for a launch of shape s (unused where w
// has no grid fill).
func predictShape(c *models.Counter, w *fit.Weights, name string, consts, params map[string]int64, s shape) (float64, []fit.Term, Launch, error) {
	var l Launch
	if w.Fill != nil {
		l = launchOf(w.Fill, s)
	}
	t, terms, err := predictScaled(c, w, name, consts, params, s)
	return t, terms, l, err
}

// predictScaled predicts with the counts scaled by w's grid fill of a
// launch of shape s, where w has a grid fill (s is unused otherwise).
func predictScaled(c *models.Counter, w *fit.Weights, name string, consts, params map[string]int64, s shape) (float64, []fit.Term, error) {
	if err := models.CheckBanks(w, c); err != nil {
		return 0, nil, err
	}
	v, err := c.Counts(name, consts, params)
	if err != nil {
		return 0, nil, err
	}
	props := slices.Sorted(maps.Keys(v))
	cnt := make([]float64, len(props))
	for i, p := range props {
		cnt[i] = float64(v[p])
	}
	if w.Fill != nil {
		cnt = fillCounts(w.Fill, s, props, cnt)
	}
	return w.Predict(props, cnt)
}

// Validate predicts every row with w and pairs the prediction with the
// measured time.
func Validate(c *models.Counter, w *fit.Weights, rows []models.Row) ([]report.Case, error) {
	cases, _, err := ValidateTerms(c, w, rows)
	return cases, err
}

// ValidateTerms is Validate that also returns the terms of each row's
// prediction, in the order of the cases, for warnings about them. The
// grid fill takes each row's launch from the row, as the fit did, rather
// than searching the kernel's domain again.
func ValidateTerms(c *models.Counter, w *fit.Weights, rows []models.Row) ([]report.Case, [][]fit.Term, error) {
	c.Prepare(rows)
	cases := make([]report.Case, 0, len(rows))
	terms := make([][]fit.Term, 0, len(rows))
	for _, r := range rows {
		var s shape
		if w.Fill != nil {
			var err error
			if s, err = rowShape(r); err != nil {
				return nil, nil, err
			}
		}
		t, ts, err := predictScaled(c, w, r.Kernel, r.Consts, r.Params, s)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", r.Label(), err)
		}
		rc := models.ReportCase(r.Row)
		rc.Predicted = t
		cases = append(cases, rc)
		terms = append(terms, ts)
	}
	return cases, terms, nil
}

// unpriced names a property that counts has and w has no weight for, or
// returns "".
func unpriced(w *fit.Weights, props []string, counts []float64) string {
	for j, n := range counts {
		if _, ok := w.Weight(props[j]); n != 0 && !ok {
			return props[j]
		}
	}
	return ""
}

// tiesAmong returns the ties whose target w has a weight for.
func tiesAmong(ties map[string]string, w *fit.Weights) map[string]string {
	out := map[string]string{}
	for p, to := range ties {
		if _, ok := w.Weight(to); ok {
			out[p] = to
		}
	}
	return out
}

// withReadOnlyTies returns opts with opts.ReadOnlyTies resolved: the
// ties of fit.ReadOnlyStrideTies for the properties that rows count added
// to opts.Ties, which Samples and the weights take from there, or with
// opts.ReadOnlyFallback those of fit.ReadOnlyStrideFallback, which spares
// the properties that some row counts nonzero: those the fit gives a
// column, and so a weight, of their own.
func withReadOnlyTies(c *models.Counter, rows []models.Row, opts Options) (Options, error) {
	if !opts.ReadOnlyTies {
		return opts, nil
	}
	c.Prepare(rows)
	seen, counted := map[string]bool{}, map[string]bool{}
	for _, r := range rows {
		v, err := c.Counts(r.Kernel, r.Consts, r.Params)
		if err != nil {
			return opts, fmt.Errorf("%s: %w", r.Label(), err)
		}
		for p, n := range v {
			seen[p] = true
			if n != 0 {
				counted[p] = true
			}
		}
	}
	props := slices.Sorted(maps.Keys(seen))
	if opts.ReadOnlyFallback {
		opts.Ties = fit.ReadOnlyStrideFallback(props, counted, opts.Ties)
	} else {
		opts.Ties = fit.ReadOnlyStrideTies(props, opts.Ties)
	}
	opts.ReadOnlyTies, opts.ReadOnlyFallback = false, false
	return opts, nil
}

// calibrateOnce is Calibrate with the ties of opts, none chosen.
func calibrateOnce(c *models.Counter, rows []models.Row, opts Options) (*fit.Weights, error) {
	opts, err := withReadOnlyTies(c, rows, opts)
	if err != nil {
		return nil, err
	}
	var w *fit.Weights
	if opts.Fill != nil {
		w, err = calibrateFill(c, rows, opts)
	} else {
		var props []string
		var samples []fit.Sample
		props, samples, err = Samples(c, rows, opts)
		if err != nil {
			return nil, err
		}
		w, err = fit.Fit(props, samples, opts.Fit)
	}
	if err != nil {
		return nil, err
	}
	if len(opts.Ties) > 0 {
		w.Ties = tiesAmong(opts.Ties, w)
	}
	w.Model = fit.ModelUnified
	w.Version = datasets.Version
	banks := c.Banks()
	w.Banks = &banks
	w.PropertySet = fit.PropertySetID(w.Properties)
	return w, nil
}
