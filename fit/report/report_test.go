package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/fit"
)

// readPublished reads one of the CSVs transcribed from the seeds: comment
// lines start with '#', the first remaining line is the header.
func readPublished(t *testing.T, name string) [][]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	// The copies in testdata must not drift from the project's transcription.
	if orig, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "published", name)); err == nil && !bytes.Equal(orig, data) {
		t.Fatalf("testdata/%s differs from shared/published/%s", name, name)
	}
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	recs, err := csv.NewReader(strings.NewReader(strings.Join(lines, "\n"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs[1:]
}

type table1Row struct {
	kernel, gpu, size string
	meas, pred        float64 // ms
}

func table1(t *testing.T) ([]table1Row, []Case) {
	var rows []table1Row
	var cases []Case
	for _, r := range readPublished(t, "seed001-table1.csv") {
		m, err1 := strconv.ParseFloat(r[3], 64)
		p, err2 := strconv.ParseFloat(r[4], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("bad row %v", r)
		}
		rows = append(rows, table1Row{r[0], r[1], r[2], m, p})
		cases = append(cases, Case{Device: r[1], Kernel: r[0], Size: r[2], Measured: m / 1e3, Predicted: p / 1e3})
	}
	return rows, cases
}

// reachable returns the range of |p − m|/m over the times that round to
// m0 and p0 at 0.01 ms, m ∈ [m0 − h, m0 + h], p ∈ [p0 − h, p0 + h] with
// h = 0.005. On the box e = max(p/m − 1, 1 − p/m), each part monotone in p
// and in m, so the maximum is at a corner; the minimum is 0 where the two
// intervals overlap (p = m is reachable) and otherwise at a corner, since
// then one part is e on the whole box.
func reachable(m0, p0 float64) (lo, hi float64) {
	const h = 0.005
	lo, hi = math.Inf(1), 0
	for _, m := range []float64{m0 - h, m0 + h} {
		for _, p := range []float64{p0 - h, p0 + h} {
			e := math.Abs(p-m) / m
			lo, hi = math.Min(lo, e), math.Max(hi, e)
		}
	}
	if math.Abs(p0-m0) <= 2*h+1e-12 {
		lo = 0
	}
	return lo, hi
}

// plainGeoMean is the textbook geometric mean, no floor: the quantity the
// paper printed, computed from its unrounded times.
func plainGeoMean(xs []float64) float64 {
	p := 1.0
	for _, x := range xs {
		p *= x
	}
	return math.Pow(p, 1/float64(len(xs)))
}

type interval struct{ lo, hi float64 }

// TestTable1GeoMeans recomputes the bold geometric means of seed 001's
// Table 1 from its rounded times. The printed means were computed from
// unrounded times, so each is only known to lie in the interval the
// rounding allows: the geometric mean is increasing in every argument, so
// it lies between the means of the per-case lower and upper bounds, and the
// printed value, itself rounded to 0.01, lies within 0.005 of that range.
// The recomputed means (with the fit.ErrorFloor for the one exact zero) must
// lie in the same range.
func TestTable1GeoMeans(t *testing.T) {
	rows, cases := table1(t)
	rep, err := NewReport(cases)
	if err != nil {
		t.Fatal(err)
	}
	caseRange := make(map[[2]string][]interval)
	for _, r := range rows {
		lo, hi := reachable(r.meas, r.pred)
		k := [2]string{r.kernel, r.gpu}
		caseRange[k] = append(caseRange[k], interval{lo, hi})
	}
	meanRange := func(ivs []interval) interval {
		var los, his []float64
		for _, iv := range ivs {
			los, his = append(los, iv.lo), append(his, iv.hi)
		}
		return interval{plainGeoMean(los), plainGeoMean(his)}
	}
	kernelRange := make(map[[2]string]interval)
	for k, ivs := range caseRange {
		kernelRange[k] = meanRange(ivs)
	}
	check := func(what string, printed, got float64, iv interval) {
		t.Helper()
		if printed < iv.lo-0.005 || printed > iv.hi+0.005 {
			t.Errorf("%s: printed %.2f outside the reachable range [%.4f, %.4f] ± 0.005", what, printed, iv.lo, iv.hi)
		}
		if got < iv.lo || got > iv.hi {
			t.Errorf("%s: recomputed %.4f outside the reachable range [%.4f, %.4f]", what, got, iv.lo, iv.hi)
		}
	}
	checked := 0
	for _, r := range readPublished(t, "seed001-table1-geomeans.csv") {
		kernel, gpu := r[0], r[1]
		printed, err := strconv.ParseFloat(r[2], 64)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case gpu == "cross_gpu":
			var ivs []interval
			for _, d := range rep.Devices {
				ivs = append(ivs, kernelRange[[2]string{kernel, d}])
			}
			check(kernel+" across GPUs", printed, rep.CrossDevice(kernel), meanRange(ivs))
		case kernel == "cross_kernel":
			var ivs []interval
			for _, k := range rep.Kernels {
				ivs = append(ivs, kernelRange[[2]string{k, gpu}])
			}
			check(gpu+" across kernels", printed, rep.CrossKernel(gpu), meanRange(ivs))
		default:
			check(kernel+" on "+gpu, printed, rep.KernelError(gpu, kernel), kernelRange[[2]string{kernel, gpu}])
		}
		checked++
	}
	if checked != 24 {
		t.Errorf("checked %d printed means, want 24", checked)
	}

	// The figures quoted in issue 5 and the published README.
	for _, c := range []struct {
		kernel, gpu string
		want        float64
	}{{"finite_difference", "titan_x", 0.308}, {"finite_difference", "r9_fury", 0.645}} {
		if got := rep.KernelError(c.gpu, c.kernel); math.Abs(got-c.want) > 5e-4 {
			t.Errorf("%s on %s: %.4f, want %.3f", c.kernel, c.gpu, got, c.want)
		}
	}
	// K40 finite differences, size a: 0.70 ms measured and predicted, an
	// exact zero that enters the mean as fit.ErrorFloor.
	want := math.Pow(fit.ErrorFloor*(0.05/2.37)*(0.14/9.17)*(0.47/37.34), 0.25)
	if got := rep.KernelError("tesla_k40", "finite_difference"); math.Abs(got-want) > 1e-12 {
		t.Errorf("K40 finite differences: %g, want %g", got, want)
	}
	if rep.Floored() != 1 {
		t.Errorf("%d floored errors, want 1", rep.Floored())
	}
}

// TestTable1Layout renders the published Table 1 and reads the text back:
// every time must appear in its kernel's row for its size and device, the
// errors and means must be the ones computed here from the CSV.
func TestTable1Layout(t *testing.T) {
	rows, cases := table1(t)
	rep, err := NewReport(cases)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := rep.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(buf.String(), "\n"), "\n")
	gpus := []string{"titan_x", "tesla_c2070", "tesla_k40", "r9_fury"}
	if got := strings.Fields(lines[0]); strings.Join(got, " ") != strings.Join(gpus, " ")+" all devices" {
		t.Fatalf("device header %q", lines[0])
	}

	// Expected body, built from the CSV alone.
	floorMean := func(es []float64) float64 {
		s := 0.0
		for _, e := range es {
			s += math.Log(math.Max(e, 1e-3))
		}
		return math.Exp(s / float64(len(es)))
	}
	var want []string
	perKernel := make(map[string]map[string][]float64)
	var kernels []string
	cells := make(map[string]map[string][]string) // kernel/size → gpu → cells
	var order []string
	for _, r := range rows {
		if perKernel[r.kernel] == nil {
			perKernel[r.kernel] = make(map[string][]float64)
			kernels = append(kernels, r.kernel)
		}
		e := math.Abs(r.pred-r.meas) / r.meas
		perKernel[r.kernel][r.gpu] = append(perKernel[r.kernel][r.gpu], e)
		key := r.kernel + "/" + r.size
		if cells[key] == nil {
			cells[key] = make(map[string][]string)
			order = append(order, key)
		}
		es := fmt.Sprintf("%.3f", e)
		if e == 0 {
			es += "*"
		}
		cells[key][r.gpu] = []string{fmt.Sprintf("%.2f", r.meas), fmt.Sprintf("%.2f", r.pred), es}
	}
	for _, k := range kernels {
		for _, key := range order {
			kernel, size, _ := strings.Cut(key, "/")
			if kernel != k {
				continue
			}
			f := []string{size}
			if size == "a" {
				f = []string{kernel, size}
			}
			for _, g := range gpus {
				f = append(f, cells[key][g]...)
			}
			want = append(want, strings.Join(f, " "))
		}
		f := []string{"geomean"}
		var means []float64
		for _, g := range gpus {
			m := floorMean(perKernel[k][g])
			means = append(means, m)
			f = append(f, fmt.Sprintf("%.3f", m))
		}
		want = append(want, strings.Join(append(f, fmt.Sprintf("%.3f", floorMean(means))), " "))
	}
	f := []string{"cross-kernel", "geomean"}
	for _, g := range gpus {
		var means []float64
		for _, k := range kernels {
			means = append(means, floorMean(perKernel[k][g]))
		}
		f = append(f, fmt.Sprintf("%.3f", floorMean(means)))
	}
	want = append(want, strings.Join(f, " "), "* 1 relative error(s) below 0.001 enter the geometric means as 0.001")

	body := lines[2:]
	if len(body) != len(want) {
		t.Fatalf("%d body lines, want %d:\n%s", len(body), len(want), buf.String())
	}
	for i := range want {
		if got := strings.Join(strings.Fields(body[i]), " "); got != want[i] {
			t.Errorf("line %d:\n got %s\nwant %s", i+3, got, want[i])
		}
	}
}

func TestReportBadCases(t *testing.T) {
	for _, tc := range []struct {
		cases []Case
		want  string
	}{
		{nil, "no cases"},
		{[]Case{{Device: "d", Kernel: "k", Size: "a", Measured: 0, Predicted: 1}}, "measured time 0 s"},
		{[]Case{{Device: "d", Kernel: "k", Size: "a", Measured: 1, Predicted: math.NaN()}}, "predicted time NaN"},
		{[]Case{{Device: "d", Kernel: "k", Size: "a", Measured: 1, Predicted: 1}, {Device: "d", Kernel: "k", Size: "a", Measured: 2, Predicted: 1}}, "case 2 (k, d, size a): given twice"},
	} {
		if _, err := NewReport(tc.cases); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v, want an error containing %q", err, tc.want)
		}
	}
}

// TestReportSpread writes a report whose cases know their runs: the
// median and maximum stand beside the minimum, and an error smaller than
// the median's excess over the minimum is marked within the noise. Case a:
// 10% off, runs 20% apart (noise); case b: 10% off, runs 5% apart; case c
// has no runs and gets blank cells.
func TestReportSpread(t *testing.T) {
	cases := []Case{
		{Device: "d", Kernel: "k", Size: "a", Measured: 1e-3, Predicted: 1.1e-3, Median: 1.2e-3, Max: 3e-3},
		{Device: "d", Kernel: "k", Size: "b", Measured: 2e-3, Predicted: 1.8e-3, Median: 2.1e-3, Max: 2.2e-3},
		{Device: "d", Kernel: "k", Size: "c", Measured: 4e-3, Predicted: 4e-3},
	}
	rep, err := NewReport(cases)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := rep.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(buf.String(), "\n")
	want := [][]string{
		{"kernel", "size", "meas", "ms", "median", "max", "pred", "ms", "rel.err"},
		{"k", "a", "1.00", "1.20", "3.00", "1.10", "0.100~"},
		{"b", "2.00", "2.10", "2.20", "1.80", "0.100"},
		{"c", "4.00", "4.00", "0.000*"},
		{"geomean", "0.022"},
	}
	for i, w := range want {
		if got := strings.Fields(lines[i+1]); !slices.Equal(got, w) {
			t.Errorf("line %d: %q, want %q", i+2, got, w)
		}
	}
	if !strings.Contains(buf.String(), "~ 1 relative error(s) smaller than the spread") || rep.WithinNoise() != 1 {
		t.Errorf("no note of the error within the noise:\n%s", buf.String())
	}
}
