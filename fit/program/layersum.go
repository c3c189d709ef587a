package program

import (
	"errors"
	"fmt"
	"math"
)

// Phase says in which pass of a training iteration a kernel runs.
type Phase int

const (
	Forward Phase = iota
	Backward
)

func (p Phase) String() string {
	switch p {
	case Forward:
		return "forward"
	case Backward:
		return "backward"
	}
	return fmt.Sprintf("Phase(%d)", int(p))
}

// KernelTime is one kernel launch of a program with its predicted time.
type KernelTime struct {
	Layer   string // the layer the launch belongs to, e.g. "conv1"
	Kernel  string // the kernel's name
	Phase   Phase
	Seconds float64
}

// Timeline is a sequence of kernel launches, layer by layer, with the
// host-side times of (6-1) and (6-2).
type Timeline struct {
	// Loading is t_loading of (6-2): moving the input data and the
	// instructions to the device.
	Loading float64
	// Update is t_update of (6-4): the parameter update after the
	// backward pass (zero for inference).
	Update float64
	// Kernels are the launches in program order.
	Kernels []KernelTime
}

// LayerTime is one layer's share: (6-7) and (6-8).
type LayerTime struct {
	Name              string
	Forward, Backward float64
	Kernels           []KernelTime
}

// Breakdown is a program's predicted time, (6-4)–(6-8).
type Breakdown struct {
	Total, Loading, Forward, Backward, Update float64
	// Layers are in order of first appearance in the program.
	Layers []LayerTime
}

// SumProgram adds up a program's kernel predictions after Xu's layer-sum
// model (seed 003, Ch. 6): t_total = t_loading + t_forward + t_backward +
// t_update (6-4), where t_forward and t_backward sum the layers (6-5),
// (6-6) and each layer sums its kernels (6-7), (6-8). Kernels run one after
// another, as the thesis assumes.
func SumProgram(p Timeline) (Breakdown, error) {
	if err := checkTime("loading time", p.Loading); err != nil {
		return Breakdown{}, err
	}
	if err := checkTime("update time", p.Update); err != nil {
		return Breakdown{}, err
	}
	if len(p.Kernels) == 0 {
		return Breakdown{}, errors.New("program: no kernel launches")
	}
	b := Breakdown{Loading: p.Loading, Update: p.Update}
	index := make(map[string]int)
	for i, k := range p.Kernels {
		if k.Layer == "" {
			return Breakdown{}, fmt.Errorf("program: launch %d (%s) has no layer name", i+1, k.Kernel)
		}
		if err := checkTime(fmt.Sprintf("launch %d (%s/%s)", i+1, k.Layer, k.Kernel), k.Seconds); err != nil {
			return Breakdown{}, err
		}
		j, ok := index[k.Layer]
		if !ok {
			j = len(b.Layers)
			index[k.Layer] = j
			b.Layers = append(b.Layers, LayerTime{Name: k.Layer})
		}
		l := &b.Layers[j]
		l.Kernels = append(l.Kernels, k)
		switch k.Phase {
		case Forward:
			l.Forward += k.Seconds
			b.Forward += k.Seconds
		case Backward:
			l.Backward += k.Seconds
			b.Backward += k.Seconds
		default:
			return Breakdown{}, fmt.Errorf("program: launch %d (%s/%s) has unknown phase %v", i+1, k.Layer, k.Kernel, k.Phase)
		}
	}
	b.Total = b.Loading + b.Forward + b.Backward + b.Update
	return b, nil
}

func checkTime(what string, t float64) error {
	if !(t >= 0) || math.IsInf(t, 0) {
		return fmt.Errorf("program: %s must be finite and non-negative, have %g s", what, t)
	}
	return nil
}
