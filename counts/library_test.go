package counts_test

import (
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/counts/half"
	"github.com/uniperf/uniperf/measurekernels/library"
)

// libraryCase runs one library kernel in the interpreter at one
// configuration and checks its output against a direct Go computation.
type libraryCase struct {
	kernel string
	consts map[string]int64
	params map[string]int64
	// setup makes the arrays (inputs filled, outputs poisoned) and returns
	// a check of the outputs after the run.
	setup func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error)
}

func loadLibraryKernel(t testing.TB, name string, consts map[string]int64) *counts.Kernel {
	t.Helper()
	src, err := library.Source(name)
	if err != nil {
		t.Fatal(err)
	}
	k, err := counts.ParseKernel(library.FileName(name), src, consts)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func randF32(rng *rand.Rand, n int64) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(rng.IntN(2001)-1000) / 250
	}
	return s
}

func poisonF32(n int64) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(math.NaN())
	}
	return s
}

// randI32 draws n integers in [-1000, 1000]; poisonI32 fills n with
// MinInt32, which no sum or product of the _i32 kernels' checks reaches.
func randI32(rng *rand.Rand, n int64) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = int32(rng.IntN(2001) - 1000)
	}
	return s
}

func poisonI32(n int64) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = math.MinInt32
	}
	return s
}

// smallIntsF32 draws n integers in [0, 1000) as float32: their sums
// stay exact in f32 below 2^24, so that a setup's check can compare the
// kernel's sums for equality.
func smallIntsF32(n int64, rng *rand.Rand) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(rng.IntN(1000))
	}
	return s
}

// near compares with a tolerance scaled by the magnitude of the terms
// that were summed (scale), for kernels whose summation order differs
// from the reference's.
func near(got float32, want, scale float64) bool {
	return math.Abs(float64(got)-want) <= 1e-5*scale+1e-6
}

func matmulSetup(n, m, l int64, rng *rand.Rand) (a, b, c []float32, check func() error) {
	a, b, c = randF32(rng, n*m), randF32(rng, m*l), poisonF32(n*l)
	return a, b, c, func() error {
		for i := range n {
			for j := range l {
				var want, scale float64
				for k := range m {
					p := float64(a[i*m+k]) * float64(b[k*l+j])
					want += p
					scale += math.Abs(p)
				}
				if got := c[i*l+j]; !near(got, want, scale) {
					return fmt.Errorf("c[%d, %d] = %v, want %v", i, j, got, want)
				}
			}
		}
		return nil
	}
}

// transposeSetup checks b = a^T for n x n f32 matrices (the transposes),
// transposeI32Setup for i32 ones (their _i32 twins).
func transposeSetup(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
	n := p["n"]
	a, b := randF32(rng, n*n), poisonF32(n*n)
	return map[string]any{"a": a, "b": b}, checkTranspose(n, a, b)
}

func transposeI32Setup(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
	n := p["n"]
	a, b := randI32(rng, n*n), poisonI32(n*n)
	return map[string]any{"a": a, "b": b}, checkTranspose(n, a, b)
}

func checkTranspose[T float32 | int32](n int64, a, b []T) func() error {
	return func() error {
		for i := range n {
			for j := range n {
				if b[i*n+j] != a[j*n+i] {
					return fmt.Errorf("b[%d, %d] = %v, want a[%d, %d] = %v", i, j, b[i*n+j], j, i, a[j*n+i])
				}
			}
		}
		return nil
	}
}

// localBankSetup checks local_bank: b[i] sums, in f32 and increasing k,
// a[lo + (i - lo + k) mod lx] over k < r, lo the start of i's group of lx.
func localBankSetup(lx, r int64) func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
	return func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
		n := p["n"]
		a, b := randF32(rng, n), poisonF32(n)
		return map[string]any{"a": a, "b": b}, func() error {
			for i := range n {
				lo := i / lx * lx
				var want float32
				for k := range r {
					want += a[lo+(i-lo+k)%lx]
				}
				if b[i] != want {
					return fmt.Errorf("b[%d] = %v, want %v", i, b[i], want)
				}
			}
			return nil
		}
	}
}

// intSumSetup checks global_int_<t> and global_ldg_<t> (lx = 0) and
// local_int_<t>: b[i] (b[j*n + i] for each j < s, global) sums, in T, r
// elements of a: a[k*n + i] for k < r (global), or
// a[lo + (i - lo + k) mod lx], lo the start of i's group of lx (local).
// The inputs lie in [-1000, 1000], so that no sum reaches the poison
// MinInt32 (integers in f32 add exactly); for u8 and u16 (global_int_u8,
// _u16) in [0, 64), so that a sum of four fits, with the type's largest
// value the poison.
func intSumSetup[T int32 | int64 | float32 | uint8 | uint16](lx, r, s int64) func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
	return stridedSumSetup[T](lx, r, s, 1)
}

// stridedSumSetup is intSumSetup with the global sums and stores on
// every stride-th element alone, as global_strided_i32 makes them: b[j*n
// + i] for i a multiple of stride sums a[k*n + i], and the other
// elements of b keep the poison.
func stridedSumSetup[T int32 | int64 | float32 | uint8 | uint16](lx, r, s, stride int64) func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
	return func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
		n := p["n"]
		na := n
		if lx == 0 {
			na = r * n
		}
		least, span, poison := int64(-1000), int64(2001), int64(math.MinInt32)
		switch any(T(0)).(type) {
		case uint8:
			least, span, poison = 0, 64, math.MaxUint8
		case uint16:
			least, span, poison = 0, 64, math.MaxUint16
		}
		a, b := make([]T, na), make([]T, s*n)
		for i := range a {
			a[i] = T(least + rng.Int64N(span))
		}
		for i := range b {
			b[i] = T(poison)
		}
		return map[string]any{"a": a, "b": b}, func() error {
			for i := range n {
				want := T(poison)
				if i%stride == 0 {
					want = 0
					for k := range r {
						if lx == 0 {
							want += a[k*n+i]
						} else {
							lo := i / lx * lx
							want += a[lo+(i-lo+k)%lx]
						}
					}
				}
				for j := range s {
					if b[j*n+i] != want {
						return fmt.Errorf("b[%d] = %v, want %v", j*n+i, b[j*n+i], want)
					}
				}
			}
			return nil
		}
	}
}

// halfSumSetup checks global_f16: b[j*n + i] for each j < s is the f32
// sum of a[k*n + i] for k < r, rounded to the nearest half. The inputs
// are halves in [-100, 100] with fractions, whose sums round; the poison
// is a NaN.
func halfSumSetup(r, s int64) func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
	return func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
		n := p["n"]
		a, b := make([]half.Float, r*n), make([]half.Float, s*n)
		for i := range a {
			a[i] = half.FromFloat64(200*rng.Float64() - 100)
		}
		for i := range b {
			b[i] = 0x7e00
		}
		return map[string]any{"a": a, "b": b}, func() error {
			for i := range n {
				var sum float32
				for k := range r {
					sum += a[k*n+i].Float32()
				}
				want := half.FromFloat32(sum)
				for j := range s {
					if b[j*n+i] != want {
						return fmt.Errorf("b[%d] = %g (%#04x), want %g (%#04x)", j*n+i, b[j*n+i].Float32(), uint16(b[j*n+i]), want.Float32(), uint16(want))
					}
				}
			}
			return nil
		}
	}
}

// global_f16 counted by hand at R loads and S stores a work-item, as its
// header says: R f16 loads and S f16 stores of stride 1 per element,
// min(R, S) of them the minldst term, R f32 additions (the sum from
// zero), and ceil(n/256) groups; nothing else.
func TestHalfClassHandCounts(t *testing.T) {
	for _, c := range []struct{ r, s int64 }{{1, 1}, {4, 1}, {1, 2}} {
		k := loadLibraryKernel(t, "global_f16", map[string]int64{"R": c.r, "S": c.s})
		counted, err := counts.Count(k)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int64{1, 300, 1 << 20} {
			got, err := counted.Eval(map[string]int64{"n": n})
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]int64{"global.load.f16.stride=1": c.r * n, "global.store.f16.stride=1": c.s * n,
				"global.minldst.f16.stride=1": min(c.r, c.s) * n, "flop.f32.add": c.r * n,
				"launch.groups": (n + 255) / 256, "launch.const": 1}
			if !maps.Equal(got, want) {
				t.Errorf("R=%d S=%d n=%d: %v, want %v", c.r, c.s, n, got, want)
			}
		}
	}
}

// reg_chain_<t> counted by hand, as its header says: per work-item one
// f32 load of a[i] and one store of out[i] (stride 1), K f32 additions
// starting the accumulators (x0 + j; the conversions are free), K*nl
// multiplications and K*nl additions in the chains, and K additions in
// the sum of the accumulators (counted from zero); ceil(n/256) groups.
// W = K*nl fixed leaves only the K additions of the start and the sum
// varying with K.
func TestRegChainClassHandCounts(t *testing.T) {
	for _, ty := range []string{"f32", "f64"} {
		for _, c := range []struct{ k, nl int64 }{{1, 512}, {2, 256}, {4, 128}, {8, 64}, {8, 1}} {
			k := loadLibraryKernel(t, "reg_chain_"+ty, map[string]int64{"K": c.k})
			counted, err := counts.Count(k)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range []int64{1, 300, 1 << 16} {
				got, err := counted.Eval(map[string]int64{"n": n, "nl": c.nl})
				if err != nil {
					t.Fatal(err)
				}
				want := map[string]int64{"global.load.f32.stride=1": n, "global.store.f32.stride=1": n,
					"global.minldst.f32.stride=1": n, "flop.f32.add": (2*c.k + c.k*c.nl) * n, "flop.f32.mul": c.k * c.nl * n,
					"launch.groups": (n + 255) / 256, "launch.const": 1}
				if ty == "f64" {
					// a is f32 in both: the start's additions are f32, the
					// stores f64, and no minldst term pairs a load with a
					// store of another type.
					want = map[string]int64{"global.load.f32.stride=1": n, "global.store.f64.stride=1": n,
						"flop.f32.add": c.k * n, "flop.f64.add": (c.k + c.k*c.nl) * n, "flop.f64.mul": c.k * c.nl * n,
						"launch.groups": (n + 255) / 256, "launch.const": 1}
				}
				if !maps.Equal(got, want) {
					t.Errorf("%s K=%d n=%d nl=%d: %v, want %v", ty, c.k, n, c.nl, got, want)
				}
			}
		}
	}
}

// guarded_lanes_f32 counted by hand, as its header says: for each of
// the n outputs (whichever work-item computes it, and however many the
// last group's work-items keep) nl multiply-adds, an f32 multiplication
// and addition each, and nl loads of a at stride 1 across the work-
// items and of c at stride 0, the same cell for all; one store of out
// (stride 1); ceil(n/(K*LX)) groups. At fixed n and nl every K counts
// the same but for the groups.
func TestGuardedLanesClassHandCounts(t *testing.T) {
	for _, c := range []struct{ lx, k int64 }{{256, 1}, {256, 4}, {384, 4}, {64, 16}} {
		counted, err := counts.Count(loadLibraryKernel(t, "guarded_lanes_f32", map[string]int64{"LX": c.lx, "K": c.k}))
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int64{1, 300, 1 << 14, 1<<14 + 64} {
			for _, nl := range []int64{1, 128} {
				got, err := counted.Eval(map[string]int64{"n": n, "nl": nl})
				if err != nil {
					t.Fatal(err)
				}
				want := map[string]int64{"global.load.f32.stride=1": n * nl, "global.load.f32.stride=0": n * nl,
					"global.store.f32.stride=1": n, "global.minldst.f32.stride=1": n,
					"flop.f32.mul": n * nl, "flop.f32.add": n * nl,
					"launch.groups": (n + c.k*c.lx - 1) / (c.k * c.lx), "launch.const": 1}
				if !maps.Equal(got, want) {
					t.Errorf("LX=%d K=%d n=%d nl=%d: %v, want %v", c.lx, c.k, n, nl, got, want)
				}
			}
		}
	}
}

// scalar_chain_<t> and scalar_sum_f32 counted by hand, as their headers
// say. scalar_chain: per work-item the set-up m = (c & 7) + 3 and x =
// (i + c) & 4095, an i32 addition and an i32 bitwise operation each
// (converted to t when assigned; the conversions are free), nl steps of
// one t multiplication, addition and bitwise operation, and one f32
// store (stride 1). scalar_sum_f32: per work-item one f32 load and one
// store (stride 1) and nl terms x0 + l, an addition each, summed by nl
// additions (counted from zero). ceil(n/256) groups.
func TestScalarChainClassHandCounts(t *testing.T) {
	for _, name := range []string{"scalar_chain_i32", "scalar_chain_i64", "scalar_sum_f32"} {
		k := loadLibraryKernel(t, name, nil)
		counted, err := counts.Count(k)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int64{1, 300, 1 << 16} {
			for _, nl := range []int64{1, 128, 512} {
				params := map[string]int64{"n": n, "nl": nl}
				if name != "scalar_sum_f32" {
					params["c"] = 13
				}
				got, err := counted.Eval(params)
				if err != nil {
					t.Fatal(err)
				}
				want := map[string]int64{"global.store.f32.stride=1": n, "launch.groups": (n + 255) / 256, "launch.const": 1}
				switch name {
				case "scalar_chain_i32":
					want["int.i32.add"], want["int.i32.bitwise"], want["int.i32.mul"] = 2*n+nl*n, 2*n+nl*n, nl*n
				case "scalar_chain_i64":
					want["int.i32.add"], want["int.i32.bitwise"] = 2*n, 2*n
					want["int.i64.add"], want["int.i64.bitwise"], want["int.i64.mul"] = nl*n, nl*n, nl*n
				default:
					want["global.load.f32.stride=1"], want["global.minldst.f32.stride=1"], want["flop.f32.add"] = n, n, 2*nl*n
				}
				if !maps.Equal(got, want) {
					t.Errorf("%s n=%d nl=%d: %v, want %v", name, n, nl, got, want)
				}
			}
		}
	}
}

// local_stores counted by hand, as its header says: per work-item one
// global load and one global store (stride 1), and in each of nr rounds
// S local stores, one local load (a warp reads LX - 1 - l, consecutive
// words descending: no bank conflicts), one f32 addition and two
// barriers; n/LX groups.
func TestLocalStoresHandCounts(t *testing.T) {
	for _, c := range []struct{ lx, s int64 }{{256, 1}, {256, 4}, {256, 16}, {64, 16}} {
		checkRoundCounts(t, "local_stores", map[string]int64{"LX": c.lx, "S": c.s}, []int64{1, 4, 16}, func(n, nr int64) map[string]int64 {
			return map[string]int64{"global.load.f32.stride=1": n, "global.store.f32.stride=1": n,
				"global.minldst.f32.stride=1": n, "local.store.f32": c.s * nr * n, "local.load.f32": nr * n,
				"flop.f32.add": nr * n, "sync.barrier": 2 * nr * n, "launch.groups": n / c.lx, "launch.const": 1}
		})
	}
}

// checkRoundCounts counts the library kernel name at consts, whose
// groups are consts["LX"] work-items, at n = LX, 3 LX and 2^16 and each
// of the rounds nr, against want(n, nr), the counts by hand.
func checkRoundCounts(t *testing.T, name string, consts map[string]int64, rounds []int64, want func(n, nr int64) map[string]int64) {
	t.Helper()
	counted, err := counts.Count(loadLibraryKernel(t, name, consts))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int64{consts["LX"], 3 * consts["LX"], 1 << 16} {
		for _, nr := range rounds {
			got, err := counted.Eval(map[string]int64{"n": n, "nr": nr})
			if err != nil {
				t.Fatal(err)
			}
			if w := want(n, nr); !maps.Equal(got, w) {
				t.Errorf("%s %v n=%d nr=%d: %v, want %v", name, consts, n, nr, got, w)
			}
		}
	}
}

// local_tile counted by hand, as its header says: per work-item one
// global load and one global store (stride 1), C local stores (a warp
// stores consecutive words: no bank conflicts), and in each of nr rounds
// one barrier and C local loads (consecutive words descending), each
// with one f32 addition; n/LX groups. The padding changes none of them.
func TestLocalTileHandCounts(t *testing.T) {
	for _, c := range []struct{ lx, c, pad int64 }{{256, 16, 0}, {256, 512, 0}, {256, 256, 16}, {64, 3, 0}} {
		checkRoundCounts(t, "local_tile", map[string]int64{"LX": c.lx, "C": c.c, "PAD": c.pad}, []int64{1, 4}, func(n, nr int64) map[string]int64 {
			return map[string]int64{"global.load.f32.stride=1": n, "global.store.f32.stride=1": n,
				"global.minldst.f32.stride=1": n, "local.store.f32": c.c * n, "local.load.f32": c.c * nr * n,
				"flop.f32.add": c.c * nr * n, "sync.barrier": nr * n, "launch.groups": n / c.lx, "launch.const": 1}
		})
	}
}

// localTileSetup checks local_tile: the tile holds every work-item's a,
// and each of nr rounds adds c copies of the mirror-image work-item's,
// lx - 1 - l, so that b[i] = a[i] + nr*c*a[mirror]. The values are
// small integers, exact in f32.
func localTileSetup(lx, c int64) func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
	return func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
		n, nr := p["n"], p["nr"]
		a, b := smallIntsF32(n, rng), poisonF32(n)
		return map[string]any{"a": a, "b": b}, func() error {
			for i := range n {
				mirror := i - i%lx + lx - 1 - i%lx
				if want := a[i] + float32(nr*c)*a[mirror]; b[i] != want {
					return fmt.Errorf("b[%d] = %v, want %v", i, b[i], want)
				}
			}
			return nil
		}
	}
}

// local_context counted by hand, as its header says: per work-item one
// global load and one global store (stride 1), and in each of nr rounds
// two barriers, one local store, S i32 additions (the guard's i + s)
// and, for each s < S with i + s < n, a local load and an f32 addition:
// the launch's n work-items add min(S, n - i) cells each, nS - S(S -
// 1)/2 in all where n >= S; n/LX groups.
func TestLocalContextHandCounts(t *testing.T) {
	for _, c := range []struct{ lx, s int64 }{{16, 16}, {64, 64}, {256, 256}, {1024, 16}} {
		checkRoundCounts(t, "local_context", map[string]int64{"LX": c.lx, "S": c.s}, []int64{1, 4}, func(n, nr int64) map[string]int64 {
			adds := nr * (n*c.s - c.s*(c.s-1)/2)
			return map[string]int64{"global.load.f32.stride=1": n, "global.store.f32.stride=1": n,
				"global.minldst.f32.stride=1": n, "local.store.f32": nr * n, "local.load.f32": adds,
				"flop.f32.add": adds, "int.i32.add": nr * n * c.s, "sync.barrier": 2 * nr * n, "launch.groups": n / c.lx, "launch.const": 1}
		})
	}
}

// localContextSetup checks local_context: each round work-item i of a
// group of lx adds to its value x the values the group stored that round
// at (l + s) mod lx for s < S with i + s < n, computed here round by
// round. The values are small integers, exact in f32.
func localContextSetup(lx, s int64) func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
	return func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
		n, nr := p["n"], p["nr"]
		a, b := smallIntsF32(n, rng), poisonF32(n)
		return map[string]any{"a": a, "b": b}, func() error {
			x := slices.Clone(a)
			for range nr {
				stored := slices.Clone(x)
				for i := range n {
					g, l := i-i%lx, i%lx
					for k := int64(0); k < s && i+k < n; k++ {
						x[i] += stored[g+(l+k)%lx]
					}
				}
			}
			for i := range n {
				if b[i] != x[i] {
					return fmt.Errorf("b[%d] = %v, want %v", i, b[i], x[i])
				}
			}
			return nil
		}
	}
}

// Hand counts of local_atomic_i32 (n work-items in groups of LX, nr
// rounds, K work-items a cell): a work-item loads x once, clears its
// cell, adds to a cell nr times, reads its cell back and stores it, and
// meets two barriers, whatever K.
func TestLocalAtomicHandCounts(t *testing.T) {
	for _, c := range []struct{ lx, k int64 }{{256, 1}, {256, 32}, {256, 256}, {64, 4}} {
		checkRoundCounts(t, "local_atomic_i32", map[string]int64{"LX": c.lx, "K": c.k}, []int64{1, 4, 16}, func(n, nr int64) map[string]int64 {
			return map[string]int64{"global.load.i32.stride=1": n, "global.store.i32.stride=1": n,
				"global.minldst.i32.stride=1": n, "local.store.i32": n, "local.load.i32": n,
				"local.atomic.i32.add": nr * n, "sync.barrier": 2 * n, "launch.groups": n / c.lx, "launch.const": 1}
		})
	}
}

// localAtomicSetup checks local_atomic_i32: h[i] is nr times the sum of
// x over the k work-items of i's group whose cell is i's (l // k = i's l)
// where some are, and 0 for the cells above lx/k that no work-item adds
// to.
func localAtomicSetup(lx, k int64) func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
	return func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
		n, nr := p["n"], p["nr"]
		x, h := make([]int32, n), make([]int32, n)
		for i := range x {
			x[i], h[i] = int32(rng.IntN(1000))-500, -1
		}
		return map[string]any{"x": x, "h": h}, func() error {
			for i := range n {
				var want int32
				group, cell := i-i%lx, i%lx
				for l := range lx {
					if l/k == cell {
						want += int32(nr) * x[group+l]
					}
				}
				if h[i] != want {
					return fmt.Errorf("h[%d] = %d, want %d", i, h[i], want)
				}
			}
			return nil
		}
	}
}

// Hand counts of uniform_store_u8 (n work-items): one u8 load, and,
// counted as if every byte were not 0, one store to the uniform flag and
// one to the work-item's byte of y, whatever the group size.
func TestUniformStoreHandCounts(t *testing.T) {
	for _, lx := range []int64{128, 256, 512} {
		k := loadLibraryKernel(t, "uniform_store_u8", map[string]int64{"LX": lx})
		counted, err := counts.Count(k)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int64{1, lx - 1, 3 * lx, 1<<20 + 3} {
			got, err := counted.Eval(map[string]int64{"n": n})
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]int64{"global.load.b8.stride=1": n, "global.store.b8.stride=1": n,
				"global.store.b8.stride=0": n, "global.minldst.b8.stride=1": n,
				"launch.groups": (n + lx - 1) / lx, "launch.const": 1}
			if !maps.Equal(got, want) {
				t.Errorf("LX=%d n=%d: %v, want %v", lx, n, got, want)
			}
		}
	}
}

// uniformStoreSetup checks uniform_store_u8 on bytes of which every
// zeros-th is 0 (none where zeros is 0): x is left as it was, y is 0
// where x is not and keeps its value where x is 0, and the flag is 1
// where some byte was not 0, else the value it had.
func uniformStoreSetup(zeros int) func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
	return func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
		x, y, flag := make([]uint8, p["n"]), make([]uint8, p["n"]), []uint8{7}
		set := false
		for i := range x {
			y[i] = 9
			if zeros == 0 || i%zeros != 0 {
				x[i] = uint8(1 + rng.IntN(200))
				set = true
			}
		}
		x0 := slices.Clone(x)
		return map[string]any{"x": x, "y": y, "flag": flag}, func() error {
			for i, v := range x {
				if v != x0[i] {
					return fmt.Errorf("x[%d] = %d, want %d as it was", i, v, x0[i])
				}
				if want := map[bool]uint8{true: 0, false: 9}[v != 0]; y[i] != want {
					return fmt.Errorf("y[%d] = %d, want %d (x[%d] = %d)", i, y[i], want, i, v)
				}
			}
			if want := map[bool]uint8{true: 1, false: 7}[set]; flag[0] != want {
				return fmt.Errorf("flag[0] = %d, want %d", flag[0], want)
			}
			return nil
		}
	}
}

// column_walk counted by hand, as its header says: per work-item nr
// loads of a (consecutive work-items read consecutive floats of a row:
// stride 1), nr f32 additions and one store; n/LX groups. Its lines at
// a pitch p that is a whole number of 64-byte lines and n a multiple of
// LX: a work-item touches one line of a in each of its nr rows, a group
// LX/16 lines of each row, and the launch every line of the n columns
// it reads once, n*nr/16; of out, one line a work-item and n/16 in all.
func TestColumnWalkHandCounts(t *testing.T) {
	k := loadLibraryKernel(t, "column_walk", nil)
	counted, err := counts.Count(k)
	if err != nil {
		t.Fatal(err)
	}
	const lx = 256
	for _, c := range []struct{ n, nr, p int64 }{{256, 32, 2048}, {512, 2048, 2064}, {2048, 64, 4096}, {1024, 1, 1024}} {
		params := map[string]int64{"n": c.n, "nr": c.nr, "p": c.p}
		got, err := counted.Eval(params)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]int64{"global.load.f32.stride=1": c.n * c.nr, "global.store.f32.stride=1": c.n,
			"global.minldst.f32.stride=1": c.n, "flop.f32.add": c.n * c.nr, "launch.groups": c.n / lx, "launch.const": 1}
		if !maps.Equal(got, want) {
			t.Errorf("%v: %v, want %v", params, got, want)
		}
		ls, vals, err := counted.LinesAt(params, 64)
		if err != nil {
			t.Fatal(err)
		}
		wantLines := map[string]int64{
			counts.LinesWorkItem + " a": c.n * c.nr, counts.LinesGroup + " a": c.n * c.nr / 16, counts.LinesLaunch + " a": c.n * c.nr / 16,
			counts.LinesWorkItem + " out": c.n, counts.LinesGroup + " out": c.n / 16, counts.LinesLaunch + " out": c.n / 16,
		}
		seen := 0
		for i, l := range ls {
			key := strings.TrimSpace(l.Name + " " + l.Array)
			if w, ok := wantLines[key]; ok {
				seen++
				if vals[i] != w {
					t.Errorf("%v: %s = %d, want %d", params, key, vals[i], w)
				}
			}
		}
		if seen != len(wantLines) {
			t.Errorf("%v: %d of the %d line counts, want all", params, seen, len(wantLines))
		}
	}
}

// scalarChainSetup checks scalar_chain_i32 (mask 4095) or _i64 (mask
// 2^40 - 1): out[i] is x started at (i + c) & 4095 and run through nl
// steps x = (x*m + 1) & mask, m = (c & 7) + 3, in Go's int64 (every value
// stays below 2^44), converted to f32.
func scalarChainSetup(mask int64) func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
	return func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
		n, nl, c := p["n"], p["nl"], p["c"]
		out := poisonF32(n)
		return map[string]any{"out": out}, func() error {
			m := c&7 + 3
			for i := range n {
				x := (i + c) & 4095
				for range nl {
					x = (x*m + 1) & mask
				}
				if want := float32(x); out[i] != want {
					return fmt.Errorf("out[%d] = %v, want %v", i, out[i], want)
				}
			}
			return nil
		}
	}
}

// scalarSumSetup checks scalar_sum_f32: out[i] is the sum of a[i] + l
// over l < nl, added in order in float32 from zero, as the kernel's one
// accumulator does: the same operations in the same order, so equal.
func scalarSumSetup(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
	n, nl := p["n"], p["nl"]
	a, out := make([]float32, n), poisonF32(n)
	for i := range a {
		a[i] = rng.Float32()
	}
	return map[string]any{"a": a, "out": out}, func() error {
		for i := range n {
			var want float32
			for l := range nl {
				want += a[i] + float32(l)
			}
			if out[i] != want {
				return fmt.Errorf("out[%d] = %v, want %v", i, out[i], want)
			}
		}
		return nil
	}
}

// guardedLanesSetup checks guarded_lanes_f32: out[p] is the sum over
// l < nl of a[p + l]*c[l], whichever work-item and sum computes it. a
// and c hold small integers, so that the sums are exact in f32 in any
// order and with or without fused multiply-adds.
func guardedLanesSetup(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
	n, nl := p["n"], p["nl"]
	a, c, out := make([]float32, n+nl), make([]float32, nl), poisonF32(n)
	for i := range a {
		a[i] = float32(rng.IntN(4))
	}
	for l := range c {
		c[l] = float32(rng.IntN(4))
	}
	return map[string]any{"a": a, "c": c, "out": out}, func() error {
		for i := range n {
			var want float32
			for l := range nl {
				want += a[i+l] * c[l]
			}
			if out[i] != want {
				return fmt.Errorf("out[%d] = %v, want %v", i, out[i], want)
			}
		}
		return nil
	}
}

// regChainSetup checks reg_chain_<t>: out[i] is the sum over j < k of
// nl steps x = x*0.999 + 0.5 from a[i] + j (a sum in f32), computed step
// by step in T (a compiler may fuse a step's multiplication and
// addition, which the tolerance covers).
func regChainSetup[T float32 | float64](k int64) func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
	return func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
		n, nl := p["n"], p["nl"]
		a, out := make([]float32, n), make([]T, n)
		for i := range a {
			a[i], out[i] = rng.Float32(), T(math.NaN())
		}
		return map[string]any{"a": a, "out": out}, func() error {
			for i := range n {
				var want T
				for j := range k {
					x := T(a[i] + float32(j))
					for range nl {
						x = x*T(0.999) + T(0.5)
					}
					want += x
				}
				if math.Abs(float64(out[i]-want)) > 1e-5*math.Abs(float64(want)) {
					return fmt.Errorf("out[%d] = %v, want %v", i, out[i], want)
				}
			}
			return nil
		}
	}
}

// localStoresSetup checks local_stores: each round adds 1 to the value
// of the mirror-image work-item of the group, lx - 1 - l, so that after
// nr rounds b[i] is nr plus a at i for nr even and at the mirror image
// for nr odd. The values are small integers, exact in f32.
func localStoresSetup(lx int64) func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
	return func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
		n, nr := p["n"], p["nr"]
		a, b := smallIntsF32(n, rng), poisonF32(n)
		return map[string]any{"a": a, "b": b}, func() error {
			for i := range n {
				src := i
				if nr%2 == 1 {
					src = i - i%lx + lx - 1 - i%lx
				}
				if want := a[src] + float32(nr); b[i] != want {
					return fmt.Errorf("b[%d] = %v, want %v", i, b[i], want)
				}
			}
			return nil
		}
	}
}

// randomPerms returns r rows of n, each a random permutation of 0..n-1,
// as the measurement fills index arrays.
func randomPerms(r, n int64, rng *rand.Rand) []int32 {
	perm := make([]int32, r*n)
	for k := range r {
		for i, v := range rng.Perm(int(n)) {
			perm[k*n+int64(i)] = int32(v)
		}
	}
	return perm
}

// gatherSetup checks gather_<t>: y[i] sums x[perm[k*n + i]] for k < r,
// each row of perm a random permutation. The values are multiples of 1/4
// below 16 (integers below 64 in i32), whose sums are exact in any
// order.
func gatherSetup[T int32 | float32](r int64) func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
	return func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
		n := p["n"]
		perm, x, y := randomPerms(r, n, rng), make([]T, n), make([]T, n)
		for i := range x {
			x[i] = T(rng.IntN(64))
			if _, isInt := any(x[i]).(int32); !isInt {
				x[i] /= 4
			}
		}
		return map[string]any{"perm": perm, "x": x, "y": y}, func() error {
			for i := range n {
				var want T
				for k := range r {
					want += x[perm[k*n+i]]
				}
				if y[i] != want {
					return fmt.Errorf("y[%d] = %v, want %v", i, y[i], want)
				}
			}
			return nil
		}
	}
}

// scatterSetup checks scatter_f32: y[perm[j]] = x[j mod n] for j <
// S*n, perm a random permutation of 0..S*n-1, so that every cell of y is
// stored once, by the work-item the permutation sends to it.
func scatterSetup(s int64) func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
	return func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
		n := p["n"]
		perm, x, y := randomPerms(1, s*n, rng), make([]float32, n), poisonF32(s*n)
		for i := range x {
			x[i] = float32(rng.IntN(64)) / 4
		}
		return map[string]any{"perm": perm, "x": x, "y": y}, func() error {
			for j, c := range perm {
				if got, want := y[c], x[int64(j)%n]; got != want {
					return fmt.Errorf("y[%d] = %v, want x[%d] = %v", c, got, int64(j)%n, want)
				}
			}
			return nil
		}
	}
}

// atomicSetup checks atomic_add_<t>: h[j] gains the sum of x[i] over
// the k work-items i with i // k = j. The values are multiples of 1/4
// below 16, whose f32 sums are exact in any order.
func atomicSetup[T int32 | float32](k int64) func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
	return func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
		n := p["n"]
		x, h := make([]T, n), make([]T, n)
		want := make([]T, n)
		for i := range x {
			x[i], h[i] = T(rng.IntN(64))/4, T(rng.IntN(16))
			if _, isInt := any(x[i]).(int32); isInt {
				x[i] = T(rng.IntN(64))
			}
			want[i] += h[i]
		}
		for i := range n {
			want[i/k] += x[i]
		}
		return map[string]any{"x": x, "h": h}, func() error {
			for j := range n {
				if h[j] != want[j] {
					return fmt.Errorf("h[%d] = %v, want %v", j, h[j], want[j])
				}
			}
			return nil
		}
	}
}

// gridFillChainSetup checks grid_fill_chain: every one of the ng·lx
// work-items stores the sum over k < nk of k·0.999 + 1.1, computed here in
// float64.
func gridFillChainSetup(lx int64) func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
	return func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
		out := poisonF32(p["ng"] * lx)
		return map[string]any{"out": out}, func() error {
			var want float64
			for k := range p["nk"] {
				want += float64(k)*0.999 + 1.1
			}
			for i, v := range out {
				if !near(v, want, want) {
					return fmt.Errorf("out[%d] = %v, want %v", i, v, want)
				}
			}
			return nil
		}
	}
}

// gridFillLocalSetup checks grid_fill_local with M = 32: the group stores
// t[j] = j mod lx for j < 32 (work-item j mod lx storing element j), and
// every work-item l of every group then stores x after nr rounds of the
// 32 steps x = rsqrt(x + t[k]), k = 0 to 31, from x = 0.5: the same
// value for every l, since every work-item reads the whole of t in the
// same order. Each step is rounded to f32 as the kernel's f32
// arithmetic rounds it (the addition in f32, the rsqrt as 1/sqrt in
// float64 rounded to f32). A step with t >= 1 divides a difference in x
// by about 2(x + t)^(3/2), at least 2, so x answers for the last few elements of
// t only: with lx = 5 or 8 < 32 those are the last stores (q = 3 to 6)
// of several work-items, and t[j] = j instead of j mod lx would show.
func gridFillLocalSetup(lx int64) func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
	const m = 32
	return func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
		ng, nr := p["ng"], p["nr"]
		out := poisonF32(ng * lx)
		return map[string]any{"out": out}, func() error {
			var t [m]float32
			for j := range int64(m) {
				t[j] = float32(j % lx)
			}
			x := float32(0.5)
			for range nr {
				for k := range m {
					x = float32(1 / math.Sqrt(float64(x+t[k])))
				}
			}
			for i, v := range out {
				if !near(v, float64(x), float64(x)) {
					return fmt.Errorf("out[%d] = %v, want %v", i, v, x)
				}
			}
			return nil
		}
	}
}

// checkSums checks that out[i] is the sum over k < terms of term(i, k),
// computed in float64, for every i.
func checkSums(out []float32, terms int64, term func(i, k int64) float32) error {
	for i := range int64(len(out)) {
		var want, scale float64
		for k := range terms {
			want += float64(term(i, k))
			scale += math.Abs(float64(term(i, k)))
		}
		if !near(out[i], want, scale) {
			return fmt.Errorf("out[%d] = %v, want %v", i, out[i], want)
		}
	}
	return nil
}

// gridFillStreamSetup checks grid_fill_stream: out[i] is the sum over
// k < nk of a[k, i] for each of the ng·lx work-items i, a being nk rows
// of ng·lx.
func gridFillStreamSetup(lx int64) func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
	return func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
		n, nk := p["ng"]*lx, p["nk"]
		a, out := randF32(rng, nk*n), poisonF32(n)
		return map[string]any{"a": a, "out": out}, func() error {
			return checkSums(out, nk, func(i, k int64) float32 { return a[k*n+i] })
		}
	}
}

// filledSetup checks stride2_filled and stride3_filled: out[i] sums, over
// the columns q of i's block of lx columns, a[0,q] + ... + a[rows-1,q],
// accumulated in f32 in increasing q as the kernel does.
func filledSetup(rows, lx int64) func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
	return func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
		n := p["n"]
		a, out := randF32(rng, rows*n), poisonF32(n)
		return map[string]any{"a": a, "out": out}, func() error {
			for i := range n {
				lo := i / lx * lx
				var acc float32
				for q := lo; q < min(lo+lx, n); q++ {
					s := a[rows*q]
					for r := int64(1); r < rows; r++ {
						s = float32(s + a[rows*q+r])
					}
					acc = float32(acc + s)
				}
				if out[i] != acc {
					return fmt.Errorf("out[%d] = %v, want %v", i, out[i], acc)
				}
			}
			return nil
		}
	}
}

// arithSetup checks an arithmetic kernel: every element of out is the
// sum over k < nk of term(k), accumulated in order.
func arithSetup(f64 bool, term func(k float64) float64) func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
	return func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
		n, nk := p["n"], p["nk"]
		var want float64
		for k := range nk {
			if f64 {
				want += term(float64(k))
			} else {
				want = float64(float32(want + term(float64(k))))
			}
		}
		return arithOutput(f64, n, want)
	}
}

// arithOutput makes the n x n output of an arithmetic kernel, f64 or f32
// (poisoned), and its check: every element equals want.
func arithOutput(f64 bool, n int64, want float64) (map[string]any, func() error) {
	if f64 {
		out := make([]float64, n*n)
		return map[string]any{"out": out}, func() error {
			for i, v := range out {
				if v != want {
					return fmt.Errorf("out element %d = %v, want %v", i, v, want)
				}
			}
			return nil
		}
	}
	out := poisonF32(n * n)
	return map[string]any{"out": out}, func() error {
		for i, v := range out {
			if float64(v) != want {
				return fmt.Errorf("out element %d = %v, want %v", i, v, want)
			}
		}
		return nil
	}
}

// mixSetup checks arith_mix_f32 (f64 false) or arith_mix_f64: every
// element of out is the sum over k < na of ((0.9k + 1.1)0.8 + 1.2)0.7 +
// 1.3, plus the sum over m < nb of rsqrt(rsqrt(m + 1.5) + 0.5), plus the
// sum over q < nc of (q + 1.5)/1.1/0.9 + 0.5, plus the sum over r < nd of
// ((r + 1.1) - 2.2) + 3.3, each accumulated in order and rounded to f32
// after each operation unless f64.
func mixSetup(f64 bool) func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
	r := func(v float64) float64 {
		if f64 {
			return v
		}
		return float64(float32(v))
	}
	add := func(a, b float64) float64 { return a + b }
	mul := func(a, b float64) float64 { return a * b }
	div := func(a, b float64) float64 { return a / b }
	rsqrt := func(x float64) float64 { return r(1 / math.Sqrt(x)) }
	sum := func(n int64, term func(x float64) float64) float64 {
		var s float64
		for x := range n {
			s = r(s + term(float64(x)))
		}
		return s
	}
	poly := func(k float64) float64 {
		x := chain(f64, chain(f64, k, mul, 0.9), add, 1.1)
		x = chain(f64, chain(f64, x, mul, 0.8), add, 1.2)
		return chain(f64, chain(f64, x, mul, 0.7), add, 1.3)
	}
	roots := func(m float64) float64 { return rsqrt(chain(f64, rsqrt(chain(f64, m, add, 1.5)), add, 0.5)) }
	quotients := func(q float64) float64 {
		return chain(f64, chain(f64, chain(f64, q, add, 1.5), div, 1.1, 0.9), add, 0.5)
	}
	sums := func(x float64) float64 {
		return chain(f64, chain(f64, chain(f64, x, add, 1.1), func(a, b float64) float64 { return a - b }, 2.2), add, 3.3)
	}
	return func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
		want := r(r(r(sum(p["na"], poly)+sum(p["nb"], roots))+sum(p["nc"], quotients)) + sum(p["nd"], sums))
		return arithOutput(f64, p["n"], want)
	}
}

// intSetup checks arith_int_i32 or arith_int_i64 with work-groups of
// lx x ly: out[i, j] is the sum of the four chains started at x0 =
// i mod ly + j mod lx, x0 + 1, x0 + 2 and x0 + 3, with m = c & 15, each
// run through its five loops step by step in Go, converted to f32.
func intSetup(lx, ly int64) func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
	return func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
		m := p["c"] & 15
		chain := func(x int64) (int64, error) {
			for range 8 * p["na"] {
				x = x - x>>2 + m
			}
			for range 8 * p["nb"] {
				x = (x*m>>4)*m>>4 + m
			}
			for range 8 * p["nc"] {
				x = (x ^ m | x&7) ^ x>>1
			}
			for range 8 * p["nd"] {
				x = x>>1 + m
			}
			for range 8 * p["ne"] {
				x = x/3 + m // x >= 0: / is floor division
			}
			if x < 0 || x >= 1<<12 {
				return 0, fmt.Errorf("left [0, 2^12): %d", x)
			}
			return x, nil
		}
		return fourChains(p["n"], lx, ly, chain)
	}
}

// fourChains is the output of an arith_int kernel at size n with
// work-groups of lx x ly, and its check: out[i, j] is the sum of chain
// run from x0 = i mod ly + j mod lx, x0 + 1, x0 + 2 and x0 + 3, converted
// to f32; chain's errors name the element and the chain.
func fourChains(n, lx, ly int64, chain func(x int64) (int64, error)) (map[string]any, func() error) {
	out := poisonF32(n * n)
	return map[string]any{"out": out}, func() error {
		for i := range n {
			for j := range n {
				var sum int64
				for c := range int64(4) {
					x, err := chain(i%ly + j%lx + c)
					if err != nil {
						return fmt.Errorf("out[%d, %d]: chain %d: %v", i, j, c, err)
					}
					sum += x
				}
				if want := float32(sum); out[i*n+j] != want {
					return fmt.Errorf("out[%d, %d] = %v, want %v", i, j, out[i*n+j], want)
				}
			}
		}
		return nil
	}
}

// intSpecialSetup checks arith_intspecial_i32 or arith_intspecial_i64
// with work-groups of lx x ly: out[i, j] is the sum of the four chains
// started at x0 = i mod ly + j mod lx, x0 + 1, x0 + 2 and x0 + 3, with m =
// c & 15, each run through 8*ns steps of x = max(min(x + m, 1000), 3000 -
// x) in Go, converted to f32. It also checks that each chain stays in
// [0, 3000] and that both candidates of the max win at some step where
// m > 0, so that neither is redundant.
func intSpecialSetup(lx, ly int64) func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
	return func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
		m := p["c"] & 15
		chain := func(x int64) (int64, error) {
			var clamped, reflected bool
			for range 8 * p["ns"] {
				a, b := min(x+m, 1000), 3000-x
				clamped, reflected = clamped || a > b, reflected || b > a
				x = max(a, b)
				if x < 0 || x > 3000 {
					return 0, fmt.Errorf("left [0, 3000]: %d", x)
				}
			}
			if m > 0 && 8*p["ns"] >= 2 && !(clamped && reflected) {
				return 0, fmt.Errorf("one candidate of the max never won (min %v, 3000 - x %v)", clamped, reflected)
			}
			return x, nil
		}
		return fourChains(p["n"], lx, ly, chain)
	}
}

// chain applies op with each constant in turn, rounding to f32 after each
// step unless f64.
func chain(f64 bool, x float64, op func(a, b float64) float64, consts ...float64) float64 {
	r := func(v float64) float64 {
		if f64 {
			return v
		}
		return float64(float32(v))
	}
	for _, c := range consts {
		if !f64 {
			c = float64(float32(c))
		}
		x = r(op(x, c))
	}
	return x
}

func arithCases() []libraryCase {
	var cases []libraryCase
	add := func(a, b float64) float64 { return a + b }
	mul := func(a, b float64) float64 { return a * b }
	div := func(a, b float64) float64 { return a / b }
	for _, f64 := range []bool{false, true} {
		suffix := "f32"
		if f64 {
			suffix = "f64"
		}
		r := func(v float64) float64 {
			if f64 {
				return v
			}
			return float64(float32(v))
		}
		terms := map[string]func(k float64) float64{
			"add": func(k float64) float64 {
				x := chain(f64, k, add, 1.1)
				x = chain(f64, x, func(a, b float64) float64 { return a - b }, 2.2)
				x = chain(f64, x, add, 3.3)
				x = chain(f64, x, func(a, b float64) float64 { return a - b }, 4.4)
				x = chain(f64, x, add, 5.5)
				x = chain(f64, x, func(a, b float64) float64 { return a - b }, 6.6)
				return chain(f64, x, add, 7.7)
			},
			"mul": func(k float64) float64 { return chain(f64, k, mul, 1.1, 0.9, 1.2, 0.8, 1.3, 0.7) },
			"div": func(k float64) float64 { return chain(f64, k, div, 1.1, 0.9, 1.2, 0.8, 1.3, 0.7) },
			"pow": func(k float64) float64 { return chain(f64, k, math.Pow, 1.01, 0.99, 1.02, 0.98, 1.01, 0.99) },
			"rsqrt": func(k float64) float64 {
				x := r(k + 1)
				for range 6 {
					x = r(1 / math.Sqrt(x))
				}
				return x
			},
		}
		for op, term := range terms {
			cases = append(cases,
				libraryCase{"arith_" + op + "_" + suffix, map[string]int64{"LX": 4, "LY": 3}, map[string]int64{"n": 7, "nk": 11}, arithSetup(f64, term)},
				libraryCase{"arith_" + op + "_" + suffix, nil, map[string]int64{"n": 16, "nk": 5}, arithSetup(f64, term)})
		}
	}
	return cases
}

func vectorSetup(stride int64) func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
	return func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
		n := p["n"]
		x, y, z := randF32(rng, n), randF32(rng, n), poisonF32(n)
		return map[string]any{"x": x, "y": y, "z": z}, func() error {
			for i := range n {
				want := float32(math.NaN())
				if i%stride == 0 {
					want = float32(float32(2.5*x[i]) + float32(1.5*y[i]))
				}
				if z[i] != want && !(math.IsNaN(float64(want)) && math.IsNaN(float64(z[i]))) {
					return fmt.Errorf("z[%d] = %v, want %v", i, z[i], want)
				}
			}
			return nil
		}
	}
}

// stridedCopySetup checks b[i] = a[i] on every stride-th element, the
// others left poisoned.
func stridedCopySetup(stride int64) func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
	return func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
		a, b := randF32(rng, p["n"]), poisonF32(p["n"])
		return map[string]any{"a": a, "b": b}, func() error {
			for i := range a {
				if want := a[i]; i%int(stride) == 0 && b[i] != want || i%int(stride) != 0 && !math.IsNaN(float64(b[i])) {
					return fmt.Errorf("b[%d] = %v (a[%d] = %v, stride %d)", i, b[i], i, a[i], stride)
				}
			}
			return nil
		}
	}
}

// stridedStoreSetup checks a[stride*i] = i, the other elements left
// poisoned.
func stridedStoreSetup(stride int64) func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
	return func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
		a := poisonF32(p["n"])
		return map[string]any{"a": a}, func() error {
			for i := range a {
				if i%int(stride) == 0 && a[i] != float32(i/int(stride)) || i%int(stride) != 0 && !math.IsNaN(float64(a[i])) {
					return fmt.Errorf("a[%d] = %v, stride %d", i, a[i], stride)
				}
			}
			return nil
		}
	}
}

func libraryCases() []libraryCase {
	small2 := map[string]int64{"LX": 4, "LY": 3}
	cases := []libraryCase{
		{"matmul_tiled", small2, map[string]int64{"n": 10, "m": 7, "ell": 9}, func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
			a, b, c, check := matmulSetup(p["n"], p["m"], p["ell"], rng)
			return map[string]any{"a": a, "b": b, "c": c}, check
		}},
		{"matmul_tiled", nil, map[string]int64{"n": 17, "m": 33, "ell": 16}, func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
			a, b, c, check := matmulSetup(p["n"], p["m"], p["ell"], rng)
			return map[string]any{"a": a, "b": b, "c": c}, check
		}},
		{"matmul_skinny", small2, map[string]int64{"n": 5, "m": 40}, func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
			a, b, c, check := matmulSetup(p["n"], p["m"], p["n"], rng)
			return map[string]any{"a": a, "b": b, "c": c}, check
		}},
		{"matmul_naive", small2, map[string]int64{"n": 10}, func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
			a, b, c, check := matmulSetup(p["n"], p["n"], p["n"], rng)
			return map[string]any{"a": a, "b": b, "c": c}, check
		}},
		{"transpose_prefetch", small2, map[string]int64{"n": 10}, transposeSetup},
		{"transpose_prefetch", map[string]int64{"LX": 4, "LY": 4}, map[string]int64{"n": 8}, transposeSetup},
		{"transpose_prefetch", map[string]int64{"LX": 8, "LY": 2}, map[string]int64{"n": 13}, transposeSetup},
		{"transpose_write_coalesced", small2, map[string]int64{"n": 10}, transposeSetup},
		{"local_bank", map[string]int64{"LX": 64, "S": 2}, map[string]int64{"n": 128}, localBankSetup(64, 32)},
		{"local_bank", map[string]int64{"LX": 8, "R": 8, "S": 32}, map[string]int64{"n": 24}, localBankSetup(8, 8)},
		{"global_int_i32", map[string]int64{"LX": 8}, map[string]int64{"n": 21}, intSumSetup[int32](0, 1, 1)},
		{"global_int_i32", map[string]int64{"LX": 8, "R": 4}, map[string]int64{"n": 21}, intSumSetup[int32](0, 4, 1)},
		{"global_int_i32", map[string]int64{"LX": 8, "S": 2}, map[string]int64{"n": 21}, intSumSetup[int32](0, 1, 2)},
		{"global_int_i64", map[string]int64{"LX": 8}, map[string]int64{"n": 21}, intSumSetup[int64](0, 1, 1)},
		{"global_int_i64", map[string]int64{"LX": 8, "R": 4}, map[string]int64{"n": 21}, intSumSetup[int64](0, 4, 1)},
		{"global_int_i64", map[string]int64{"LX": 8, "S": 2}, map[string]int64{"n": 21}, intSumSetup[int64](0, 1, 2)},
		{"local_int_i32", map[string]int64{"LX": 64}, map[string]int64{"n": 128}, intSumSetup[int32](64, 32, 1)},
		{"local_int_i32", map[string]int64{"LX": 8, "R": 8}, map[string]int64{"n": 24}, intSumSetup[int32](8, 8, 1)},
		{"local_int_i64", map[string]int64{"LX": 64}, map[string]int64{"n": 128}, intSumSetup[int64](64, 32, 1)},
		{"local_int_i64", map[string]int64{"LX": 8, "R": 8}, map[string]int64{"n": 24}, intSumSetup[int64](8, 8, 1)},
		{"global_int_u8", map[string]int64{"LX": 8, "R": 4}, map[string]int64{"n": 21}, intSumSetup[uint8](0, 4, 1)},
		{"global_int_u8", map[string]int64{"LX": 8, "S": 2}, map[string]int64{"n": 21}, intSumSetup[uint8](0, 1, 2)},
		{"global_int_u16", map[string]int64{"LX": 8, "R": 4}, map[string]int64{"n": 21}, intSumSetup[uint16](0, 4, 1)},
		{"global_int_u16", map[string]int64{"LX": 8, "S": 2}, map[string]int64{"n": 21}, intSumSetup[uint16](0, 1, 2)},
		{"global_f16", map[string]int64{"LX": 8, "R": 4}, map[string]int64{"n": 21}, halfSumSetup(4, 1)},
		{"global_f16", map[string]int64{"LX": 8, "S": 2}, map[string]int64{"n": 21}, halfSumSetup(1, 2)},
		{"reg_chain_f32", map[string]int64{"LX": 8, "K": 1}, map[string]int64{"n": 21, "nl": 40}, regChainSetup[float32](1)},
		{"reg_chain_f32", map[string]int64{"LX": 8, "K": 8}, map[string]int64{"n": 21, "nl": 5}, regChainSetup[float32](8)},
		{"reg_chain_f64", map[string]int64{"LX": 8, "K": 4}, map[string]int64{"n": 21, "nl": 10}, regChainSetup[float64](4)},
		{"scalar_chain_i32", map[string]int64{"LX": 8}, map[string]int64{"n": 21, "nl": 40, "c": 13}, scalarChainSetup(4095)},
		{"scalar_chain_i32", map[string]int64{"LX": 8}, map[string]int64{"n": 5, "nl": 1, "c": -9}, scalarChainSetup(4095)},
		{"scalar_chain_i64", map[string]int64{"LX": 8}, map[string]int64{"n": 21, "nl": 40, "c": 1000}, scalarChainSetup(1<<40 - 1)},
		{"scalar_sum_f32", map[string]int64{"LX": 8}, map[string]int64{"n": 21, "nl": 40}, scalarSumSetup},
		{"scalar_sum_f32", map[string]int64{"LX": 8}, map[string]int64{"n": 3, "nl": 1}, scalarSumSetup},
		{"guarded_lanes_f32", map[string]int64{"LX": 8, "K": 1}, map[string]int64{"n": 21, "nl": 7}, guardedLanesSetup},
		{"guarded_lanes_f32", map[string]int64{"LX": 8, "K": 4}, map[string]int64{"n": 21, "nl": 7}, guardedLanesSetup},
		{"guarded_lanes_f32", map[string]int64{"LX": 4, "K": 16}, map[string]int64{"n": 70, "nl": 3}, guardedLanesSetup},
		{"local_stores", map[string]int64{"LX": 8, "S": 4}, map[string]int64{"n": 24, "nr": 3}, localStoresSetup(8)},
		{"local_stores", map[string]int64{"LX": 16, "S": 1}, map[string]int64{"n": 32, "nr": 2}, localStoresSetup(16)},
		{"local_tile", map[string]int64{"LX": 8, "C": 5}, map[string]int64{"n": 24, "nr": 3}, localTileSetup(8, 5)},
		{"local_tile", map[string]int64{"LX": 16, "C": 1}, map[string]int64{"n": 32, "nr": 1}, localTileSetup(16, 1)},
		{"local_tile", map[string]int64{"LX": 8, "C": 3, "PAD": 16}, map[string]int64{"n": 16, "nr": 2}, localTileSetup(8, 3)},
		{"local_atomic_i32", map[string]int64{"LX": 8, "K": 1}, map[string]int64{"n": 24, "nr": 3}, localAtomicSetup(8, 1)},
		{"local_context", map[string]int64{"LX": 8, "S": 3}, map[string]int64{"n": 24, "nr": 3}, localContextSetup(8, 3)},
		{"local_context", map[string]int64{"LX": 8, "S": 20}, map[string]int64{"n": 16, "nr": 2}, localContextSetup(8, 20)},
		{"local_atomic_i32", map[string]int64{"LX": 16, "K": 4}, map[string]int64{"n": 32, "nr": 2}, localAtomicSetup(16, 4)},
		{"local_atomic_i32", map[string]int64{"LX": 8, "K": 8}, map[string]int64{"n": 16, "nr": 1}, localAtomicSetup(8, 8)},
		{"uniform_store_u8", map[string]int64{"LX": 8}, map[string]int64{"n": 21}, uniformStoreSetup(3)},
		{"uniform_store_u8", map[string]int64{"LX": 8}, map[string]int64{"n": 21}, uniformStoreSetup(0)},
		{"global_ldg_f32", map[string]int64{"LX": 8}, map[string]int64{"n": 21}, intSumSetup[float32](0, 1, 1)},
		{"global_ldg_f32", map[string]int64{"LX": 8, "R": 4}, map[string]int64{"n": 21}, intSumSetup[float32](0, 4, 1)},
		{"global_ldg_i32", map[string]int64{"LX": 8}, map[string]int64{"n": 21}, intSumSetup[int32](0, 1, 1)},
		{"global_ldg_i32", map[string]int64{"LX": 8, "R": 4}, map[string]int64{"n": 21}, intSumSetup[int32](0, 4, 1)},
		{"global_ldg_strided_f32", map[string]int64{"LX": 8, "STRIDE": 2, "U": 1}, map[string]int64{"n": 21}, groupSumF32Setup("a", "b", 2, 1)},
		{"global_ldg_strided_f32", map[string]int64{"LX": 8, "STRIDE": 3, "U": 3}, map[string]int64{"n": 21}, groupSumF32Setup("a", "b", 3, 3)},
		{"global_ldg_strided_f32", map[string]int64{"LX": 8, "STRIDE": 3, "U": 2}, map[string]int64{"n": 1}, groupSumF32Setup("a", "b", 3, 2)},
		{"global_ldg_strided_i32", map[string]int64{"LX": 8, "STRIDE": 3, "U": 1}, map[string]int64{"n": 21}, groupSumI32Setup("a", "b", 3, 1)},
		{"global_ldg_strided_i32", map[string]int64{"LX": 8, "STRIDE": 2, "U": 2}, map[string]int64{"n": 21}, groupSumI32Setup("a", "b", 2, 2)},
		{"gather_f32", map[string]int64{"LX": 8}, map[string]int64{"n": 21}, gatherSetup[float32](1)},
		{"gather_f32", map[string]int64{"LX": 8, "R": 4}, map[string]int64{"n": 21}, gatherSetup[float32](4)},
		{"gather_i32", map[string]int64{"LX": 8}, map[string]int64{"n": 21}, gatherSetup[int32](1)},
		{"gather_i32", map[string]int64{"LX": 8, "R": 4}, map[string]int64{"n": 21}, gatherSetup[int32](4)},
		{"scatter_f32", map[string]int64{"LX": 8}, map[string]int64{"n": 21}, scatterSetup(1)},
		{"scatter_f32", map[string]int64{"LX": 8, "S": 4}, map[string]int64{"n": 21}, scatterSetup(4)},
		{"atomic_add_i32", map[string]int64{"LX": 8, "K": 1}, map[string]int64{"n": 21}, atomicSetup[int32](1)},
		{"atomic_add_i32", map[string]int64{"LX": 8, "K": 8}, map[string]int64{"n": 21}, atomicSetup[int32](8)},
		{"atomic_add_f32", map[string]int64{"LX": 8, "K": 3}, map[string]int64{"n": 21}, atomicSetup[float32](3)},
		{"transpose_read_coalesced", small2, map[string]int64{"n": 10}, transposeSetup},
		{"transpose_read_coalesced_i32", small2, map[string]int64{"n": 10}, transposeI32Setup},
		{"transpose_write_coalesced_i32", small2, map[string]int64{"n": 9}, transposeI32Setup},
		{"transpose_ldg_f32", small2, map[string]int64{"n": 9}, transposeSetup},
		{"transpose_ldg_i32", small2, map[string]int64{"n": 10}, transposeI32Setup},
		{"transpose_ldg_i32", small2, map[string]int64{"n": 1}, transposeI32Setup},
		{"vector_scale_add", map[string]int64{"LX": 8}, map[string]int64{"n": 37}, vectorSetup(1)},
		{"vector_scale_add", map[string]int64{"LX": 8, "STRIDE": 2}, map[string]int64{"n": 37}, vectorSetup(2)},
		{"vector_scale_add", map[string]int64{"LX": 8, "STRIDE": 3}, map[string]int64{"n": 37}, vectorSetup(3)},
		{"global_copy_strided", map[string]int64{"LX": 8, "STRIDE": 2}, map[string]int64{"n": 37}, stridedCopySetup(2)},
		{"global_copy_strided", map[string]int64{"LX": 8, "STRIDE": 3}, map[string]int64{"n": 37}, stridedCopySetup(3)},
		{"global_store_strided", map[string]int64{"LX": 8, "STRIDE": 2}, map[string]int64{"n": 37}, stridedStoreSetup(2)},
		{"global_store_strided", map[string]int64{"LX": 8, "STRIDE": 3}, map[string]int64{"n": 37}, stridedStoreSetup(3)},
		{"global_copy", map[string]int64{"LX": 8}, map[string]int64{"n": 21}, func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
			a, b := randF32(rng, p["n"]), poisonF32(p["n"])
			return map[string]any{"a": a, "b": b}, func() error {
				for i := range a {
					if a[i] != b[i] {
						return fmt.Errorf("b[%d] = %v, want %v", i, b[i], a[i])
					}
				}
				return nil
			}
		}},
		{"global_add4", map[string]int64{"LX": 8}, map[string]int64{"n": 21}, func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
			n := p["n"]
			a, b, c, d, e := randF32(rng, n), randF32(rng, n), randF32(rng, n), randF32(rng, n), poisonF32(n)
			return map[string]any{"a": a, "b": b, "c": c, "d": d, "e": e}, func() error {
				for i := range e {
					if want := float32(float32(float32(a[i]+b[i])+c[i]) + d[i]); e[i] != want {
						return fmt.Errorf("e[%d] = %v, want %v", i, e[i], want)
					}
				}
				return nil
			}
		}},
		{"global_store_index", map[string]int64{"LX": 8}, map[string]int64{"n": 21}, func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
			a := poisonF32(p["n"])
			return map[string]any{"a": a}, func() error {
				for i := range a {
					if a[i] != float32(i) {
						return fmt.Errorf("a[%d] = %v, want %d", i, a[i], i)
					}
				}
				return nil
			}
		}},
		{"stride2_filled", map[string]int64{"LX": 8}, map[string]int64{"n": 21}, filledSetup(2, 8)},
		{"stride3_filled", map[string]int64{"LX": 8}, map[string]int64{"n": 21}, filledSetup(3, 8)},
		{"stride2_filled", nil, map[string]int64{"n": 300}, filledSetup(2, 256)},
		{"empty", small2, map[string]int64{"n": 10}, func(map[string]int64, *rand.Rand) (map[string]any, func() error) {
			return map[string]any{}, func() error { return nil }
		}},
		{"empty_1d", map[string]int64{"LX": 8}, map[string]int64{"n": 21}, func(map[string]int64, *rand.Rand) (map[string]any, func() error) {
			return map[string]any{}, func() error { return nil }
		}},
		{"grid_fill_chain", map[string]int64{"LX": 8}, map[string]int64{"ng": 3, "nk": 7}, gridFillChainSetup(8)},
		{"grid_fill_stream", map[string]int64{"LX": 8}, map[string]int64{"ng": 3, "nk": 7}, gridFillStreamSetup(8)},
		{"grid_fill_local", map[string]int64{"LX": 8}, map[string]int64{"ng": 3, "nr": 2}, gridFillLocalSetup(8)},
		{"grid_fill_local", map[string]int64{"LX": 32}, map[string]int64{"ng": 2, "nr": 1}, gridFillLocalSetup(32)},
		{"grid_fill_local", map[string]int64{"LX": 64}, map[string]int64{"ng": 1, "nr": 1}, gridFillLocalSetup(64)},
		{"grid_fill_local", map[string]int64{"LX": 5}, map[string]int64{"ng": 2, "nr": 1}, gridFillLocalSetup(5)},
		{"finite_diff", small2, map[string]int64{"n": 11}, fdSetup},
		{"finite_diff", map[string]int64{"LX": 4, "LY": 4}, map[string]int64{"n": 10}, fdSetup},
		{"finite_diff", map[string]int64{"LX": 2, "LY": 1}, map[string]int64{"n": 5}, fdSetup},
		{"nbody", map[string]int64{"LX": 8}, map[string]int64{"n": 19}, nbodySetup},
		{"nbody", map[string]int64{"LX": 4}, map[string]int64{"n": 1}, nbodySetup},
		{"convolution", small2, map[string]int64{"n": 5}, convSetup},
		{"sumsq", map[string]int64{"LX": 8, "D": 2}, map[string]int64{"n": 21}, normSetup(2, false)},
		{"sumsq", map[string]int64{"LX": 8}, map[string]int64{"n": 21}, normSetup(3, false)},
		{"inv_norm", map[string]int64{"LX": 8, "D": 2}, map[string]int64{"n": 21}, normSetup(2, true)},
		{"inv_norm", map[string]int64{"LX": 8}, map[string]int64{"n": 21}, normSetup(3, true)},
		{"matvec_t", map[string]int64{"LX": 8}, map[string]int64{"m": 7, "n": 21}, matvecSetup},
		{"matvec_t", map[string]int64{"LX": 8}, map[string]int64{"m": 1, "n": 3}, matvecSetup},
		{"matvec_t_unrolled", map[string]int64{"LX": 8, "M": 7}, map[string]int64{"n": 21}, matvecConstSetup(7)},
		{"matvec_t_unrolled", map[string]int64{"LX": 8, "M": 1}, map[string]int64{"n": 3}, matvecConstSetup(1)},
		{"vector_sum", map[string]int64{"LX": 8, "D": 2}, map[string]int64{"n": 21}, vectorSumSetup(2)},
		{"vector_sum", map[string]int64{"LX": 8}, map[string]int64{"n": 21}, vectorSumSetup(3)},
		{"scaled_sum", map[string]int64{"LX": 8, "K": 5}, map[string]int64{"n": 21}, scaledSumSetup(5)},
		{"scaled_sum", map[string]int64{"LX": 8, "K": 1}, map[string]int64{"n": 3}, scaledSumSetup(1)},
		{"scaled_sum_ldg", map[string]int64{"LX": 8, "K": 5}, map[string]int64{"n": 21}, scaledSumSetup(5)},
		{"scaled_sum_i32", map[string]int64{"LX": 8, "K": 5}, map[string]int64{"n": 21}, scaledSumI32Setup(5)},
		{"scaled_sum_i32", map[string]int64{"LX": 8, "K": 1}, map[string]int64{"n": 3}, scaledSumI32Setup(1)},
		{"scaled_sum_ldg_i32", map[string]int64{"LX": 8, "K": 5}, map[string]int64{"n": 21}, scaledSumI32Setup(5)},
		{"scaled_sum_ldg_i32", map[string]int64{"LX": 8, "K": 1}, map[string]int64{"n": 3}, scaledSumI32Setup(1)},
		{"vector_sum_i32", map[string]int64{"LX": 8, "D": 2}, map[string]int64{"n": 21}, vectorSumI32Setup(2)},
		{"vector_sum_i32", map[string]int64{"LX": 8}, map[string]int64{"n": 21}, vectorSumI32Setup(3)},
		{"global_strided_i32", map[string]int64{"LX": 8}, map[string]int64{"n": 37}, stridedSumSetup[int32](0, 1, 1, 2)},
		{"global_strided_i32", map[string]int64{"LX": 8, "STRIDE": 3, "R": 4}, map[string]int64{"n": 37}, stridedSumSetup[int32](0, 4, 1, 3)},
		{"global_strided_i32", map[string]int64{"LX": 8, "STRIDE": 3, "S": 2}, map[string]int64{"n": 38}, stridedSumSetup[int32](0, 1, 2, 3)},
		{"global_strided_i32", map[string]int64{"LX": 8, "STRIDE": 2}, map[string]int64{"n": 1}, stridedSumSetup[int32](0, 1, 1, 2)},
		{"arith_mix_f32", map[string]int64{"LX": 4, "LY": 3}, map[string]int64{"n": 7, "na": 11, "nb": 3, "nc": 5, "nd": 4}, mixSetup(false)},
		{"arith_mix_f32", nil, map[string]int64{"n": 16, "na": 1, "nb": 9, "nc": 1, "nd": 1}, mixSetup(false)},
		{"arith_mix_f64", map[string]int64{"LX": 4, "LY": 3}, map[string]int64{"n": 7, "na": 11, "nb": 3, "nc": 5, "nd": 6}, mixSetup(true)},
		{"arith_mix_f64", nil, map[string]int64{"n": 16, "na": 2, "nb": 1, "nc": 9, "nd": 1}, mixSetup(true)},
		{"fan_out", map[string]int64{"LX": 8, "S": 3}, map[string]int64{"n": 21}, fanOutSetup(3)},
		{"fan_out", map[string]int64{"LX": 8, "S": 1}, map[string]int64{"n": 3}, fanOutSetup(1)},
		{"fan_in", map[string]int64{"LX": 8, "S": 4}, map[string]int64{"n": 21}, fanInSetup(4)},
		{"fan_in", map[string]int64{"LX": 8, "S": 1}, map[string]int64{"n": 3}, fanInSetup(1)},
		{"arith_int_i32", map[string]int64{"LX": 4, "LY": 3}, map[string]int64{"n": 7, "na": 3, "nb": 2, "nc": 5, "nd": 1, "ne": 4, "c": 13}, intSetup(4, 3)},
		{"arith_int_i32", nil, map[string]int64{"n": 20, "na": 1, "nb": 4, "nc": 1, "nd": 2, "ne": 1, "c": -3}, intSetup(16, 16)},
		{"arith_int_i64", map[string]int64{"LX": 4, "LY": 3}, map[string]int64{"n": 7, "na": 2, "nb": 5, "nc": 1, "nd": 3, "ne": 2, "c": 1000}, intSetup(4, 3)},
		{"arith_int_i64", nil, map[string]int64{"n": 20, "na": 1, "nb": 1, "nc": 6, "nd": 1, "ne": 3, "c": 7}, intSetup(16, 16)},
		{"arith_intspecial_i32", map[string]int64{"LX": 4, "LY": 3}, map[string]int64{"n": 7, "ns": 3, "c": 13}, intSpecialSetup(4, 3)},
		{"arith_intspecial_i32", nil, map[string]int64{"n": 20, "ns": 1, "c": -3}, intSpecialSetup(16, 16)},
		{"arith_intspecial_i64", map[string]int64{"LX": 4, "LY": 3}, map[string]int64{"n": 7, "ns": 2, "c": 1000}, intSpecialSetup(4, 3)},
		{"arith_intspecial_i64", nil, map[string]int64{"n": 20, "ns": 5, "c": 7}, intSpecialSetup(16, 16)},
		{"reuse_group", map[string]int64{"LX": 8, "K": 5}, map[string]int64{"n": 21}, reuseGroupSetup(5)},
		{"reuse_group", map[string]int64{"LX": 8, "K": 1}, map[string]int64{"n": 3}, reuseGroupSetup(1)},
		{"reread_l2", map[string]int64{"LX": 8}, map[string]int64{"n": 21, "nr": 3}, rereadL2Setup(8)},
		{"reread_l2", map[string]int64{"LX": 8}, map[string]int64{"n": 5, "nr": 1}, rereadL2Setup(8)},
		{"reread_dram", map[string]int64{"LX": 8}, map[string]int64{"n": 21, "nr": 3}, rowSumSetup("nr")},
		{"core_fill", map[string]int64{"LX": 8}, map[string]int64{"ng": 3, "nk": 5}, coreFillSetup(8)},
		{"core_fill", map[string]int64{"LX": 5}, map[string]int64{"ng": 1, "nk": 40}, coreFillSetup(5)},
		{"column_walk", map[string]int64{"LX": 8}, map[string]int64{"n": 21, "nr": 3, "p": 48}, columnWalkSetup},
		{"column_walk", map[string]int64{"LX": 8}, map[string]int64{"n": 3, "nr": 5, "p": 3}, columnWalkSetup},
		{"accumulate_global", map[string]int64{"LX": 8}, map[string]int64{"n": 21, "nk": 4}, rowSumSetup("nk")},
		{"accumulate_global", map[string]int64{"LX": 8}, map[string]int64{"n": 3, "nk": 1}, rowSumSetup("nk")},
	}
	return append(cases, arithCases()...)
}

// normSetup checks sumsq (inverse false) or inv_norm (true) on a d x n
// column-major array: the sum of the squares of each column, or its
// inverse square root.
func normSetup(d int64, inverse bool) func(map[string]int64, *rand.Rand) (map[string]any, func() error) {
	return func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
		n := p["n"]
		x, out := randF32(rng, d*n), poisonF32(n)
		return map[string]any{"x": x, "out": out}, func() error {
			for i := range n {
				var want float64
				for c := range d {
					want += float64(x[i*d+c]) * float64(x[i*d+c])
				}
				scale := want
				if inverse {
					want = 1 / math.Sqrt(want)
					scale = want
				}
				if !near(out[i], want, 10*scale) {
					return fmt.Errorf("out[%d] = %v, want %v", i, out[i], want)
				}
			}
			return nil
		}
	}
}

// matvecSetup checks y = aᵀv for an m x n row-major a.
func matvecSetup(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
	m, n := p["m"], p["n"]
	a, v, y := randF32(rng, m*n), randF32(rng, m), poisonF32(n)
	return map[string]any{"a": a, "v": v, "y": y}, func() error {
		for j := range n {
			var want, scale float64
			for k := range m {
				t := float64(a[k*n+j]) * float64(v[k])
				want += t
				scale += math.Abs(t)
			}
			if !near(y[j], want, scale) {
				return fmt.Errorf("y[%d] = %v, want %v", j, y[j], want)
			}
		}
		return nil
	}
}

// matvecConstSetup checks matvec_t_unrolled, whose m is the constant M.
func matvecConstSetup(m int64) func(map[string]int64, *rand.Rand) (map[string]any, func() error) {
	return func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
		return matvecSetup(map[string]int64{"m": m, "n": p["n"]}, rng)
	}
}

// vectorSumSetup checks out[i] = x[0, i] + ... + x[d-1, i] on a d x n
// column-major array.
func vectorSumSetup(d int64) func(map[string]int64, *rand.Rand) (map[string]any, func() error) {
	return groupSumF32Setup("x", "out", d, d)
}

// groupSumF32Setup checks out[i] = in[stride*i] + ... + in[stride*i + u - 1],
// in of stride·n elements (vector_sum with u = stride,
// global_ldg_strided_f32), near its float64 value.
func groupSumF32Setup(in, out string, stride, u int64) func(map[string]int64, *rand.Rand) (map[string]any, func() error) {
	return func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
		n := p["n"]
		a, b := randF32(rng, stride*n), poisonF32(n)
		return map[string]any{in: a, out: b}, func() error {
			return checkSums(b, u, func(i, c int64) float32 { return a[stride*i+c] })
		}
	}
}

// vectorSumI32Setup checks vector_sum_i32: out[i] = x[0, i] + ... +
// x[d-1, i] exactly, x a d x n column-major i32 array.
func vectorSumI32Setup(d int64) func(map[string]int64, *rand.Rand) (map[string]any, func() error) {
	return groupSumI32Setup("x", "out", d, d)
}

// groupSumI32Setup checks groupSumF32Setup's sums in i32, exactly
// (vector_sum_i32, global_ldg_strided_i32).
func groupSumI32Setup(in, out string, stride, u int64) func(map[string]int64, *rand.Rand) (map[string]any, func() error) {
	return func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
		n := p["n"]
		a, b := randI32(rng, stride*n), poisonI32(n)
		return map[string]any{in: a, out: b}, func() error {
			for i := range n {
				var want int32
				for c := range u {
					want += a[stride*i+c]
				}
				if b[i] != want {
					return fmt.Errorf("%s[%d] = %d, want %d", out, i, b[i], want)
				}
			}
			return nil
		}
	}
}

// scaledSumI32Setup checks scaled_sum_i32 and scaled_sum_ldg_i32:
// out[i] = a[i]·(w[0] + ... + w[k-1]) exactly (at most 1000·512·1000 in
// magnitude, within i32).
func scaledSumI32Setup(k int64) func(map[string]int64, *rand.Rand) (map[string]any, func() error) {
	return func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
		n := p["n"]
		a, w, out := randI32(rng, n), randI32(rng, k), poisonI32(n)
		return map[string]any{"a": a, "w": w, "out": out}, func() error {
			var sum int32
			for _, v := range w {
				sum += v
			}
			for i := range n {
				if want := a[i] * sum; out[i] != want {
					return fmt.Errorf("out[%d] = %d, want %d", i, out[i], want)
				}
			}
			return nil
		}
	}
}

// scaledSumSetup checks out[i] = a[i]·(w[0] + ... + w[k-1]).
func scaledSumSetup(k int64) func(map[string]int64, *rand.Rand) (map[string]any, func() error) {
	return func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
		n := p["n"]
		a, w, out := randF32(rng, n), randF32(rng, k), poisonF32(n)
		return map[string]any{"a": a, "w": w, "out": out}, func() error {
			var sum, abs float64
			for _, v := range w {
				sum += float64(v)
				abs += math.Abs(float64(v))
			}
			for i := range n {
				if want := float64(a[i]) * sum; !near(out[i], want, math.Abs(float64(a[i]))*abs) {
					return fmt.Errorf("out[%d] = %v, want %v", i, out[i], want)
				}
			}
			return nil
		}
	}
}

// fanOutSetup checks b[s, i] = a[i] for every s < S, b an S x n array.
func fanOutSetup(S int64) func(map[string]int64, *rand.Rand) (map[string]any, func() error) {
	return func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
		n := p["n"]
		a, b := randF32(rng, n), poisonF32(S*n)
		return map[string]any{"a": a, "b": b}, func() error {
			for s := range S {
				for i := range n {
					if b[s*n+i] != a[i] {
						return fmt.Errorf("b[%d, %d] = %v, want %v", s, i, b[s*n+i], a[i])
					}
				}
			}
			return nil
		}
	}
}

// fanInSetup checks out[i] = a[0, i] + ... + a[S-1, i], summed in order
// in f32, a an S x n array.
func fanInSetup(S int64) func(map[string]int64, *rand.Rand) (map[string]any, func() error) {
	return func(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
		n := p["n"]
		a, out := randF32(rng, S*n), poisonF32(n)
		return map[string]any{"a": a, "out": out}, func() error {
			for i := range n {
				var want float32
				for s := range S {
					want += a[s*n+i]
				}
				if out[i] != want {
					return fmt.Errorf("out[%d] = %v, want %v", i, out[i], want)
				}
			}
			return nil
		}
	}
}

func fdSetup(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
	n := p["n"]
	u, res := randF32(rng, n*n), poisonF32((n-2)*(n-2))
	return map[string]any{"u": u, "res": res}, func() error {
		for i := int64(1); i < n-1; i++ {
			for j := int64(1); j < n-1; j++ {
				c := u[i*n+j]
				s := float32(float32(float32(u[(i-1)*n+j]+u[(i+1)*n+j])+u[i*n+j-1]) + u[i*n+j+1])
				s = float32(s - float32(4*c))
				want := float32(s + float32(0.25*float32(math.Pow(float64(c), 2))))
				if got := res[(i-1)*(n-2)+j-1]; got != want {
					return fmt.Errorf("res[%d, %d] = %v, want %v", i-1, j-1, got, want)
				}
			}
		}
		return nil
	}
}

func nbodySetup(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
	n := p["n"]
	x, out := randF32(rng, 3*n), poisonF32(n)
	return map[string]any{"x": x, "out": out}, func() error {
		for i := range n {
			var want, scale float64
			for j := range n {
				if j == i {
					continue
				}
				var d2 float64
				for c := range int64(3) {
					d := float64(x[3*j+c]) - float64(x[3*i+c])
					d2 += d * d
				}
				want += 1 / math.Sqrt(d2)
				scale += 1 / math.Sqrt(d2)
			}
			if !near(out[i], want, 10*scale) {
				return fmt.Errorf("out[%d] = %v, want %v", i, out[i], want)
			}
		}
		return nil
	}
}

func convSetup(p map[string]int64, rng *rand.Rand) (map[string]any, func() error) {
	n := p["n"]
	w := n + 6
	img, filt, r := randF32(rng, 3*w*w*3), randF32(rng, 3*7*7*3), poisonF32(3*3*n*n)
	return map[string]any{"img": img, "filt": filt, "r": r}, func() error {
		for im := range int64(3) {
			for f := range int64(3) {
				for y := range n {
					for x := range n {
						var want, scale float64
						for dy := int64(-3); dy <= 3; dy++ {
							for dx := int64(-3); dx <= 3; dx++ {
								for ch := range int64(3) {
									a := img[((im*w+3+y-dy)*w+3+x-dx)*3+ch]
									b := filt[((f*7+3+dy)*7+3+dx)*3+ch]
									want += float64(a) * float64(b)
									scale += math.Abs(float64(a) * float64(b))
								}
							}
						}
						if got := r[((im*3+f)*n+y)*n+x]; !near(got, want, scale) {
							return fmt.Errorf("r[%d, %d, %d, %d] = %v, want %v", im, f, y, x, got, want)
						}
					}
				}
			}
		}
		return nil
	}
}

// TestLibraryKernelsCompute runs every library kernel in the reference
// interpreter at small sizes, with work-group sizes that do not divide
// the problem, and compares the output with a direct computation.
func TestLibraryKernelsCompute(t *testing.T) {
	covered := map[string]bool{}
	for i, c := range libraryCases() {
		covered[c.kernel] = true
		t.Run(fmt.Sprintf("%s/%d", c.kernel, i), func(t *testing.T) {
			k := loadLibraryKernel(t, c.kernel, c.consts)
			rng := rand.New(rand.NewPCG(uint64(i), 7))
			arrays, check := c.setup(c.params, rng)
			if _, err := counts.Run(k, c.params, arrays, nil); err != nil {
				t.Fatal(err)
			}
			if err := check(); err != nil {
				t.Error(err)
			}
		})
	}
	for _, name := range library.Names() {
		if !covered[name] {
			t.Errorf("library kernel %s has no test case", name)
		}
	}
}

// TestLibraryNames checks that every file declares the kernel it is named
// after.
func TestLibraryNames(t *testing.T) {
	names := library.Names()
	if len(names) < 20 {
		t.Fatalf("library lists %d kernels", len(names))
	}
	for _, name := range names {
		if k := loadLibraryKernel(t, name, nil); k.Name != name {
			t.Errorf("%s.knl declares kernel %s", name, k.Name)
		}
	}
}

// core_fill counted by hand, as its header says: per work-item one
// global load and one global store (stride 1) and nk terms of seven
// additions plus the sum's own addition; ng groups.
func TestCoreFillHandCounts(t *testing.T) {
	for _, lx := range []int64{64, 256, 1024} {
		k := loadLibraryKernel(t, "core_fill", map[string]int64{"LX": lx})
		counted, err := counts.Count(k)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct{ ng, nk int64 }{{1, 1}, {1, 65536}, {3, 16}, {4, 1000}} {
			got, err := counted.Eval(map[string]int64{"ng": c.ng, "nk": c.nk})
			if err != nil {
				t.Fatal(err)
			}
			wi := c.ng * lx
			want := map[string]int64{"global.load.f32.stride=1": wi, "global.store.f32.stride=1": wi,
				"global.minldst.f32.stride=1": wi, "flop.f32.add": 8 * c.nk * wi,
				"launch.groups": c.ng, "launch.const": 1}
			if !maps.Equal(got, want) {
				t.Errorf("LX=%d ng=%d nk=%d: %v, want %v", lx, c.ng, c.nk, got, want)
			}
		}
	}
}
