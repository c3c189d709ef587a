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
}
