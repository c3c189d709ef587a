package resios

import (
	"math/rand"
	"testing"
)

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// TestStrideBankConflicts checks Algorithm 6.1 against the closed form of
// §3.2: S[tid·stride] on 32 banks of 4-byte words conflicts gcd(32, stride)
// ways, and not at all for odd strides.
func TestStrideBankConflicts(t *testing.T) {
	for s := int64(1); s <= 128; s++ {
		got, err := StrideBankConflicts(s, 4, 32, 32, 4)
		if err != nil {
			t.Fatal(err)
		}
		if want := gcd(32, s); int64(got) != want {
			t.Errorf("stride %d: degree %d, gcd(32, stride) = %d", s, got, want)
		}
		if neg, _ := StrideBankConflicts(-s, 4, 32, 32, 4); neg != got {
			t.Errorf("stride %d: %d, mirrored %d", s, got, neg)
		}
	}
	for _, c := range []struct {
		stride int64
		want   int
	}{{0, 1}, {UnknownStride, 32}} {
		if got, _ := StrideBankConflicts(c.stride, 4, 32, 32, 4); got != c.want {
			t.Errorf("stride %d: %d, want %d", c.stride, got, c.want)
		}
	}
	// 8-byte elements at stride 1 are 2-word steps: gcd(32, 2) = 2.
	if got, _ := StrideBankConflicts(1, 8, 32, 32, 4); got != 2 {
		t.Errorf("double stride 1: %d, want 2", got)
	}
}

func TestBankConflictsErrors(t *testing.T) {
	if _, err := BankConflicts(nil, 32, 4); err == nil {
		t.Error("empty warp accepted")
	}
	if _, err := BankConflicts([]int64{-4}, 32, 4); err == nil {
		t.Error("negative offset accepted")
	}
	if _, err := StrideBankConflicts(1<<60, 4, 32, 32, 4); err == nil {
		t.Error("overflowing stride accepted")
	}
}

// lines counts by enumeration the distinct lineBytes-lines that the bytes
// of a warp's elements touch.
func lines(stride int64, elem, warp, line int) int {
	seen := map[int64]bool{}
	for k := int64(0); k < int64(warp); k++ {
		for b := int64(0); b < int64(elem); b++ {
			seen[(k*stride*int64(elem)+b)/int64(line)] = true
		}
	}
	return len(seen)
}

// TestRequestsPerWarp checks the coalescing count against §3.2 (stride s
// of 4-byte elements gives s requests up to 32) and against enumeration.
func TestRequestsPerWarp(t *testing.T) {
	for s := int64(0); s <= 64; s++ {
		got, err := RequestsPerWarp(s, 4, 32, 128)
		if err != nil {
			t.Fatal(err)
		}
		want := int(min(max(s, 1), 32))
		if got != want {
			t.Errorf("stride %d: %d requests, thesis %d", s, got, want)
		}
	}
	r := rand.New(rand.NewSource(1))
	for range 2000 {
		s := r.Int63n(80) - 40
		elem := []int{1, 2, 4, 8, 16}[r.Intn(5)]
		line := []int{32, 64, 128}[r.Intn(3)]
		warp := []int{8, 16, 32, 64}[r.Intn(4)]
		abs := s
		if abs < 0 {
			abs = -abs
		}
		got, err := RequestsPerWarp(s, elem, warp, line)
		if err != nil {
			t.Fatal(err)
		}
		if want := min(lines(abs, elem, warp, line), warp); got != want {
			t.Errorf("stride %d, %d-byte elements, warp %d, %d-byte lines: %d, enumeration %d", s, elem, warp, line, got, want)
		}
	}
	if got, _ := RequestsPerWarp(UnknownStride, 4, 32, 128); got != 32 {
		t.Errorf("unknown stride: %d, want 32", got)
	}
	if _, err := RequestsPerWarp(1, 0, 32, 128); err == nil {
		t.Error("zero element size accepted")
	}
}

// TestRequestsForOffsets checks the general form against RequestsPerWarp
// on single strides and against enumeration on two-row warps: a 16-wide
// row of 4-byte elements and the next row a pitch further.
func TestRequestsForOffsets(t *testing.T) {
	for s := int64(-40); s <= 40; s++ {
		for _, elem := range []int{4, 8} {
			offs := make([]int64, 32)
			for k := range offs {
				offs[k] = int64(k) * s
			}
			got, err := RequestsForOffsets(offs, elem, 128)
			want, _ := RequestsPerWarp(s, elem, 32, 128)
			if err != nil || got != want {
				t.Errorf("stride %d, %d bytes: %d, %v; RequestsPerWarp %d", s, elem, got, err, want)
			}
		}
	}
	for _, pitch := range []int64{16, 17, 32, 64, 1000} {
		offs := make([]int64, 32)
		for q := range offs {
			offs[q] = int64(q%16) + int64(q/16)*pitch
		}
		seen := map[int64]bool{}
		for _, o := range offs {
			seen[o*4/128] = true
		}
		if got, _ := RequestsForOffsets(offs, 4, 128); got != len(seen) {
			t.Errorf("pitch %d: %d lines, enumeration %d", pitch, got, len(seen))
		}
	}
	if _, err := RequestsForOffsets(nil, 4, 128); err == nil {
		t.Error("empty warp accepted")
	}
	if got, _ := RequestsForOffsets([]int64{0, 1 << 62}, 4, 128); got != 2 {
		t.Errorf("far offsets: %d, want 2", got)
	}
}
