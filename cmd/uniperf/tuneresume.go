package main

import (
	"errors"
	"fmt"
	"io/fs"
	"math"

	"github.com/uniperf/uniperf/datasets/inputfile"
	"github.com/uniperf/uniperf/fit/tune"
)

// resumedTimes reads the measured times that tune --measure --resume
// reuses: those of out (--out), by configuration (tune.Key of the space's
// tunables), in seconds. A missing --out is a fresh start; rows of other
// configurations, or without a time, are ignored. An Arrow file timed on
// another device than timedOn is refused, its times being that device's;
// a file that records no device is resumed with a warning that says so.
// record is the device the rewritten file may name as having timed it:
// timedOn, or "" where times of no recorded device were taken.
func resumedTimes(resume bool, out string, space *tune.Space, timedOn string) (times map[string]float64, record string, err error) {
	if !resume {
		return nil, timedOn, nil
	}
	if out == "" {
		return nil, "", fmt.Errorf("--resume reuses the times of --out: name the table with --out")
	}
	// The table is this command's output, read back: not an input that
	// the guard would keep from being rewritten.
	data, err := inputfile.ReadOutput(out)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]float64{}, timedOn, nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("--resume: %w", readError(err))
	}
	rows, err := tune.ReadMeasured(data, out)
	if err != nil {
		return nil, "", fmt.Errorf("--resume: %w", err)
	}
	recorded, err := tune.TimedOn(data, out)
	if err != nil {
		return nil, "", fmt.Errorf("--resume: %w", err)
	}
	if recorded != "" && !sameDevice(recorded, timedOn) {
		return nil, "", fmt.Errorf("--resume: %s holds times measured on %q, and --measure times on %q: give another --out, or resume on that device",
			out, recorded, timedOn)
	}
	times = map[string]float64{}
	for _, r := range rows {
		key, err := tune.Key(space.Names(), func(n string) (tune.Value, bool) { v, ok := r.Config[n]; return v, ok })
		if err != nil || math.IsNaN(r.Time) || r.Time <= 0 {
			continue
		}
		times[key] = r.Time
	}
	if recorded == "" && len(times) > 0 {
		fmt.Fprintf(stderr, "warning: --resume: %s does not record the device that timed it (CSV, T4 JSON, or an Arrow file of an older uniperf): its %d times are taken as %q's, and it is rewritten without a device; give another --out if they are another device's\n",
			out, len(times), timedOn)
		return times, "", nil
	}
	return times, timedOn, nil
}

// configKey is a configuration's join key, as resumedTimes keys times.
func configKey(space *tune.Space, c tune.Config) string {
	key, _ := tune.Key(space.Names(), space.Env(c))
	return key
}
