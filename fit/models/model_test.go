package models

import (
	"slices"
	"strings"
	"testing"
)

func TestRegistry(t *testing.T) {
	if !slices.Contains(Names(), "linear") {
		t.Errorf("models %v lack linear", Names())
	}
	m, err := New("linear")
	if err != nil || m.Name() != "linear" {
		t.Fatalf("New(linear): %v, %v", m, err)
	}
	if _, err := New("oracle"); err == nil || !strings.Contains(err.Error(), `no model "oracle"`) {
		t.Errorf("unknown model: %v", err)
	}
}

// TestInputs checks the launch facts of two library kernels against the
// kernel text: global_copy splits n by LX (one element per work-item);
// matmul_tiled holds two 16 x 16 f32 tiles in local memory.
func TestInputs(t *testing.T) {
	env := &Env{Counter: NewCounter(nil)}
	in, err := env.Inputs(Case{Kernel: "global_copy", Consts: map[string]int64{"LX": 256}, Params: map[string]int64{"n": 1000}})
	if err != nil {
		t.Fatal(err)
	}
	if in.Global != [3]int64{1024, 1, 1} || in.Local != [3]int64{256, 1, 1} || in.Groups() != 4 || in.LocalBytes != 0 {
		t.Errorf("global_copy: global %v local %v groups %d local bytes %d", in.Global, in.Local, in.Groups(), in.LocalBytes)
	}
	if in.Counts["global.load.f32.stride=1"] != 1000 || in.Counts["global.store.f32.stride=1"] != 1000 {
		t.Errorf("global_copy counts %v", in.Counts)
	}
	in, err = env.Inputs(Case{Kernel: "matmul_tiled", Params: map[string]int64{"n": 64, "m": 64, "ell": 64}})
	if err != nil {
		t.Fatal(err)
	}
	if in.LocalBytes != 2*16*16*4 || in.GroupSize() != 256 || in.WorkItems() != 64*64 {
		t.Errorf("matmul_tiled: local bytes %d group %d work-items %d", in.LocalBytes, in.GroupSize(), in.WorkItems())
	}
	if _, err := env.Inputs(Case{Kernel: "global_copy", Params: map[string]int64{"m": 4}}); err == nil {
		t.Error("a missing parameter gives no error")
	}
	// copy's domain 0 <= i < n has no point at n = 0 (it assumes
	// nothing of n): every model that divides by the groups would
	// divide by zero.
	src := "kernel copy\ndomain [n] -> { [i] : 0 <= i < n }\narray a f32 [n]\narray b f32 [n]\nsplit i 16 i_out i_in\ntag i_out g.0, i_in l.0\nb[i] = a[i]\n"
	env = &Env{Counter: NewCounter(func(string) (string, []byte, error) { return "copy.knl", []byte(src), nil })}
	_, err = env.Inputs(Case{Kernel: "copy", Params: map[string]int64{"n": 0}})
	if err == nil || !strings.Contains(err.Error(), "copy: the launch grid at n=0 is empty along axis 0") {
		t.Errorf("n = 0: %v, want the empty launch grid", err)
	}
}
