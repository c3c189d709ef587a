package counts

// fixed returns u with the parameters replaced by their values, so that
// it is parsed with numbers where the parameters stood: package
// polyhedra projects a set's existential variables as it parses it, and
// projecting them with the parameters still free costs far more.
func (u *uset) fixed(values map[string]int64) (*uset, error) {
	fix := func(pcs []piece) ([]piece, error) {
		out := make([]piece, len(pcs))
		for i, pc := range pcs {
			out[i] = piece{exists: pc.exists, c: make(conj, len(pc.c))}
			for j, x := range pc.c {
				e := x.e
				for _, n := range e.names(nil) {
					if v, ok := values[n]; ok {
						var err error
						if e, err = e.subst(n, qconst(v)); err != nil {
							return nil, err
						}
					}
				}
				out[i].c[j] = cons{e, x.eq}
			}
		}
		return out, nil
	}
	pieces, err := fix(u.pieces)
	if err != nil {
		return nil, err
	}
	meet, err := fix(u.meet)
	return &uset{dims: u.dims, pieces: pieces, meet: meet}, err
}
