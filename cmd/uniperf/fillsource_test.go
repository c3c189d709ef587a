package main

import (
	"testing"

	"github.com/uniperf/uniperf/fit"
)

// fillSource says, for each saturation, the class it was read from with
// that class's error, or why a class placed none, and that the rest came
// from the training error: each want written out by hand.
func TestFillSource(t *testing.T) {
	lat, glob := int64(640), int64(800)
	chain := fit.SaturationReading{Of: fit.SharedSaturation, Class: "grid_fill_chain", Rows: 60, Value: 192, RMS: 0.024}
	local := fit.SaturationReading{Of: fit.LatencySaturation, Class: "grid_fill_local", Rows: 60, Value: 640, RMS: 0.058}
	stream := fit.SaturationReading{Of: fit.GlobalSaturation, Class: "grid_fill_stream", Rows: 4, Error: "too few"}
	const search = "of 0 64 128 192 256 384 512 640 768 1024, the least training error"
	for _, c := range []struct {
		fill fit.GridFill
		read []fit.SaturationReading
		want string
	}{
		{fit.GridFill{Units: 2, Saturation: 1024, Latency: &lat}, nil, "each " + search},
		{fit.GridFill{Units: 132, Saturation: 192}, nil, "each " + search},
		{fit.GridFill{Units: 132, Saturation: 192, Latency: &lat}, []fit.SaturationReading{chain},
			"shared 192 read from the 60 rows of grid_fill_chain, rms error 0.024; the other " + search},
		{fit.GridFill{Units: 132, Saturation: 192, Latency: &lat, Global: &glob}, []fit.SaturationReading{chain, local},
			"shared 192 read from the 60 rows of grid_fill_chain, rms error 0.024; " +
				"latency-bound 640 read from the 60 rows of grid_fill_local, rms error 0.058; the other " + search},
		{fit.GridFill{Units: 132, Saturation: 192, Latency: &lat}, []fit.SaturationReading{chain, local, stream},
			"shared 192 read from the 60 rows of grid_fill_chain, rms error 0.024; " +
				"latency-bound 640 read from the 60 rows of grid_fill_local, rms error 0.058; " +
				"coalesced global not read from the 4 rows of grid_fill_stream: too few; " +
				"the coalesced global accesses share the shared saturation"},
		{fit.GridFill{Units: 132, Saturation: 192, Latency: &lat}, []fit.SaturationReading{chain, {Of: fit.LatencySaturation, Class: "grid_fill_local", Rows: 60, Value: 640, RMS: 0.058, Table: "embedded:h100-cuda-paper.arrow"}},
			"shared 192 read from the 60 rows of grid_fill_chain, rms error 0.024; " +
				"latency-bound 640 read from the 60 rows of grid_fill_local in embedded:h100-cuda-paper.arrow, whose work-groups reach wider than these tables', rms error 0.058"},
	} {
		if got := fillSource(&c.fill, c.read); got != c.want {
			t.Errorf("fillSource(%v, %d readings) =\n%s\nwant\n%s", c.fill, len(c.read), got, c.want)
		}
	}
}
