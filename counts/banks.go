package counts

import (
	"fmt"
	"maps"
	"math/bits"
	"slices"
	"strconv"
)

// Local memory is divided into banks: consecutive words of BankBytes
// bytes lie in consecutive banks, and the lanes of one warp (as many
// lanes as banks) that access different words of one bank are served
// one after another. The conflict degree of a warp's access is the
// largest number of distinct words any bank is asked for, divided by the
// words one element spans (an 8-byte element spans two 4-byte banks, and
// the two wavefronts a warp's stride-1 f64 access takes are its width,
// not a conflict). Lanes reading the same word are served at once.

// Default local-memory banks: 32 banks of 4 bytes, as on NVIDIA GPUs
// since Fermi and on AMD GPUs since GCN.
const (
	DefaultBanks     = 32
	DefaultBankBytes = 4
)

// maxBanks is the most banks Options may give, so that the conflict
// classes are a short list that the documentation can name.
const maxBanks = 64

// maxBankWarps bounds the warps of a work-group that bankClasses
// enumerates; a larger group is judged by its first warps, and its
// classes are upper bounds.
const maxBankWarps = 1024

// banks returns the bank layout of the options, the defaults where they
// are zero.
func (o Options) banks() (banks, bytes int64) {
	banks, bytes = int64(o.Banks), int64(o.BankBytes)
	if banks <= 0 {
		banks = DefaultBanks
	}
	if bytes <= 0 {
		bytes = DefaultBankBytes
	}
	return banks, bytes
}

// bankClasses returns the conflict classes of a local access executed in
// the inames within under the conditions conds, warp by warp: the
// work-items of a group form warps of banks lanes in the order of their
// linear local id (l.0 fastest), and each warp's degree is the largest
// number of distinct words any bank is asked for by its active lanes,
// over the words one element spans. A lane is active where the
// instruction's local-id inames are in their range and the constraints
// and conditions that name only them hold (tx == 0 leaves one lane of
// each row). The degrees are decided once per access, from the
// work-group's shape and the subscripts, by evaluating the access's word
// address in every lane: the l.a iname runs at its least value plus the
// local id along a, and every other iname and parameter is zero, which
// moves every lane's address alike when they enter the subscripts
// affinely and so leaves the degrees as they are. A subscript whose lane
// inames enter a floor or remainder is judged at that one point. The
// work-group's size along an axis is the largest constant extent of the
// inames tagged with it; an axis whose extent depends on the parameters
// counts as banks work-items wide, so that a warp lies along it.
//
// Where every warp is of one class, the class holds every execution.
// Where they differ, factored says whether each class is its lanes times
// the executions of the rest of the instruction: so when no constraint or
// condition names a local-id iname beside another iname or a parameter,
// and every local axis wider than one has an iname of the instruction.
// Otherwise the caller applies the largest degree to every execution, as
// an upper bound. A constraint of the domain that ties the lanes to
// other inames cuts a group short at the domain's edge (i = LX*i_out +
// i_in < n): such a group is judged as a full one, as every group is.
// A condition that does (tx < n) leaves lanes that are known only at a
// size: every lane is taken as active, and upper says that the classes
// are then upper bounds.
//
// shared, where not nil, keeps the classes for other bindings of the
// kernel's consts: where the lanes' forms are affine, the classes depend
// on them and on the work-group's shape only.
func (k *Kernel) bankClasses(acc *Access, within []string, conds []dnf, banks, bankBytes int64, shared *Shared) (classes []bankClass, factored, upper bool, err error) {
	var size [3]int64
	for a := range size {
		size[a] = 1
	}
	for _, in := range k.Inames {
		if in.Tag.Kind != LocalID {
			continue
		}
		ext := banks
		if lo, hi, ok := k.ConstantRange(in.Name); ok {
			ext = max(hi-lo+1, 1)
		}
		size[in.Tag.Axis] = max(size[in.Tag.Axis], ext)
	}
	var lane [3]string
	var base, ext [3]int64
	lanes := map[string]bool{}
	for _, n := range within {
		in := k.inameIndex[n]
		if in.Tag.Kind != LocalID {
			continue
		}
		a := in.Tag.Axis
		lane[a], ext[a] = n, size[a]
		lanes[n] = true
		if lo, hi, ok := k.ConstantRange(n); ok {
			base[a], ext[a] = lo, hi-lo+1
		}
	}
	factored = true
	for a := range 3 {
		factored = factored && (size[a] == 1 || lane[a] != "")
	}
	var laneConds []dnf
	add := func(d dnf, cond bool) {
		names := d.names()
		switch {
		case !slices.ContainsFunc(names, func(n string) bool { return lanes[n] }):
			// The same for every lane of a group.
		case slices.ContainsFunc(names, func(n string) bool { return !lanes[n] }):
			factored = false
			upper = upper || cond
		default:
			laneConds = append(laneConds, d)
		}
	}
	for _, di := range k.relevantDomains(within) {
		if set := k.Domains[di].set; len(set) == 1 {
			for _, c := range set[0] {
				add(dnf{conj{c}}, false)
			}
		} else {
			add(set, false)
		}
	}
	for _, d := range conds {
		add(d, true)
	}
	vals := map[string]int64{}
	for _, in := range k.Inames {
		vals[in.Name] = 0
	}
	for _, p := range k.Params {
		vals[p] = 0
	}
	elem := int64(acc.Array.DType.Size())
	if size[0]*size[1]*size[2] > banks*maxBankWarps {
		factored = false
	}
	var top [3]int64
	for a := range 3 {
		top[a] = base[a] + ext[a] - 1
	}
	at := newLanes(acc, lane, base, top, laneConds, vals)
	w := warps{at: at, size: size, base: base, ext: ext, elem: elem, banks: banks, bankBytes: bankBytes}
	for a := range 3 {
		w.lanes[a] = lane[a] != ""
	}
	if shared == nil || !at.affine {
		classes, err = w.classes()
		return classes, factored, upper, err
	}
	key := string(w.appendKey(nil))
	if c, ok := shared.bankClasses(key); ok {
		return c, factored, upper, nil
	}
	if classes, err = w.classes(); err == nil {
		shared.keepBankClasses(key, classes)
	}
	return classes, factored, upper, err
}

// warps is the work-group of an access, warp by warp, as bankClasses
// classes it: size is the work-group's shape, and the lanes of the axes
// the access has an iname of (lanes[a]) take the values base[a] on
// within ext[a] work-items, the others idle.
type warps struct {
	at               *lanes
	size, base, ext  [3]int64
	lanes            [3]bool
	elem             int64 // bytes per element
	banks, bankBytes int64
}

// appendKey appends to b everything classes reads where w.at is affine.
func (w *warps) appendKey(b []byte) []byte {
	for a := range 3 {
		b = strconv.AppendInt(b, w.size[a], 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, w.base[a], 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, w.ext[a], 10)
		b = append(b, ',')
		b = strconv.AppendBool(b, w.lanes[a])
		b = append(b, ';')
	}
	for _, v := range []int64{w.elem, w.banks, w.bankBytes} {
		b = strconv.AppendInt(b, v, 10)
		b = append(b, ',')
	}
	return w.at.appendKey(b)
}

// classes evaluates every warp's degree and returns the classes.
func (g *warps) classes() ([]bankClass, error) {
	size, base, ext, banks, bankBytes, elem := g.size, g.base, g.ext, g.banks, g.bankBytes, g.elem
	span := max(elem/bankBytes, 1) // words per element
	total := size[0] * size[1] * size[2]
	byDegree := map[int64]int64{}   // degree -> active lanes
	words := make([][]int64, banks) // bank -> distinct words
	for w := int64(0); w < min((total+banks-1)/banks, maxBankWarps); w++ {
		for b := range words {
			words[b] = words[b][:0]
		}
		active := int64(0)
		for t := w * banks; t < min((w+1)*banks, total); t++ {
			q := [3]int64{t % size[0], t / size[0] % size[1], t / (size[0] * size[1])}
			idle := false
			var v [3]int64
			for a := range 3 {
				if g.lanes[a] {
					idle = idle || q[a] >= ext[a]
					v[a] = base[a] + q[a]
				}
			}
			if idle {
				continue
			}
			in, flat, err := g.at.at(v)
			if err != nil {
				return nil, err
			}
			if !in {
				continue
			}
			active++
			first := floorDiv(flat*elem, bankBytes)
			for x := first; x < first+span; x++ {
				b := (x%banks + banks) % banks
				if !slices.Contains(words[b], x) {
					words[b] = append(words[b], x)
				}
			}
		}
		degree := int64(1)
		for _, ws := range words {
			degree = max(degree, powerOfTwoAbove((int64(len(ws))+span-1)/span))
		}
		if active > 0 {
			byDegree[degree] += active
		}
	}
	var classes []bankClass
	for _, d := range slices.Sorted(maps.Keys(byDegree)) {
		classes = append(classes, bankClass{degree: d, lanes: byDegree[d]})
	}
	return classes, nil
}

// powerOfTwoAbove returns the least power of two at least n (n >= 1).
func powerOfTwoAbove(n int64) int64 {
	if n <= 1 {
		return 1
	}
	return 1 << bits.Len64(uint64(n-1))
}

// conflictProperty names the property that counts, a second time
// beside local.load.<t> and local.store.<t>, the local loads and stores
// of t whose degree is more than D/2 and at most D: local.<t>.conflict=D.
// Its weight is then what such an access costs beyond a conflict-free
// one, as global.minldst corrects the global accesses; a kernel free of
// conflicts counts as it did before there were conflict classes, and
// weights fitted before them price it as they did. Loads and stores
// share the classes because a warp's access takes its passes either
// way, and because a kernel that conflicts in both, as a transposing
// tile does, conflicts alike in both: split by direction, the two would
// be collinear over the measurement rows.
func conflictProperty(t DType, degree int64) string {
	return "local." + t.MemName() + ".conflict=" + strconv.FormatInt(degree, 10)
}

// conflictWords describes a conflict class for Describe.
func conflictWords(class string) string {
	d, err := strconv.ParseInt(class, 10, 64)
	if err != nil || d < 2 || d&(d-1) != 0 {
		return ""
	}
	lo := d/2 + 1
	if lo == d {
		return fmt.Sprintf("bank conflicts of degree %d (a warp's access served in %d passes)", d, d)
	}
	return fmt.Sprintf("bank conflicts of degree %d to %d (a warp's access served in up to %d passes)", lo, d, d)
}
