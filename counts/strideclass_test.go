package counts

import (
	"fmt"
	"math/big"
	"testing"
)

// The stride classes of seed 001 §3: strides 0 and 1 by themselves,
// "k/s" for s = 2, 3 and 4, "k/>4" beyond; 4 is the last named class.
func TestStrideName(t *testing.T) {
	for _, c := range []struct {
		stride, num int64
		want        string
	}{
		{0, 1, "0"}, {1, 1, "1"}, {2, 1, "1/2"}, {3, 2, "2/3"}, {4, 3, "3/4"}, {4, 4, "4/4"}, {5, 1, "1/>4"}, {64, 4, "4/>4"},
	} {
		if got := strideName(c.stride, c.num); got != c.want {
			t.Errorf("strideName(%d, %d) = %q, want %q", c.stride, c.num, got, c.want)
		}
	}
	for s, want := range map[int64]int64{2: 2, 3: 3, 4: 4, 5: 4, 100: 4} {
		if got := classDenominator(s); got != want {
			t.Errorf("classDenominator(%d) = %d, want %d", s, got, want)
		}
	}
}

// utilClass against its definition computed with rationals: the
// utilization fp/filled times den, rounded to the nearest integer with
// halves up, clamped to 1..den. fp = 3, filled = 8, den = 4 is 1.5 and
// rounds to 2; fp = 5, filled = 6, den = 3 is 2.5 and rounds to 3.
func TestUtilClassRoundsHalvesUp(t *testing.T) {
	if got := utilClass(3, 8, 4); got != 2 {
		t.Errorf("utilClass(3, 8, 4) = %d, want 2 (1.5 rounds up)", got)
	}
	if got := utilClass(5, 6, 3); got != 3 {
		t.Errorf("utilClass(5, 6, 3) = %d, want 3 (2.5 rounds up)", got)
	}
	half := big.NewRat(1, 2)
	for den := int64(2); den <= 4; den++ {
		for filled := int64(1); filled <= 24; filled++ {
			for fp := int64(1); fp <= filled; fp++ {
				x := new(big.Rat).SetFrac64(fp*den, filled)
				x.Add(x, half)
				k := new(big.Int).Quo(x.Num(), x.Denom()).Int64() // floor, x > 0
				k = min(max(k, 1), den)
				if got := utilClass(fp, filled, den); got != k {
					t.Errorf("utilClass(%d, %d, %d) = %d, want %d", fp, filled, den, got, k)
				}
			}
		}
	}
	if got := utilClass(1<<62, 1<<62, 4); got != 4 {
		t.Errorf("utilClass at 2^62 = %d, want 4 (no overflow)", got)
	}
}

// The utilization that classes a strided access is taken in index space
// (docs/counting.md: the filled-in footprint is the footprint's bounding
// box, each subscript between the least and the greatest value it takes),
// not over the memory the access spans. By hand, for one stride-2 load
// per work-item i < n, a 2 x n array stored column-major (a[c, i] at
// 2i + c): read at a[0, i], the footprint is the n cells (0, i) and its
// box is row 0 by columns 0..n-1, n cells: u = 1, k = round(2·1) = 2,
// class 2/2, though in memory it uses one element of every 2; so is
// a[i, 0] of a row-major n x 2 array, the same addresses. Written flat,
// a[2i] of a [2n] array, the box is 0..2n-2, 2n - 1 cells: u = n/(2n -
// 1), k = round(2n/(2n - 1)) = 1 for n >= 2, class 1/2 (at n = 1 the one
// cell is its own box: 2/2). A gap inside the box is filled in along
// every dimension: rows 0 and 2 of a 3 x n array, 2n cells of a 3n box,
// k = round(3·2/3) = 2, class 2/3.
func TestUtilizationInIndexSpace(t *testing.T) {
	for _, c := range []struct {
		name, array, expr string
		class             string // at n = 1000 and 7
	}{
		{"colmajor", "[2, n] order=F", "a[0, i]", "2/2"},
		{"rowmajor", "[n, 2]", "a[i, 0]", "2/2"},
		{"flat", "[2*n]", "a[2*i]", "1/2"},
		{"gap", "[3, n] order=F", "a[0, i] + a[2, i]", "2/3"},
	} {
		k := parseSrc(t, c.name, "kernel "+c.name+`
domain [n] -> { [i] : 0 <= i < n }
array a f32 `+c.array+`
array b f32 [n]
split i 16 i_out i_in
tag i_out g.0, i_in l.0
b[i] = `+c.expr+"\n")
		counted, err := Count(k)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int64{1000, 7, 1} {
			got, err := counted.Eval(map[string]int64{"n": n})
			if err != nil {
				t.Fatal(err)
			}
			loads := n
			want := map[string]int64{"global.store.f32.stride=1": n, "launch.groups": (n + 15) / 16, "launch.const": 1}
			if c.name == "gap" {
				loads, want["flop.f32.add"] = 2*n, n
			}
			class := c.class
			if n == 1 && c.name == "flat" {
				class = "2/2"
			}
			want["global.load.f32.stride="+class] = loads
			t.Run(fmt.Sprint(c.name, ",n=", n), func(t *testing.T) { compareProps(t, got, want) })
		}
	}
}
