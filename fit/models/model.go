package models

import (
	"fmt"
	"maps"
	"slices"
	"sort"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/fit/gpus"
)

// Case is one kernel launch: a kernel (a library name, or a .knl path
// that the Env's Counter reads) with its consts bound, at parameters.
type Case struct {
	Kernel string
	Consts map[string]int64
	Params map[string]int64
}

// CaseOf is the launch a measured row timed.
func CaseOf(r Row) Case {
	return Case{Kernel: r.Kernel, Consts: r.Consts, Params: r.Params}
}

// Env is what models share on one device.
type Env struct {
	Counter *Counter
	// Device holds the device's parameters; nil where none is known,
	// which only models that need no device parameters accept.
	Device *gpus.Device
}

// Inputs are the facts about a launch that every model may draw on.
type Inputs struct {
	Kernel *counts.Kernel
	// Counts are the kernel's properties at the case's parameters (totals
	// over all work-items; see package counts).
	Counts map[string]int64
	// Global and Local are the launch grid: work-items and work-group
	// size per axis (1 on unused axes).
	Global, Local [3]int64
	// LocalBytes is the local memory a work-group declares.
	LocalBytes int64
}

// WorkItems is the number of work-items launched.
func (in *Inputs) WorkItems() int64 { return in.Global[0] * in.Global[1] * in.Global[2] }

// GroupSize is the number of work-items per work-group.
func (in *Inputs) GroupSize() int64 { return in.Local[0] * in.Local[1] * in.Local[2] }

// Groups is the number of work-groups launched.
func (in *Inputs) Groups() int64 { return in.WorkItems() / in.GroupSize() }

// Inputs counts and sizes a launch. The result is shared between
// callers and must not be modified.
func (e *Env) Inputs(c Case) (*Inputs, error) {
	key := c.key()
	if in, ok := e.Counter.inputs.Load(key); ok {
		return in.(*Inputs), nil
	}
	in, err := e.newInputs(c)
	if err != nil {
		return nil, err
	}
	e.Counter.inputs.Store(key, in)
	return in, nil
}

// key identifies a case (see caseKey).
func (c Case) key() string { return caseKey(c.Kernel, c.Consts, c.Params) }

func (e *Env) newInputs(c Case) (*Inputs, error) {
	counted, err := e.Counter.Kernel(c.Kernel, c.Consts)
	if err != nil {
		return nil, err
	}
	values, err := counted.Eval(c.Params)
	if err != nil {
		return nil, fmt.Errorf("kernel %s: %w", c.Kernel, err)
	}
	k := counted.Kernel()
	global, local, err := k.Launch(c.Params)
	if err != nil {
		return nil, fmt.Errorf("kernel %s: %w", c.Kernel, err)
	}
	if err := CheckLaunch(c.Kernel, c.Params, global, local); err != nil {
		return nil, err
	}
	return &Inputs{Kernel: k, Counts: values, Global: global, Local: local, LocalBytes: k.LocalBytes()}, nil
}

// Quantity is one intermediate quantity of a prediction.
type Quantity struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
	Unit  string  `json:"unit,omitempty"`
	Note  string  `json:"note,omitempty"` // the equation or reading it comes from
}

// Prediction is a predicted run time and how the model arrived at it.
type Prediction struct {
	Seconds float64    `json:"seconds"`
	Explain []Quantity `json:"explain"`
}

// Model predicts kernel run times on one device.
type Model interface {
	// Name is the name the model is registered under.
	Name() string
	// Calibrate fits the model's free parameters to measured rows of the
	// Env's device. A model without free parameters checks that the Env
	// has what it needs.
	Calibrate(env *Env, rows []Row) error
	// Predict predicts a launch. It is called after Calibrate.
	Predict(env *Env, c Case) (Prediction, error)
	// Summary says in one line what calibration found, for reports.
	Summary() string
}

// SizeSensitivity is how a model's error on a kernel's sizes depends on the
// size that calibrates it (the cycle-weighted model's adjusting weight).
type SizeSensitivity struct {
	Device string
	Key    string   // kernel name and consts
	Sizes  []string // size labels, by increasing measured time
	// Errors[i] is the geometric-mean relative error on the other sizes
	// when the kernel is calibrated on Sizes[i].
	Errors []float64
}

// SizeSensitive is implemented by a model whose calibration of a kernel
// rests on one of its sizes; Compare reports how its error moves with that
// size.
type SizeSensitive interface {
	SizeSensitivity(env *Env, rows []Row) (out []SizeSensitivity, skipped []string, err error)
}

// FoldCalibrator is implemented by a model that calibrates a
// cross-validation fold (the measurement rows less one kernel class) from
// the same model calibrated on every measurement row, reusing what that
// calibration chose, so that CrossValidate need not repeat each choice per
// fold. Hong–Kim reuses its rows rule and starts its search at the full
// fit's parameters; the cycle-weighted model reads the full fit's DRAM
// shares.
type FoldCalibrator interface {
	CalibrateFold(env *Env, rows []Row, full Model) error
}

var registry = map[string]func() Model{}

// Register makes a model available to New under name. It is called from
// init functions; registering a name twice panics, as a programming error.
func Register(name string, make func() Model) {
	if _, dup := registry[name]; dup {
		panic("models: " + name + " registered twice")
	}
	registry[name] = make
}

// New returns a new, uncalibrated model by name.
func New(name string) (Model, error) {
	make, ok := registry[name]
	if !ok {
		return nil, fmt.Errorf("no model %q (the models: %v)", name, Names())
	}
	return make(), nil
}

// Names lists the registered models, sorted.
func Names() []string {
	names := slices.Collect(maps.Keys(registry))
	sort.Strings(names)
	return names
}
