// Package xu is Xu's execution-time model (seed 003, Chapter 3; its
// formulas are package fit/xu) on uniperf's counts, registered with
// package models as "xu" ([Model]): a warp's computation and memory
// times, the active warps from the occupancy, and the groups of blocks.
package xu
