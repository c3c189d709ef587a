// Package analytic is what the analytical models (packages hongkim,
// cycles, resios and xu under fit/models) share: what a launch means to
// them on uniperf's counts. [PerThreadOf] divides a launch's counts by its
// work-items into the categories they price ([PerThread],
// [GlobalAccess]); [OccupancyOf] and [Occupancy] are its residency on a
// device; a [Tracer] ([TraceOf] for one launch) derives the [Trace] of a
// warp, region by region; [PrepareRows] counts, traces and sizes measured
// rows, and [RelFit] fits non-negative constants by relative error.
package analytic
