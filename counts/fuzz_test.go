package counts

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// FuzzParseKernel feeds arbitrary text to the parser. Whatever it is, the
// parser must return a kernel or an *Error, never panic; a kernel it
// accepts must render domains that parse again, and its launch grid must
// evaluate (or fail cleanly) at small parameters. The seed corpus is in
// testdata/fuzz/FuzzParseKernel.
func FuzzParseKernel(f *testing.F) {
	f.Fuzz(func(t *testing.T, src []byte) {
		k, err := ParseKernel("fuzz.knl", src, nil)
		if err != nil {
			var ke *Error
			if !errors.As(err, &ke) {
				t.Fatalf("error %v is a %T, not *Error", err, err)
			}
			return
		}
		_ = FormatSchedule(k.Schedule)
		for _, d := range k.Domains {
			if _, err := ParseKernel("again.knl", []byte("kernel k\ndomain "+d.String()+"\n"), nil); err != nil {
				t.Fatalf("rendered domain %s does not parse: %v", d, err)
			}
		}
		params := map[string]int64{}
		for _, p := range k.Params {
			params[p] = 3
		}
		e, err := newEngine(k, params)
		if err != nil {
			return
		}
		e.budget = 100000
		_, _, _ = e.launch()
	})
}

// FuzzAffinePitch builds a kernel that reads a diagonal of K points, K*A
// rows and K*B columns long, of an array flattened with the pitch w + C
// that its extent declares, and checks the memory-hierarchy counts:
// symbolic ones, where the split is accepted, must equal at the sizes w
// and h those of the interpreter's accesses; a refusal must be the split's
// error, which says what to write. The seeds (testdata/fuzz/FuzzAffinePitch)
// hold a split (C = 14, a column in range), an overlap (C = 2, columns past the
// pitch), a pitch that is negative at small w, and two inputs whose counting
// passed, on a loaded machine, the 10 s that the fuzzing engine allows an
// input before it kills the worker (443fadec0a0454e6, 551da4e938e9fa0f).
//
// The fuzzing engine's limit is on wall time, so the kernels are bounded by
// the CPU time they take to count: C runs over -4..19, K over 1..5, A over
// 0..1 and B over 0..3, 960 kernels that take at most 1.5 s each (A = 2
// with B >= 2 took up to 3.8 s, past 10 s of wall time at a load of 15).
// A worker meets each kernel at many sizes, so the kernel and its counts,
// or its refusal, are kept per kernel: an input then costs its
// interpreter run, and fuzzing explores sizes rather than recounting. The
// counts of a kernel hold about 1.4 MB, so at most maxPitchKernels are
// kept.
func FuzzAffinePitch(f *testing.F) {
	const maxPitchKernels = 256
	seen := map[string]pitchKernel{}
	f.Fuzz(func(t *testing.T, c int8, k, a, b, w, h uint8) {
		pc, nk, na, nb := int64(uint8(c)%24)-4, int64(k%5)+1, int64(a%2), int64(b%4)
		pw, ph := int64(w%12)+1, int64(h%6)+1
		src := fmt.Sprintf(`kernel f
domain [w, h] -> { [y, x] : 0 <= y < h and 0 <= x < w }
domain { [k] : 0 <= k < %d }
array in f32 [(h + %d)*(w + %d)]
array out f32 [h*w]
split x 4 x_out x_in
tag x_out g.0, x_in l.0
out[y*w + x] = sum(k, in[(y + %d*k)*(w + %d) + x + %d*k])
`, nk, (nk-1)*(na+nb)+2, pc, na, pc, nb)
		kc, ok := seen[src]
		if !ok {
			kc = countPitch(t, src)
			if len(seen) == maxPitchKernels {
				clear(seen)
			}
			seen[src] = kc
		}
		k2, cnt := kc.k, kc.cnt
		if cnt == nil {
			return
		}
		p := map[string]int64{"w": pw, "h": ph}
		if pw+pc < 1 {
			return // no allocation to run the interpreter on
		}
		hs, vals, err := cnt.HierarchyAt(p)
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		checkHierarchyCounts(t, p, hs, vals, traceHierarchy(t, k2, p, nil))
		if t.Failed() {
			t.Logf("kernel:\n%s", src)
		}
	})
}

// pitchKernel is a kernel of FuzzAffinePitch and its counts, nil where
// Count refuses it (a strided access whose footprint is not counted) or
// Hierarchy does.
type pitchKernel struct {
	k   *Kernel
	cnt *Counted
}

// countPitch parses and counts a kernel of FuzzAffinePitch; a refusal of
// Hierarchy must carry the advice to declare a dimension per pitch.
func countPitch(t *testing.T, src string) pitchKernel {
	k, err := ParseKernel("pitch.knl", []byte(src), nil)
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	cnt, err := Count(k)
	if err != nil {
		return pitchKernel{k: k}
	}
	if _, err := cnt.Hierarchy(); err != nil {
		if !strings.Contains(err.Error(), "declare the array with a dimension per pitch") {
			t.Fatalf("refusal without the advice: %v\n%s", err, src)
		}
		return pitchKernel{k: k}
	}
	return pitchKernel{k, cnt}
}
