package counts

import (
	"fmt"
	"strings"
	"testing"
)

// A compile-time if (testdata/lang/staticif.knl) counts only its taken
// branch, chosen by the constants, --const overrides included. The counts
// are derived by hand at n = 37 in groups of LX = 16 (3 groups, 48
// work-items).
func TestStaticIfHandCounts(t *testing.T) {
	const n = 37
	cases := []struct {
		bs   int64
		want map[string]int64
	}{
		// BS = 32: the first branch: 48 local stores of t (p runs on
		// every work-item of every group), a barrier, then per element a
		// load of a, a local load of t, a mul and a store; the one-line
		// barrier is taken (48 more), the last instruction is not.
		{32, map[string]int64{"local.store.f32": 48, "local.load.f32": n, "sync.barrier": 2 * 48,
			"global.load.f32.stride=1": n, "global.store.f32.stride=1": n, "global.minldst.f32.stride=1": n,
			"flop.f32.mul": n}},
		// BS = 12: the elif (LX == 16 holds): a load, an add and a store
		// per element, and the last instruction's: no barrier.
		{12, map[string]int64{"global.load.f32.stride=1": 2 * n, "global.store.f32.stride=1": 2 * n,
			"global.minldst.f32.stride=1": 2 * n, "flop.f32.add": 2 * n}},
		// BS = 4: the else branch, a run-time if on i_in < 4: elements
		// 0-3, 16-19 and 32-35 (12), then the last instruction's n.
		{4, map[string]int64{"global.load.f32.stride=1": 12 + n, "global.store.f32.stride=1": 12 + n,
			"global.minldst.f32.stride=1": 12 + n, "flop.f32.add": 12 + n}},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint("BS=", c.bs), func(t *testing.T) {
			k := langKernel(t, "staticif", map[string]int64{"BS": c.bs})
			counted, err := Count(k)
			if err != nil {
				t.Fatal(err)
			}
			got, err := counted.Eval(map[string]int64{"n": n})
			if err != nil {
				t.Fatal(err)
			}
			c.want["launch.groups"], c.want["launch.const"] = 3, 1
			compareProps(t, got, c.want)
		})
	}
}

// The branches not taken leave nothing in the kernel: its statements are
// those of the taken branch, and no predicate names a constant.
func TestStaticIfDropsBranches(t *testing.T) {
	for bs, want := range map[int64]int{32: 4, 12: 2, 4: 2} {
		k := langKernel(t, "staticif", map[string]int64{"BS": bs})
		var stmts int
		for _, s := range k.Statements {
			stmts++
			if in, ok := s.(*Instruction); ok && in.Pred != nil && !strings.Contains(fmt.Sprint(in.Pred), "i_in") {
				t.Errorf("BS=%d: %s keeps the predicate %v", bs, in.ID, in.Pred)
			}
		}
		if stmts != want {
			t.Errorf("BS=%d: %d statements, want %d", bs, stmts, want)
		}
	}
}

// A compile-time condition is integer arithmetic over constants, read as
// C's #if: and and or are lazy, and a value is true where it is not 0.
func TestStaticIfConditions(t *testing.T) {
	const head = "kernel k\nconst A = 6\nconst B = 0\ndomain [n] -> { [i] : 0 <= i < n }\narray a f32 [n]\n"
	cases := []struct {
		cond string
		want bool
	}{
		{"A > 5", true}, {"A // 4 == 1", true}, {"A % 4 == 2 and B", false}, {"B or A", true},
		{"not B", true}, {"B != 0 and A // B > 1", false}, {"(A << 2) - 1 == 23", true},
		{"A - 7 < -1 or ~A == -7", true}, {"A & 1", false},
	}
	for _, c := range cases {
		src := head + "if " + c.cond + "\na[i] = 1.0f\nelse\na[i] = 2.0f\nend\n"
		k, err := ParseKernel("k.knl", []byte(src), nil)
		if err != nil {
			t.Errorf("%s: %v", c.cond, err)
			continue
		}
		in := k.Statements[0].(*Instruction)
		if got := fmt.Sprint(in.RHS) == "1.0f"; got != c.want {
			t.Errorf("if %s: took the branch of %v, want the first: %v", c.cond, in.RHS, c.want)
		}
	}
}
