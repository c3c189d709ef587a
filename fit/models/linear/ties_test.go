package linear

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/models"
)

// tieKernels load a[2i] and a[2i+1], together every element of a: filled
// stride-2 loads (stride=2/2), with an addition, a power or a
// multiplication; odd loads a[2i] alone (stride=1/2); wide sums the 8
// elements a[8i] to a[8i+7], loads of stride 8 that together use every
// element of a (stride=4/>4), with 7 additions. A name with the prefix
// ldg is the kernel of the rest of its name with a readonly.
var tieKernels = map[string]struct {
	span int
	expr string
}{
	"pair":    {2, "a[2*i] + a[2*i + 1]"},
	"pairpow": {2, "a[2*i] ** a[2*i + 1]"},
	"pairmul": {2, "a[2*i] * a[2*i + 1]"},
	"odd":     {2, "a[2*i]"},
	"wide":    {8, "a[8*i] + a[8*i + 1] + a[8*i + 2] + a[8*i + 3] + a[8*i + 4] + a[8*i + 5] + a[8*i + 6] + a[8*i + 7]"},
}

func tieSource(name string) (string, []byte, error) {
	base, readOnly := strings.CutPrefix(name, "ldg")
	k, ok := tieKernels[base]
	if !ok {
		return testSource(name)
	}
	attr := ""
	if readOnly {
		attr = " readonly"
	}
	src := "kernel " + name + `
const LX = 64
domain [n] -> { [i] : 0 <= i < n }
array a f32 [` + strconv.Itoa(k.span) + `*n]` + attr + `
array b f32 [n]
split i LX i_out i_in
tag i_out g.0, i_in l.0
b[i] = ` + k.expr
	return name + ".knl", []byte(src), nil
}

const (
	filledLoad = "global.load.f32.stride=2/2"
	unitLoad   = "global.load.f32.stride=1"
	powWeight  = 9e-10
)

// tieTables holds syntheticTable on device with allKernels and the tie
// kernels given, every row timed by the true weights, a power at
// powWeight and a filled stride-2 load at filled, on the counts of the
// Counter (whose counts of these kernels, 2n filled loads, n flops and n
// stores, package counts tests).
func tieTables(t *testing.T, device string, filled float64, tied ...string) map[string]*datasets.Table {
	return timedTables(t, device, map[string]float64{filledLoad: filled, "flop.f32.pow": powWeight}, tied...)
}

// timedTables is tieTables with the weights of over in place of the true
// ones.
func timedTables(t *testing.T, device string, over map[string]float64, tied ...string) map[string]*datasets.Table {
	t.Helper()
	c := models.NewCounter(tieSource)
	tab := syntheticTable(device, append(slices.Clone(allKernels), tied...), datasets.RoleMeasurement)
	for i, r := range tab.Rows {
		counts, err := c.Counts(r.Kernel, r.Consts, r.Params)
		if err != nil {
			t.Fatal(err)
		}
		secs := 0.0
		for p, n := range counts {
			w, ok := over[p]
			if !ok {
				w = trueWeights[p]
			}
			secs += w * float64(n)
		}
		tab.Rows[i].TimeS, tab.Rows[i].RawTimesS = secs, []float64{secs}
	}
	return map[string]*datasets.Table{"m": tab}
}

// chooseTies calibrates tables with ChooseTies, a free fit (the true
// minldst weight is negative).
func chooseTies(t *testing.T, tables map[string]*datasets.Table) *fit.Weights {
	t.Helper()
	w, err := CalibrateTables(models.NewCounter(tieSource), tables, Options{ChooseTies: true})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// With the filled loads costing what stride-1 loads cost, and the one
// class beside pair that has them (pairpow) unable to tell their weight
// from its power's, the fit apart mis-prices pair when pair is left out;
// the tied fit prices it exactly, and cross-validation keeps the ties.
func TestChooseTiesKeepsTrueTie(t *testing.T) {
	w := chooseTies(t, tieTables(t, "gpu", trueWeights[unitLoad], "pair", "pairpow"))
	if w.Ties[filledLoad] != unitLoad || len(w.Ties) != 1 {
		t.Fatalf("ties %v, want %s tied to %s", w.Ties, filledLoad, unitLoad)
	}
	c := w.Diagnostics.TieCheck
	if c == nil || !(c.Tied < c.Apart) {
		t.Fatalf("tie check %+v, want the tied error below the apart one", c)
	}
	for p, want := range map[string]float64{filledLoad: trueWeights[unitLoad], unitLoad: trueWeights[unitLoad], "flop.f32.pow": powWeight} {
		if got, ok := w.Weight(p); !ok || math.Abs(got-want) > 1e-6*want {
			t.Errorf("%s: weight %g (%v), want %g", p, got, ok, want)
		}
	}
	if slices.Contains(w.Properties, filledLoad) {
		t.Errorf("%s has a weight of its own beside its tie", filledLoad)
	}
}

// With the filled loads three times dearer than stride-1 ones, and pairmul
// to price them when pair is left out, the fit apart is exact and the
// tied one is not: cross-validation keeps the weights apart.
func TestChooseTiesKeepsApart(t *testing.T) {
	w := chooseTies(t, tieTables(t, "gpu", 3*trueWeights[unitLoad], "pair", "pairpow", "pairmul"))
	if len(w.Ties) != 0 {
		t.Fatalf("ties %v, want none", w.Ties)
	}
	if c := w.Diagnostics.TieCheck; c == nil || !(c.Apart < c.Tied) {
		t.Fatalf("tie check %+v, want the apart error below the tied one", c)
	}
	if got, _ := w.Weight(filledLoad); math.Abs(got-3*trueWeights[unitLoad]) > 1e-6*got {
		t.Errorf("%s: weight %g, want %g", filledLoad, got, 3*trueWeights[unitLoad])
	}
}

// On a device whose shipped device file says it is a CPU the ties are not
// offered, even where they are true.
func TestChooseTiesNotOnCPU(t *testing.T) {
	w := chooseTies(t, tieTables(t, "pthread-skylake-avx512-AMD EPYC", trueWeights[unitLoad], "pair", "pairpow"))
	if len(w.Ties) != 0 || w.Diagnostics.TieCheck != nil {
		t.Fatalf("ties %v, check %+v: want neither on a CPU", w.Ties, w.Diagnostics.TieCheck)
	}
}

// Cross-validation fits every fold with the ties chosen on all the rows:
// pair left out is then priced exactly, by the stride-1 load weight and
// the addition's, which the other classes determine.
func TestCrossValidateWithChosenTies(t *testing.T) {
	tables := tieTables(t, "gpu", trueWeights[unitLoad], "pair", "pairpow")
	if heldOutExact(t, tables, Options{ChooseTies: true}, "pair") == 0 {
		t.Error("no pair row predicted held out")
	}
}

// heldOutExact cross-validates tables with opts and returns how many rows
// of kernel it predicted held out, each of which must be exact.
func heldOutExact(t *testing.T, tables map[string]*datasets.Table, opts Options, kernel string) int {
	t.Helper()
	cases, _, err := CrossValidate(models.NewCounter(tieSource), tables, opts)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range cases {
		if c.Kernel == kernel {
			n++
			if e := c.RelErr(); e > 1e-6 {
				t.Errorf("%s %s held out: relative error %g, want exact", kernel, c.Size, e)
			}
		}
	}
	return n
}

// A strided readonly load that costs what the plain load of its class
// does (odd and ldgodd: one stride-2 load of 1 of every 2 elements; wide
// and ldgwide: eight stride-8 loads that together use every element,
// class 4/>4; at 5e-10 s, plain or readonly): with ReadOnlyTies the fit
// prices the readonly one by the plain one's weight, and
// cross-validation predicts the readonly kernel held out exactly from
// the plain one's rows, which without the tie give its ldg property no
// weight and leave it unpredicted. On a CPU, where the filled ties are
// not offered, the option is honoured.
func TestReadOnlyTies(t *testing.T) {
	const weight = 5e-10
	device := "pthread-skylake-avx512-AMD EPYC"
	for _, c := range []struct{ plain, class string }{{"odd", "1/2"}, {"wide", "4/>4"}} {
		load, ldg := "global.load.f32.stride="+c.class, "global.ldg.f32.stride="+c.class
		tables := timedTables(t, device, map[string]float64{load: weight, ldg: weight}, c.plain, "ldg"+c.plain)
		opts := Options{ChooseTies: true, ReadOnlyTies: true}
		w, err := CalibrateTables(models.NewCounter(tieSource), tables, opts)
		if err != nil {
			t.Fatal(err)
		}
		if w.Ties[ldg] != load {
			t.Fatalf("ties %v, want %s tied to %s", w.Ties, ldg, load)
		}
		if got, ok := w.Weight(ldg); !ok || math.Abs(got-weight) > 1e-6*weight {
			t.Errorf("%s: weight %g (%v), want %g", ldg, got, ok, weight)
		}
		for _, readOnly := range []bool{true, false} {
			opts.ReadOnlyTies = readOnly
			n := heldOutExact(t, tables, opts, "ldg"+c.plain)
			if readOnly && n == 0 || !readOnly && n != 0 {
				t.Errorf("ReadOnlyTies %v: %d ldg%s rows predicted held out, want them all with the tie and none without", readOnly, n, c.plain)
			}
		}
	}
}

// The fallback ties on rows timed with a strided readonly load dearer
// than the plain load of its class (ldgodd's global.ldg.f32.stride=1/2 at
// 8e-10 s, odd's global.load.f32.stride=1/2 at 5e-10 s; each kernel
// counts n of its load, a store and the launch, whose true weights the
// other kernels give). With ldgodd's rows the readonly load keeps its own
// weight, 8e-10; without them it is priced by the plain load's, 5e-10,
// where own weights (ReadOnlyTies off) leave it unpriced. Left out one
// class at a time, ldgodd is predicted from odd's rows by the tie, at
// its time less n × 3e-10, and odd, whose plain load then only ldgodd's
// rows could price through the tie, is not predicted.
func TestReadOnlyFallback(t *testing.T) {
	const halfLoad, ldgHalf, plain, own = "global.load.f32.stride=1/2", "global.ldg.f32.stride=1/2", 5e-10, 8e-10
	device := "pthread-skylake-avx512-AMD EPYC"
	over := map[string]float64{halfLoad: plain, ldgHalf: own}
	fallback := Options{ChooseTies: true, ReadOnlyTies: true, ReadOnlyFallback: true}
	near := func(got, want float64) bool { return math.Abs(got-want) <= 1e-6*want }

	with := timedTables(t, device, over, "odd", "ldgodd")
	w, err := CalibrateTables(models.NewCounter(tieSource), with, fallback)
	if err != nil {
		t.Fatal(err)
	}
	if to, tied := w.Ties[ldgHalf]; tied {
		t.Errorf("with ldgodd's rows: %s tied to %s, want its own weight", ldgHalf, to)
	}
	if got, ok := w.Weight(ldgHalf); !ok || !near(got, own) {
		t.Errorf("with ldgodd's rows: %s weight %g (%v), want %g", ldgHalf, got, ok, own)
	}

	without := timedTables(t, device, over, "odd")
	ldgCase := models.Case{Kernel: "ldgodd", Consts: map[string]int64{"LX": 64}, Params: map[string]int64{"n": 4096}}
	for _, o := range []Options{fallback, {ChooseTies: true}} {
		w, err := CalibrateTables(models.NewCounter(tieSource), without, o)
		if err != nil {
			t.Fatal(err)
		}
		got, wok := w.Weight(ldgHalf)
		m := &Model{Weights: w}
		_, perr := m.Predict(&models.Env{Counter: models.NewCounter(tieSource)}, ldgCase)
		switch {
		case o.ReadOnlyFallback && (w.Ties[ldgHalf] != halfLoad || !wok || !near(got, plain) || perr != nil):
			t.Errorf("fallback without ldgodd's rows: tie %q, weight %g (%v), prediction error %v; want the tie to %s at %g", w.Ties[ldgHalf], got, wok, perr, halfLoad, plain)
		case !o.ReadOnlyFallback && (wok || perr == nil):
			t.Errorf("own weights without ldgodd's rows: weight %g (%v), prediction error %v; want no weight and a refusal", got, wok, perr)
		}
	}

	cases, _, err := CrossValidate(models.NewCounter(tieSource), with, fallback)
	if err != nil {
		t.Fatal(err)
	}
	ldg := 0
	for _, c := range cases {
		switch c.Kernel {
		case "ldgodd":
			ldg++
			if want := c.Measured - float64(c.Params["n"])*(own-plain); !near(c.Predicted, want) {
				t.Errorf("ldgodd %s held out: predicted %g, want %g", c.Size, c.Predicted, want)
			}
		case "odd":
			t.Errorf("odd %s predicted held out (%g), from a tie the fallback does not make", c.Size, c.Predicted)
		}
	}
	if ldg == 0 {
		t.Error("no ldgodd row predicted held out")
	}
}
