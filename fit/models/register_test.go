package models_test

// The tests of this package compare and rank the models by
// name; importing them registers them for every test of the package, as
// the commands' blank imports do for the commands.
import (
	_ "github.com/uniperf/uniperf/fit/models/cycles"
	_ "github.com/uniperf/uniperf/fit/models/hierarchy"
	_ "github.com/uniperf/uniperf/fit/models/hongkim"
	_ "github.com/uniperf/uniperf/fit/models/linear"
	_ "github.com/uniperf/uniperf/fit/models/resios"
	_ "github.com/uniperf/uniperf/fit/models/xu"
)
