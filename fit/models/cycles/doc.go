// Package cycles is the cycle-weighted model (seed 004; its formulas are
// package fit/cycles) on uniperf's counts, registered with package models
// as "cycles" ([Model]): one adjusting weight per kernel from one measured
// size of it ([Adjustment]).
package cycles
