package tune_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/uniperf/uniperf/fit"
	"github.com/uniperf/uniperf/fit/gpus"
	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/hierarchy"
	"github.com/uniperf/uniperf/fit/models/linear"
	"github.com/uniperf/uniperf/fit/tune"
)

// benchSpace is Kernel Tuner's stencil example space (31 valid block
// shapes) times a tunable the kernel does not read, of extra values:
// configurations that share their block shape share a count.
func benchSpace(b *testing.B, extra int) *tune.Space {
	src := fmt.Sprintf(`{"tune_params": {"block_size_x": "[32*i for i in range(1, 9)]", "block_size_y": "[2**i for i in range(6)]",
		"unroll": "list(range(%d))"}, "restrictions": ["block_size_x*block_size_y <= 1024"]}`, extra)
	s, err := tune.ReadSpace([]byte(src), "bench")
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// benchRank ranks the stencil space of about n configurations, once
// untimed to count its 31 kernels, then timed: binding the consts of
// every configuration, predicting each binding (evaluating its counts
// and finding its launch for the grid fill) and sorting.
func benchRank(b *testing.B, n int) {
	s := benchSpace(b, (n+30)/31)
	const kernel = "../../examples/stencil_kernel.knl"
	counter := models.NewCounter(models.Files)
	k, err := counter.Kernel(kernel, map[string]int64{"BX": 32, "BY": 8})
	if err != nil {
		b.Fatal(err)
	}
	w := benchWeights(k.Names())
	counter = models.NewCounterWith(models.Files, models.WeightsBanks(w))
	m, _, err := tune.NewMapping(s, []string{"BX", "BY"}, map[string]string{"BX": "block_size_x", "BY": "block_size_y"})
	if err != nil {
		b.Fatal(err)
	}
	configs, err := s.Configs()
	if err != nil {
		b.Fatal(err)
	}
	params := map[string]int64{"w": 4096, "h": 2048}
	predict := func(consts map[string]int64) (float64, error) {
		t, _, _, err := linear.PredictLaunch(counter, w, kernel, consts, params)
		return t, err
	}
	if _, err := tune.Rank(s, m, configs, predict, 0); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := tune.Rank(s, m, configs, predict, 0); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(configs)), "configs")
}

func BenchmarkRank1e4(b *testing.B) { benchRank(b, 10_000) }

// BenchmarkRankNewBindings ranks the shipped convolution space (432
// configurations, each its own binding of BX, BY, TX and TY) from
// scratch each time: every binding is counted at the sizes and
// predicted anew, as tune does, the cost that a space of 10^4 distinct
// bindings multiplies (reported as s/1e4-bindings, to set beside the 5 s
// target).
func BenchmarkRankNewBindings(b *testing.B) {
	benchRankNewBindings(b, func(w *fit.Weights, params map[string]int64) *models.Counter {
		return models.NewCounterAt(models.Files, models.WeightsBanks(w), params)
	})
}

// BenchmarkRankNewBindingsSymbolic is BenchmarkRankNewBindings with each
// binding counted symbolically in the sizes, as predict counts it.
func BenchmarkRankNewBindingsSymbolic(b *testing.B) {
	benchRankNewBindings(b, func(w *fit.Weights, _ map[string]int64) *models.Counter {
		return models.NewCounterWith(models.Files, models.WeightsBanks(w))
	})
}

func benchRankNewBindings(b *testing.B, newCounter func(*fit.Weights, map[string]int64) *models.Counter) {
	s, m, configs := convolutionSpace(b)
	const kernel = convolutionKernel
	k, err := models.NewCounter(models.Files).Kernel(kernel, nil)
	if err != nil {
		b.Fatal(err)
	}
	w := benchWeights(k.Names())
	params := map[string]int64{"h": 4096, "w": 4096}
	bindings := 0
	for b.Loop() {
		counter := newCounter(w, params)
		r, err := tune.Rank(s, m, configs, func(consts map[string]int64) (float64, error) {
			t, _, _, err := linear.PredictLaunch(counter, w, kernel, consts, params)
			return t, err
		}, 0)
		if err != nil {
			b.Fatal(err)
		}
		bindings = r.Bindings
	}
	b.ReportMetric(float64(bindings), "bindings")
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)/float64(bindings)*1e4, "s/1e4-bindings")
}

// benchWeights prices every property at a made-up weight, with a grid
// fill, so that a prediction walks every term.
func benchWeights(props []string) *fit.Weights {
	values := make([]float64, len(props))
	for i := range values {
		values[i] = 1e-12 * float64(i+1)
	}
	w := &fit.Weights{Device: "bench", Model: fit.ModelUnified, Properties: props, Values: values,
		Fill: &fit.GridFill{Units: 132, Saturation: 192}}
	w.ZeroMissing = true
	return w
}
func BenchmarkRank1e5(b *testing.B) { benchRank(b, 100_000) }

// BenchmarkConfigs enumerates Kernel Tuner's convolution example space
// (3.1 million combinations of filter sizes, blocks, tiles, padding and
// read-only, restricted as its script does).
func BenchmarkConfigs(b *testing.B) {
	s, err := tune.ReadSpace([]byte(`{"tune_params": {"filter_height": "[i for i in range(3,35,2)]", "filter_width": "[i for i in range(3,35,2)]",
		"block_size_x": "[16*i for i in range(1,9)]", "block_size_y": "[2**i for i in range(6)]", "tile_size_x": "[i for i in range(1,9)]",
		"tile_size_y": "[i for i in range(1,9)]", "use_padding": [0, 1], "read_only": [0, 1]},
		"restrictions": ["use_padding==0 or (block_size_x % 32 != 0)"]}`), "convolution")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		c, err := s.Configs()
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(c)), "configs")
	}
}

// BenchmarkRankNewBindingsHierarchy is BenchmarkRankNewBindings with the
// memory-hierarchy model in its CPU form (footprints, cache lines,
// scalar moves and chains besides the counts), each binding counted at
// the sizes, as tune --model hierarchy counts it.
func BenchmarkRankNewBindingsHierarchy(b *testing.B) {
	benchRankHierarchy(b, func(params map[string]int64) *models.Counter {
		return models.NewCounterAt(models.Files, models.DefaultBanks, params)
	})
}

// BenchmarkRankNewBindingsHierarchySymbolic is
// BenchmarkRankNewBindingsHierarchy with each binding counted
// symbolically in the sizes, as predict --model hierarchy counts it (and
// tune did before).
func BenchmarkRankNewBindingsHierarchySymbolic(b *testing.B) {
	benchRankHierarchy(b, func(map[string]int64) *models.Counter { return models.NewCounter(models.Files) })
}

// benchRankHierarchy ranks the first 48 bindings of the shipped
// convolution space at run-tuning's sizes (h = w = 256) with the
// hierarchy model, from scratch each time.
func benchRankHierarchy(b *testing.B, newCounter func(map[string]int64) *models.Counter) {
	s, m, configs := convolutionSpace(b)
	const kernel = convolutionKernel
	configs = configs[:48]
	d, err := gpus.Lookup("pocl-cpu")
	if err != nil {
		b.Fatal(err)
	}
	// Made-up weights: Predict counts every feature of the form before
	// it prices them, and prices those without a weight at zero.
	model := &hierarchy.Model{Config: hierarchy.Chosen("cpu"), Properties: []string{hierarchy.DRAMBytes, hierarchy.L2Bytes, "launch.groups"},
		Values: []float64{3e-12, 1e-12, 1e-7}, ZeroMissing: true}
	params := map[string]int64{"h": 256, "w": 256}
	bindings := 0
	for b.Loop() {
		env := &models.Env{Counter: newCounter(params), Device: d}
		r, err := tune.Rank(s, m, configs, func(consts map[string]int64) (float64, error) {
			defer env.Counter.Forget(kernel, consts)
			p, err := model.Predict(env, models.Case{Kernel: kernel, Consts: consts, Params: params})
			return p.Seconds, err
		}, 0)
		if err != nil {
			b.Fatal(err)
		}
		bindings = r.Bindings
	}
	b.ReportMetric(float64(bindings), "bindings")
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)/float64(bindings)*1e3, "ms/binding")
}

// convolutionKernel is the shipped convolution kernel whose space
// convolutionSpace reads.
const convolutionKernel = "../../examples/convolution_kernel.knl"

// convolutionSpace reads the shipped convolution space, maps its
// tunables onto convolutionKernel's consts as run-tuning does (no
// padding) and lists its configurations.
func convolutionSpace(b *testing.B) (*tune.Space, *tune.Mapping, []tune.Config) {
	data, err := os.ReadFile("../../examples/convolution_kernel.space.json")
	if err != nil {
		b.Fatal(err)
	}
	s, err := tune.ReadSpace(data, "convolution")
	if err != nil {
		b.Fatal(err)
	}
	m, _, err := tune.NewMapping(s, []string{"BX", "BY", "TX", "TY", "PAD"}, map[string]string{
		"BX": "block_size_x", "BY": "block_size_y", "TX": "tile_size_x", "TY": "tile_size_y", "PAD": "0"})
	if err != nil {
		b.Fatal(err)
	}
	configs, err := s.Configs()
	if err != nil {
		b.Fatal(err)
	}
	return s, m, configs
}
