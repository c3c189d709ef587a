package cimport

import (
	"maps"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
)

// Rodinia's hotspot and pathfinder kernels run their pyramid's steps in
// a loop that ends with "if (i == iteration - 1) break;" and set a flag,
// computed, under the step's guard, which the store after the loop
// reads. With the iteration count fixed, -D iteration=1 (their run
// scripts' pyramid height of 1, as examples/hotspot.knl's), the loop is
// unrolled at import, the break ends it, and the flag is the guard's
// condition; their clamps (validXmin = (blkX < 0) ? -blkX : 0) make the
// guard affine, so the counts are exact. They run in TestPortsRun and
// TestPortsOnPoCL with the other ports.
func init() {
	ports = append(ports,
		port{"rodinia/hotspot.cu", "calculate_temp", hotspotFlags, []map[string]int64{{"grid_cols": 64, "grid_rows": 48}, {"grid_cols": 45, "grid_rows": 37}}},
		port{"rodinia/pathfinder.cu", "dynproc_kernel", pathfinderFlags, []map[string]int64{{"cols": 1000, "rows": 10, "startStep": 3}, {"cols": 300, "rows": 5, "startStep": 0}}},
		port{"own/steps.cu", "steps_kernel", nil, []map[string]int64{{"n": 300}, {"n": 62*4 + 1}}},
		// Its run script's pyramid height of 2: two steps in a launch,
		// the first copied back (temp_on_cuda = temp_t where computed)
		// after the break's test, blocks of 12 x 12 points.
		port{"rodinia/hotspot.cu", "calculate_temp2", hotspot2Flags, []map[string]int64{{"grid_cols": 64, "grid_rows": 48}}})
	maps.Copy(originals, breakOriginals)
}

// hotspotFlags are hotspot.cu's launch for a pyramid height of 1: 16 x
// 16 work-items a group computing 14 x 14 points (blockCols =
// ceil(col/14)), a border of 1, and the floats its host computes for a
// 512 x 512 grid, which examples/hotspot.knl takes too.
var hotspotFlags = []string{"--kernel", "calculate_temp", "-D", "iteration=1", "-D", "border_cols=1", "-D", "border_rows=1",
	"-D", "Cap=4.27246164e-07f", "-D", "Rx=10.0f", "-D", "Ry=10.0f", "-D", "Rz=5120.0f", "-D", "step=1.4583334e-07f",
	"--local", "16,16", "--groups", "(grid_cols+13)/14,(grid_rows+13)/14",
	"--array", "power=grid_rows*grid_cols", "--array", "temp_src=grid_rows*grid_cols", "--array", "temp_dst=grid_rows*grid_cols"}

// hotspot2Flags are hotspotFlags for a pyramid height of 2: blocks of
// 12 x 12 points, a border of 2.
var hotspot2Flags = []string{"--kernel", "calculate_temp", "-D", "iteration=2", "-D", "border_cols=2", "-D", "border_rows=2",
	"-D", "Cap=4.27246164e-07f", "-D", "Rx=10.0f", "-D", "Ry=10.0f", "-D", "Rz=5120.0f", "-D", "step=1.4583334e-07f",
	"--local", "16,16", "--groups", "(grid_cols+11)/12,(grid_rows+11)/12",
	"--array", "power=grid_rows*grid_cols", "--array", "temp_src=grid_rows*grid_cols", "--array", "temp_dst=grid_rows*grid_cols"}

// pathfinderFlags are pathfinder.cu's launch for a pyramid height of 1:
// 256 work-items a group computing 254 columns (blockCols =
// ceil(cols/254)), a border of 1, at row startStep of the wall.
var pathfinderFlags = []string{"--kernel", "dynproc_kernel", "-D", "iteration=1", "-D", "border=1",
	"--local", "256", "--groups", "(cols+253)/254", "--array", "gpuWall=rows*cols", "--array", "gpuSrc=cols", "--array", "gpuResults=cols"}

var breakOriginals = map[string]original{
	// steps.cu with steps = 2: every x is computed in the first step
	// (2a, then 2a + 1 in shared memory); in the second, where its
	// block's tx = x mod 62 + 1 lies in 2..61, it is 4a + 2, and 4a + 2.5
	// after the loop. e takes the first column of each block (x = 62*bx -
	// 1, never computed: a) and x = 0 (2a + 1).
	"steps_kernel": func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		a, b, e := in["a"], clone(in["b"]), clone(in["e"])
		for x := range p["n"] {
			b[x] = 2 * a[x]
			if tx := x%62 + 1; tx >= 2 && tx <= 61 {
				b[x] = 2*(2*a[x]+1) + 0.5
			}
			if x%62 == 61 {
				e[x] = a[x]
			}
		}
		e[0] = 2*a[0] + 1
		return map[string][]float32{"b": b, "e": e}
	},
	// calculate_temp's step, in double where its 2.0 makes it so, with
	// each point's neighbours clamped to itself at the grid's edges.
	"calculate_temp": func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		return map[string][]float32{"temp_dst": hotspotStep(p["grid_rows"], p["grid_cols"], in["temp_src"], in["power"])}
	},
	// Two steps: a pyramid's result is that of two steps over the
	// whole grid.
	"calculate_temp2": func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		rows, cols := p["grid_rows"], p["grid_cols"]
		once := hotspotStep(rows, cols, in["temp_src"], in["power"])
		return map[string][]float32{"temp_dst": hotspotStep(rows, cols, once, in["power"])}
	},
	// dynproc_kernel's step: each column's least neighbour in the row
	// above (clamped at the edges) plus the wall's cost at row startStep.
	"dynproc_kernel": func(p map[string]int64, in map[string][]float32) map[string][]float32 {
		cols, row := p["cols"], p["startStep"]
		src, wall := in["gpuSrc"], in["gpuWall"]
		out := make([]float32, cols)
		for c := range cols {
			out[c] = min(src[max(c-1, 0)], src[c], src[min(c+1, cols-1)]) + wall[cols*row+c]
		}
		return map[string][]float32{"gpuResults": out}
	},
}

// TestHotspotCountsAsHandPort checks the imported calculate_temp's
// counts against examples/hotspot.knl's at two sizes. The port writes
// three things otherwise than the original, each named in its header,
// which the comparison folds: its 2.0 is 2.0f (the original's
// double literal makes the update's additions and multiplications
// f64: f32 and f64 are summed), its clamped neighbours are if() values
// of direct loads where the original indexes by N, S, W and E (local
// loads, indirect or not, are summed), and Cap, Rx, Ry, Rz and step are
// literals, whose divisions it folds (f32 divisions and integer
// arithmetic, which follows how each writes its conditions and clamps,
// are left out). What is compared is every memory access, barrier,
// group and flop.
func TestHotspotCountsAsHandPort(t *testing.T) {
	p := portNamed(t, "calculate_temp")
	got, err := counts.Count(parsed(t, p))
	if err != nil {
		t.Fatal(err)
	}
	hand, err := counts.Count(handPort(t, "hotspot", nil))
	if err != nil {
		t.Fatal(err)
	}
	fold := func(m map[string]int64) map[string]int64 {
		out := map[string]int64{}
		for k, v := range nonzero(m) {
			if strings.HasPrefix(k, "int.") || k == "flop.f32.div" {
				continue
			}
			k = strings.Replace(k, "flop.f64.", "flop.f32.", 1)
			k = strings.Replace(k, "local.load.indirect.", "local.load.", 1)
			out[k] += v
		}
		return out
	}
	for _, size := range p.sizes {
		g, err := got.Eval(size)
		if err != nil {
			t.Fatal(err)
		}
		h, err := hand.Eval(size)
		if err != nil {
			t.Fatal(err)
		}
		if !maps.Equal(fold(g), fold(h)) {
			t.Errorf("at %v: imported counts\n%v\nhand port's\n%v", size, fold(g), fold(h))
		}
		for _, name := range got.Names() {
			if got.UpperBound(name) {
				t.Errorf("%s: an upper bound; the guards are affine, so every count is exact", name)
			}
		}
	}
}

// TestPathfinderCounts checks the imported dynproc_kernel's counts at
// two sizes against an enumeration of what the original's work-items
// do, by its own conditions: each loads its column of the row above
// where it lies in the grid, and computes where its index lies in
// 1..254 and in the block's valid range. (examples/pathfinder.knl
// computes another step, of f32 costs, without local memory: its counts
// are not the original's.)
func TestPathfinderCounts(t *testing.T) {
	p := portNamed(t, "dynproc_kernel")
	cs, err := counts.Count(parsed(t, p))
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range p.sizes {
		cols := size["cols"]
		groups := (cols + 253) / 254
		var loaded, computed int64
		for bx := range groups {
			blkX := 254*bx - 1
			validXmin, validXmax := int64(0), int64(255)
			if blkX < 0 {
				validXmin = -blkX
			}
			if blkX+255 > cols-1 {
				validXmax = 255 - (blkX + 255 - cols + 1)
			}
			for tx := range int64(256) {
				if x := blkX + tx; x >= 0 && x <= cols-1 {
					loaded++
				}
				if tx >= 1 && tx <= 254 && tx >= validXmin && tx <= validXmax {
					computed++
				}
			}
		}
		items := 256 * groups
		want := map[string]int64{
			"global.load.i32.stride=1": loaded + computed, "global.store.i32.stride=1": computed,
			"local.store.i32": loaded + computed, "local.load.i32": 2 * computed, "local.load.indirect.i32": 2 * computed,
			"sync.barrier": 2 * items, "launch.groups": groups, "int.i32.special": 4*items + 2*computed,
		}
		got, err := cs.Eval(size)
		if err != nil {
			t.Fatal(err)
		}
		for k, w := range want {
			if got[k] != w {
				t.Errorf("at %v: %s = %d, want %d", size, k, got[k], w)
			}
		}
	}
}

// TestStepsCounts checks the counts of own/steps.cu (two steps, the
// second after the first's copy back, the break before the second's)
// at two sizes against an enumeration of what its work-items do by the
// C's conditions.
func TestStepsCounts(t *testing.T) {
	p := portNamed(t, "steps_kernel")
	cs, err := counts.Count(parsed(t, p))
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range p.sizes {
		n := size["n"]
		groups := (n + 61) / 62
		var loaded, first, second, edge int64
		for bx := range groups {
			blkX := 62*bx - 1
			lo, hi := max(-blkX, 0), int64(63)
			if blkX+63 > n-1 {
				hi = 63 - (blkX + 63 - n + 1)
			}
			for tx := range int64(64) {
				x := blkX + tx
				if x >= 0 && x < n {
					loaded++
				}
				valid := tx >= lo && tx <= hi
				if tx >= 1 && tx <= 62 && valid {
					first++
				}
				if tx >= 2 && tx <= 61 && valid {
					second++
				}
				if tx <= lo && x >= 0 {
					edge++
				}
			}
		}
		want := map[string]int64{
			// a where it lies in the row; b in the copy back and in the
			// += after the loop.
			"global.load.f32.stride=1": loaded + first + second,
			// b in both steps and after; e at the blocks' edges.
			"global.store.f32.stride=1": first + 2*second + edge,
			"local.store.f32":           loaded + first, "local.load.f32": first + second + edge,
			"flop.f32.mul": first + second, "flop.f32.add": first + second,
			"sync.barrier": 4 * 64 * groups, "launch.groups": groups,
		}
		got, err := cs.Eval(size)
		if err != nil {
			t.Fatal(err)
		}
		for k, w := range want {
			if got[k] != w {
				t.Errorf("at %v: %s = %d, want %d", size, k, got[k], w)
			}
		}
		for _, name := range cs.Names() {
			if cs.UpperBound(name) {
				t.Errorf("%s: an upper bound; the guards are affine", name)
			}
		}
	}
}

// hotspotStep is one step of calculate_temp over a rows x cols grid, in
// double where its 2.0 makes it so, with each point's neighbours
// clamped to itself at the grid's edges.
func hotspotStep(rows, cols int64, t, pw []float32) []float32 {
	stepDivCap := float32(1.4583334e-07) / float32(4.27246164e-07)
	rx1, ry1, rz1 := 1/float32(10), 1/float32(10), 1/float32(5120)
	out := make([]float32, rows*cols)
	at := func(y, x int64) float32 { return t[y*cols+x] }
	for y := range rows {
		for x := range cols {
			c := at(y, x)
			n, s := at(max(y-1, 0), x), at(min(y+1, rows-1), x)
			w, e := at(y, max(x-1, 0)), at(y, min(x+1, cols-1))
			sum := float64(pw[y*cols+x]) + (float64(s+n)-2.0*float64(c))*float64(ry1) +
				(float64(e+w)-2.0*float64(c))*float64(rx1) + float64((80-c)*rz1)
			out[y*cols+x] = float32(float64(c) + float64(stepDivCap)*sum)
		}
	}
	return out
}
