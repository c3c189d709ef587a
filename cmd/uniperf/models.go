package main

// The models register themselves with package models by name
// (models.New); importing them here makes every one available to every
// command.
import (
	_ "github.com/uniperf/uniperf/fit/models/cycles"
	_ "github.com/uniperf/uniperf/fit/models/hierarchy"
	_ "github.com/uniperf/uniperf/fit/models/hongkim"
	_ "github.com/uniperf/uniperf/fit/models/linear"
	_ "github.com/uniperf/uniperf/fit/models/resios"
	_ "github.com/uniperf/uniperf/fit/models/xu"
)
