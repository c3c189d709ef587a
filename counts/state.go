package counts

// state is the machine state the compiled closures act on.
type state struct {
	v        []int64 // iname and parameter values by slot
	wi       int     // work-item index within the group
	gid, lid [3]int64
	counters []int64
	epoch    int64 // advances at every barrier and group start
}
