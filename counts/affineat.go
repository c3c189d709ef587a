package counts

import "fmt"

// at returns a at the parameter values, affine in the inames: a
// flattened index i*n + j is 1024*i + j at n = 1024.
func (a Affine) at(params map[string]int64) (qaff, error) {
	q := qconst(a.Const)
	for _, t := range a.Terms {
		coef := t.Coeff
		var iname string
		for _, f := range t.Factors() {
			v, ok := params[f]
			if !ok {
				iname = f
				continue
			}
			var err error
			if coef, err = mulInt(coef, v); err != nil {
				return qaff{}, fmt.Errorf("%s overflows 64-bit integers at these sizes", a)
			}
		}
		var err error
		if iname == "" {
			q, err = q.addScaled(qconst(coef), 1)
		} else {
			q, err = q.addScaled(qname(iname), coef)
		}
		if err != nil {
			return qaff{}, fmt.Errorf("%s overflows 64-bit integers at these sizes", a)
		}
	}
	for _, f := range a.Floors {
		num, err := f.Num.at(params)
		if err == nil {
			q, err = q.addScaled(floorOf(num, f.Den), f.Coeff)
		}
		if err != nil {
			return qaff{}, fmt.Errorf("%s overflows 64-bit integers at these sizes", a)
		}
	}
	return q, nil
}

// paramText renders parameter values in the kernel's order: "n=128, m=4".
func paramText(names []string, params map[string]int64) string {
	if len(names) == 0 {
		// Every size is a const: "at " then nothing would name no place.
		return "its const values (it has no parameters)"
	}
	s := ""
	for i, n := range names {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%s=%d", n, params[n])
	}
	return s
}
