package main

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit/gpus"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/analytic"
	"github.com/uniperf/uniperf/fit/models/resios"
)

// blocksizeOptions are the flags of `uniperf blocksize`.
type blocksizeOptions struct {
	deviceFile string
	// device is the old spelling of --device-file, refused with a hint:
	// elsewhere --device selects a device to run on.
	device  string
	models  []string
	params  []string
	consts  []string
	sizes   []string
	tables  []string
	measure string
	runs    int
	discard int
	json    bool
	// ranking scores the default fit's ranking of the work-group-size
	// variants of the tables given as arguments instead.
	ranking bool
}

var blocksizeOpts blocksizeOptions

var blocksizeCmd = &cobra.Command{
	Use:   "blocksize KERNEL --device-file DEVICE --param NAME=VALUE... | --ranking TABLE...",
	Short: "Rank candidate work-group sizes of a kernel by predicted run time",
	Long: `blocksize predicts KERNEL (a .knl file or a library kernel) at each candidate
work-group size with one or more models and ranks the candidates, fastest
first, next to each one's occupancy on the device (gpus.ActiveBlocks: resident
blocks and warps per SM, the fraction of the SM's warps, and the limiting
resource).

The work-group size of a .knl kernel is set by consts that are split
factors (LX, LY in the library); blocksize finds them by re-parsing the
kernel with each const doubled, and every candidate re-counts the kernel
with its values. The default candidates are powers of two from the warp
size to the device's largest block (at most 1024), spread over the
group consts' axes; --sizes 64,128,256 or --sizes 16x16,32x8 (one value
per group const, in axis order) gives them instead.

--device-file names a device parameter file (see fit/gpus: gtx460,
pocl-cpu, ... or a path to a .json file). Models that calibrate on measurements (linear,
fitted as uniperf fit fits it by default, grid fill and ties included,
and resios and xu where the device file lacks their constants) use the
measurement rows of --tables, by default the shipped table measured on
that device with the paper suite (or every shipped table of the device
when none is of that suite; the CUDA tables where both CUDA and OpenCL
ones ship). --model takes a comma-separated list (default xu,resios);
when the device file carries Resios constants, the thesis's launch
heuristic (seed 000 §5.2.1) is shown too.

--measure SELECTOR (an OpenCL or CUDA device, as for uniperf measure)
also times every candidate, checked first against the reference
interpreter, and reports each model's Spearman rank correlation between
predicted and measured times.

--json prints one object: {"kernel", "device", "params", "group_consts":
[{"Name", "Axis"}], "calibrated_on", "resios_heuristic", "models",
"candidates": [{"label", "consts", "occupancy" (the fields of
fit/gpus.Occupancy), "error" (where it cannot launch), "predictions" (by
model: {"seconds", "rank", "error"}), "measured": {"seconds", "rank"}}],
"measured_on", "spearman" (by model)}.

--ranking TABLE... (the tables of one device and backend) says instead
how far to trust the default linear fit's ranking of work-group sizes on
that device. The rows of a kernel at one size (its params) and with the
same consts but for the work-group consts are the variants of one group;
the work-group consts are found in the kernel's source as above, at the
kernel's largest size in the tables. In every group of two or more
variants, each pair measured more than 5% apart is ordered right, wrong,
or tied (predicted within 0.1% of each other; a tie is not right); the
pairs measured closer are not scored. The pick of a group is its variant
of least predicted time (where others are predicted within 0.1% of it,
the slowest measured of those: the prediction cannot choose among them);
pick best counts the groups whose pick is the measured fastest, and the
pick cost is the pick's measured time over the fastest, its geometric
mean over the groups and its worst. Measurement rows are scored twice:
held out, each row predicted by the fit without its kernel class (the
leave-one-class-out cross-validation of uniperf validate --cv, which
leaves out the rows it cannot predict), and in sample, by the fit on
every measurement row, which flatters the ranking. Test rows enter no
fit: that fit predicts them held out. --ranking takes only --json, which
prints {"tables", "device", "backend", "apart", "tie", "group_consts"
(by kernel), "rankings": [{"role", "predictions" ("held-out" or
"in-sample"), "rows", "groups", "pairs", "right", "wrong", "tied",
"close", "fraction_right", "pick_best", "pick_tied",
"pick_cost_geomean", "pick_cost_worst", "worst_pick": {"group",
"picked", "picked_seconds", "best", "best_seconds"}}], "skipped"}.`,
	Example: `  uniperf blocksize global_copy --device-file pocl-cpu --param n=1048576 --model xu,resios,linear
  uniperf blocksize matmul_tiled --device-file gtx460 --param n=1024 --param m=1024 --param ell=1024
  uniperf blocksize vector_scale_add --device-file pocl-cpu --param n=4194304 --measure pocl
  uniperf blocksize --ranking embedded:h100-cuda-paper.arrow`,
	Args: func(cmd *cobra.Command, args []string) error {
		if blocksizeOpts.ranking {
			return cobra.MinimumNArgs(1)(cmd, args)
		}
		return cobra.ExactArgs(1)(cmd, args)
	},
	RunE: func(cmd *cobra.Command, args []string) error {
		if blocksizeOpts.ranking {
			if err := blocksizeRankingFlags(cmd.Flags()); err != nil {
				return err
			}
			return blocksizeRanking(cmd.OutOrStdout(), args, blocksizeOpts.json)
		}
		return blocksize(cmd.OutOrStdout(), args[0], blocksizeOpts)
	},
}

func init() {
	f := blocksizeCmd.Flags()
	f.StringVar(&blocksizeOpts.deviceFile, "device-file", "", "device parameter file: a shipped device's name or a .json path")
	f.StringVar(&blocksizeOpts.device, "device", "", "")
	f.Lookup("device").Hidden = true
	f.StringSliceVar(&blocksizeOpts.models, "model", []string{"xu", "resios"}, "models to rank by (comma-separated)")
	f.StringArrayVar(&blocksizeOpts.params, "param", nil, "parameter value NAME=VALUE (repeatable)")
	f.StringArrayVar(&blocksizeOpts.consts, "const", nil, "kernel const binding NAME=VALUE other than the group size (repeatable)")
	f.StringSliceVar(&blocksizeOpts.sizes, "sizes", nil, "candidate work-group shapes, e.g. 64,128 or 16x16,32x8")
	f.StringArrayVar(&blocksizeOpts.tables, "tables", nil, "measurement tables to calibrate on (paths or embedded:NAME; repeatable)")
	f.StringVar(&blocksizeOpts.measure, "measure", "", "also time every candidate on this OpenCL or CUDA device")
	f.IntVar(&blocksizeOpts.runs, "runs", 10, "with --measure: timed runs per candidate")
	f.IntVar(&blocksizeOpts.discard, "discard", 2, "with --measure: leading runs left out of the minimum")
	f.BoolVar(&blocksizeOpts.json, "json", false, "print JSON")
	f.BoolVar(&blocksizeOpts.ranking, "ranking", false, "score how well the default fit ranks the work-group-size variants of the tables given as arguments")
	rootCmd.AddCommand(blocksizeCmd)
}

// blocksizeResult is what blocksize reports, as printed with --json.
type blocksizeResult struct {
	Kernel     string               `json:"kernel"`
	Device     string               `json:"device"`
	Params     map[string]int64     `json:"params"`
	Groups     []models.GroupConst  `json:"group_consts"`
	Calibrated string               `json:"calibrated_on,omitempty"`
	Heuristic  string               `json:"resios_heuristic,omitempty"`
	Models     []string             `json:"models"`
	Candidates []blocksizeCandidate `json:"candidates"`
	Measured   string               `json:"measured_on,omitempty"`
	Spearman   map[string]float64   `json:"spearman,omitempty"`
}

type blocksizeCandidate struct {
	Label       string                `json:"label"`
	Consts      map[string]int64      `json:"consts"`
	Occupancy   *gpus.Occupancy       `json:"occupancy,omitempty"`
	Error       string                `json:"error,omitempty"` // the candidate cannot launch
	Predictions map[string]rankedTime `json:"predictions"`
	Measured    *rankedTime           `json:"measured,omitempty"`
}

type rankedTime struct {
	Seconds float64 `json:"seconds,omitempty"`
	Rank    int     `json:"rank,omitempty"`
	Error   string  `json:"error,omitempty"`
}

func blocksize(out io.Writer, kernel string, opts blocksizeOptions) error {
	if opts.device != "" {
		return fmt.Errorf("--device %s: blocksize takes the device parameter file as --device-file %s (--device selects a device to run on, as in uniperf measure; here that is --measure)", opts.device, opts.device)
	}
	if opts.deviceFile == "" {
		return fmt.Errorf("--device-file is required: a device parameter file (%s, or a .json path)", strings.Join(gpus.Names(), ", "))
	}
	if len(opts.models) == 0 {
		return fmt.Errorf("--model: give at least one model (%s)", strings.Join(models.Names(), ", "))
	}
	for _, m := range opts.models {
		if _, err := models.New(m); err != nil {
			return fmt.Errorf("--model %s: %w", m, err)
		}
	}
	dev, err := deviceFile(opts.deviceFile)
	if err != nil {
		return err
	}
	params, err := parseParams(opts.params)
	if err != nil {
		return err
	}
	consts, err := parseConsts(opts.consts)
	if err != nil {
		return err
	}
	src := kernelSource(kernel)
	groups, err := models.GroupConsts(src, kernel, consts, params)
	if err != nil {
		return err
	}
	if len(groups) == 0 {
		return fmt.Errorf("kernel %s: no const sets its work-group size (a split factor of an l.* iname), so there is nothing to choose", kernel)
	}
	for _, g := range groups {
		if _, ok := consts[g.Name]; ok {
			return fmt.Errorf("--const %s: %s is the work-group size that blocksize varies; give candidates with --sizes", g.Name, g.Name)
		}
	}
	shapes, err := parseShapes(opts.sizes, len(groups))
	if err != nil {
		return err
	}
	if shapes == nil {
		shapes = models.DefaultSizes(groups, dev.Limits.WarpSize, dev.Limits.MaxThreadsPerBlock)
	}
	cands, err := models.Candidates(models.Case{Kernel: kernel, Consts: consts, Params: params}, groups, shapes)
	if err != nil {
		return err
	}
	var timer *kernelTimer
	if opts.measure != "" {
		// Calibrating the models takes seconds: a device that cannot be
		// opened is refused before.
		if timer, err = openTimer("--measure", opts.measure, opts.runs, opts.discard); err != nil {
			return err
		}
		defer timer.close()
	}
	env := &models.Env{Counter: models.NewCounter(withKernel(kernel, src)), Device: dev}
	res := blocksizeResult{Kernel: kernel, Device: dev.Name, Params: params, Groups: groups, Models: opts.models}
	rows, calibrated, err := calibrationRows(dev, opts.tables)
	if err != nil {
		return err
	}
	res.Calibrated = calibrated
	res.Candidates = make([]blocksizeCandidate, len(cands))
	for i, c := range cands {
		bc := blocksizeCandidate{Label: c.Label, Consts: c.Case.Consts, Predictions: map[string]rankedTime{}}
		if occ, err := analytic.Occupancy(env, c.Case); err != nil {
			bc.Error = err.Error()
		} else {
			bc.Occupancy = &occ
		}
		res.Candidates[i] = bc
	}
	for _, name := range opts.models {
		// The linear model fits as uniperf fit does by default (grid
		// fill, ties), the fit whose ranking blocksize --ranking scores.
		m, _ := modelMaker(fitOptions{})(name)
		if err := m.Calibrate(env, rows); err != nil {
			return fmt.Errorf("--model %s: %w", name, err)
		}
		for i, r := range models.RankCandidates(env, m, cands) {
			rt := rankedTime{Seconds: r.Seconds, Rank: r.Rank}
			if r.Err != nil {
				rt = rankedTime{Error: r.Err.Error()}
			}
			res.Candidates[i].Predictions[name] = rt
		}
	}
	if lc, err := resios.Launch(env, cands[0].Case); err == nil {
		res.Heuristic = fmt.Sprintf("%d warps per block, block (%d, %d): n_w = min(even %g, utilization %g, latency %g)",
			lc.WarpsPerBlock, lc.Block[0], lc.Block[1], lc.Even, lc.Utilization, lc.Latency)
	}
	if timer != nil {
		if err := measureCandidates(&res, dev, cands, src, timer); err != nil {
			return err
		}
	}
	if opts.json {
		return writeJSON(out, res)
	}
	return printBlocksize(out, res)
}

// deviceFile reads a device file: a path to a .json file, or a shipped
// device's name or alias.
func deviceFile(arg string) (*gpus.Device, error) {
	if strings.HasSuffix(arg, ".json") || strings.ContainsRune(arg, '/') {
		d, err := gpus.Load(arg)
		if err != nil {
			return nil, readError(fmt.Errorf("--device-file %s: %w", arg, err))
		}
		return d, nil
	}
	d, err := gpus.Lookup(arg)
	if err != nil {
		return nil, fmt.Errorf("--device-file %s: %w", arg, err)
	}
	return d, nil
}

// withKernel reads kernel from src and every other name (the library
// kernels of calibration rows) from the library.
func withKernel(kernel string, src models.Source) models.Source {
	return func(name string) (string, []byte, error) {
		if name == kernel {
			return src(name)
		}
		return models.Library(name)
	}
}

// calibrationRows reads the measurement rows of tables, or of the shipped
// tables measured on the device when none are given, and says where they
// come from. No table is fine: models with device constants need none.
func calibrationRows(dev *gpus.Device, tables []string) ([]models.Row, string, error) {
	if len(tables) == 0 {
		for _, n := range datasets.ShippedFor(append([]string{dev.Name}, dev.Aliases...)...) {
			tables = append(tables, embeddedPrefix+n)
		}
	}
	if len(tables) == 0 {
		return nil, "", nil
	}
	lt, err := loadTables(tables)
	if err != nil {
		return nil, "", err
	}
	if err := models.OneBackend(lt.tables); err != nil {
		return nil, "", err
	}
	for _, name := range slices.Sorted(maps.Keys(lt.tables)) {
		if device := lt.tables[name].Meta.DeviceName; !describes(dev, device) {
			fmt.Fprintf(stderr, "warning: %s was measured on %q: %s\n", name, device, otherDeviceFile(dev, device))
		}
	}
	rows := models.Rows(lt.tables, datasets.RoleMeasurement)
	return rows, fmt.Sprintf("%s (%d measurement rows)", strings.Join(tables, ", "), len(rows)), nil
}

// parseShapes reads --sizes: one value per group const, joined by x.
func parseShapes(sizes []string, consts int) ([][]int64, error) {
	var out [][]int64
	for _, s := range sizes {
		parts := strings.Split(s, "x")
		if len(parts) != consts {
			return nil, fmt.Errorf("--sizes %s: want %d value(s) joined by x, one per work-group const", s, consts)
		}
		shape := make([]int64, len(parts))
		for i, p := range parts {
			v, err := strconv.ParseInt(strings.TrimSpace(p), 10, 64)
			if err != nil || v <= 0 {
				return nil, fmt.Errorf("--sizes %s: %q is not a positive integer", s, p)
			}
			shape[i] = v
		}
		out = append(out, shape)
	}
	return out, nil
}

// measureCandidates times every candidate that can launch and computes
// each model's Spearman correlation with the measured times.
func measureCandidates(res *blocksizeResult, dev *gpus.Device, cands []models.Candidate, src models.Source, timer *kernelTimer) error {
	res.Measured = timer.name()
	warnFileTimed(dev, timer.name())
	var measured []int
	for i, c := range cands {
		if res.Candidates[i].Error != "" {
			continue
		}
		t, err := timer.time(src, c.Case.Kernel, c.Case.Consts, c.Case.Params)
		if err != nil {
			return fmt.Errorf("%s: %w", c.Label, err)
		}
		res.Candidates[i].Measured = &rankedTime{Seconds: t}
		measured = append(measured, i)
	}
	times := make([]float64, len(measured))
	for k, i := range measured {
		times[k] = res.Candidates[i].Measured.Seconds
	}
	for k, r := range models.MeasuredRanks(times) {
		res.Candidates[measured[k]].Measured.Rank = r
	}
	res.Spearman = map[string]float64{}
	for _, name := range res.Models {
		var p, m []float64
		for _, c := range res.Candidates {
			if pr, ok := c.Predictions[name]; ok && pr.Error == "" && c.Measured != nil {
				p = append(p, pr.Seconds)
				m = append(m, c.Measured.Seconds)
			}
		}
		if rho, err := models.Spearman(p, m); err == nil {
			res.Spearman[name] = rho
		} else {
			res.Spearman[name] = math.NaN()
		}
	}
	return nil
}

func printBlocksize(out io.Writer, r blocksizeResult) error {
	fmt.Fprintf(out, "%s on %s at %s\n", r.Kernel, r.Device, models.ParamString(r.Params))
	var gs []string
	for _, g := range r.Groups {
		gs = append(gs, fmt.Sprintf("%s (axis %d)", g.Name, g.Axis))
	}
	fmt.Fprintf(out, "work-group consts: %s\n", strings.Join(gs, ", "))
	if r.Calibrated != "" {
		fmt.Fprintf(out, "calibrated on %s\n", r.Calibrated)
	}
	if r.Heuristic != "" {
		fmt.Fprintf(out, "resios launch heuristic (seed 000 §5.2.1): %s\n", r.Heuristic)
	}
	fmt.Fprintln(out)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	head := "candidate\tblocks/SM\twarps/SM\toccupancy\tlimited by"
	for _, m := range r.Models {
		head += "\t" + m + "\trank"
	}
	if r.Measured != "" {
		head += "\tmeasured\trank"
	}
	fmt.Fprintln(tw, head)
	for _, c := range r.Candidates {
		line := c.Label
		if c.Occupancy == nil {
			line += "\t-\t-\t-\tcannot launch"
		} else {
			o := c.Occupancy
			line += fmt.Sprintf("\t%d\t%d\t%.1f%%\t%s", o.BlocksPerSM, o.ActiveWarps, 100*o.Fraction, strings.Join(o.Limiters, ", "))
		}
		for _, m := range r.Models {
			line += "\t" + rankedString(c.Predictions[m])
		}
		if r.Measured != "" {
			mt := rankedTime{Error: "not measured"}
			if c.Measured != nil {
				mt = *c.Measured
			}
			line += "\t" + rankedString(mt)
		}
		fmt.Fprintln(tw, line)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(out)
	for _, m := range r.Models {
		if best := bestOf(r, m); best != "" {
			fmt.Fprintf(out, "best under %s: %s\n", m, best)
		}
	}
	for _, c := range r.Candidates {
		if c.Error != "" {
			fmt.Fprintf(out, "%s cannot launch: %s\n", c.Label, c.Error)
			continue
		}
		for _, m := range r.Models {
			if e := c.Predictions[m].Error; e != "" {
				fmt.Fprintf(out, "%s, %s: %s\n", c.Label, m, e)
			}
		}
	}
	if r.Measured != "" {
		fmt.Fprintf(out, "measured on %s; Spearman rank correlation with the measured order:", r.Measured)
		for _, m := range slices.Sorted(maps.Keys(r.Spearman)) {
			fmt.Fprintf(out, " %s %.2f", m, r.Spearman[m])
		}
		fmt.Fprintln(out)
	}
	return nil
}

func rankedString(t rankedTime) string {
	if t.Error != "" || t.Rank == 0 {
		return "-\t-"
	}
	return fmt.Sprintf("%s\t%d", seconds(t.Seconds), t.Rank)
}

func bestOf(r blocksizeResult, model string) string {
	for _, c := range r.Candidates {
		if p := c.Predictions[model]; p.Rank == 1 {
			return fmt.Sprintf("%s (%s)", c.Label, seconds(p.Seconds))
		}
	}
	return ""
}
