package cycles

import (
	"fmt"
	"maps"
	"regexp"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/datasets"
	"github.com/uniperf/uniperf/fit/gpus"
	"github.com/uniperf/uniperf/fit/models"
)

// publishedWeights are the device files whose cycle weights cite published
// numbers rather than a shipped table: no table of the device ships, so
// there is nothing to recompute them from.
var publishedWeights = map[string]string{
	"gtx460": "Resios", // seed 000, Table 3.1 and §3.2: latencies of a GTX 460
}

// TestDeviceCycleWeights recomputes the cycle weights of every device file
// whose source names a shipped table, by the recipe the sources give:
// cycles = time × clock × SMs (cores) of the file, on each kernel's
// largest measured size with 16×16 work-groups (256 work-items for
// global_copy); add from arith_add_f32; mul, div, pow and special from
// arith_mul_f32, arith_div_f32, arith_pow_f32 and arith_rsqrt_f32 after
// their additions at the add weight; global from global_copy per load
// plus store (global.minldst is a correction term of the linear model, not
// an access, and the cycles model does not count it); shared from what
// matmul_tiled leaves after its flops and global accesses, per local load
// or store, zero where the flops and global accesses leave less than
// nothing (by under 1% of the kernel's time). The files round to three
// digits.
func TestDeviceCycleWeights(t *testing.T) {
	devices, err := gpus.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	tableRef := regexp.MustCompile(`datasets/([a-z0-9-]+\.arrow)`)
	for i, key := range gpus.Names() {
		d := devices[i]
		if d.Cycles == nil {
			continue
		}
		refs := tableRef.FindAllStringSubmatch(d.Cycles.Source, -1)
		if cite, ok := publishedWeights[key]; ok {
			if len(refs) != 0 || !strings.Contains(d.Cycles.Source, cite) {
				t.Errorf("%s: listed as citing %s, its source says %q", d.File, cite, d.Cycles.Source)
			}
			continue
		}
		if len(refs) != 1 {
			t.Errorf("%s: the cycles source must name the one shipped table its weights come from (datasets/NAME.arrow), or the file be listed in publishedWeights: %q", d.File, d.Cycles.Source)
			continue
		}
		scale := fmt.Sprintf("%g MHz x %d", d.ClockHz/1e6, d.SMs)
		if !strings.Contains(d.Cycles.Source, scale) {
			t.Errorf("%s: the source's recipe does not scale by the file's clock and SMs (%q)", d.File, scale)
		}
		derived := deriveCycleWeights(t, d, refs[0][1])
		if !maps.EqualFunc(d.Cycles.Weights, derived, func(a, b float64) bool { return near(a, b, 0.005) }) {
			t.Errorf("%s: weights %v, the recipe on %s gives %v", d.File, d.Cycles.Weights, refs[0][1], derived)
		}
	}
}

// deriveCycleWeights applies TestDeviceCycleWeights's recipe to a shipped
// table of d.
func deriveCycleWeights(t *testing.T, d *gpus.Device, name string) map[string]float64 {
	t.Helper()
	table, err := datasets.OpenShipped(name)
	if err != nil {
		t.Fatal(err)
	}
	if of, err := gpus.Lookup(table.Meta.DeviceName); err != nil || of.File != d.File {
		t.Fatalf("%s: table %s is of device %q, not of this file (%v)", d.File, name, table.Meta.DeviceName, err)
	}
	counter := models.NewCounter(nil)
	// largest returns the cycles and counts of a kernel's largest measured
	// size at work-group width lx (and height 16 where it has one).
	largest := func(kernel string, lx int64) (float64, map[string]int64) {
		t.Helper()
		var best *datasets.Row
		for i, r := range table.Rows {
			ly, has := r.Consts["LY"]
			if r.Kernel == kernel && r.Role == datasets.RoleMeasurement && r.Consts["LX"] == lx && (!has || ly == 16) &&
				(best == nil || r.TimeS > best.TimeS) {
				best = &table.Rows[i]
			}
		}
		if best == nil {
			t.Fatalf("%s: no measurement row of %s at LX=%d", name, kernel, lx)
		}
		n, err := counter.Counts(best.Kernel, best.Consts, best.Params)
		if err != nil {
			t.Fatal(err)
		}
		return best.TimeS * d.ClockHz * float64(d.SMs), n
	}
	sum := func(n map[string]int64, prefixes ...string) float64 {
		var s int64
		for name, v := range n {
			for _, p := range prefixes {
				if strings.HasPrefix(name, p) {
					s += v
				}
			}
		}
		return float64(s)
	}
	c, n := largest("arith_add_f32", 16)
	w := map[string]float64{"add": c / float64(n["flop.f32.add"])}
	for kind, kernel := range map[string]string{"mul": "arith_mul_f32", "div": "arith_div_f32", "pow": "arith_pow_f32", "special": "arith_rsqrt_f32"} {
		c, n := largest(kernel, 16)
		w[kind] = (c - w["add"]*float64(n["flop.f32.add"])) / float64(n["flop.f32."+kind])
	}
	c, n = largest("global_copy", 256)
	w["global"] = c / sum(n, "global.load.", "global.store.")
	c, n = largest("matmul_tiled", 16)
	rest := c - w["add"]*float64(n["flop.f32.add"]) - w["mul"]*float64(n["flop.f32.mul"]) - w["global"]*sum(n, "global.load.", "global.store.")
	if rest < 0 {
		// A weight cannot be negative: the local accesses hide under the
		// flops and global accesses, within the runs' noise, or the
		// recipe does not describe the device.
		if rest < -0.01*c {
			t.Fatalf("%s: matmul_tiled's flops and global accesses exceed its time by %.1f%%: the recipe gives no shared weight", name, -100*rest/c)
		}
		rest = 0
	}
	w["shared"] = rest / sum(n, "local.load.", "local.store.")
	return w
}
