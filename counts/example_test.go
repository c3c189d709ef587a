package counts_test

import (
	"fmt"
	"strings"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/counts/half"
)

const exampleKernel = `kernel scale
const LX = 4
domain [n] -> { [i] : 0 <= i < n }
array x f32 [n]
array y f32 [n]
split i LX i_out i_in
tag i_out g.0, i_in l.0
y[i] = 2*x[i] + 1
`

func ExampleParseKernel() {
	k, err := counts.ParseKernel("scale.knl", []byte(exampleKernel), map[string]int64{"LX": 8})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(k.Domains[0])
	fmt.Print(counts.FormatSchedule(k.Schedule))
	// Output:
	// [n] -> { [i_out, i_in] : i_in >= 0 and i_in <= 7 and 8*i_out + i_in >= 0 and 8*i_out + i_in <= n - 1 }
	// insn_0: y[8*i_out + i_in] = ((2.0f * x[8*i_out + i_in]) + 1.0f)
}

// "split i LX" with LX = 4 launches ceil(n/4) groups of 4 work-items at
// every n, as a C host launching blocks of 4 does: at n = 10 three groups,
// two work-items of the last idle; at n = 3 one group of 4, one idle.
func ExampleKernel_Launch() {
	k, err := counts.ParseKernel("scale.knl", []byte(exampleKernel), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, n := range []int64{10, 3} {
		global, local, err := k.Launch(map[string]int64{"n": n})
		fmt.Println(global, local, err)
	}
	// Output:
	// [12 1 1] [4 1 1] <nil>
	// [4 1 1] [4 1 1] <nil>
}

func ExampleRun() {
	k, err := counts.ParseKernel("scale.knl", []byte(exampleKernel), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	x := []float32{0, 1, 2, 3, 4}
	y := make([]float32, 5)
	tally, err := counts.Run(k, map[string]int64{"n": 5}, map[string]any{"x": x, "y": y}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(y)
	t := tally.Totals()
	fmt.Println(t["global.load.f32"], t["flop.f32.mul"], t["flop.f32.add"], t["launch.groups"])
	// Output:
	// [1 3 5 7 9]
	// 5 5 5 2
}

func ExampleCount() {
	k, err := counts.ParseKernel("scale.knl", []byte(exampleKernel), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := counts.Count(k)
	if err != nil {
		fmt.Println(err)
		return
	}
	props, _ := c.Properties()
	for _, p := range props {
		fmt.Println(p)
	}
	v, err := c.Eval(map[string]int64{"n": 10})
	fmt.Println(v["flop.f32.mul"], v["global.load.f32.stride=1"], v["launch.groups"], err)
	// Output:
	// flop.f32.add = [n] -> { n : n >= 1 }
	// flop.f32.mul = [n] -> { n : n >= 1 }
	// global.load.f32.stride=1 = [n] -> { n : n >= 1 }
	// global.minldst.f32.stride=1 = min([n] -> { n : n >= 1 }, [n] -> { n : n >= 1 })
	// global.store.f32.stride=1 = [n] -> { n : n >= 1 }
	// launch.const = [n] -> { 1 }
	// launch.groups = [n] -> { floor((3 + n)/4) : n >= 1 }
	// 10 10 3 <nil>
}

// An instruction that names no index of the launch runs on every
// work-item launched, the 128*ceil(n/128) of the grid, not only on the n
// the domain holds; {inames=i}, or a "for i ... end" block, runs it inside
// the domain, as C's if (i < n) { ... } does.
func ExampleCount_launchIndex() {
	k, err := counts.ParseKernel("guard.knl", []byte(`kernel guard
domain [n] -> { [i] : 0 <= i < n }
array x f32 [n]
array y f32 [n]
split i 128 i_out i_in
tag i_out g.0, i_in l.0
<f32> s = x[0]*2.0f      # every work-item launched
<f32> t = x[1]*3.0f {inames=i}
for i
  <f32> u = x[2]*4.0f    # inside the domain, as {inames=i}
  y[i] = s*t*u*x[i]
end
`), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := counts.Count(k)
	if err != nil {
		fmt.Println(err)
		return
	}
	parts, values, err := c.BreakdownAt(counts.ByInstruction, map[string]int64{"n": 1500})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, p := range parts {
		if p.Property == "flop.f32.mul" {
			fmt.Println(p.Source, p.Pos, values[i])
		}
	}
	// Output:
	// insn_0 7:1 1536
	// insn_1 8:1 1500
	// insn_2 10:3 1500
	// insn_3 11:3 4500
}

// An if block whose condition reads data tests it once, as C does: bfs'
// Kernel2 loads its flag once per work-item, not once per statement, and
// the statements it guards are upper bounds.
func ExampleCount_ifTestsOnce() {
	k, err := counts.ParseKernel("bfs2.knl", []byte(`kernel bfs2
domain [n] -> { [tid] : 0 <= tid < n }
array mask u8 [n]
array updating u8 [n]
array visited u8 [n]
array over u8 [1]
split tid 512 tid_out tid_in
tag tid_out g.0, tid_in l.0
if updating[tid]
  mask[tid] = 1
  visited[tid] = 1
  over[0] = 1
  updating[tid] = 0
end
`), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := counts.Count(k)
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := c.Eval(map[string]int64{"n": 1000})
	for _, name := range []string{"global.load.b8.stride=1", "global.store.b8.stride=1", "global.store.b8.stride=0"} {
		fmt.Println(name, v[name], c.UpperBound(name))
	}
	// Output:
	// global.load.b8.stride=1 1000 false
	// global.store.b8.stride=1 3000 true
	// global.store.b8.stride=0 1000 true
}

// A loop over an iname tagged down runs from its largest value, as C's
// for (k = m - 2; k >= 0; k--): each element becomes the sum of those
// from it to the end.
func ExampleRun_down() {
	k, err := counts.ParseKernel("suffix.knl", []byte(`kernel suffix
domain [m] -> { [k] : 0 <= k < m - 1 }
array a f32 [m]
tag k down
a[k] = a[k] + a[k + 1]
`), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	a := []float32{1, 2, 3, 4, 5}
	if _, err := counts.Run(k, map[string]int64{"m": 5}, map[string]any{"a": a}, nil); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(a)
	// Output:
	// [15 14 12 9 5]
}

func ExampleCounted_Compile() {
	k, _ := counts.ParseKernel("scale.knl", []byte(exampleKernel), nil)
	c, _ := counts.Count(k)
	ev, err := c.Compile([]string{"global.load.f32.stride=1", "launch.groups", "flop.f64.add"})
	if err != nil {
		fmt.Println(err)
		return
	}
	out := make([]float64, 3)
	for _, n := range []int64{10, 1 << 30} {
		err := ev.Eval([]int64{n}, out) // parameters in the order of c.Params()
		fmt.Println(c.Params(), n, out, err)
	}
	// Output:
	// [n] 10 [10 3 0] <nil>
	// [n] 1073741824 [1.073741824e+09 2.68435456e+08 0] <nil>
}

// A boundary condition that is affine counts exactly; one that reads data
// counts as if it always held, and says so.
func ExampleCounted_UpperBound() {
	k, err := counts.ParseKernel("clip.knl", []byte(`kernel clip
domain [n] -> { [i] : 0 <= i < n }
array a f32 [n]
array b f32 [n]
b[i] = if(i > 0, a[i - 1], 0.0f) + a[i]
if a[i] > 1: b[i] = 2*b[i]
`), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := counts.Count(k)
	if err != nil {
		fmt.Println(err)
		return
	}
	// 99 loads of a[i - 1], 100 of a[i] in each instruction, and at most
	// 100 of b[i].
	v, _ := c.Eval(map[string]int64{"n": 100})
	for _, name := range []string{"flop.f32.add", "flop.f32.mul", "global.load.f32.stride=0"} {
		fmt.Println(name, v[name], c.UpperBound(name))
	}
	// Output:
	// flop.f32.add 100 false
	// flop.f32.mul 100 true
	// global.load.f32.stride=0 399 true
}

func ExampleCountWith() {
	k, _ := counts.ParseKernel("scale.knl", []byte(exampleKernel), nil)
	// y[4*i_out + i_in] = 2*x[4*i_out + i_in] + 1: each subscript takes an
	// add and a mul.
	c, err := counts.CountWith(k, counts.Options{CountSubscripts: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	v, err := c.Eval(map[string]int64{"n": 10})
	fmt.Println(v["int.i32.add"], v["int.i32.mul"], v["flop.f32.mul"], err)
	// Output: 20 20 10 <nil>
}

const twoStepKernel = `kernel two_steps
domain [n] -> { [i] : 0 <= i < n }
assume n >= 1
array x f32 [n]
array y f32 [n]
array z f32 [n]
y[i] = 2*x[i] {id=scale}
z[i] = y[i] + x[i] {id=add}
`

func ExampleCounted_BreakdownAt() {
	k, _ := counts.ParseKernel("two.knl", []byte(twoStepKernel), nil)
	c, _ := counts.Count(k)
	for _, by := range []counts.Attribution{counts.ByInstruction, counts.ByArray} {
		parts, values, err := c.BreakdownAt(by, map[string]int64{"n": 10})
		if err != nil {
			fmt.Println(err)
			return
		}
		for i, p := range parts {
			if strings.HasPrefix(p.Property, "global.") {
				fmt.Printf("%s %s (line %d): %d = %s\n", p.Property, p.Source, p.Pos.Line, values[i], p.Expression)
			}
		}
	}
	// Output:
	// global.load.f32.stride=0 scale (line 7): 10 = [n] -> { n : n >= 1 }
	// global.load.f32.stride=0 add (line 8): 20 = [n] -> { 2 * n : n >= 1 }
	// global.store.f32.stride=0 scale (line 7): 10 = [n] -> { n : n >= 1 }
	// global.store.f32.stride=0 add (line 8): 10 = [n] -> { n : n >= 1 }
	// global.load.f32.stride=0 x (line 4): 20 = [n] -> { 2 * n : n >= 1 }
	// global.load.f32.stride=0 y (line 5): 10 = [n] -> { n : n >= 1 }
	// global.store.f32.stride=0 y (line 5): 10 = [n] -> { n : n >= 1 }
	// global.store.f32.stride=0 z (line 6): 10 = [n] -> { n : n >= 1 }
}

func ExampleCounted_FootprintsAt() {
	k, _ := counts.ParseKernel("conv1d.knl", []byte(`kernel conv1d
domain [n, m] -> { [i, j] : 0 <= i < n and 0 <= j < m }
assume n >= 1 and m >= 1
array b f32 [n + m]
array x f64 [m]
array y f32 [n]
y[i] = sum(j, b[i + j]*x[j])
`), nil)
	c, _ := counts.Count(k)
	// b[i + j] is loaded n*m times but touches only n + m - 1 elements.
	fps, sizes, err := c.FootprintsAt(map[string]int64{"n": 100, "m": 5})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, f := range fps {
		fmt.Printf("%s store=%v: %d elements, %d bytes; %s\n", f.Array, f.Store, sizes[i].Elements, sizes[i].Bytes, f.Elements)
	}
	// Output:
	// b store=false: 104 elements, 416 bytes; [n, m] -> { (-1 + n + m) : n >= 1 and m >= 1 }
	// x store=false: 5 elements, 40 bytes; [n, m] -> { m : n >= 1 and m >= 1 }
	// y store=true: 100 elements, 400 bytes; [n, m] -> { n : n >= 1 and m >= 1 }
}

// A flattened subscript of an array [n*n], checked at two sizes: the
// shifted row a[i*n + j + n] leaves the array on the last row.
func ExampleCounted_CheckBounds() {
	k, err := counts.ParseKernel("shift.knl", []byte(`kernel shift
domain [n, m] -> { [i, j] : 0 <= i < m and 0 <= j < n }
array a f32 [n*n]
array b f32 [n*n]
tag j l.0
b[i*n + j] = a[i*n + j + n]
`), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := counts.Count(k)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.CheckBounds(map[string]int64{"n": 8, "m": 7}))
	fmt.Println(c.CheckBounds(map[string]int64{"n": 8, "m": 8}))
	// Output:
	// <nil>
	// shift.knl:6:14: instruction insn_0: a[i*n + j + n] is out of bounds at n=8, m=8: its subscript 1 (i*n + j + n) takes 8..71, and a has extent 64 there, so it reaches 64..71 past the end. If the host allocates more (the halo or padding an edge block reads, as C allows), declare the extent the host allocates, at least 72 along subscript 1 at these sizes (array a f32 [...]; in uniperf import, --array a=EXTENT, or // uniperf: --array a=EXTENT in the source)
}

// A 3-point stencil tiled in 16s whose edge block loads its whole tile
// and halo of 2, unguarded, as tuned kernels do: in's extent is what the
// host allocates. At n = 37 the third group loads in[32..47], past the
// image of n + 2 = 39 elements; declared as the image, the extent is
// refused with what to declare, and as the padded allocation n + 18 the
// loads are counted whole, 18 per group.
func ExampleCounted_CheckBounds_edgeBlock() {
	src := `kernel edge
domain [n] -> { [g] : 0 <= 16*g < n }
domain { [l] : 0 <= l < 16 }
array out f32 [n]
array in f32 [EXTENT]
local sh f32 [18]
tag g g.0, l l.0
sh[l] = in[16*g + l]
if l < 2: sh[16 + l] = in[16*g + 16 + l]
barrier
if 16*g + l < n: out[16*g + l] = sh[l] + sh[l + 1] + sh[l + 2]
`
	for _, extent := range []string{"n + 2", "n + 18"} {
		k, err := counts.ParseKernel("edge.knl", []byte(strings.Replace(src, "EXTENT", extent, 1)), nil)
		if err != nil {
			fmt.Println(err)
			return
		}
		c, err := counts.Count(k)
		if err != nil {
			fmt.Println(err)
			return
		}
		at := map[string]int64{"n": 37}
		if err := c.CheckBounds(at); err != nil {
			fmt.Println(err)
			continue
		}
		props, err := c.Eval(at)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("global.load.f32.stride=1:", props["global.load.f32.stride=1"])
	}
	// Output:
	// edge.knl:8:9: instruction insn_0: in[16*g + l] is out of bounds at n=37: its subscript 1 (16*g + l) takes 0..47, and in has extent 39 there, so it reaches 39..47 past the end. If the host allocates more (the halo or padding an edge block reads, as C allows), declare the extent the host allocates, at least 48 along subscript 1 at these sizes (array in f32 [...]; in uniperf import, --array in=EXTENT, or // uniperf: --array in=EXTENT in the source)
	// global.load.f32.stride=1: 54
}

// A histogram: its bins are data (an indirect access), and it adds to
// them with atomic_add. The interpreter performs the additions one after
// another; the counts bound the atomics by the work-items, since the bin
// test reads data.
func ExampleRun_atomics() {
	k, err := counts.ParseKernel("hist.knl", []byte(`kernel hist
domain [n] -> { [i] : 0 <= i < n }
array a f32 [n]
array hist i32 [4]
split i 2 i_out i_in
tag i_out g.0, i_in l.0
<i32> b = (int)(a[i]*4.0f)
if b < 4: atomic_add(hist[b], 1) {inames=i}
`), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	hist := make([]int32, 4)
	params := map[string]int64{"n": 6}
	tally, err := counts.Run(k, params, map[string]any{"a": []float32{0.1, 0.3, 0.35, 0.9, 1.5, 0.95}, "hist": hist}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := counts.Count(k)
	if err != nil {
		fmt.Println(err)
		return
	}
	v, _ := c.Eval(params)
	fmt.Println(hist)
	fmt.Println("run", tally.Totals()["global.atomic.i32.add"], "counted", v["global.atomic.i32.add"], c.UpperBound("global.atomic.i32.add"))
	// Output:
	// [1 2 0 2]
	// run 5 counted 6 true
}

func ExampleIsProperty() {
	for _, name := range []string{"global.ldg.f32.stride=1", "global.load.indirect.b8", "local.atomic.f32.add", "global.load.f32.stride1"} {
		fmt.Println(name, counts.IsProperty(name))
	}
	// Output:
	// global.ldg.f32.stride=1 true
	// global.load.indirect.b8 true
	// local.atomic.f32.add true
	// global.load.f32.stride1 false
}

// Halves are storage: a load gives an f32 value, arithmetic is f32, and
// a store rounds to the nearest half (ties to even), overflowing to
// infinity past 65504; the loads and stores count as f16 properties.
func ExampleRun_half() {
	k, err := counts.ParseKernel("axpyh.knl", []byte(`kernel axpyh
domain [n] -> { [i] : 0 <= i < n }
array x f16 [n]
array y f16 [n]
split i 4 i_out i_in
tag i_out g.0, i_in l.0
y[i] = 2.5f*x[i] + y[i]
`), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	x := []half.Float{half.FromFloat32(1), half.FromFloat32(1000), half.FromFloat32(30000), half.FromFloat32(0.1)}
	y := []half.Float{half.FromFloat32(0.5), half.FromFloat32(0.25), 0, half.FromFloat32(1)}
	tally, err := counts.Run(k, map[string]int64{"n": 4}, map[string]any{"x": x, "y": y}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	values := make([]float32, len(y))
	for i, h := range y {
		values[i] = h.Float32()
	}
	t := tally.Totals()
	fmt.Println(values)
	fmt.Println(t["global.load.f16"], t["global.store.f16"], t["flop.f32.mul"], t["flop.f32.add"])
	// Output:
	// [3 2500 +Inf 1.25]
	// 8 4 4 4
}

// u32 is C's unsigned int: arithmetic wraps modulo 2^32, // and % are
// C's unsigned / and %, and an i32 operand converts to u32, so that k[i]
// = -1 compares greater than every other value. Its operations count as
// i32 ones, its loads and stores as i32's.
func ExampleRun_unsigned() {
	k, err := counts.ParseKernel("hash.knl", []byte(`kernel hash
domain [n] -> { [i] : 0 <= i < n }
array x u32 [n]
array k i32 [n]
array y u32 [n]
split i 4 i_out i_in
tag i_out g.0, i_in l.0
y[i] = (x[i] * 2654435761u) // 7u + if(k[i] > x[i], 1, 0)
`), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	x := []uint32{1, 2, 4294967295, 5}
	y := make([]uint32, 4)
	tally, err := counts.Run(k, map[string]int64{"n": 4}, map[string]any{"x": x, "k": []int32{0, -1, 7, 3}, "y": y}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	t := tally.Totals()
	fmt.Println(y)
	fmt.Println(t["int.i32.mul"], t["int.i32.div"], t["int.i32.add"], t["global.load.i32"])
	// Output:
	// [379205108 144843461 234361647 55325273]
	// 4 4 4 12
}

// The C a kernel is ported from is written as C writes it: a scalar
// argument (alpha, passed by value: no load), a derived constant (S
// follows PH), a cast, an integer max, an unsuffixed literal (0.5 is a
// double, so 0.5*(float)a[i] and the sums after it are f64, as C
// computes them), literal arithmetic (1/10.0f*S, one folded literal),
// and // and % by a power of two (a shift and an AND). With PH = 1, S is
// 14 and a[i] % S a division; --const PH=0 makes S 16, and the division
// an AND.
func ExampleCount_cFeatures() {
	const src = `kernel smooth
const BS = 16
const PH = 1
const S = BS - 2*PH
domain [n] -> { [i] : 0 <= i < n }
scalar alpha f32 = 0.5
array a i32 [n]
array x f32 [n]
array y f32 [n]
array o i32 [n]
split i BS i_out i_in
tag i_out g.0, i_in l.0
y[i] = alpha*x[i] + 0.5*(float)a[i] + 1/10.0f*S
o[i] = max(a[i], 0) // 8 + a[i] % S
`
	for _, consts := range []map[string]int64{nil, {"PH": 0}} {
		k, err := counts.ParseKernel("smooth.knl", []byte(src), consts)
		if err != nil {
			fmt.Println(err)
			return
		}
		c, err := counts.Count(k)
		if err != nil {
			fmt.Println(err)
			return
		}
		v, _ := c.Eval(map[string]int64{"n": 1000})
		fmt.Println(consts)
		for _, name := range []string{"global.load.f32.stride=1", "global.load.i32.stride=1", "flop.f32.mul", "flop.f64.mul", "flop.f64.add",
			"int.i32.special", "int.i32.shift", "int.i32.div", "int.i32.bitwise", "int.i32.add"} {
			fmt.Println(" ", name, v[name])
		}
	}
	// Output:
	// map[]
	//   global.load.f32.stride=1 1000
	//   global.load.i32.stride=1 3000
	//   flop.f32.mul 1000
	//   flop.f64.mul 1000
	//   flop.f64.add 2000
	//   int.i32.special 1000
	//   int.i32.shift 1000
	//   int.i32.div 1000
	//   int.i32.bitwise 0
	//   int.i32.add 1000
	// map[PH:0]
	//   global.load.f32.stride=1 1000
	//   global.load.i32.stride=1 3000
	//   flop.f32.mul 1000
	//   flop.f64.mul 1000
	//   flop.f64.add 2000
	//   int.i32.special 1000
	//   int.i32.shift 1000
	//   int.i32.div 0
	//   int.i32.bitwise 1000
	//   int.i32.add 1000
}

// A compile-time if, C's #if on a tunable, is resolved when the kernel is
// read: only the branch taken is counted, and it may hold barriers. At
// n = 37, three groups of 16: with BS = 32 every work-item of the 48
// stores its local cell and passes two barriers (96), and the 37 of the
// domain multiply; --const BS=8 takes the other branch, 37 additions and
// no local memory or barrier.
func ExampleCount_compileTimeIf() {
	const src = `kernel staticif
const LX = 16
const BS = 32
domain [n] -> { [i] : 0 <= i < n }
domain { [p] : 0 <= p < LX }
array a f32 [n]
array b f32 [n]
local t f32 [LX]
split i LX i_out i_in
tag i_out g.0, i_in l.0, p l.0
if BS > 16
  t[p] = 2.0f
  barrier
  b[i] = a[i] * t[i_in]
else
  b[i] = a[i] + 1.0f
end
if BS >= 32: barrier
`
	for _, consts := range []map[string]int64{nil, {"BS": 8}} {
		k, err := counts.ParseKernel("staticif.knl", []byte(src), consts)
		if err != nil {
			fmt.Println(err)
			return
		}
		c, err := counts.Count(k)
		if err != nil {
			fmt.Println(err)
			return
		}
		v, _ := c.Eval(map[string]int64{"n": 37})
		fmt.Println(consts, v["local.store.f32"], v["sync.barrier"], v["flop.f32.mul"], v["flop.f32.add"])
	}
	// Output:
	// map[] 48 96 37 0
	// map[BS:8] 0 0 0 37
}

// A flattened subscript whose pitch is affine, w + 2, and a readonly
// array. At h = 3, w = 20: 60 work-items of the domain, each loading two
// cells of in through the read-only path (120 global.ldg loads, stride 1
// along x) and storing one; 2 groups of 16 along x, 3 along y. The loads
// touch rows 0 to 3 of in, columns 1 to 20: (h + 1)*w = 80 cells.
func ExampleCount_flattened() {
	k, err := counts.ParseKernel("rows.knl", []byte(`kernel rows
domain [h, w] -> { [y, x] : 0 <= y < h and 0 <= x < w }
array in f32 [(h + 2)*(w + 2)] readonly
array out f32 [h*w]
split x 16 x_out x_in
tag x_out g.0, x_in l.0, y g.1
out[y*w + x] = in[(y + 1)*(w + 2) + x + 1] + in[y*(w + 2) + x + 1]
`), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := counts.Count(k)
	if err != nil {
		fmt.Println(err)
		return
	}
	at := map[string]int64{"h": 3, "w": 20}
	v, err := c.Eval(at)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(v["global.ldg.f32.stride=1"], v["global.store.f32.stride=1"], v["flop.f32.add"], v["launch.groups"])
	fps, sizes, err := c.FootprintsAt(at)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, f := range fps {
		fmt.Println(f.Array, sizes[i].Elements, f.Elements)
	}
	// Output:
	// 120 60 60 6
	// in 80 [h, w] -> { (w + h * w) : h >= 1 and w >= 1 }
	// out 60 [h, w] -> { h * w : h >= 1 and w >= 1 }
}

// The bank-conflict degree counted warp by warp. A 16 x 16 group stores
// a tile row by row and reads it transposed, tile[tx, ty]: word 16*tx +
// ty, in bank ty for even tx and 16 + ty for odd, so a warp (two rows,
// ty = 2w and 2w + 1) asks 4 banks for 8 words each, 8-way. Under tx ==
// 0 each warp has two lanes, ty = 2w and 2w + 1, in two banks: no
// conflict. Under ty == 0 warp 0 has 16 lanes in banks 0 and 16, 8 words
// each: 16 loads of class 8 a group, the other warps idle; with every
// lane active, 256. At n = 2 groups:
func ExampleCount_bankConflictsPerWarp() {
	const src = `kernel tr
domain [n] -> { [g, tx, ty] : 0 <= g < n and 0 <= tx < 16 and 0 <= ty < 16 }
array x f32 [256*n]
array y f32 [256*n]
local tile f32 [16, 16]
tag g g.0, tx l.0, ty l.1
tile[ty, tx] = x[256*g + 16*ty + tx]
barrier
if COND: y[256*g + 16*ty + tx] = tile[tx, ty]
`
	for _, cond := range []string{"tx == 0", "ty == 0", "ty < 16"} {
		k, err := counts.ParseKernel("tr.knl", []byte(strings.Replace(src, "COND", cond, 1)), nil)
		if err != nil {
			fmt.Println(err)
			return
		}
		c, err := counts.Count(k)
		if err != nil {
			fmt.Println(err)
			return
		}
		v, _ := c.Eval(map[string]int64{"n": 2})
		fmt.Println(cond, v["local.load.f32"], v["local.f32.conflict=8"], c.UpperBound("local.f32.conflict=8"))
	}
	// Output:
	// tx == 0 32 0 false
	// ty == 0 32 32 false
	// ty < 16 512 512 false
}

// A private i32 temporary that holds an affine value subscripts as the
// expression it holds, as a C compiler sees through it: val[ind] loads at
// stride 1 along t, not as a gather, and the guard last < m is affine,
// so the n*(m - 1) loads under it are exact, not upper bounds. ind and
// last still count their own i32 operations where they are assigned: a
// mul and two adds a trip. At n = 64, m = 4: 64*3 = 192 loads and adds,
// 64*4*2 = 512 i32 adds, 256 i32 muls.
func ExampleCount_affineTemporary() {
	k, err := counts.ParseKernel("ell.knl", []byte(`kernel ell
domain [n, m] -> { [t, i] : 0 <= t < n and 0 <= i < m }
array val f32 [m*n] readonly
array out f32 [n]
split t 32 t_out t_in
tag t_out g.0, t_in l.0
for t
  <f32> s = 0.0f
  for i
    <i32> ind = i*n + t
    <i32> last = i + 1
    if last < m: s = s + val[ind]
  end
  out[t] = s
end
`), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := counts.Count(k)
	if err != nil {
		fmt.Println(err)
		return
	}
	v, err := c.Eval(map[string]int64{"n": 64, "m": 4})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(v["global.ldg.f32.stride=1"], v["global.load.indirect.f32"], v["flop.f32.add"], v["int.i32.add"], v["int.i32.mul"], c.Bounds())
	// Output:
	// 192 0 192 512 256 []
}
