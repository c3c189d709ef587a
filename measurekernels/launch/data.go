package launch

import (
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/counts/half"
	"github.com/uniperf/uniperf/measurekernels/gpu"
)

// arrayUse says which global arrays an instruction reads and which it
// writes: inputs get random data, outputs are poisoned before a
// correctness run. The target of an atomic_add is read too: the sums
// start from its data. index lists the arrays whose elements subscript
// others (perm of x[perm[i]], or through a temporary, col = cols[j] and
// vec[col]), which get valid subscripts (see indices). bounds lists, for
// an integer array that a data-bounded loop's bound is copied from
// (CSR's end = rowptr[row + 1]), the loops' most trips N: it gets values
// from 0 to N, so that no loop runs more than N trips.
type arrayUse struct {
	read, written map[string]bool
	index         map[string][]indexUse
	bounds        map[string][]counts.Affine
	// copies maps a private scalar to the global integer element it was
	// last assigned, whose role it takes.
	copies map[*counts.Array]*counts.Access
}

func usesOf(k *counts.Kernel) arrayUse {
	u := arrayUse{read: map[string]bool{}, written: map[string]bool{}, index: map[string][]indexUse{},
		bounds: map[string][]counts.Affine{}, copies: map[*counts.Array]*counts.Access{}}
	for _, s := range k.Statements {
		ins, ok := s.(*counts.Instruction)
		if !ok {
			continue
		}
		if l := ins.LHS.Array; l.Space == counts.Private && len(l.Shape) == 0 {
			delete(u.copies, l)
			if a, ok := uncast(ins.RHS).(*counts.Access); ok && a.Array.Space == counts.Global && a.Array.DType.IsInt() && ins.Pred == nil {
				u.copies[l] = a
			}
		}
		if ins.LHS.Array.Space == counts.Global {
			u.written[ins.LHS.Array.Name] = true
			u.read[ins.LHS.Array.Name] = u.read[ins.LHS.Array.Name] || ins.Atomic
		}
		u.noteIndices(ins.LHS)
		for _, x := range append([]counts.Expr{ins.RHS, ins.Pred}, ins.LHS.Indirect...) {
			if x == nil {
				continue
			}
			counts.Walk(x, func(e counts.Expr) bool {
				if a, ok := e.(*counts.Access); ok && a.Array.Space == counts.Global {
					u.read[a.Array.Name] = true
				}
				if a, ok := e.(*counts.Access); ok {
					u.noteIndices(a)
				}
				return true
			})
		}
	}
	u.noteBounds(k)
	return u
}

// elements is the number of elements of a global array at params.
func elements(a *counts.Array, params map[string]int64) (int64, error) {
	n := int64(1)
	for d, ext := range a.Shape {
		v, err := ext.Eval(params)
		if err != nil {
			return 0, fmt.Errorf("array %s: extent: %w", a.Name, err)
		}
		if v <= 0 {
			return 0, fmt.Errorf("array %s: extent %d along dimension %d is not positive", a.Name, v, d)
		}
		if n > math.MaxInt64/v {
			return 0, fmt.Errorf("array %s: size overflows", a.Name)
		}
		n *= v
	}
	return n, nil
}

// rng is a small deterministic generator (xorshift64*) for test data.
type rng uint64

func (r *rng) next() uint64 {
	x := uint64(*r)
	x ^= x >> 12
	x ^= x << 25
	x ^= x >> 27
	*r = rng(x)
	return x * 2685821657736338717
}

// unit returns a value in [0.5, 1.5): positive and away from zero, so that
// division, pow, log and rsqrt stay finite.
func (r *rng) unit() float64 { return 0.5 + float64(r.next()>>11)/(1<<53) }

// elem is an element type of a global array.
type elem interface {
	float32 | float64 | int32 | int64 | int8 | uint8 | int16 | uint16 | uint32 | half.Float
}

// codec is how one element type is encoded for the device, drawn at
// random (floats in [0.5, 1.5), halves the nearest to such values,
// integers in [0, 16)) and poisoned (NaN, or a sentinel for integers).
type codec[T elem] struct {
	size   int
	put    func(b []byte, v T)
	get    func(b []byte) T
	random func(r *rng) T
	poison T
}

var (
	f32Codec = codec[float32]{4, func(b []byte, v float32) { binary.LittleEndian.PutUint32(b, math.Float32bits(v)) },
		func(b []byte) float32 { return math.Float32frombits(binary.LittleEndian.Uint32(b)) },
		drawF32, float32(math.NaN())}
	f64Codec = codec[float64]{8, func(b []byte, v float64) { binary.LittleEndian.PutUint64(b, math.Float64bits(v)) },
		func(b []byte) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(b)) },
		drawF64, math.NaN()}
	i32Codec = codec[int32]{4, func(b []byte, v int32) { binary.LittleEndian.PutUint32(b, uint32(v)) },
		func(b []byte) int32 { return int32(binary.LittleEndian.Uint32(b)) },
		drawI32, math.MinInt32 + 7}
	u32Codec = codec[uint32]{4, func(b []byte, v uint32) { binary.LittleEndian.PutUint32(b, v) },
		binary.LittleEndian.Uint32, drawSmall[uint32], math.MaxUint32 - 7}
	i64Codec = codec[int64]{8, func(b []byte, v int64) { binary.LittleEndian.PutUint64(b, uint64(v)) },
		func(b []byte) int64 { return int64(binary.LittleEndian.Uint64(b)) },
		drawI64, math.MinInt64 + 7}
	i8Codec = codec[int8]{1, func(b []byte, v int8) { b[0] = byte(v) }, func(b []byte) int8 { return int8(b[0]) },
		drawSmall[int8], math.MinInt8 + 7}
	u8Codec = codec[uint8]{1, func(b []byte, v uint8) { b[0] = v }, func(b []byte) uint8 { return b[0] },
		drawSmall[uint8], math.MaxUint8 - 7}
	i16Codec = codec[int16]{2, func(b []byte, v int16) { binary.LittleEndian.PutUint16(b, uint16(v)) },
		func(b []byte) int16 { return int16(binary.LittleEndian.Uint16(b)) }, drawSmall[int16], math.MinInt16 + 7}
	u16Codec = codec[uint16]{2, func(b []byte, v uint16) { binary.LittleEndian.PutUint16(b, v) },
		func(b []byte) uint16 { return binary.LittleEndian.Uint16(b) }, drawSmall[uint16], math.MaxUint16 - 7}
	f16Codec = codec[half.Float]{2, func(b []byte, v half.Float) { binary.LittleEndian.PutUint16(b, uint16(v)) },
		func(b []byte) half.Float { return half.Float(binary.LittleEndian.Uint16(b)) }, drawF16, 0x7e00}
)

// drawSmall draws an 8- or 16-bit integer or a u32 in [0, 16), as the
// others.
func drawSmall[T int8 | uint8 | int16 | uint16 | uint32](r *rng) T { return T(r.next() % 16) }

func drawF32(r *rng) float32    { return float32(r.unit()) }
func drawF64(r *rng) float64    { return r.unit() }
func drawF16(r *rng) half.Float { return half.FromFloat64(r.unit()) }
func drawI32(r *rng) int32      { return int32(r.next() % 16) }
func drawI64(r *rng) int64      { return int64(r.next() % 16) }

// hostArray is a global array's data on the host, as a typed slice for
// the reference interpreter.
type hostArray interface {
	len() int64
	fill(r *rng)
	poison()
	clone() hostArray
	bytes() []byte
	decode(b []byte) hostArray // a new array of this type from device bytes
	at(i int64) float64
	slice() any // the typed slice: []float32, []int8, ...
}

type typedArray[T elem] struct {
	c codec[T]
	s []T
}

func newHostArray(t counts.DType, n int64) hostArray {
	switch t {
	case counts.F32:
		return &typedArray[float32]{f32Codec, make([]float32, n)}
	case counts.F64:
		return &typedArray[float64]{f64Codec, make([]float64, n)}
	case counts.I32:
		return &typedArray[int32]{i32Codec, make([]int32, n)}
	case counts.U32:
		return &typedArray[uint32]{u32Codec, make([]uint32, n)}
	case counts.I8:
		return &typedArray[int8]{i8Codec, make([]int8, n)}
	case counts.U8:
		return &typedArray[uint8]{u8Codec, make([]uint8, n)}
	case counts.I16:
		return &typedArray[int16]{i16Codec, make([]int16, n)}
	case counts.U16:
		return &typedArray[uint16]{u16Codec, make([]uint16, n)}
	case counts.F16:
		return &typedArray[half.Float]{f16Codec, make([]half.Float, n)}
	default:
		return &typedArray[int64]{i64Codec, make([]int64, n)}
	}
}

func (a *typedArray[T]) len() int64 { return int64(len(a.s)) }

func (a *typedArray[T]) fill(r *rng) {
	for i := range a.s {
		a.s[i] = a.c.random(r)
	}
}

func (a *typedArray[T]) poison() {
	for i := range a.s {
		a.s[i] = a.c.poison
	}
}

func (a *typedArray[T]) clone() hostArray {
	return &typedArray[T]{a.c, append([]T(nil), a.s...)}
}

func (a *typedArray[T]) bytes() []byte {
	b := make([]byte, len(a.s)*a.c.size)
	for i, v := range a.s {
		a.c.put(b[i*a.c.size:], v)
	}
	return b
}

func (a *typedArray[T]) decode(b []byte) hostArray {
	out := &typedArray[T]{a.c, make([]T, len(a.s))}
	for i := range out.s {
		out.s[i] = a.c.get(b[i*a.c.size:])
	}
	return out
}

func (a *typedArray[T]) at(i int64) float64 {
	if h, ok := any(a.s[i]).(half.Float); ok {
		return h.Float64() // its value, not its bits
	}
	return float64(a.s[i])
}

func (a *typedArray[T]) slice() any { return a.s }

// writeRandom writes n random elements of type t, encoded for the device,
// into b. Inputs of a gigabyte or more took seconds a case when drawn on
// one core into one fresh host array, mostly in first touches of its
// pages, far longer than the kernels they feed. They are drawn a batch at
// a time, a chunk per core, into one host buffer that every batch reuses.
// Each chunk has its own generator, seeded from seed and the chunk's
// index, so the bytes do not depend on the number of cores.
func writeRandom(b gpu.Buffer, t counts.DType, n int64, seed uint64) error {
	size := int64(t.Size())
	chunks := (n + chunkElems - 1) / chunkElems
	batch := min(int64(runtime.GOMAXPROCS(0)), chunks)
	scratch := getScratch(min(n, batch*chunkElems) * size)
	defer scratchPool.Put(scratch)
	for k0 := int64(0); k0 < chunks; k0 += batch {
		k1 := min(chunks, k0+batch)
		var wg sync.WaitGroup
		for k := k0; k < k1; k++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := rng(splitmix(seed+uint64(k)) | 1)
				lo, hi := (k-k0)*chunkElems*size, (min(n, (k+1)*chunkElems)-k0*chunkElems)*size
				drawChunk(t, (*scratch)[lo:hi], &r)
			}()
		}
		wg.Wait()
		written := (min(n, k1*chunkElems) - k0*chunkElems) * size
		if err := b.WriteAt((*scratch)[:written], k0*chunkElems*size); err != nil {
			return err
		}
	}
	return nil
}

// scratchPool keeps the host buffer of writeRandom between cases.
var scratchPool sync.Pool

func getScratch(bytes int64) *[]byte {
	if p, ok := scratchPool.Get().(*[]byte); ok && int64(cap(*p)) >= bytes {
		*p = (*p)[:bytes]
		return p
	}
	p := make([]byte, bytes)
	return &p
}

// chunkElems is the number of elements one generator draws.
const chunkElems = 1 << 20

// drawChunk fills b with random elements of type t. Each type has its own
// loop so that drawing and encoding inline (a codec's function fields do
// not).
func drawChunk(t counts.DType, b []byte, r *rng) {
	switch t {
	case counts.F32:
		for i := 0; i < len(b); i += 4 {
			binary.LittleEndian.PutUint32(b[i:], math.Float32bits(drawF32(r)))
		}
	case counts.F64:
		for i := 0; i < len(b); i += 8 {
			binary.LittleEndian.PutUint64(b[i:], math.Float64bits(drawF64(r)))
		}
	case counts.I32:
		for i := 0; i < len(b); i += 4 {
			binary.LittleEndian.PutUint32(b[i:], uint32(drawI32(r)))
		}
	case counts.U32:
		for i := 0; i < len(b); i += 4 {
			binary.LittleEndian.PutUint32(b[i:], drawSmall[uint32](r))
		}
	case counts.I8, counts.U8:
		for i := range b {
			b[i] = drawSmall[uint8](r)
		}
	case counts.I16, counts.U16:
		for i := 0; i < len(b); i += 2 {
			binary.LittleEndian.PutUint16(b[i:], drawSmall[uint16](r))
		}
	case counts.F16:
		for i := 0; i < len(b); i += 2 {
			binary.LittleEndian.PutUint16(b[i:], uint16(drawF16(r)))
		}
	default:
		for i := 0; i < len(b); i += 8 {
			binary.LittleEndian.PutUint64(b[i:], uint64(drawI64(r)))
		}
	}
}

// splitmix is SplitMix64's output function: it turns neighbouring seeds
// (chunk indices) into unrelated generator states.
func splitmix(x uint64) uint64 {
	x += 0x9E3779B97F4A7C15
	x = (x ^ x>>30) * 0xBF58476D1CE4E5B9
	x = (x ^ x>>27) * 0x94D049BB133111EB
	return x ^ x>>31
}

// scalarArg is a scalar argument's declared value as the Go type of its
// kernel parameter.
func scalarArg(a *counts.Array) any {
	v := a.Value
	switch a.DType {
	case counts.F32:
		return float32(v.Float)
	case counts.F64:
		return v.Float
	case counts.I32:
		return int32(v.Int)
	case counts.U32:
		return int32(uint32(v.Int)) // its 4 bytes, as the backends take them
	}
	return v.Int
}

// noteIndices records the index arrays of an indirect access: a global
// integer array whose element, converted or not, is a whole subscript
// (perm in x[perm[i]], col in x[(int)col[j]]), with the extent it
// subscripts.
func (u arrayUse) noteIndices(a *counts.Access) {
	for d, x := range a.Indirect {
		ix, ok := uncast(x).(*counts.Access)
		if !ok {
			continue
		}
		if c := u.copies[ix.Array]; c != nil {
			ix = c // cols of col = cols[j], even gathered
		} else if ix.IsIndirect() {
			continue
		}
		if ix.Array.Space == counts.Global && ix.Array.DType.IsInt() {
			u.index[ix.Array.Name] = append(u.index[ix.Array.Name], indexUse{a.Array, d})
		}
	}
}

// indexUse is a dimension of an array that an index array subscripts.
type indexUse struct {
	target *counts.Array
	dim    int
}

func uncast(x counts.Expr) counts.Expr {
	if c, ok := x.(*counts.Cast); ok {
		return c.X
	}
	return x
}

// noteBounds records the arrays that the data-bounded loops' bounds are
// copied from.
func (u arrayUse) noteBounds(k *counts.Kernel) {
	for _, in := range k.Inames {
		if in.Data == nil {
			continue
		}
		for _, x := range []counts.Expr{in.Data.Lo, in.Data.Hi} {
			if a, ok := x.(*counts.Access); ok && u.copies[a.Array] != nil {
				name := u.copies[a.Array].Array.Name
				u.bounds[name] = append(u.bounds[name], in.Data.Max)
			}
		}
	}
}

// boundRange is the number of values, 0 to N, that the elements of an
// array the bounds of data-bounded loops are copied from may take at
// params: one more than the least N of those loops; 0 for other arrays.
func (u arrayUse) boundRange(name string, params map[string]int64) int64 {
	var out int64
	for _, n := range u.bounds[name] {
		if v, err := n.Eval(params); err == nil && v >= 0 && (out == 0 || v+1 < out) {
			out = v + 1
		}
	}
	return out
}
