package resios

import (
	"fmt"
	"math"
	"slices"
)

// UnknownStride marks an access whose stride the analysis cannot bound;
// like the thesis (§6.1), we then assume the worst: one transaction per
// thread, or the maximum bank conflict.
const UnknownStride = int64(-1 << 63)

// RequestsPerWarp is the coalescing parameter c of (4.8): how many
// lineBytes-sized transactions a warp's access touches when thread k
// accesses elemBytes bytes at element offset k·stride from an aligned base.
//
// The addresses span (warp−1)·|stride|·elemBytes + elemBytes bytes. When a
// stride step is at most a line, every line between the first and the last
// is touched, ⌊(warp−1)·|stride|·elemBytes/lineBytes⌋ + 1 of them; when it
// is longer, each thread needs its own line. A stride of 0 is one
// transaction (a broadcast), and UnknownStride is warp transactions.
func RequestsPerWarp(stride int64, elemBytes, warpSize, lineBytes int) (int, error) {
	if elemBytes <= 0 || warpSize <= 0 || lineBytes <= 0 {
		return 0, fmt.Errorf("resios: element size (%d), warp size (%d) and line size (%d) must be positive",
			elemBytes, warpSize, lineBytes)
	}
	if stride == UnknownStride {
		return warpSize, nil
	}
	if stride < 0 {
		stride = -stride
	}
	step := stride * int64(elemBytes)
	if step/int64(elemBytes) != stride || step > int64(lineBytes) {
		return warpSize, nil // overflowing steps are longer than a line too
	}
	first := int64(elemBytes) - 1 // the last byte of thread 0's element
	span := int64(warpSize-1)*step + first
	lines := span/int64(lineBytes) + 1
	return int(min(lines, int64(warpSize))), nil
}

// RequestsForOffsets is the coalescing parameter c of (4.8) for any warp
// access: the number of lineBytes-sized lines that the elemBytes-byte
// elements at the given element offsets (one per thread) touch, from a
// line-aligned base at the smallest offset, as RequestsPerWarp assumes.
// It generalizes RequestsPerWarp to accesses that are not one stride
// across the warp, such as a 16-wide work-group row and the next row.
func RequestsForOffsets(offsets []int64, elemBytes, lineBytes int) (int, error) {
	if elemBytes <= 0 || lineBytes <= 0 {
		return 0, fmt.Errorf("resios: element size (%d) and line size (%d) must be positive", elemBytes, lineBytes)
	}
	if len(offsets) == 0 {
		return 0, fmt.Errorf("resios: requests of an %w", ErrEmptyWarp)
	}
	low := slices.Min(offsets)
	lines := make(map[int64]bool)
	for _, o := range offsets {
		d := o - low
		if d < 0 || d > math.MaxInt64/int64(elemBytes)-1 {
			return len(offsets), nil // beyond int64: far apart, a line each
		}
		first, last := d*int64(elemBytes), d*int64(elemBytes)+int64(elemBytes)-1
		for l := first / int64(lineBytes); l <= last/int64(lineBytes); l++ {
			lines[l] = true
		}
	}
	return min(len(lines), len(offsets)), nil
}

// BankConflicts is Algorithm 6.1: the degree of bank conflict of one warp
// access to shared memory. offsets are the byte addresses of the threads of
// a warp; bank b of an address o is (o / bankWidth) mod banks. Threads that
// read the same word are served by one broadcast (§2.2.3: a conflict is two
// threads accessing different words of one bank), so the degree is the
// largest number of distinct words any bank must serve: 1 means no
// conflict, the warp size the worst case.
//
// The thesis's pseudo-code returns "max(bank_map, max_conflicts)", which read
// literally would always be the maximum; we read it as the largest bank
// load, capped at the maximum. Its offsets list f(x) … f(x+warp_size) has
// warp_size+1 entries; we take the warp_size threads of one warp.
func BankConflicts(offsets []int64, banks, bankWidth int) (int, error) {
	if banks <= 0 || bankWidth <= 0 {
		return 0, fmt.Errorf("resios: banks (%d) and bank width (%d) must be positive", banks, bankWidth)
	}
	if len(offsets) == 0 {
		return 0, fmt.Errorf("resios: bank conflicts of an %w", ErrEmptyWarp)
	}
	words := make(map[int64]map[int64]bool)
	degree := 0
	for _, o := range offsets {
		if o < 0 {
			return 0, fmt.Errorf("resios: negative shared-memory offset %d", o)
		}
		word := o / int64(bankWidth)
		bank := word % int64(banks)
		if words[bank] == nil {
			words[bank] = make(map[int64]bool)
		}
		words[bank][word] = true
		degree = max(degree, len(words[bank]))
	}
	return min(degree, len(offsets)), nil
}

// StrideBankConflicts is the conflict degree of the access S[tid·stride] to
// an array of elemBytes-byte elements by one warp (the access of the
// thesis's Listing 3.3). UnknownStride gives the warp size.
func StrideBankConflicts(stride int64, elemBytes, warpSize, banks, bankWidth int) (int, error) {
	if warpSize <= 0 || elemBytes <= 0 {
		return 0, fmt.Errorf("resios: warp size (%d) and element size (%d) must be positive", warpSize, elemBytes)
	}
	if stride == UnknownStride {
		return warpSize, nil
	}
	if stride < 0 {
		stride = -stride // the mirrored pattern has the same degree
	}
	if stride > math.MaxInt64/int64(warpSize)/int64(elemBytes) {
		return 0, fmt.Errorf("resios: stride %d overflows the offsets of a warp", stride)
	}
	offsets := make([]int64, warpSize)
	for k := range offsets {
		offsets[k] = int64(k) * stride * int64(elemBytes)
	}
	return BankConflicts(offsets, banks, bankWidth)
}
