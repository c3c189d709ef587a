package counts

// Half precision (f16) is a storage type, as C uses half without native
// half arithmetic (OpenCL C without cl_khr_fp16, where vload_half and
// vstore_half are the only access; CUDA's __half through __half2float
// and __float2half_rn): global and local arrays hold halves, a load
// gives an f32 value, arithmetic happens in f32 (or f64, by C's
// promotions), and a store rounds to the nearest half, ties to even.
// The loads and stores count as their own properties
// (global.load.f16.stride=1, local.store.f16), the conversions included;
// no operation has type f16. What would hold a half in registers (a
// temporary, a private array, a scalar argument, a cast to half) is
// refused: that is half arithmetic, which the generated code cannot
// express without cl_khr_fp16.

// halfArithmetic says what to write instead of a half in registers.
const halfArithmetic = "f16 is a storage type for global and local arrays: a load from one gives an f32 value and a store into one rounds to the nearest half, but half arithmetic (cl_khr_fp16, CUDA's __hadd) is not supported"

// checkHalfScalar refuses a scalar argument, private array or declared
// temporary of type f16.
func (c *cursor) checkHalfScalar(t DType, pos Pos, what string) {
	if t == F16 {
		c.failAt(pos, "%s of type f16: declare it f32 (%s)", what, halfArithmetic)
	}
}

// refuseHalfCast refuses C's cast to half, (half)x, where the cursor is
// at its parenthesis.
func (c *cursor) refuseHalfCast() {
	if !c.peek().is("(") || !c.peekAt(2).is(")") {
		return
	}
	switch t := c.peekAt(1); t.text {
	case "half", "__half", "f16":
		c.failAt(t.pos, "a cast to %s: store the value into an f16 array, which rounds it, or compute in f32 (%s)", t.text, halfArithmetic)
	}
}
