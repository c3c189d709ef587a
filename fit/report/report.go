package report

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/uniperf/uniperf/fit"
)

// Case is one prediction checked against a measurement.
type Case struct {
	Model     string // the model that predicted, where several are compared
	Device    string
	Class     string // the kernel's class, where the errors are grouped by class
	Kernel    string
	Size      string  // the size case: "a", "n=4096", ...
	Measured  float64 // seconds
	Predicted float64 // seconds
	// Err says why the model could not predict the row; Predicted is then
	// zero, and a comparison of models counts the case in no error.
	Err string
	// The measured row's role, size parameters, const bindings and
	// work-group size, where the case comes from a measurement table.
	Role      string
	Params    map[string]int64
	Consts    map[string]int64
	LocalSize []int64
	// Median and Max of the measured row's kept runs, in seconds, beside
	// Measured, their minimum; zero where the runs are not known.
	Median, Max float64
}

// Noise is the median's excess over the measured minimum, relative to the
// minimum, or NaN where the runs are not known.
func (c Case) Noise() float64 {
	if c.Median <= 0 {
		return math.NaN()
	}
	return c.Median/c.Measured - 1
}

// WithinNoise reports whether the prediction's error is smaller than the
// spread of the measured runs: a typical run lies farther from the
// measured minimum than the prediction does, so the error says nothing.
func (c Case) WithinNoise() bool { return c.Err == "" && c.RelErr() < c.Noise() }

// RelErr returns the case's relative error |predicted − measured| / measured.
func (c Case) RelErr() float64 { return fit.RelativeError(c.Predicted, c.Measured) }

// Report summarises predictions against measurements in the layout of seed
// 001's Table 1: kernels down, devices across, per-kernel geometric means of
// the relative error on each device, and their geometric means across
// devices (per kernel) and across kernels (per device).
//
// Each (kernel, device) geometric mean is taken over that kernel's sizes;
// the cross-device and cross-kernel means are geometric means of those, so
// that every kernel (or device) counts once whatever its number of sizes.
type Report struct {
	Cases   []Case
	Devices []string // in order of first appearance
	Kernels []string // in order of first appearance
	sizes   map[string][]string
	cells   map[cellKey]Case
	errs    map[[2]string][]float64 // (device, kernel) → relative errors
}

type cellKey struct{ kernel, size, device string }

// NewReport checks the cases and builds the report. A measured time must be
// positive and finite, a predicted one finite; a (kernel, size, device)
// triple may occur once.
func NewReport(cases []Case) (*Report, error) {
	if len(cases) == 0 {
		return nil, fmt.Errorf("report: no cases")
	}
	r := &Report{
		Cases: cases,
		sizes: make(map[string][]string),
		cells: make(map[cellKey]Case),
		errs:  make(map[[2]string][]float64),
	}
	for i, c := range cases {
		where := fmt.Sprintf("report: case %d (%s, %s, size %s)", i+1, c.Kernel, c.Device, c.Size)
		switch {
		case math.IsNaN(c.Measured) || math.IsInf(c.Measured, 0) || c.Measured <= 0:
			return nil, fmt.Errorf("%s: measured time %g s: want a positive, finite time", where, c.Measured)
		case math.IsNaN(c.Predicted) || math.IsInf(c.Predicted, 0):
			return nil, fmt.Errorf("%s: predicted time %g s", where, c.Predicted)
		}
		key := cellKey{c.Kernel, c.Size, c.Device}
		if _, dup := r.cells[key]; dup {
			return nil, fmt.Errorf("%s: given twice", where)
		}
		r.cells[key] = c
		if _, ok := r.sizes[c.Kernel]; !ok {
			r.Kernels = append(r.Kernels, c.Kernel)
		}
		if !slices.Contains(r.sizes[c.Kernel], c.Size) {
			r.sizes[c.Kernel] = append(r.sizes[c.Kernel], c.Size)
		}
		if !slices.Contains(r.Devices, c.Device) {
			r.Devices = append(r.Devices, c.Device)
		}
		dk := [2]string{c.Device, c.Kernel}
		r.errs[dk] = append(r.errs[dk], c.RelErr())
	}
	return r, nil
}

// KernelError returns the geometric-mean relative error of a kernel on a
// device over its sizes, or NaN if the report has no such cases.
func (r *Report) KernelError(device, kernel string) float64 {
	return fit.GeoMean(r.errs[[2]string{device, kernel}])
}

// CrossDevice returns the geometric mean over devices of a kernel's
// per-device errors.
func (r *Report) CrossDevice(kernel string) float64 {
	return r.meanOfMeans(r.Devices, func(d string) [2]string { return [2]string{d, kernel} })
}

// CrossKernel returns the geometric mean over kernels of a device's
// per-kernel errors.
func (r *Report) CrossKernel(device string) float64 {
	return r.meanOfMeans(r.Kernels, func(k string) [2]string { return [2]string{device, k} })
}

// meanOfMeans returns the geometric mean of the (device, kernel) means
// that exist among key(name) for the names.
func (r *Report) meanOfMeans(names []string, key func(string) [2]string) float64 {
	var means []float64
	for _, n := range names {
		if e, ok := r.errs[key(n)]; ok {
			means = append(means, fit.GeoMean(e))
		}
	}
	return fit.GeoMean(means)
}

// WriteText writes the report as an aligned text table with times in
// milliseconds. Errors below fit.ErrorFloor are marked with an asterisk.
// Where the cases know their runs' spread, the median and maximum stand
// beside the measured minimum, and an error within the noise is marked
// with a tilde.
func (r *Report) WriteText(out io.Writer) error {
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', tabwriter.AlignRight)
	decimals := r.msDecimals()
	multi := len(r.Devices) > 1
	spread := slices.ContainsFunc(r.Cases, func(c Case) bool { return c.Median > 0 })
	// blank is the cells of a device that has no case in a row.
	blank := []string{"", "", ""}
	if spread {
		blank = append(blank, "", "")
	}

	// tabwriter aligns every column to the right; the two label columns
	// are padded here so that they read left-aligned.
	kw, sw := len("cross-kernel"), len("geomean")
	for _, k := range r.Kernels {
		kw = max(kw, len(k))
		for _, s := range r.sizes[k] {
			sw = max(sw, len(s))
		}
	}
	row := func(cells ...string) {
		label := fmt.Sprintf("%-*s  %-*s", kw, cells[0], sw, cells[1])
		fmt.Fprintln(tw, label+"\t"+strings.Join(cells[2:], "\t")+"\t")
	}
	head1 := []string{"", ""}
	head2 := []string{"kernel", "size"}
	for _, d := range r.Devices {
		if spread {
			head1 = append(head1, "", "", "", d, "")
			head2 = append(head2, "meas ms", "median", "max", "pred ms", "rel.err")
			continue
		}
		head1 = append(head1, "", d, "")
		head2 = append(head2, "meas ms", "pred ms", "rel.err")
	}
	if multi {
		head1 = append(head1, "all devices")
		head2 = append(head2, "geomean")
	}
	row(head1...)
	row(head2...)

	for _, k := range r.Kernels {
		for i, s := range r.sizes[k] {
			name := ""
			if i == 0 {
				name = k
			}
			cells := []string{name, s}
			for _, d := range r.Devices {
				c, ok := r.cells[cellKey{k, s, d}]
				if !ok {
					cells = append(cells, blank...)
					continue
				}
				cells = append(cells, ms(c.Measured, decimals))
				if spread {
					cells = append(cells, msOrBlank(c.Median, decimals), msOrBlank(c.Max, decimals))
				}
				e := errText(c.RelErr())
				if c.WithinNoise() {
					e += "~"
				}
				cells = append(cells, ms(c.Predicted, decimals), e)
			}
			if multi {
				cells = append(cells, "")
			}
			row(cells...)
		}
		cells := []string{"", "geomean"}
		for _, d := range r.Devices {
			cells = append(cells, blank[1:]...)
			cells = append(cells, meanText(r.KernelError(d, k)))
		}
		if multi {
			cells = append(cells, meanText(r.CrossDevice(k)))
		}
		row(cells...)
	}
	cells := []string{"cross-kernel", "geomean"}
	for _, d := range r.Devices {
		cells = append(cells, blank[1:]...)
		cells = append(cells, meanText(r.CrossKernel(d)))
	}
	if multi {
		cells = append(cells, "")
	}
	row(cells...)
	if err := tw.Flush(); err != nil {
		return err
	}
	var text strings.Builder
	for _, line := range strings.SplitAfter(buf.String(), "\n") {
		text.WriteString(strings.TrimRight(line, " \n"))
		if strings.HasSuffix(line, "\n") {
			text.WriteString("\n")
		}
	}
	if n := r.Floored(); n > 0 {
		fmt.Fprintf(&text, "* %d relative error(s) below %g enter the geometric means as %g\n", n, fit.ErrorFloor, fit.ErrorFloor)
	}
	if n := r.WithinNoise(); n > 0 {
		fmt.Fprintf(&text, "~ %d relative error(s) smaller than the spread of the measured runs (median above the minimum): within the noise\n", n)
	}
	_, err := io.WriteString(out, text.String())
	return err
}

// WithinNoise returns how many cases have an error within the noise.
func (r *Report) WithinNoise() int {
	n := 0
	for _, c := range r.Cases {
		if c.WithinNoise() {
			n++
		}
	}
	return n
}

// Floored returns how many cases have an error below fit.ErrorFloor.
func (r *Report) Floored() int {
	n := 0
	for _, e := range r.errs {
		n += floored(e)
	}
	return n
}

// msDecimals picks the number of decimals that shows the smallest time in
// milliseconds to two significant digits, between 2 (Table 1's 0.01 ms)
// and 6 (a nanosecond).
func (r *Report) msDecimals() int {
	smallest := math.Inf(1)
	for _, c := range r.Cases {
		for _, t := range []float64{c.Measured, math.Abs(c.Predicted)} {
			if t > 0 && t < smallest {
				smallest = t
			}
		}
	}
	d := 1 - int(math.Floor(math.Log10(smallest*1e3)))
	return min(max(d, 2), 6)
}

func ms(s float64, decimals int) string { return fmt.Sprintf("%.*f", decimals, s*1e3) }

// msOrBlank is ms, or blank for a time not known.
func msOrBlank(s float64, decimals int) string {
	if s <= 0 {
		return ""
	}
	return ms(s, decimals)
}

func errText(e float64) string {
	if e < fit.ErrorFloor {
		return fmt.Sprintf("%.3f*", e)
	}
	return fmt.Sprintf("%.3f", e)
}

func meanText(e float64) string {
	if math.IsNaN(e) {
		return ""
	}
	return fmt.Sprintf("%.3f", e)
}

// floored counts the errors that fit.GeoMean raises to fit.ErrorFloor.
func floored(errs []float64) int {
	n := 0
	for _, e := range errs {
		if e < fit.ErrorFloor {
			n++
		}
	}
	return n
}
