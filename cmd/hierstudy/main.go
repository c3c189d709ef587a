// Command hierstudy compares the forms of the hierarchy model
// (fit/models/hierarchy) with seed 001's default linear fit on one
// device: leave-one-class-out cross-validation on the measurement rows
// of the fit tables, and the errors of the kernels of the other tables
// (their test rows) with every form calibrated on all the measurement
// rows. The forms were chosen with it on measurement rows and the
// development kernels of examples/ (docs/model.md); the same command
// gives the held-out figures, computed once at the end.
//
//	go run ./cmd/hierstudy -fit datasets/pocl-epyc-paper.arrow,datasets/hierarchy/pocl-epyc.arrow \
//	    -split development datasets/examples-pocl/*.arrow
//
// A form is linear, hierarchy (the chosen form of the tables' device,
// hierarchy.Chosen), hierarchy+OPTION... (the chosen form with options
// added: hierarchy+localreuse), or sum, max or maxgroups with options
// (-forms lists them). linear is uniperf fit's default fit
// (linear.DefaultOptions): it prices the strided readonly loads by the
// weights of the plain loads of their classes (fit.ReadOnlyStrideTies),
// linear+ownldg by weights of their own, linear+fallbackldg by their own
// where a row counts them and by the plain loads' where none does
// (fit.ReadOnlyStrideFallback); the hierarchy option ldgties adds the
// ties to a hierarchy form. Each linear form chooses its filled strided
// ties once, on all the measurement rows, as uniperf fit does with its
// options, and fits every fold with that choice, as uniperf validate
// --cv does; calibrated on all the rows, linear gives uniperf fit's
// weights.
//
// -calibrations DIR writes each hierarchy form's calibration on all the
// measurement rows (with -train, and the corpus rows trained on, whose
// tables the file names among its inputs with the fit tables) to
// DIR/FORM.json, the file uniperf fit --model
// hierarchy writes for the chosen form, so that uniperf tune --model
// hierarchy --weights DIR/FORM.json ranks a tuning space with any form.
//
// -why diagnoses the leave-one-class-out misses of the hierarchy forms:
// for each class left out, its rows the calibration without it cannot
// predict and the features no other class exercises that leave them so
// (a row is predicted, and counts in the figure, only where every
// feature of it has a weight from the other classes), then, of the
// predicted rows, the geomean and signed median error (p/m − 1), how
// many are too slow and too fast, and the terms with the largest share
// of the prediction (a term's seconds over the prediction's, averaged
// over the rows) with their weights, left out and calibrated on every
// row. It calibrates each fold once more; -cv=false spares the
// cross-validation's own.
//
// -train TABLES adds the rows of development kernels' corpus tables to
// every calibration, -train-weight times each; a corpus kernel among
// them is predicted by the calibration of its fold's complement (-folds
// folds, kernels placed by their place in sorted order), so that no
// kernel's figure comes from weights fitted on it. A held-out kernel's
// table is refused. (Session 18: not chosen; docs/accuracy.md.)
//
// -repeats DIRS takes a corpus row's time, in the tables given and in
// -train's, as the median of its time there and in the same-named
// tables of DIRS, other complete runs of the corpus on the device
// (datasets/examples-pocl-repeat, datasets/examples-pocl-repeat2): each
// run's time is the minimum of its kept runs, the statistic a fitted
// row is, and their median is that statistic with less of one run's
// noise.
//
// -device-file FILE gives the device file of a device that no shipped
// file names, such as the Xeon VM of datasets/xeon
// (datasets/xeon/pocl-xeon-device.json); without it the tables' device
// must be a shipped one.
//
// It exits 2 where a flag or a table is at fault (an unknown form or
// split, a table that cannot be read, a device no file names), checking
// the flags before it reads anything, and 1 where the study itself
// fails.
package main

import (
	"errors"
	"flag"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/examples"
	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/gpus"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/hierarchy"
	"github.com/uniperf/uniperf/fit/models/linear"
)

// formSyntax lists the hierarchy forms and their options, for -forms'
// help and for the refusal of a form it does not name.
const formSyntax = "hierarchy|sum|maxgroups|max[+noreuse][+nolevels][+l3][+iter|+iterl1][+lines|+linescale|+scale1][+scalar|+unrsum][+core|+refetch][+conflict][+tlb][+long|+longpages|+longpages2][+indirect][+ldgties][+chain][+regchain|+scalarchain][+scalarops][+lanes|+lanes2|+lanes8][+localacc|+localany][+nobanks][+width][+localreuse][+localfoot|+context|+context2|+nocontext][+l1conflict|+l1conflictst][+warm|+warmllc][+wake|+wakeexp|+nowake][+nofill|+corefill|+sN]"

func main() {
	fitTables := flag.String("fit", "", "comma-separated tables whose measurement rows calibrate (and are cross-validated)")
	split := flag.String("split", "", "with corpus tables: keep only kernels of this part of examples/ (development or held-out)")
	forms := flag.String("forms", "linear,hierarchy", "comma-separated forms: linear (the default fit), linear+nofill (without the grid fill), linear+ownldg (strided readonly loads with weights of their own, not the plain loads'), linear+fallbackldg (their own where rows count them, the plain loads' where none does), hierarchy (the chosen form), or "+formSyntax)
	cv := flag.Bool("cv", true, "leave-one-class-out cross-validation on the fit tables")
	perKernel := flag.Bool("kernels", false, "print every kernel's error")
	testRows := flag.Bool("test", false, "also predict the fit tables' test rows (the paper's test kernels): for the report, never while choosing a form")
	flag.BoolVar(&explain, "explain", false, "print every corpus row's prediction with its largest terms and its traffic")
	deviceFile := flag.String("device-file", "", "device parameter file (JSON, see fit/gpus) for a device that no shipped file names, such as a CPU of its own")
	whyFlag := flag.Bool("why", false, "diagnose each class left out: its unpredicted rows and the features that leave them so, its signed errors and the terms of its predictions (hierarchy forms)")
	trainTables := flag.String("train", "", "comma-separated corpus tables of development kernels whose rows join every calibration, -train-weight times each; a corpus kernel among them is predicted by the calibration without its fold (-folds)")
	weight := flag.Int("train-weight", 1, "with -train: how many times each corpus row counts in the least squares")
	folds := flag.Int("folds", 5, "with -train: the folds of the trained kernels (by their place in sorted order)")
	repeats := flag.String("repeats", "", "comma-separated folders of other complete runs of the corpus on the device (datasets/examples-pocl-repeat,...): a corpus row's time (of the tables given and of -train's) is the median of its time in every run")
	calDir := flag.String("calibrations", "", "write each hierarchy form's calibration on all the measurement rows (and -train's corpus rows) to DIR/FORM.json (an existing folder), for uniperf tune --model hierarchy --weights")
	flag.Parse()
	tr := corpusSpec{weight: *weight, folds: *folds}
	if *repeats != "" {
		tr.repeats = strings.Split(*repeats, ",")
	}
	if *trainTables != "" {
		tr.paths = strings.Split(*trainTables, ",")
	}
	if err := run(strings.Split(*fitTables, ","), flag.Args(), *split, strings.Split(*forms, ","), *cv, *perKernel, *testRows, *calDir, *deviceFile, *whyFlag, tr); err != nil {
		fmt.Fprintln(os.Stderr, "hierstudy:", err)
		var bad badInput
		if errors.As(err, &bad) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// badInput marks an error of the command line or its tables (exit 2),
// as against a fault met while studying them (exit 1).
type badInput struct{ error }

func (b badInput) Unwrap() error { return b.error }

// checkArgs refuses flags that name no form or split, or a
// -calibrations folder that is not one, before any table is read, since
// a study runs for minutes before it reaches them.
func checkArgs(split string, forms []string, calDir string) error {
	if calDir != "" {
		if st, err := os.Stat(calDir); err != nil {
			return badInput{fmt.Errorf("-calibrations %s: %w", calDir, err)}
		} else if !st.IsDir() {
			return badInput{fmt.Errorf("-calibrations %s: not a folder", calDir)}
		}
	}
	if split != "" && split != string(examples.Development) && split != string(examples.HeldOut) {
		return badInput{fmt.Errorf("-split %q: want %s or %s", split, examples.Development, examples.HeldOut)}
	}
	for _, form := range forms {
		if _, err := newModel(form); err != nil {
			return badInput{err}
		}
	}
	return nil
}

func source(name string) (string, []byte, error) {
	if strings.HasSuffix(name, ".knl") || strings.ContainsRune(name, '/') {
		return models.Files(name)
	}
	return models.Library(name)
}

func load(paths []string) (map[string]*datasets.Table, error) {
	out := map[string]*datasets.Table{}
	for _, p := range paths {
		t, err := datasets.Read(p)
		if err != nil {
			return nil, err
		}
		out[p] = t
	}
	return out, nil
}

// parseForm reads a form name.
func parseForm(s string) (hierarchy.Config, error) {
	if s == "hierarchy" {
		return hierarchy.Config{}, nil
	}
	parts := strings.Split(s, "+")
	c := hierarchy.Config{Form: parts[0], Levels: true, Reuse: true, LLC: "l2"}
	if c.Form == "hierarchy" {
		c = hierarchy.Chosen(deviceKind)
	}
	if c.Form != hierarchy.FormSum && c.Form != hierarchy.FormMax && c.Form != hierarchy.FormMaxGroups {
		return c, fmt.Errorf("form %q: want linear, linear+nofill, linear+ownldg, linear+fallbackldg, hierarchy, or %s", s, formSyntax)
	}
	namedContext := false
	for _, p := range parts[1:] {
		switch p {
		case "noreuse":
			c.Reuse = false
		case "nolevels":
			c.Levels = false
		case "l3":
			c.LLC = "l3"
		case "iter":
			c.Iter = true
		case "iterl1":
			c.Iter, c.IterL1 = true, true
		case "lines":
			c.Lines = true
		case "linescale":
			c.Lines, c.LineScale = true, true
		case "scale1":
			c.Lines, c.LineScale, c.ScaleContiguous = true, true, true
		case "scalar":
			c.ScalarLoops = true
		case "unrsum":
			c.ScalarLoops, c.UnrolledSums = true, true
		case "core":
			c.CoreShare = true
		case "refetch":
			c.CoreShare, c.Refetch = true, true
		case "conflict":
			c.Lines, c.Conflict = true, true
		case "tlb":
			c.Lines, c.Conflict, c.ConflictTLB = true, true, true
		case "long":
			c.Lines, c.Conflict, c.LongWalk = true, true, hierarchy.LongLines
		case "longpages":
			c.Lines, c.Conflict, c.LongWalk = true, true, hierarchy.LongPages
		case "longpages2":
			c.Lines, c.Conflict, c.LongWalk, c.LongSecond = true, true, hierarchy.LongPages, true
		case "indirect":
			c.Indirect = true
		case "chain":
			c.Chain = true
		case "regchain":
			c.RegChain = true
		case "scalarchain":
			c.ScalarChain = true
		case "scalarops":
			c.ScalarOps = true
		case "lanes":
			c.ScalarChain, c.GuardedLanes = true, 4
		case "lanes2":
			c.ScalarChain, c.GuardedLanes = true, 2
		case "lanes8":
			c.ScalarChain, c.GuardedLanes = true, 8
		case "localacc":
			c.LocalAccesses = true
		case "localany":
			c.LocalAccesses, c.LocalAnyType = true, true
		case "width":
			c.WidthTies = true
		case "nobanks":
			c.NoBanks = true
		case "localfoot":
			c.LocalFootprint = true
		case "context":
			c.Context, namedContext = hierarchy.ContextL1, true
		case "context2":
			c.Context, namedContext = hierarchy.ContextL2, true
		case "nocontext":
			c.Context, namedContext = "", true
		case "localreuse":
			c.LocalReuse = true
		case "ldgties":
			c.ReadOnlyTies = true
		case "l1conflict":
			c.LocalConflict = true
		case "l1conflictst":
			c.LocalConflict, c.LocalConflictStores = true, true
		case "warm":
			c.Warm = hierarchy.WarmL3
		case "warmllc":
			c.Warm = hierarchy.WarmLLC
		case "wake":
			c.Wake, c.WakeSmooth = true, false
		case "nowake":
			c.Wake, c.WakeSmooth = false, false
		case "wakeexp":
			c.Wake, c.WakeSmooth = true, true
		case "nofill":
			c.Saturation = hierarchy.FillNone
		case "corefill":
			c.Saturation = hierarchy.FillCores
		default:
			if n, err := strconv.ParseInt(strings.TrimPrefix(p, "s"), 10, 64); err == nil && strings.HasPrefix(p, "s") && n > 0 {
				c.Saturation = n
				continue
			}
			return c, fmt.Errorf("form %q: unknown option %q", s, p)
		}
	}
	if c.LocalFootprint {
		// The footprint and the context both move a local access to a
		// level; the footprint replaces the chosen form's context (the
		// CPU's has one), and one named with it is refused, not dropped.
		if namedContext && c.Context != "" {
			return c, fmt.Errorf("form %q: +localfoot and +context or +context2 both move a local access to a level, which would price it twice; keep one", s)
		}
		c.Context = ""
	}
	return c, nil
}

// deviceKind is the fit tables' device's kind ("cpu" or "gpu"), whose
// chosen form (hierarchy.Chosen) "hierarchy+OPTION" adds options to.
var deviceKind string

// linearOptions returns the options of a linear form, which choose
// their ties as uniperf fit's do, and whether form is one.
func linearOptions(form string) (linear.Options, bool) {
	o := linear.DefaultOptions()
	switch form {
	case "linear":
	case "linear+nofill":
		o.Fill = nil
	case "linear+ownldg":
		o.ReadOnlyTies = false
	case "linear+fallbackldg":
		o.ReadOnlyFallback = true
	default:
		return o, false
	}
	return o, true
}

// chosen holds each linear form's calibration on all the measurement
// rows (chooseTies), whose choice of ties its models keep in every fold.
var chosen = map[string]*fit.Weights{}

// chooseTies calibrates each linear form of forms on rows, choosing its
// ties as uniperf fit does, for newModel.
func chooseTies(env *models.Env, rows []models.Row, forms []string) error {
	for _, form := range forms {
		o, ok := linearOptions(form)
		if !ok {
			continue
		}
		w, err := linear.Calibrate(env.Counter, rows, o)
		if err != nil {
			return fmt.Errorf("%s: %w", form, err)
		}
		chosen[form] = w
	}
	return nil
}

func newModel(form string) (models.Model, error) {
	if o, ok := linearOptions(form); ok {
		if w := chosen[form]; w != nil {
			o = linear.WithTiesOf(o, w)
		}
		return &linear.Model{Options: o}, nil
	}
	c, err := parseForm(form)
	if err != nil {
		return nil, err
	}
	return &hierarchy.Model{Config: c}, nil
}

func run(fitPaths, kernelPaths []string, split string, forms []string, cv, perKernel, testRows bool, calDir, deviceFile string, whyFlag bool, tr corpusSpec) error {
	if err := checkArgs(split, forms, calDir); err != nil {
		return err
	}
	if err := tr.check(); err != nil {
		return err
	}
	trainTabs, err := load(tr.paths)
	if err != nil {
		return badInput{err}
	}
	if err := developmentOnly(trainTabs); err != nil {
		return badInput{err}
	}
	runs := newRepeatRuns(tr.repeats)
	if err := medianOfRuns(trainTabs, runs); err != nil {
		return badInput{err}
	}
	fitTabs, err := load(fitPaths)
	if err != nil {
		return badInput{err}
	}
	device, err := models.OneDevice(fitTabs)
	if err != nil {
		return badInput{err}
	}
	var keep []string
	for _, p := range kernelPaths {
		if split == "" || string(examples.SplitOf(strings.TrimSuffix(filepath.Base(p), ".arrow")+".knl")) == split {
			keep = append(keep, p)
		}
	}
	kernTabs, err := load(keep)
	if err != nil {
		return badInput{err}
	}
	if err := medianOfRuns(kernTabs, runs); err != nil {
		return badInput{err}
	}
	d, err := lookupDevice(device, deviceFile)
	if err != nil {
		return badInput{err}
	}
	deviceKind = d.Kind
	env := studyEnv(device, d)
	meas := models.Rows(fitTabs, datasets.RoleMeasurement)
	var test []models.Row
	if testRows {
		test = models.Rows(fitTabs, datasets.RoleTest)
	}
	corpus := models.Rows(kernTabs, datasets.RoleTest)
	train := models.Rows(trainTabs, datasets.RoleTest)
	if err := chooseTies(env, meas, forms); err != nil {
		return err
	}
	fmt.Printf("device %s: %d measurement rows, %d test rows, %d corpus rows (%s)\n", device, len(meas), len(test), len(corpus), orAll(split))
	if len(tr.repeats) > 0 {
		fmt.Printf("corpus times: the median of %d complete runs, the tables given and those of %s\n", len(tr.repeats)+1, strings.Join(tr.repeats, ", "))
	}
	if len(train) > 0 {
		fmt.Printf("calibrated also on %d corpus rows of %d tables, %d times each; trained kernels predicted in %d folds\n", len(train), len(trainTabs), tr.weight, tr.folds)
	}
	fmt.Println("| form | LOCO geomean (rows) | test cross-kernel | corpus cross-kernel | corpus exp(mean|log|)-1 | worst ratio | kernels > 3x | training |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---:|---|")
	for _, form := range forms {
		locoText := "-"
		if cv {
			cases, _ := models.CrossValidate(models.DeviceRows{Device: device, Env: env, Rows: meas}, form, newModel)
			var errs []float64
			byClass := map[string][]float64{}
			for _, c := range cases {
				if c.Err == "" {
					e := fit.RelativeError(c.Predicted, c.Measured)
					errs = append(errs, e)
					byClass[c.Class] = append(byClass[c.Class], e)
				}
			}
			locoText = fmt.Sprintf("%.3f (%d of %d)", fit.GeoMean(errs), len(errs), len(cases))
			if perKernel {
				for _, k := range slices.Sorted(maps.Keys(byClass)) {
					fmt.Printf("    %s LOCO class %s: %.3f\n", form, k, fit.GeoMean(byClass[k]))
				}
			}
		}
		m, _ := newModel(form)
		if err := m.Calibrate(env, trainRows(meas, train, tr.weight)); err != nil {
			return fmt.Errorf("%s: %w", form, err)
		}
		if h, ok := m.(*hierarchy.Model); ok && whyFlag {
			if err := why(env, meas, form, h, func() (models.Model, error) { return newModel(form) }); err != nil {
				return err
			}
		}
		if _, ok := m.(*hierarchy.Model); ok && calDir != "" {
			if err := writeCalibration(calDir, form, m, device, d, tr.inputs(fitPaths)); err != nil {
				return err
			}
		}
		zeroMissing(m)
		predict := func(r models.Row) (models.Prediction, error) { return m.Predict(env, models.CaseOf(r)) }
		tk, _ := score(predict, test)
		if len(train) > 0 {
			if predict, err = foldPredictor(env, meas, train, tr.weight, tr.folds, m, func() (models.Model, error) { return newModel(form) }); err != nil {
				return fmt.Errorf("%s: %w", form, err)
			}
		}
		ck, st := score(predict, corpus)
		fmt.Printf("| %s | %s | %s | %s | %s | %s | %d | %s |\n", form, locoText, num(tk), num(ck), num(st.symmetric), num(st.worst), st.over3, m.Summary())
		if len(st.streaming) > 0 {
			fmt.Printf("    %s: %d kernels priced as streaming (no hierarchy counts): %v\n", form, len(st.streaming), slices.Sorted(maps.Keys(st.streaming)))
		}
		if perKernel {
			for _, k := range slices.Sorted(maps.Keys(st.perKernel)) {
				fmt.Printf("    %s %s: %.3f  (signed %s)\n", form, k, st.perKernel[k], strings.Join(st.signed[k], " "))
			}
		}
	}
	return nil
}

// studyEnv is the environment the forms are calibrated and predict in:
// device d, the tables' device, counting local accesses with its banks.
func studyEnv(device string, d *gpus.Device) *models.Env {
	banks, _ := models.DeviceBanks(device)
	return &models.Env{Counter: models.NewCounterWith(source, banks), Device: d}
}

func orAll(s string) string {
	if s == "" {
		return "all"
	}
	return s
}

func num(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return fmt.Sprintf("%.3f", x)
}

type stats struct {
	perKernel        map[string]float64
	signed           map[string][]string
	symmetric, worst float64
	over3            int
	// streaming counts the rows the hierarchy model priced as streaming
	// (no hierarchy counts), by kernel.
	streaming map[string]int
}

// score predicts rows and returns the cross-kernel geometric mean of the
// kernels' geometric-mean relative errors, with the symmetric error
// exp(mean |log(p/m)|) − 1 over the rows, the worst ratio max(p/m, m/p)
// and the kernels with a row off by more than 3×.
func score(predict predictor, rows []models.Row) (float64, stats) {
	st := stats{perKernel: map[string]float64{}, signed: map[string][]string{}, symmetric: math.NaN(), worst: math.NaN(), streaming: map[string]int{}}
	if len(rows) == 0 {
		return math.NaN(), st
	}
	byKernel := map[string][]float64{}
	sumLog, n, worst := 0.0, 0, 1.0
	bad := map[string]bool{}
	for _, r := range rows {
		name := strings.TrimSuffix(filepath.Base(r.Kernel), ".knl")
		p, err := predict(r)
		if err != nil {
			st.signed[name] = append(st.signed[name], "err:"+err.Error())
			continue
		}
		for _, q := range p.Explain {
			if q.Name == "traffic.dram" && strings.HasPrefix(q.Note, "streaming") {
				st.streaming[name]++
			}
		}
		byKernel[name] = append(byKernel[name], fit.RelativeError(p.Seconds, r.TimeS))
		st.signed[name] = append(st.signed[name], fmt.Sprintf("%+.2f", p.Seconds/r.TimeS-1))
		if explain {
			printExplained(name, r, p)
		}
		l := math.Abs(math.Log(p.Seconds / r.TimeS))
		sumLog += l
		n++
		worst = max(worst, math.Exp(l))
		if math.Exp(l) > 3 {
			bad[name] = true
		}
	}
	var ks []float64
	for k, es := range byKernel {
		st.perKernel[k] = fit.GeoMean(es)
		ks = append(ks, st.perKernel[k])
	}
	st.symmetric, st.worst, st.over3 = math.Exp(sumLog/float64(n))-1, worst, len(bad)
	return fit.GeoMean(ks), st
}

// explain makes score print each row's prediction and its terms.
var explain bool

// printExplained prints a row's measured and predicted times, its four
// largest terms and the traffic the model placed.
func printExplained(name string, r models.Row, p models.Prediction) {
	var terms, traffic []string
	for _, q := range p.Explain {
		switch {
		case q.Unit == "s" && len(terms) < 4 && !strings.HasPrefix(q.Name, hierarchy.PartPrefix):
			terms = append(terms, fmt.Sprintf("%s %.2g", q.Name, q.Value))
		case strings.HasPrefix(q.Name, "traffic.") || strings.HasPrefix(q.Name, "loads."):
			traffic = append(traffic, fmt.Sprintf("%s %.3g", q.Name, q.Value))
		}
	}
	fmt.Printf("      %s %v: measured %.3g s, predicted %.3g s (%+.2f); %s; %s\n", name, r.Params, r.TimeS, p.Seconds, p.Seconds/r.TimeS-1, strings.Join(terms, ", "), strings.Join(traffic, ", "))
}

// lookupDevice returns the device file of the tables' device: the file
// given, or else the shipped file that names it.
func lookupDevice(device, file string) (*gpus.Device, error) {
	if file == "" {
		return gpus.Lookup(device)
	}
	d, err := gpus.Load(file)
	if err != nil {
		return nil, fmt.Errorf("-device-file: %w", err)
	}
	return d, nil
}

// corpusSpec says how the corpus enters the study: which of its tables
// join the calibrations (-train), how many times each row counts, in how
// many folds the kernels trained on are predicted, and which other
// complete runs give its times (-repeats).
type corpusSpec struct {
	paths         []string
	weight, folds int
	// repeats are the folders of the corpus's other complete runs
	// (-repeats).
	repeats []string
}

// inputs are the tables a calibration is fitted on: the fit tables
// (their measurement rows) and -train's (their corpus rows).
func (t corpusSpec) inputs(fitPaths []string) []string {
	return append(slices.Clone(fitPaths), t.paths...)
}

// check refuses weights and folds out of range and any table of a kernel
// outside examples/' development part: held-out kernels are never fitted.
func (t corpusSpec) check() error {
	if t.weight < 1 || t.weight > 1000 {
		return badInput{fmt.Errorf("-train-weight %d: want 1 to 1000", t.weight)}
	}
	if t.folds < 2 || t.folds > 100 {
		return badInput{fmt.Errorf("-folds %d: want 2 to 100", t.folds)}
	}
	for _, p := range t.paths {
		name := strings.TrimSuffix(filepath.Base(p), ".arrow") + ".knl"
		if examples.SplitOf(name) != examples.Development {
			return badInput{fmt.Errorf("-train %s: %s is not a development kernel of examples/ (held-out kernels are never fitted)", p, name)}
		}
	}
	return nil
}

// developmentOnly refuses a -train table with a test row of a kernel
// other than a development kernel of examples/, whatever the table's
// name: the rows are what the calibrations fit.
func developmentOnly(tabs map[string]*datasets.Table) error {
	for path, t := range tabs {
		for _, r := range t.Rows {
			if r.Role == datasets.RoleTest && (filepath.Dir(r.Kernel) != "examples" || examples.SplitOf(filepath.Base(r.Kernel)) != examples.Development) {
				return fmt.Errorf("-train %s: a row of %s, not a development kernel of examples/ (held-out kernels are never fitted)", path, r.Kernel)
			}
		}
	}
	return nil
}
