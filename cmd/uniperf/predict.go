package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/linear"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/measurekernels/library"
)

// predictOptions are the flags of `uniperf predict`.
type predictOptions struct {
	weights    string
	params     []string
	consts     []string
	sweeps     []string
	json       bool
	model      string
	deviceFile string
}

var predictOpts predictOptions

var predictCmd = &cobra.Command{
	Use:   "predict --weights WEIGHTS.arrow KERNEL --param NAME=VALUE...",
	Short: "Predict a kernel's run time from its counts and a device's weights",
	Long: `predict counts KERNEL (a .knl file, or the name of a library kernel; see
uniperf kernels list) symbolically, evaluates its property counts at the
given parameters, and prints the predicted run time on the device the
weights were fitted for: the dot product Σ weight × count of seed 001.

For one parameter set it prints the breakdown: each property's count,
weight (s/op), seconds and share of the total, largest first, so the
operations that dominate are at the top. A property the kernel has but the
weights do not price (no measurement kernel exercised it) is an error.

Several parameter sets give a table, one row per set: --param NAME=V1,V2,...
lists values, and --sweep NAME=2^10..2^14 (powers of two), NAME=A..B or
NAME=A..B:STEP ranges; the sets are every combination. --const NAME=VALUE
binds a kernel const such as a work-group size (LX, LY).

--json prints one object per parameter set (a list for several) with the
kernel, device, parameters, predicted seconds and terms.

--model NAME predicts with another model (hongkim, cycles; see uniperf
compare): --weights is then the calibration file that uniperf fit --model
NAME wrote, and the device parameters come from the shipped device file of
the calibration's device or from --device-file. A single parameter set
prints the model's intermediate quantities (Hong–Kim's per-thread inputs,
MWP, CWP, cycles; the cycle model's cycles per thread, occupancy and
adjusting weight) instead of terms.`,
	Example: `  uniperf predict --weights pocl.weights.arrow matmul_tiled --param n=1024 --param m=1024 --param ell=1024
  uniperf predict --weights pocl.weights.arrow global_copy --sweep n=2^16..2^24
  uniperf predict --weights w.arrow ./mykernel.knl --param n=4096 --const LX=256 --json
  uniperf predict --model hongkim --weights pocl.hongkim.json matmul_tiled --param n=512 --param m=512 --param ell=512`,
	Args: cobra.ExactArgs(1),
	RunE: func(cmd *cobra.Command, args []string) error {
		return predict(cmd.OutOrStdout(), args[0], predictOpts)
	},
}

func init() {
	f := predictCmd.Flags()
	f.StringVar(&predictOpts.weights, "weights", "", "weight table written by uniperf fit")
	f.StringArrayVar(&predictOpts.params, "param", nil, "parameter values NAME=V or NAME=V1,V2,... (repeatable)")
	f.StringArrayVar(&predictOpts.consts, "const", nil, "kernel const binding NAME=VALUE (repeatable)")
	f.StringArrayVar(&predictOpts.sweeps, "sweep", nil, "parameter range NAME=2^A..2^B, NAME=A..B or NAME=A..B:STEP (repeatable)")
	f.BoolVar(&predictOpts.json, "json", false, "print JSON")
	f.StringVar(&predictOpts.model, "model", "linear", "model to predict with: "+strings.Join(models.Names(), ", "))
	f.StringVar(&predictOpts.deviceFile, "device-file", "", "device parameter file (JSON, see fit/gpus) for models other than linear")
	rootCmd.AddCommand(predictCmd)
}

// prediction is one predicted parameter set, as printed with --json.
type prediction struct {
	Kernel    string           `json:"kernel"`
	Device    string           `json:"device"`
	Params    map[string]int64 `json:"params"`
	Predicted float64          `json:"predicted_s"`
	Terms     []fit.Term       `json:"terms"`
}

func predict(out io.Writer, kernel string, opts predictOptions) error {
	if opts.weights == "" {
		return fmt.Errorf("--weights is required: a weight table written by uniperf fit")
	}
	if len(opts.params) == 0 && len(opts.sweeps) == 0 {
		return fmt.Errorf("give the kernel's parameters with --param NAME=VALUE (or --sweep)")
	}
	if _, err := models.New(opts.model); err != nil {
		return fmt.Errorf("--model: %w", err)
	}
	if opts.model != "linear" {
		return predictModel(out, kernel, opts)
	}
	if opts.deviceFile != "" {
		return fmt.Errorf("--device-file is for models other than linear, which needs no device parameters")
	}
	w, err := loadWeights(opts.weights)
	if err != nil {
		return err
	}
	if err := linear.CheckWeights(w); err != nil {
		return fmt.Errorf("%s: %w", opts.weights, err)
	}
	consts, err := parseConsts(opts.consts)
	if err != nil {
		return err
	}
	sets, err := paramSets(opts.params, opts.sweeps)
	if err != nil {
		return err
	}
	counter := linear.NewCounter(kernelSource(kernel))
	preds := make([]prediction, len(sets))
	for i, p := range sets {
		t, terms, err := counter.Predict(w, kernel, consts, p)
		if err != nil {
			return err
		}
		preds[i] = prediction{Kernel: kernel, Device: w.Device, Params: p, Predicted: t, Terms: terms}
	}
	switch {
	case opts.json && len(preds) == 1:
		return writeJSON(out, preds[0])
	case opts.json:
		return writeJSON(out, preds)
	case len(preds) == 1:
		return printBreakdown(out, preds[0])
	}
	return printPredictions(out, preds)
}

// kernelSource reads kernel from a file when it names one (a path or a
// name ending in .knl) and from the library otherwise.
func kernelSource(kernel string) linear.Source {
	if strings.HasSuffix(kernel, ".knl") || strings.ContainsRune(kernel, '/') {
		return linear.Files
	}
	if _, err := library.Source(kernel); err != nil {
		return func(string) (string, []byte, error) {
			return "", nil, fmt.Errorf("%q is neither a .knl file nor a library kernel (see uniperf kernels list)", kernel)
		}
	}
	return linear.Library
}

func printBreakdown(out io.Writer, p prediction) error {
	fmt.Fprintf(out, "%s at %s on %s: predicted %s\n", p.Kernel, setString(p.Params), p.Device, seconds(p.Predicted))
	if p.Predicted <= 0 {
		fmt.Fprintf(out, "the prediction is not positive: negative weights dominate it (refit with --nonnegative)\n")
	}
	fmt.Fprintln(out)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "property\tcount\tweight (s/op)\tseconds\tshare\t")
	for _, t := range p.Terms {
		fmt.Fprintf(tw, "%s\t%.0f\t%.3g\t%.3g\t%.1f%%\t\n", t.Property, t.Count, t.Weight, t.Seconds, 100*t.Share)
	}
	return tw.Flush()
}

func printPredictions(out io.Writer, preds []prediction) error {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "parameters\tpredicted\tlargest term\n")
	for _, p := range preds {
		top := ""
		if len(p.Terms) > 0 {
			top = fmt.Sprintf("%s (%.0f%%)", p.Terms[0].Property, 100*p.Terms[0].Share)
		}
		mark := ""
		if p.Predicted <= 0 {
			mark = " (not positive: refit with --nonnegative)"
		}
		fmt.Fprintf(tw, "%s\t%s%s\t%s\n", setString(p.Params), seconds(p.Predicted), mark, top)
	}
	return tw.Flush()
}

// seconds renders a time with a unit that keeps three significant digits
// readable.
func seconds(s float64) string {
	switch {
	case s < 0:
		return fmt.Sprintf("%.3g s", s)
	case s < 1e-3:
		return fmt.Sprintf("%.3g µs", s*1e6)
	case s < 1:
		return fmt.Sprintf("%.3g ms", s*1e3)
	}
	return fmt.Sprintf("%.3g s", s)
}

func writeJSON(out io.Writer, v any) error {
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return systemFailure(err)
	}
	return nil
}

// modelPrediction is one parameter set predicted by a model other than
// linear, as printed with --json.
type modelPrediction struct {
	Kernel    string            `json:"kernel"`
	Device    string            `json:"device"`
	Model     string            `json:"model"`
	Params    map[string]int64  `json:"params"`
	Predicted float64           `json:"predicted_s"`
	Explain   []models.Quantity `json:"explain"`
}

// predictModel predicts with a calibrated model other than linear.
func predictModel(out io.Writer, kernel string, opts predictOptions) error {
	cal, m, err := readCalibration(opts.weights, opts.model)
	if err != nil {
		return err
	}
	d, err := deviceParams(cal.Device, opts.deviceFile)
	if err != nil {
		return err
	}
	consts, err := parseConsts(opts.consts)
	if err != nil {
		return err
	}
	sets, err := paramSets(opts.params, opts.sweeps)
	if err != nil {
		return err
	}
	env := &models.Env{Counter: linear.NewCounter(kernelSource(kernel)), Device: d}
	preds := make([]modelPrediction, len(sets))
	for i, p := range sets {
		pr, err := m.Predict(env, models.Case{Kernel: kernel, Consts: consts, Params: p})
		if err != nil {
			return err
		}
		preds[i] = modelPrediction{Kernel: kernel, Device: cal.Device, Model: m.Name(), Params: p, Predicted: pr.Seconds, Explain: pr.Explain}
	}
	switch {
	case opts.json && len(preds) == 1:
		return writeJSON(out, preds[0])
	case opts.json:
		return writeJSON(out, preds)
	case len(preds) == 1:
		return printExplain(out, preds[0])
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "parameters\tpredicted (%s)\n", m.Name())
	for _, p := range preds {
		fmt.Fprintf(tw, "%s\t%s\n", setString(p.Params), seconds(p.Predicted))
	}
	return tw.Flush()
}

// printExplain prints a model's prediction with its intermediate
// quantities.
func printExplain(out io.Writer, p modelPrediction) error {
	fmt.Fprintf(out, "%s at %s on %s (%s model): predicted %s\n\n", p.Kernel, setString(p.Params), p.Device, p.Model, seconds(p.Predicted))
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "quantity\tvalue\tunit\tfrom")
	for _, q := range p.Explain {
		fmt.Fprintf(tw, "%s\t%.6g\t%s\t%s\n", q.Name, q.Value, q.Unit, q.Note)
	}
	return tw.Flush()
}
