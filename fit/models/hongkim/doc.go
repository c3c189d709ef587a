// Package hongkim is Hong and Kim's MWP–CWP model (seed 002; its
// formulas are package fit/hongkim) on uniperf's counts, registered with
// package models as "hongkim" ([Model]): per-thread inputs from the
// counts, its three memory parameters from the device file or fitted to
// measured rows ([Memory], [Fit]).
package hongkim
