package counts_test

import (
	"math"
	"os"
	"testing"

	"github.com/uniperf/uniperf/counts"
)

// TestContextBytesMatmul checks ContextBytes on Kernel Tuner's matmul
// (examples/matmul_kernel.knl) against its bytes derived by hand. Its kk
// loop holds the barriers; in it the stores to sA (sA[ty + BY*ra, tx]:
// TY copies over the unrolled ra) and sB (sB[ty + BY*rb, tx + BX*rt]:
// ceil(BX/BY) copies of rb, ty + BY*rb < BX at ty = 0, times TX of rt),
// and the update's loads of sA (sA[ty + BY*ti, kb]: TY*BX copies; not
// over tj, on which it does not depend) and sB (sB[kb, tx + BX*tj]:
// BX*TX) keep an address each; the loads of A and B move with kk and
// keep none. The sums acc, TY*TX floats, cross the barriers too. The
// addresses are those PoCL 3.1 keeps in context arrays for the two
// groups compiled (docs/model.md): 132 at BX = 16, BY = 1, TX = 2,
// TY = 4 and 198 at BX = BY = 32.
func TestContextBytesMatmul(t *testing.T) {
	src, err := os.ReadFile("../examples/matmul_kernel.knl")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ bx, by, tx, ty, addresses int64 }{
		{16, 1, 2, 4, 4 + 2*16 + 16*(2+4)},
		{32, 32, 2, 4, 4 + 2*1 + 32*(2+4)},
		{32, 8, 2, 4, 4 + 2*4 + 32*(2+4)},
		{64, 16, 8, 8, 8 + 8*4 + 64*(8+8)},
		{16, 3, 1, 1, 1 + 1*6 + 16*(1+1)}, // ceil(16/3) = 6 copies of rb
	} {
		if c.addresses != 132 && c.bx == 16 && c.by == 1 || c.addresses != 198 && c.bx == 32 && c.by == 32 {
			t.Fatalf("hand count %d at BX = %d, BY = %d is not PoCL's", c.addresses, c.bx, c.by)
		}
		k, err := counts.ParseKernel("matmul_kernel.knl", src, map[string]int64{"BX": c.bx, "BY": c.by, "TX": c.tx, "TY": c.ty})
		if err != nil {
			t.Fatal(err)
		}
		want := 8*c.addresses + 4*c.tx*c.ty
		if got, ok := k.ContextBytes(); !ok || got != want {
			t.Errorf("BX=%d BY=%d TX=%d TY=%d: %d bytes (ok %v), want %d", c.bx, c.by, c.tx, c.ty, got, ok, want)
		}
	}
}

// contextKernel is a kernel of 64-wide groups whose loop k holds a
// barrier, with body inside it: s[j, i_in] for four unrolled j, an
// address each, and acc's 4 floats.
func contextKernel(tags, body string) string {
	return `kernel c
domain [n] -> { [i, k, j, r, m] : 0 <= i < n and 0 <= k < n and 0 <= j < 4 and 0 <= r < 3 and 0 <= m < n }
assume n >= 64 and n mod 64 = 0
array a f32 [n, n]
array b f32 [n]
array idx i32 [n]
local s f32 [4, 64]
private acc f32 [4]
split i 64 i_out i_in
tag i_out g.0, i_in l.0, ` + tags + `
acc[j] = 0 {id=z}
` + body + `b[i] = acc[0] + acc[3] {dep=u}
`
}

// TestContextBytes checks ContextBytes by hand on contextKernel's
// variants: the store s[j, i_in] = a[k, i] keeps 4 addresses (a's moves
// with k), an update's s[j, i_in] 4 more and s[0, i_in] one, acc 16
// bytes; without a barrier nothing; a load in a sequential reduction
// (r seq) none, one in an unrolled reduction (r unr) its 3 copies,
// an indirect load none (its subscript's idx[i] one) and a[j, i] 4 (its
// subscripts do not move with k); and an unrolled iname with no constant
// range, m < n, none at all (ok false).
func TestContextBytes(t *testing.T) {
	const store = "barrier {inames=k}\ns[j, i_in] = a[k, i] {inames=k, id=st}\nbarrier {inames=k}\n"
	for _, c := range []struct {
		name, tags, body string
		want             int64
		ok               bool
	}{
		{"store and update", "j unr", store + "acc[j] = acc[j] + s[j, i_in]*s[0, i_in] {inames=k, id=u, dep=z:st}\n", 8*(4+4+1) + 16, true},
		{"no barrier", "j unr", "s[j, i_in] = a[k, i] {inames=k, id=st}\nacc[j] = acc[j] + s[j, i_in] {inames=k, id=u, dep=z:st}\n", 0, true},
		{"sequential sum", "j unr", store + "acc[j] = acc[j] + sum(r, s[r, i_in]) {inames=k, id=u, dep=z:st}\n", 8*4 + 16, true},
		{"unrolled sum", "j unr, r unr", store + "acc[j] = acc[j] + sum(r, s[r, i_in]) {inames=k, id=u, dep=z:st}\n", 8*(4+3) + 16, true},
		{"indirect", "j unr", store + "acc[j] = acc[j] + a[idx[i], j] + a[j, i] {inames=k, id=u, dep=z:st}\n", 8*(4+1+4) + 16, true},
		{"no constant range", "j unr, m unr", store + "acc[j] = acc[j] + a[m, i] {inames=k, id=u, dep=z:st}\n", 0, false},
	} {
		k, err := counts.ParseKernel(c.name+".knl", []byte(contextKernel(c.tags, c.body)), nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got, ok := k.ContextBytes(); got != c.want || ok != c.ok {
			t.Errorf("%s: %d bytes (ok %v), want %d (ok %v)", c.name, got, ok, c.want, c.ok)
		}
	}
}

// TestContextBytesLocalContext checks ContextBytes on the measurement
// class that varies it, local_context: in its rounds (the loop r, which
// holds the barriers) the store t[i_in] keeps one address and the S
// unrolled loads t[(i_in + s) mod LX] S more, whatever LX; x, 4 bytes,
// crosses the barriers. PoCL 3.1 keeps 65 addresses a work-item at
// S = 64, at LX = 16 and 1024 alike (docs/model.md).
func TestContextBytesLocalContext(t *testing.T) {
	for _, c := range []struct{ lx, s int64 }{{16, 16}, {16, 64}, {1024, 64}, {256, 256}} {
		k := loadLibraryKernel(t, "local_context", map[string]int64{"LX": c.lx, "S": c.s})
		if got, ok := k.ContextBytes(); !ok || got != 8*(c.s+1)+4 {
			t.Errorf("LX=%d S=%d: %d bytes (ok %v), want %d", c.lx, c.s, got, ok, 8*(c.s+1)+4)
		}
	}
}

// An unrolled iname whose constant range no int64 counts (-2^62 to 2^62,
// 2^63 + 1 values) saturates the bytes at math.MaxInt64, as LocalBytes
// does, rather than wrapping round to a negative count of copies that
// dropped a[u]: 0 <= u < 4 gives, by hand, the two accesses of
// s[l] = s[l] + 1.0f and the s[l] of a[u] = s[l] (3 addresses) and
// a[u]'s 4 copies, 7 addresses of 8 bytes.
func TestContextBytesSaturate(t *testing.T) {
	for _, c := range []struct {
		rng  string
		want int64
	}{
		{"0 <= u < 4", 8 * (3 + 4)},
		{"-4611686018427387904 <= u <= 4611686018427387904", math.MaxInt64},
	} {
		k, err := counts.ParseKernel("wide.knl", []byte(`kernel wide
domain [n] -> { [g, l, k, u] : 0 <= g < n and 0 <= l < 16 and 0 <= k < n and `+c.rng+` }
array a f32 [n]
local s f32 [16]
tag g g.0, l l.0, u unr
for k
  s[l] = s[l] + 1.0f
  barrier
  a[u] = s[l] {inames=g:l:k:u}
end
`), nil)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := k.ContextBytes(); !ok || got != c.want {
			t.Errorf("%s: %d bytes (ok %v), want %d", c.rng, got, ok, c.want)
		}
	}
}
