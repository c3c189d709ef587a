package pocltest

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/uniperf/uniperf/counts"
	"github.com/uniperf/uniperf/measurekernels/gpu"
)

// RunFloats is Run with the arrays' elements held as float32, the form
// the Go reimplementations of kernels compute in: it writes the arrays of
// in and returns the arrays named in out, each its full size at params.
// An integer array's values are whole numbers, written in its element
// type (i32, u32, i16, u16, i8 or u8) and read back from it; an array of
// another type fails the test.
func RunFloats(t testing.TB, dev gpu.Device, k *counts.Kernel, params map[string]int64, in map[string][]float32, out []string) map[string][]float32 {
	t.Helper()
	b := map[string][]byte{}
	for name, s := range in {
		b[name] = encode(t, k, name, s)
	}
	got := Run(t, dev, k, params, b)
	s := map[string][]float32{}
	for _, name := range out {
		s[name] = decode(t, k, name, got[name])
	}
	return s
}

// encode writes s as the device holds the elements of the array name.
func encode(t testing.TB, k *counts.Kernel, name string, s []float32) []byte {
	t.Helper()
	d := elemType(t, k, name)
	b := make([]byte, d.Size()*len(s))
	for i, v := range s {
		switch d {
		case counts.F32:
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
		case counts.I32, counts.U32:
			binary.LittleEndian.PutUint32(b[4*i:], uint32(int32(v)))
		case counts.I16, counts.U16:
			binary.LittleEndian.PutUint16(b[2*i:], uint16(int32(v)))
		default:
			b[i] = byte(int32(v))
		}
	}
	return b
}

// decode reads the device's elements of the array name.
func decode(t testing.TB, k *counts.Kernel, name string, b []byte) []float32 {
	t.Helper()
	d := elemType(t, k, name)
	s := make([]float32, len(b)/d.Size())
	for i := range s {
		switch d {
		case counts.F32:
			s[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		case counts.I32:
			s[i] = float32(int32(binary.LittleEndian.Uint32(b[4*i:])))
		case counts.U32:
			s[i] = float32(binary.LittleEndian.Uint32(b[4*i:]))
		case counts.I16:
			s[i] = float32(int16(binary.LittleEndian.Uint16(b[2*i:])))
		case counts.U16:
			s[i] = float32(binary.LittleEndian.Uint16(b[2*i:]))
		case counts.I8:
			s[i] = float32(int8(b[i]))
		default:
			s[i] = float32(b[i])
		}
	}
	return s
}

// elemType is the element type of k's global array name, one that
// RunFloats can hold as float32.
func elemType(t testing.TB, k *counts.Kernel, name string) counts.DType {
	t.Helper()
	a := k.Array(name)
	if a == nil {
		t.Fatalf("kernel %s has no array %s", k.Name, name)
	}
	switch a.DType {
	case counts.F32, counts.I32, counts.U32, counts.I16, counts.U16, counts.I8, counts.U8:
		return a.DType
	}
	t.Fatalf("kernel %s: array %s is %s; RunFloats holds f32 and integers of 32 bits or fewer", k.Name, name, a.DType)
	return 0
}
