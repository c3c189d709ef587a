package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/uniperf/uniperf/fit/models"
	"github.com/uniperf/uniperf/fit/models/cycles"
)

// oneRunUsage documents predict --one-run.
const oneRunUsage = "with --model cycles: seed 004's adjusting factor from one measured run of the kernel itself, PARAMS:SECONDS (n=1048576:3.1e-4; several parameters n=512,m=512:...), at the consts predicted; the output says that a run was used"

// oneRun is a parsed --one-run: the run's parameters and measured time.
type oneRun struct {
	params  map[string]int64
	seconds float64
}

// parseOneRun reads --one-run PARAMS:SECONDS for a model, which must be
// the cycles model.
func parseOneRun(spec, model string) (*oneRun, error) {
	if spec == "" {
		return nil, nil
	}
	if model != "cycles" {
		return nil, fmt.Errorf("--one-run is seed 004's adjusting factor, for --model cycles only (have --model %s)", model)
	}
	i := strings.LastIndex(spec, ":")
	if i < 0 {
		return nil, fmt.Errorf("--one-run %q: want PARAMS:SECONDS, the sizes and measured time of one run (n=1048576:3.1e-4)", spec)
	}
	params, err := parseBindings("--one-run", strings.Split(spec[:i], ","))
	if err != nil {
		return nil, err
	}
	s, err := strconv.ParseFloat(spec[i+1:], 64)
	if err != nil || !(s > 0) || s > 1e9 {
		return nil, fmt.Errorf("--one-run %q: the measured time %q must be a positive number of seconds", spec, spec[i+1:])
	}
	return &oneRun{params, s}, nil
}

// apply gives m the run, at the consts of the case about to be predicted.
func (r *oneRun) apply(m models.Model, env *models.Env, kernel string, consts map[string]int64) error {
	if r == nil {
		return nil
	}
	c, ok := m.(*cycles.Model)
	if !ok {
		return fmt.Errorf("--one-run: the calibration holds a %s model, not cycles", m.Name())
	}
	return c.OneRun(env, models.Case{Kernel: kernel, Consts: consts, Params: r.params}, r.seconds)
}

// note says, under a table of predictions, that they used one run.
func (r *oneRun) note(out io.Writer, kernel string) {
	if r != nil {
		fmt.Fprintf(out, "\nadjusting factor: seed 004's, from one measured run of %s at %s (%s), not from the calibration\n", kernel, models.ParamString(r.params), seconds(r.seconds))
	}
}
