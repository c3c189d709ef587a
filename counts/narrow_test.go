package counts

import (
	"fmt"
	"strings"
	"testing"
)

// testdata/lang/narrow.knl counted by hand: per element, 8-bit loads of
// a in t's, b's and o's instructions and three in w's sum; 16-bit loads
// of s (two in o's, one in s's) and of w; 8-bit stores of b, 16-bit ones
// of s and w, an i32 store of o; i32 arithmetic only (promotion): the
// addition of b's, the subtraction of o's, the sum's three additions and
// w's one; o's multiplication; the two // 2 as shifts; t's store and
// load in local memory at 8 bits.
func TestNarrowHandCounts(t *testing.T) {
	_, counted := countedLang(t, "narrow")
	for _, n := range []int64{37, 1000, 16} {
		got, err := counted.Eval(map[string]int64{"n": n})
		if err != nil {
			t.Fatal(err)
		}
		groups := (n + 15) / 16
		t.Run(fmt.Sprint("n=", n), func(t *testing.T) {
			compareProps(t, got, map[string]int64{
				"global.load.b8.stride=1": 6 * n, "global.load.b16.stride=1": 4 * n,
				"global.store.b8.stride=1": n, "global.store.b16.stride=1": 2 * n, "global.store.i32.stride=1": n,
				"global.minldst.b8.stride=1": n, "global.minldst.b16.stride=1": 2 * n,
				"int.i32.add": 6 * n, "int.i32.mul": n, "int.i32.shift": 2 * n,
				"local.load.b8": n, "local.store.b8": n, "sync.barrier": 16 * groups,
				"launch.groups": groups, "launch.const": 1,
			})
		})
	}
}

func countedLang(t *testing.T, name string) (*Kernel, *Counted) {
	t.Helper()
	k := langKernel(t, name, nil)
	c, err := Count(k)
	if err != nil {
		t.Fatal(err)
	}
	return k, c
}

// The interpreter computes what C computes with its integer promotions:
// u8 + i8 and i16 * i16 in int, the results stored back at 8 and 16 bits.
// Go's int arithmetic on the widened values is the oracle.
func TestNarrowRun(t *testing.T) {
	k := langKernel(t, "narrow", nil)
	const n = 40
	a, s, w := make([]uint8, n), make([]int16, n), make([]uint16, n)
	for i := range n {
		a[i] = uint8(255 - 6*i)
		s[i] = int16(-32767 + 1637*i)
		w[i] = uint16(60000 - 37*i)
	}
	s0 := append([]int16(nil), s...)
	b, o := make([]uint8, n), make([]int32, n)
	if _, err := Run(k, map[string]int64{"n": n}, map[string]any{"a": a, "s": s, "b": b, "o": o, "w": w}, nil); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		ti := int(int8(int(a[i]) / 2))
		wb, wo, ws := uint8((int(a[i])+ti)/2), int32(int(s0[i])*int(s0[i])-int(a[i])), -s0[i]
		ww := uint16(60000 - 37*i + 3*int(a[i]))
		if b[i] != wb || o[i] != wo || s[i] != ws || w[i] != ww {
			t.Errorf("element %d: b %d o %d s %d w %d, want %d %d %d %d", i, b[i], o[i], s[i], w[i], wb, wo, ws, ww)
		}
	}
}

// A value converted to a narrow type must fit it, as every integer
// conversion must: at run time, and for literals when the kernel is read.
func TestNarrowErrors(t *testing.T) {
	const head = "kernel k\ndomain [n] -> { [i] : 0 <= i < n }\narray a u8 [n]\narray b u8 [n]\narray x f32 [n]\n"
	run := func(src string) error {
		k, err := ParseKernel("k.knl", []byte(src), nil)
		if err != nil {
			return err
		}
		_, err = Run(k, map[string]int64{"n": 2}, map[string]any{"a": []uint8{100, 200}, "b": []uint8{0, 0}, "x": []float32{1, 300.5}}, nil)
		return err
	}
	for _, c := range []struct{ src, msg string }{
		{head + "b[i] = a[i] + 100\n", "cannot convert 300 to u8"},
		{head + "b[i] = 300\n", "literal 300 is out of range for u8"},
		{head + "b[i] = (u8)x[i]\n", "cannot convert 300 to u8"},
		{head + "b[i] = a[i] - 150\n", "cannot convert -50 to u8"},
	} {
		if err := run(c.src); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q: error %v, want %q", c.src, err, c.msg)
		}
	}
}
