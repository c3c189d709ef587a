package counts

import "math"

// poisonInt fills integer temporaries before they are written.
const poisonInt = -559038737 // 0xdeadbeef as an int32

// localMem is one local array of a work-group, with the bookkeeping of
// the race check: for each cell the epoch and work-item of its last write
// and of its last read (reader -2 means several work-items read it).
type localMem struct {
	float  bool
	f      []float64
	i      []int64
	wEpoch []int64
	writer []int32
	rEpoch []int64
	reader []int32
}

func newLocalMem(t DType, n int) *localMem {
	m := &localMem{float: t.IsFloat(), wEpoch: make([]int64, n), writer: make([]int32, n),
		rEpoch: make([]int64, n), reader: make([]int32, n)}
	if m.float {
		m.f = make([]float64, n)
	} else {
		m.i = make([]int64, n)
	}
	return m
}

func (m *localMem) poison() {
	nan := math.NaN()
	for j := range m.f {
		m.f[j] = nan
	}
	for j := range m.i {
		m.i[j] = poisonInt
	}
}

// readRace reports the work-item that wrote cell j since the last
// barrier, if it is not wi, and records wi as a reader.
func (m *localMem) readRace(j int, wi int32, epoch int64) (int32, bool) {
	if m.wEpoch[j] == epoch && m.writer[j] != wi {
		return m.writer[j], true
	}
	switch {
	case m.rEpoch[j] != epoch:
		m.rEpoch[j], m.reader[j] = epoch, wi
	case m.reader[j] != wi:
		m.reader[j] = -2
	}
	return 0, false
}

// writeRace reports another work-item that read or wrote cell j since the
// last barrier, unless the write leaves the value unchanged, and records
// wi as the writer. other is -2 when several work-items read the cell.
func (m *localMem) writeRace(j int, wi int32, epoch int64, same bool) (int32, bool) {
	if !same {
		if m.wEpoch[j] == epoch && m.writer[j] != wi {
			return m.writer[j], true
		}
		if m.rEpoch[j] == epoch && m.reader[j] != wi {
			return m.reader[j], true
		}
	}
	m.wEpoch[j], m.writer[j] = epoch, wi
	return 0, false
}

// privMem is one private temporary, size elements per work-item.
type privMem struct {
	size  int
	float bool
	f     []float64
	i     []int64
}

func (p *privMem) alloc(workItems int) {
	if p.float {
		p.f = make([]float64, p.size*workItems)
	} else {
		p.i = make([]int64, p.size*workItems)
	}
}

func (p *privMem) poison() {
	nan := math.NaN()
	for j := range p.f {
		p.f[j] = nan
	}
	for j := range p.i {
		p.i[j] = poisonInt
	}
}
