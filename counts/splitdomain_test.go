package counts

import "testing"

// A domain that names an iname split before or after it is rewritten by
// the split (splits substitutes every domain), so the refusal of a
// domain naming a split iname is never reached: the domain
// 0 <= j <= i counts sum over i < n of (i + 1) = n(n + 1)/2 stores of j
// to a[i] in either order, 55 at n = 10.
func TestSplitInameInAnotherDomain(t *testing.T) {
	for _, src := range []string{
		"kernel k\ndomain [n] -> { [i] : 0 <= i < n }\nsplit i 4 io ii\ndomain { [j] : 0 <= j <= i }\narray a f32 [n]\na[i] = j\n",
		"kernel k\ndomain [n] -> { [i] : 0 <= i < n }\ndomain { [j] : 0 <= j <= i }\nsplit i 4 io ii\narray a f32 [n]\na[i] = j\n",
	} {
		c, err := Count(parseSrc(t, "k", src))
		if err != nil {
			t.Fatal(err)
		}
		v, err := c.Eval(map[string]int64{"n": 10})
		if err != nil {
			t.Fatal(err)
		}
		if got := v["global.store.f32.stride=0"]; got != 55 {
			t.Errorf("%d stores at n = 10, want 55\n%s", got, src)
		}
	}
}
