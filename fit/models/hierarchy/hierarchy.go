package hierarchy

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/linear"
)

func init() {
	models.Register("hierarchy", func() models.Model { return &Model{} })
}

// Model is the hierarchy-aware model on one device: one weight per
// feature, fitted like seed 001's weights (non-negative relative-error
// least squares on grid-filled counts), the features being the counts
// with reused loads dropped and the traffic terms added.
type Model struct {
	Config Config `json:"config"`
	// Fill and Ties are those of the default linear fit of the same
	// rows, applied to the features as to the counts.
	Fill *fit.GridFill     `json:"fill,omitempty"`
	Ties map[string]string `json:"ties,omitempty"`
	// Cores, with Config.Saturation FillCores, is the device's cores
	// (its file's sm_count) that a launch's groups share.
	Cores int64 `json:"cores,omitempty"`
	// WakeCores, with Config.Wake, is the device's cores (its file's
	// sm_count) that join a launch once it outlasts WakeLatency's weight.
	WakeCores int64 `json:"wake_cores,omitempty"`
	// Properties and Values are the features and their weights (s per
	// count, s per byte for the traffic terms).
	Properties []string  `json:"properties"`
	Values     []float64 `json:"values"`
	// Rows is the rows fitted, Streaming those of them whose kernel has
	// no hierarchy counts (priced as streaming), TrainingError the
	// geometric-mean relative error on them.
	Rows          int     `json:"rows"`
	Streaming     int     `json:"streaming_rows"`
	TrainingError float64 `json:"training_error"`
	// ZeroMissing makes Predict price a feature without a weight at
	// zero, named in the explanation, rather than fail; the caller's
	// choice, as fit.Weights.ZeroMissing.
	ZeroMissing bool `json:"-"`
}

// Name implements Model.
func (m *Model) Name() string { return "hierarchy" }

// Summary implements Model.
func (m *Model) Summary() string {
	if m.Properties == nil {
		return "not calibrated"
	}
	return fmt.Sprintf("form %s (levels %v, reuse %v, per-iteration %v, lines %v, scalar loops %v (unrolled sums vectorised %v), refetch %v, conflict %v, conflict TLB %v, long walks %s, local conflict %v (stores apart %v), chains %v, register chains %v, scalar chains %v (guarded lanes %d), scalar operations %v, local accesses tied %v (every type together %v), bank conflicts dropped %v, integer accesses tied by width %v, local loads kept in registers %v, local beyond L1 %v, context levels %q, indirect arrays bounded %v, last cache %s, warm cache %q, late cores %s, fill %s): %d weights fitted on %d rows (%d streaming: no hierarchy counts), DRAM %.3g ps/B, L2 %.3g ps/B, training error %s",
		m.Config.Form, m.Config.Levels, m.Config.Reuse, m.Config.Iter, m.Config.Lines, m.Config.ScalarLoops, m.Config.UnrolledSums, m.Config.Refetch, m.Config.Conflict, m.Config.ConflictTLB, m.longText(), m.Config.LocalConflict, m.Config.LocalConflictStores, m.Config.Chain, m.Config.RegChain, m.Config.ScalarChain, m.Config.GuardedLanes, m.Config.ScalarOps, m.Config.LocalAccesses, m.Config.LocalAnyType, m.Config.NoBanks, m.Config.WidthTies, m.Config.LocalReuse, m.Config.LocalFootprint, m.Config.Context, m.Config.Indirect, m.Config.LLC, m.Config.Warm, m.wakeText(), m.fillText(), len(m.Properties), m.Rows, m.Streaming,
		1e12*m.weight(DRAMBytes), 1e12*m.weight(L2Bytes), models.ErrorText(m.TrainingError))
}

func (m *Model) longText() string {
	if m.Config.LongWalk == "" {
		return "off"
	}
	if m.Config.LongSecond {
		return fmt.Sprintf("past %d and %d %s", m.Config.LongKnee, m.Config.LongKnee2, m.Config.LongWalk)
	}
	return fmt.Sprintf("past %d %s", m.Config.LongKnee, m.Config.LongWalk)
}

func (m *Model) wakeText() string {
	if !m.Config.Wake {
		return "off"
	}
	mean := ""
	if m.Config.WakeSmooth {
		mean = " on average"
	}
	return fmt.Sprintf("%d cores after %.3g µs%s", m.WakeCores, 1e6*m.weight(WakeLatency), mean)
}

func (m *Model) fillText() string {
	f := m.Fill
	if m.Cores > 0 {
		return fmt.Sprintf("the busy cores of %d", m.Cores)
	}
	if f == nil {
		return "none"
	}
	s := fmt.Sprintf("S=%d", f.Saturation)
	if f.Latency != nil {
		s += fmt.Sprintf("/%d", *f.Latency)
	}
	if f.Global != nil {
		s += fmt.Sprintf("/%d", *f.Global)
	}
	return s
}

// weight is the weight of a feature, 0 where it has none.
func (m *Model) weight(p string) float64 {
	if j := slices.Index(m.Properties, p); j >= 0 {
		return m.Values[j]
	}
	return 0
}

// Calibrate implements Model: the default linear fit of the rows gives
// the grid fill and the ties, then the features are fitted.
func (m *Model) Calibrate(env *models.Env, rows []models.Row) error {
	if len(rows) == 0 {
		return fmt.Errorf("hierarchy: no rows to calibrate on")
	}
	if m.Config == (Config{}) && env.Device != nil {
		m.Config = Chosen(env.Device.Kind)
		// The chosen CPU form keeps a launch within the shared L3 warm
		// where the device file says how large that L3 is (pocl-cpu);
		// on another CPU it prices DRAM as a cold cache, as before.
		if m.Config.Warm == WarmL3 && (env.Device.Caches == nil || env.Device.Caches.L3Shared <= 0) {
			m.Config.Warm = ""
		}
	}
	if m.Config.LongWalk != "" && m.Config.LongKnee == 0 {
		return m.calibrateKnee(env, rows)
	}
	_, err := m.calibrate(env, rows)
	return err
}

// CheckCalibration implements models.CalibrationChecker: a restored
// calibration has a weight per feature and a usable grid fill, which
// Predict reads without checking, its long walks name a measure and a
// knee, and it prices one set of register chains at most (checkChains).
func (m *Model) CheckCalibration() error {
	if len(m.Values) != len(m.Properties) {
		return fmt.Errorf("%d weights for %d features", len(m.Values), len(m.Properties))
	}
	if m.Fill != nil {
		if err := m.Fill.Validate(); err != nil {
			return err
		}
	}
	if err := m.Config.checkPairs(); err != nil {
		return err
	}
	if m.Config.Wake && m.WakeCores < 2 {
		return fmt.Errorf("config.wake with wake_cores %d: the cores that join a launch late are 2 or more (the device file's sm_count); uniperf fit --model hierarchy writes them: fit again, or correct wake_cores", m.WakeCores)
	}
	if m.Config.LongWalk == "" {
		return nil
	}
	return m.Config.checkLong(true)
}

// calibrateKnee calibrates at each knee of KneeGrid (ascending) and
// keeps the calibration of least squared relative error on the rows.
// At a knee no row's walk goes past, the calibration is the one without
// the feature, one candidate among the others; no row goes past a later
// knee either, so the search stops there (a fold whose longest walks
// end between two knees still compares the knees below with the form
// without the feature). With LongSecond it tries each pair of KneeGrid,
// the first knee below the second, alike: at a second knee no row's
// walk goes past, the calibration is the one-knee form, and so at the
// later second knees. With Wake the knees are the form's without it
// (fitWake at every pair would multiply the fits of a calibration by
// its alternations), and Wake is fitted at them.
func (m *Model) calibrateKnee(env *models.Env, rows []models.Row) error {
	wake := m.Config.Wake
	m.Config.Wake = false
	if err := m.searchKnee(env, rows); err != nil {
		return err
	}
	if !wake {
		return nil
	}
	m.Config.Wake = true
	_, err := m.calibrate(env, rows)
	return err
}

// searchKnee is calibrateKnee's search of the knees.
func (m *Model) searchKnee(env *models.Env, rows []models.Row) error {
	var best Model
	bestObj, found := math.Inf(1), false
	for i, k := range KneeGrid {
		seconds := []int64{0}
		if m.Config.LongSecond {
			seconds = KneeGrid[i+1:]
		}
		for _, k2 := range seconds {
			c := *m
			c.Config.LongKnee, c.Config.LongKnee2 = k, k2
			obj, err := c.calibrate(env, rows)
			if err != nil {
				return err
			}
			if !found || obj < bestObj {
				best, bestObj, found = c, obj, true
			}
			if c.Config.LongWalk == "" {
				*m = best
				return nil
			}
			if m.Config.LongSecond && !c.Config.LongSecond {
				break
			}
		}
	}
	*m = best
	return nil
}

// calibrate fits the weights of m's form to the rows and returns their
// squared relative error.
func (m *Model) calibrate(env *models.Env, rows []models.Row) (float64, error) {
	lv, err := levelsOf(env, m.Config)
	if err != nil {
		return 0, err
	}
	if m.Fill, err = m.gridFill(env, rows); err != nil {
		return 0, err
	}
	m.Cores = 0
	if m.Config.Saturation == FillCores {
		if env.Device.SMs < 1 {
			return 0, fmt.Errorf("hierarchy: the busy cores' fill: device %s gives no sm_count", env.Device.Name)
		}
		m.Cores = int64(env.Device.SMs)
	}
	m.WakeCores = 0
	if m.Config.Wake {
		if env.Device.SMs < 2 {
			// One core: no other core joins a launch, and the form is
			// the one without.
			m.Config.Wake, m.Config.WakeSmooth = false, false
		} else {
			m.WakeCores = int64(env.Device.SMs)
		}
	}
	m.Ties = nil
	if env.Device.Kind != "cpu" {
		m.Ties = map[string]string{}
	}
	feats := make([]map[string]float64, len(rows))
	seen := map[string]bool{}
	m.Streaming = 0
	for i, r := range rows {
		lf, err := facts(env, models.CaseOf(r), m.Config, lv)
		if err != nil {
			return 0, fmt.Errorf("hierarchy: %s: %w", r.Label(), err)
		}
		if lf.refusal != "" {
			m.Streaming++
		}
		feats[i] = m.filled(lf)
		for p := range feats[i] {
			seen[p] = true
		}
	}
	if m.Config.Chain && !slices.ContainsFunc(slices.Collect(maps.Keys(seen)), isChain) {
		// No row has a chain (a table without the hierarchy suite's
		// accumulate_global rows): the weight cannot be fitted, and the
		// calibration is the form without chains, as its Summary says,
		// rather than one that refuses every kernel with a chain.
		m.Config.Chain = false
	}
	if !slices.ContainsFunc(slices.Collect(maps.Keys(seen)), isRegChain) {
		m.Config.RegChain, m.Config.ScalarChain, m.Config.GuardedLanes = false, false, 0
	}
	if m.Config.ScalarOps && !seen[ScalarOps] {
		// No row runs an operation one work-item at a time: the weight
		// cannot be fitted, and the calibration is the form without.
		m.Config.ScalarOps = false
	}
	if m.Config.Refetch && !seen[RefetchBytes] {
		// Likewise no row fetches a line again (no column walk beyond a
		// core's share of the last cache): those lines stay in the DRAM
		// traffic, as in the form without Refetch.
		m.Config.Refetch = false
	}
	if m.Config.Conflict && !seen[ConflictBytes] {
		m.Config.Conflict = false
	}
	if m.Config.LocalFootprint && !slices.ContainsFunc(slices.Collect(maps.Keys(seen)), isBeyondL1) {
		// No row's group declares more local bytes than L1: the weights
		// cannot be fitted, and the calibration is the form without.
		m.Config.LocalFootprint = false
	}
	keys := slices.Collect(maps.Keys(seen))
	l2, llc := slices.ContainsFunc(keys, isContextL2), slices.ContainsFunc(keys, isContextLLC)
	if m.Config.Context == ContextL2 && !(l2 && llc) {
		// A level no row reaches has weights that cannot be fitted: the
		// calibration is the form with the first level alone, which
		// prices a launch beyond L2 as one beyond L1. The rows beyond
		// L2 move to the first level's features, counted again.
		m.Config.Context = ContextL1
		if llc {
			return m.calibrate(env, rows)
		}
	}
	if m.Config.Context == ContextL1 && !l2 {
		m.Config.Context = ""
	}
	if m.Config.ConflictTLB && !seen[ConflictTLBBytes] {
		m.Config.ConflictTLB = false
	}
	if m.Config.LocalConflictStores && !seen[LocalConflictStoreBytes] {
		m.Config.LocalConflictStores = false
	}
	if m.Config.LocalConflict && !seen[LocalConflictBytes] && !seen[LocalConflictStoreBytes] {
		m.Config.LocalConflict = false
	}
	if m.Config.LongWalk != "" && !seen[ConflictLongBytes] {
		m.Config.LongWalk, m.Config.LongKnee = "", 0
	}
	if m.Config.LongSecond && (m.Config.LongWalk == "" || !seen[ConflictLong2Bytes]) {
		m.Config.LongSecond, m.Config.LongKnee2 = false, 0
	}
	if m.Config.Wake {
		seen[WakeLatency] = true
	}
	props := slices.Sorted(maps.Keys(seen))
	if m.Ties != nil {
		m.Ties = fit.FilledStrideTies(props)
	}
	if m.Config.ReadOnlyTies {
		m.Ties = fit.ReadOnlyStrideTies(props, m.Ties)
	}
	if m.Config.WidthTies {
		m.Ties = withWidthTies(m.Ties, props)
	}
	samples := make([]fit.Sample, len(rows))
	for i, r := range rows {
		cnt := make([]float64, len(props))
		for j, p := range props {
			cnt[j] = feats[i][p]
		}
		samples[i] = fit.Sample{Kernel: r.Kernel, Class: r.Class, Label: r.Label(), Counts: cnt, Time: r.TimeS}
	}
	props, samples = fit.TieColumns(props, samples, m.Ties)
	values, err := m.fitForm(props, samples)
	if err != nil {
		return 0, fmt.Errorf("hierarchy: %w", err)
	}
	m.Properties, m.Values, m.Rows = props, values, len(rows)
	if m.Config.Wake {
		samples = wakeSamples(m.Config.Form, props, values, samples, m.WakeCores, m.Config.WakeSmooth)
	}
	errs := make([]float64, len(samples))
	for i, s := range samples {
		errs[i] = fit.RelativeError(combine(m.Config.Form, props, values, s.Counts), s.Time)
	}
	m.TrainingError = fit.GeoMean(errs)
	return objective(m.Config.Form, props, values, samples), nil
}

// fitForm fits the weights of the model's form, with Config.Wake by
// fitWake's alternation around it.
func (m *Model) fitForm(props []string, samples []fit.Sample) ([]float64, error) {
	if m.Config.Wake {
		return fitWake(m.Config.Form, props, samples, m.WakeCores, m.Config.WakeSmooth, m.fitParts)
	}
	return m.fitParts(props, samples)
}

// fitParts fits the weights of the model's form, its parts summed or
// the largest taken.
func (m *Model) fitParts(props []string, samples []fit.Sample) ([]float64, error) {
	if m.Config.Form == FormSum {
		return fitSum(props, samples)
	}
	return fitMax(m.Config.Form, props, samples)
}

// gridFill returns the grid fill that Config.Saturation names.
func (m *Model) gridFill(env *models.Env, rows []models.Row) (*fit.GridFill, error) {
	switch s := m.Config.Saturation; {
	case s == FillNone || s == FillCores:
		return nil, nil
	case s > 0:
		return &fit.GridFill{Units: rows[0].Units, Saturation: s}, nil
	}
	lo := linear.Options{Fit: fit.DefaultOptions(), Fill: &fit.GridFill{Latency: new(int64)}}
	lw, err := linear.Calibrate(env.Counter, rows, lo)
	if err != nil {
		return nil, fmt.Errorf("hierarchy: the grid fill: %w", err)
	}
	return lw.Fill, nil
}

// filled returns the features of a launch scaled by the grid fill; the
// traffic terms take the coalesced global accesses' factor.
func (m *Model) filled(lf *launchFacts) map[string]float64 {
	out := make(map[string]float64, len(lf.features))
	idle := m.idleFactor(lf.groups)
	for p, v := range lf.features {
		if fit.Scaled(p) {
			v *= idle
		}
		if m.Fill != nil {
			as := p
			if strings.HasPrefix(p, "mem.") {
				as = "global.load.f32.stride=1"
			}
			v *= m.Fill.Scale(as, lf.groups, lf.size)
		}
		out[p] = v
	}
	return out
}

// idleFactor is FillCores' factor for a launch of groups work-groups:
// Cores/min(groups, Cores), 1 without Cores or for an empty launch.
func (m *Model) idleFactor(groups int64) float64 {
	if m.Cores < 1 || groups < 1 || groups >= m.Cores {
		return 1
	}
	return float64(m.Cores) / float64(groups)
}

// NoWeight is the note of an explanation's term for a feature that the
// calibration has no weight for, priced at zero with ZeroMissing: a
// reader (hierstudy's -why) tells such a term from one whose weight is 0.
const NoWeight = "no weight: no row fitted exercised it; priced at zero"

// Predict implements Model. A non-zero feature without a weight (no row
// fitted exercised it) is an error, unless ZeroMissing.
func (m *Model) Predict(env *models.Env, c models.Case) (models.Prediction, error) {
	if m.Properties == nil {
		return models.Prediction{}, fmt.Errorf("hierarchy: %w", models.ErrNotCalibrated)
	}
	lv, err := levelsOf(env, m.Config)
	if err != nil {
		return models.Prediction{}, err
	}
	lf, err := facts(env, c, m.Config, lv)
	if err != nil {
		return models.Prediction{}, err
	}
	feats := m.filled(lf)
	cnt := make([]float64, len(m.Properties))
	var unpriced []string
	for p, v := range feats {
		if t, ok := m.Ties[p]; ok {
			p = t
		} else if w, ok := widthTarget(p); ok && m.Config.WidthTies {
			// A feature no calibration row had is priced by its
			// width's weight all the same, or by what that one is
			// tied to (a filled stride's stride-1 access), since the
			// float feature's column went to its target.
			p = w
			if t, ok := m.Ties[w]; ok {
				p = t
			}
		}
		j := slices.Index(m.Properties, p)
		if j < 0 {
			if v != 0 {
				unpriced = append(unpriced, p)
			}
			continue
		}
		cnt[j] += v
	}
	if len(unpriced) > 0 && !m.ZeroMissing {
		slices.Sort(unpriced)
		return models.Prediction{}, fmt.Errorf("kernel %s: %s: the calibration has no weight for it: no row it was fitted on exercised it", c.Kernel, strings.Join(unpriced, ", "))
	}
	if m.Config.Wake {
		cnt = wakeCounts(m.Config.Form, m.Properties, m.Values, cnt, m.WakeCores, m.Config.WakeSmooth)
	}
	pred := models.Prediction{Seconds: combine(m.Config.Form, m.Properties, m.Values, cnt), Explain: explainTerms(m.Config.Form, m.Properties, m.Values, cnt)}
	tr := lf.traffic
	note := "from the hierarchy counts"
	if tr.Lines {
		note = fmt.Sprintf("in whole %d-byte lines, from the cache-line counts", LineBytes)
		switch {
		case m.Config.LineScale && m.Config.ScaleContiguous:
			note += fmt.Sprintf("; contiguous global accesses priced at %.3g times", tr.LineScale())
		case m.Config.LineScale:
			note += fmt.Sprintf("; global accesses priced at %.3g times", tr.LineScale())
		}
	}
	if m.Config.Warm != "" {
		note += fmt.Sprintf("; none from DRAM where the launch fits the %s cache kept between runs", m.Config.Warm)
	}
	if !tr.Counted {
		note = "streaming: no hierarchy counts (" + lf.refusal + ")"
	}
	pred.Explain = append(pred.Explain,
		models.Quantity{Name: "traffic.dram", Value: tr.DRAM, Unit: "B", Note: note},
		models.Quantity{Name: "traffic.l2", Value: tr.L2, Unit: "B", Note: note},
		models.Quantity{Name: "loads.reused", Value: tr.Reused, Note: "global loads repeating a cell of their work-item, not priced as traffic"})
	if m.Config.ScalarLoops {
		pred.Explain = append(pred.Explain, models.Quantity{Name: "accesses.scalar", Value: float64(lf.scalar),
			Note: "strided global accesses run one work-item at a time (in a loop without a barrier, or a reduction), priced as contiguous"})
	}
	if m.Config.LocalReuse {
		pred.Explain = append(pred.Explain, models.Quantity{Name: "loads.registers", Value: float64(lf.registers),
			Note: "local loads repeating a cell within an unrolled block, kept in registers, not priced"})
	}
	for _, p := range slices.Sorted(slices.Values(unpriced)) {
		pred.Explain = append(pred.Explain, models.Quantity{Name: p, Value: 0, Unit: "s", Note: NoWeight})
	}
	return pred, nil
}
