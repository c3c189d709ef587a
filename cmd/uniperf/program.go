package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/uniperf/uniperf/datasets/inputfile"
	"github.com/uniperf/uniperf/fit/gpus"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/linear"
	"github.com/uniperf/uniperf/fit/program"
	"github.com/uniperf/uniperf/measurekernels/programs"
)

// programOptions are the options of `uniperf predict --program FILE`.
type programOptions struct {
	// models are the models to predict with (default linear).
	models []string
	// devices are device files; several split the batch data-parallel.
	devices []string
	// tables calibrate every device's models; by default each device's
	// shipped tables.
	tables []string
	// weights, for the linear model, replaces calibration.
	weights string
	// batch overrides the program's batch let (0: the file's value).
	batch int64
	// exchange is the split's exchange mode, ring or ps; bandwidth (bytes
	// per second) and latency (seconds per message) price it.
	exchange           string
	bandwidth, latency float64
	// measure times every launch on this OpenCL or CUDA device.
	measure       string
	runs, discard int
	json          bool
}

// programReport is what predict --program reports, as printed with --json.
type programReport struct {
	Program  string                    `json:"program"`
	File     string                    `json:"file"`
	Batch    int64                     `json:"batch,omitempty"`
	Device   string                    `json:"device"`
	Models   []string                  `json:"models"`
	Launches []programLaunch           `json:"launches"`
	Totals   map[string]modelSums      `json:"totals"`
	Measured *measuredSums             `json:"measured,omitempty"`
	Splits   map[string]*program.Split `json:"splits,omitempty"`
}

type programLaunch struct {
	Line      int                `json:"line"`
	Layer     string             `json:"layer"`
	Phase     string             `json:"phase"`
	Kernel    string             `json:"kernel"`
	Params    map[string]int64   `json:"params"`
	Consts    map[string]int64   `json:"consts,omitempty"`
	Predicted map[string]float64 `json:"predicted_s"`
	Measured  float64            `json:"measured_s,omitempty"`
}

type modelSums struct {
	Total    float64            `json:"total_s"`
	Loading  float64            `json:"loading_s"`
	Forward  float64            `json:"forward_s"`
	Backward float64            `json:"backward_s"`
	Update   float64            `json:"update_s"`
	Layers   map[string]float64 `json:"layers_s"`
}

type measuredSums struct {
	Device string             `json:"device"`
	Total  float64            `json:"total_s"`
	Layers map[string]float64 `json:"layers_s"`
}

// predictProgram predicts a program file (a path, or embedded:NAME for an
// example program) with each model on the first device, prints the
// per-launch and per-layer breakdown, with several devices the
// data-parallel step, and with measure the measured time of every launch
// next to the predictions.
func predictProgram(out io.Writer, path string, opts programOptions) error {
	if len(opts.models) == 0 {
		opts.models = []string{"linear"}
	}
	for _, m := range opts.models {
		if _, err := models.New(m); err != nil {
			return fmt.Errorf("--model %s: %w", m, err)
		}
	}
	if len(opts.devices) == 0 {
		return fmt.Errorf("--device-file is required with --program: the device file to predict on (%s, or a .json path)", strings.Join(gpus.Names(), ", "))
	}
	if opts.batch < 0 {
		return fmt.Errorf("--batch %d: want a positive batch", opts.batch)
	}
	prog, src, err := readProgram(path)
	if err != nil {
		return err
	}
	devs := make([]*gpus.Device, len(opts.devices))
	for i, d := range opts.devices {
		if devs[i], err = deviceFile(d); err != nil {
			return err
		}
	}
	rep := &programReport{Program: prog.Name, File: path, Device: devs[0].Name, Models: opts.models,
		Totals: map[string]modelSums{}, Splits: map[string]*program.Split{}}
	for _, name := range opts.models {
		predictors := make([]program.Device, len(devs))
		for i, d := range devs {
			p, err := programPredictor(name, d, src, opts)
			if err != nil {
				return err
			}
			predictors[i] = program.Device{Name: opts.devices[i], Predict: p}
		}
		r, err := program.Predict(prog, opts.batch, predictors[0].Predict)
		if err != nil {
			return err
		}
		rep.add(name, r)
		if len(devs) > 1 {
			if opts.batch > 0 {
				return fmt.Errorf("--batch with several devices: the split divides the program's batch; set it in the file")
			}
			s, err := program.DataParallel(prog, predictors, program.Exchange{Mode: opts.exchange, Bandwidth: opts.bandwidth, Latency: opts.latency})
			if err != nil {
				if strings.Contains(err.Error(), "bandwidth") {
					err = fmt.Errorf("%w (give --bandwidth in bytes per second)", err)
				}
				return err
			}
			rep.Splits[name] = s
		}
	}
	if opts.measure != "" {
		if err := rep.measure(prog, devs[0], src, opts); err != nil {
			return err
		}
	}
	if opts.json {
		return writeJSON(out, rep)
	}
	return rep.print(out)
}

// readProgram reads a program file, or an embedded example, and returns
// it with the source of its kernels: .knl names from the program's
// directory, other names from the library.
func readProgram(path string) (*program.Program, models.Source, error) {
	var dir fs.FS
	var file, where string
	if name, ok := strings.CutPrefix(path, embeddedPrefix); ok {
		d, f, err := programs.Open(name)
		if err != nil {
			return nil, nil, err
		}
		dir, file, where = d, f, path+"/"
	} else {
		dir, file, where = os.DirFS(filepath.Dir(path)), filepath.Base(path), filepath.Dir(path)+string(filepath.Separator)
	}
	text, err := inputfile.ReadFS(dir, file, where+file)
	if err != nil {
		return nil, nil, fmt.Errorf("--program: %w", readError(err))
	}
	prog, err := program.Parse(path, text)
	if err != nil {
		return nil, nil, err
	}
	src := func(name string) (string, []byte, error) {
		if !strings.HasSuffix(name, ".knl") {
			return models.Library(name)
		}
		b, err := inputfile.ReadFS(dir, name, where+name)
		return where + name, b, err
	}
	return prog, src, nil
}

// programPredictor calibrates a model for a device and returns it as a
// program predictor.
func programPredictor(name string, dev *gpus.Device, src models.Source, opts programOptions) (program.PredictFunc, error) {
	m, _ := models.New(name)
	env := &models.Env{Counter: models.NewCounter(src), Device: dev}
	if lin, ok := m.(*linear.Model); ok && opts.weights != "" {
		w, err := loadWeights(opts.weights)
		if err != nil {
			return nil, err
		}
		if err := models.CheckWeights(w); err != nil {
			return nil, fmt.Errorf("%s: %w", opts.weights, err)
		}
		lin.Weights = w
	} else {
		if ok {
			// Free weights can make a launch's prediction negative, which
			// no program sum can use.
			lin.Options.Fit.NonNegative = true
		}
		rows, _, err := calibrationRows(dev, opts.tables)
		if err != nil {
			return nil, err
		}
		if err := m.Calibrate(env, rows); err != nil {
			return nil, fmt.Errorf("--model %s on %s: %w", name, dev.Name, err)
		}
	}
	return func(b program.Bound) (float64, error) {
		p, err := m.Predict(env, models.Case{Kernel: b.Kernel, Consts: b.Consts, Params: b.Params})
		if err == nil {
			err = finite(b.Kernel, b.Params, p.Seconds)
		}
		return p.Seconds, err
	}, nil
}

func (rep *programReport) add(model string, r *program.Result) {
	rep.Batch = r.Batch
	if rep.Launches == nil {
		for _, l := range r.Launches {
			rep.Launches = append(rep.Launches, programLaunch{Line: l.Line, Layer: l.Layer, Phase: l.Phase.String(),
				Kernel: l.Kernel, Params: l.Params, Consts: l.Consts, Predicted: map[string]float64{}})
		}
	}
	for i, l := range r.Launches {
		rep.Launches[i].Predicted[model] = l.Seconds
	}
	b := r.Breakdown
	s := modelSums{Total: b.Total, Loading: b.Loading, Forward: b.Forward, Backward: b.Backward, Update: b.Update, Layers: map[string]float64{}}
	for _, l := range b.Layers {
		s.Layers[l.Name] = l.Forward + l.Backward
	}
	rep.Totals[model] = s
}

// measure times every launch at the predicted batch, warning where dev,
// the device file the prediction priced, is another device's.
func (rep *programReport) measure(prog *program.Program, dev *gpus.Device, src models.Source, opts programOptions) error {
	timer, err := openTimer("--measure", opts.measure, opts.runs, opts.discard)
	if err != nil {
		return err
	}
	defer timer.close()
	warnFileTimed(dev, timer.name())
	bound, _, err := prog.Bind(opts.batch)
	if err != nil {
		return err
	}
	m := &measuredSums{Device: timer.name(), Layers: map[string]float64{}}
	for i, b := range bound {
		t, err := timer.time(src, b.Kernel, b.Consts, b.Params)
		if err != nil {
			return fmt.Errorf("%s:%d: %w", prog.File, b.Line, err)
		}
		rep.Launches[i].Measured = t
		m.Layers[b.Layer] += t
		m.Total += t
	}
	m.Total += prog.Loading + prog.Update
	rep.Measured = m
	return nil
}

func (rep *programReport) print(out io.Writer) error {
	fmt.Fprintf(out, "program %s (%s)", rep.Program, rep.File)
	if rep.Batch > 0 {
		fmt.Fprintf(out, ", batch %d", rep.Batch)
	}
	fmt.Fprintf(out, ", on %s\n\n", rep.Device)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	head := "line\tlayer\tkernel\tparameters"
	for _, m := range rep.Models {
		head += "\t" + m
	}
	if rep.Measured != nil {
		head += "\tmeasured"
	}
	fmt.Fprintln(tw, head)
	for _, l := range rep.Launches {
		line := fmt.Sprintf("%d\t%s\t%s\t%s", l.Line, l.Layer, l.Kernel, models.ParamString(l.Params))
		if l.Phase != "forward" {
			line = fmt.Sprintf("%d\t%s (%s)\t%s\t%s", l.Line, l.Layer, l.Phase, l.Kernel, models.ParamString(l.Params))
		}
		for _, m := range rep.Models {
			line += "\t" + seconds(l.Predicted[m])
		}
		if rep.Measured != nil {
			line += "\t" + seconds(l.Measured)
		}
		fmt.Fprintln(tw, line)
	}
	var layers []string
	for _, l := range rep.Launches {
		if len(layers) == 0 || layers[len(layers)-1] != l.Layer {
			layers = append(layers, l.Layer)
		}
	}
	for _, name := range layers {
		line := fmt.Sprintf("\t%s\t(layer total)\t", name)
		for _, m := range rep.Models {
			line += "\t" + seconds(rep.Totals[m].Layers[name])
		}
		if rep.Measured != nil {
			line += "\t" + seconds(rep.Measured.Layers[name])
		}
		fmt.Fprintln(tw, line)
	}
	line := "\t\t(program total, (6-4))\t"
	for _, m := range rep.Models {
		line += "\t" + seconds(rep.Totals[m].Total)
	}
	if rep.Measured != nil {
		line += "\t" + seconds(rep.Measured.Total)
	}
	fmt.Fprintln(tw, line)
	if err := tw.Flush(); err != nil {
		return err
	}
	if rep.Measured != nil {
		fmt.Fprintf(out, "\nmeasured on %s, each launch timed alone (device event timers, minimum of the kept runs); predicted / measured:", rep.Measured.Device)
		for _, m := range rep.Models {
			fmt.Fprintf(out, " %s %.2f", m, rep.Totals[m].Total/rep.Measured.Total)
		}
		fmt.Fprintln(out)
	}
	for _, m := range rep.Models {
		if s := rep.Splits[m]; s != nil {
			printSplit(out, m, s)
		}
	}
	return nil
}

func printSplit(out io.Writer, model string, s *program.Split) {
	fmt.Fprintf(out, "\ndata-parallel step under %s, batch %d over %d devices:\n", model, s.Batch, len(s.Shares))
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "device\tthroughput (batch/s)\tpart\tshare time")
	for _, sh := range s.Shares {
		t := "-"
		if sh.Result != nil {
			t = seconds(sh.Result.Breakdown.Total)
		}
		fmt.Fprintf(tw, "%s\t%.4g\t%d\t%s\n", sh.Device, sh.Throughput, sh.Batch, t)
	}
	_ = tw.Flush()
	x := s.Exchange
	fmt.Fprintf(out, "step %s = slowest share %s (%s) + exchange %s (%.6g bytes in %d messages)\n",
		seconds(s.Step.Total), seconds(s.Step.Compute), s.Step.Slowest, seconds(s.Step.Transfer), x.Bytes, x.Messages)
}
