package counts_test

import (
	"testing"

	"github.com/uniperf/uniperf/counts"
)

// A loop over an iname tagged down runs from its largest value to its
// least, C's for (k = m - 2; k >= 0; k--): a[i, k] += a[i, k + 1] makes
// suffix sums (upwards it would add each original neighbour once), which
// a brute-force Go loop computes; the counts are those of the same loop
// upwards, by hand: per row m - 1 additions and stores, twice as many
// loads.
func TestDownLoops(t *testing.T) {
	k := mustParse(t, `kernel suffix
domain [n, m] -> { [i, k] : 0 <= i < n and 0 <= k < m - 1 }
array a f32 [n, m]
split i 16 i_out i_in
tag i_out g.0, i_in l.0, k down
a[i, k] = a[i, k] + a[i, k + 1]
`)
	const n, m = 37, 10
	a := make([]float32, n*m)
	for j := range a {
		a[j] = float32(j%7 + 1)
	}
	want := append([]float32(nil), a...)
	for i := range n {
		for k := m - 2; k >= 0; k-- {
			want[i*m+k] += want[i*m+k+1]
		}
	}
	params := map[string]int64{"n": n, "m": m}
	tl, err := counts.Run(k, params, map[string]any{"a": a}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for j := range want {
		if a[j] != want[j] {
			t.Fatalf("a[%d] = %g, want %g", j, a[j], want[j])
		}
	}
	c, err := counts.Count(k)
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Eval(params)
	if err != nil {
		t.Fatal(err)
	}
	if got["flop.f32.add"] != n*(m-1) || tl.Totals()["flop.f32.add"] != n*(m-1) || tl.Totals()["global.load.f32"] != 2*n*(m-1) {
		t.Errorf("%d additions counted, %d run, %d loads run; want %d, %d, %d",
			got["flop.f32.add"], tl.Totals()["flop.f32.add"], tl.Totals()["global.load.f32"], n*(m-1), n*(m-1), 2*n*(m-1))
	}
	if tag := k.Iname("k").Tag; tag.Kind != counts.Down || tag.String() != "down" {
		t.Errorf("k's tag %v", tag)
	}
}
