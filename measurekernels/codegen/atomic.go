package codegen

import (
	"fmt"
	"strings"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/gpu"
)

// atomicAdd renders atomic_add(lhs, rhs) as a statement: CUDA's
// atomicAdd, which adds f32, i32 and u32 alike, and OpenCL's atomic_add
// for i32 and u32. OpenCL 1.2 has no float atomics, so an f32 addition
// is a compare-and-exchange loop on the float's bits (see helpers).
func (e *emitter) atomicAdd(a *counts.Access, lhs, rhs string) string {
	if e.d.backend == gpu.CUDA || a.Array.DType != counts.F32 {
		fn := "atomic_add"
		if e.d.backend == gpu.CUDA {
			fn = "atomicAdd"
		}
		return fmt.Sprintf("%s(&%s, %s);", fn, lhs, unwrapped(rhs))
	}
	name := atomicHelper(a.Array.Space)
	e.helpers[name] = true
	return fmt.Sprintf("%s(&%s, %s);", name, lhs, unwrapped(rhs))
}

// atomicHelper names OpenCL's f32 atomic addition to a space.
func atomicHelper(s counts.Space) string { return "atomic_add_f32_" + s.String() }

// atomicHelpers defines the f32 atomic additions of OpenCL C that used
// names: a compare-and-exchange loop on the bits of the float, which
// retries until no other work-item changed it in between.
func atomicHelpers(used map[string]bool) string {
	var b strings.Builder
	for _, s := range []counts.Space{counts.Global, counts.Local} {
		if !used[atomicHelper(s)] {
			continue
		}
		q := map[counts.Space]string{counts.Global: "__global", counts.Local: "__local"}[s]
		fmt.Fprintf(&b, "static inline void %s(volatile %s float *p, float v) {\n", atomicHelper(s), q)
		b.WriteString("\tunion { unsigned int u; float f; } old, sum;\n")
		fmt.Fprintf(&b, "\tdo { old.f = *p; sum.f = old.f + v; } while (atomic_cmpxchg((volatile %s unsigned int *)p, old.u, sum.u) != old.u);\n}\n", q)
	}
	return b.String()
}
