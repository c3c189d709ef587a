// Package resios is Resios's latency/throughput model with its warp-level
// simulation (seed 000; its formulas are package fit/resios) on uniperf's
// counts, registered with package models as "resios" ([Model]), and the
// seed's launch-configuration heuristic ([Launch]).
package resios
