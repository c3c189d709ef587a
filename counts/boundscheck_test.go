package counts

import (
	"strings"
	"testing"
)

// TestCheckBounds checks the bounds of references at given sizes against
// ranges derived by hand: transpose's idata [n, 100] overruns from
// n = 101 (its column index runs to n - 1), the temporary c[i] written at
// c[i + 1] reaches 128, a flattened a[i*n + j] fits [n*n] and overruns
// [n*n - 1], and a reference under a condition that reads data is left to
// the interpreter.
func TestCheckBounds(t *testing.T) {
	transpose := `kernel transpose
domain [n] -> { [i, j] : 0 <= i, j < n }
array idata f32 [n, 100]
array odata f32 [n, n]
split i 16 i_out i_in
split j 16 j_out j_in
tag i_in l.0, j_in l.1, i_out g.0, j_out g.1
odata[j, i] = idata[i, j]
`
	temp := `kernel temp
domain [n] -> { [g, i] : 0 <= g < n and 0 <= i < 128 }
array out f32 [n]
tag g g.0
<> c[i] = 1.0f
c[i + 1] = 2.0f
out[g] = c[3]
`
	flat := func(extent string) string {
		return "kernel flat\ndomain [n] -> { [i, j] : 0 <= i, j < n }\narray a f32 [" + extent + "]\narray b f32 [n, n]\ntag j l.0\nb[i, j] = a[i*n + j]\n"
	}
	guarded := "kernel g\ndomain [n] -> { [i] : 0 <= i < n }\narray a f32 [n]\nif a[i] > 2: a[i + 1] = 1\n"
	cases := []struct {
		name, src string
		n         int64
		msg       string // "" for none
	}{
		{"transpose fits", transpose, 100, ""},
		{"transpose overruns", transpose, 101, "instruction insn_0: idata[16*i_out + i_in, 16*j_out + j_in] is out of bounds at n=101: its subscript 2 (16*j_out + j_in) takes 0..100, and idata has extent 100 there"},
		{"temporary overruns", temp, 3, "instruction insn_1: c[i + 1] is out of bounds at n=3: its subscript 1 (i + 1) takes 1..128, and c has extent 128 there"},
		{"flat fits", flat("n*n"), 7, ""},
		{"flat overruns", flat("n*n - 1"), 7, "a[i*n + j] is out of bounds at n=7: its subscript 1 (i*n + j) takes 0..48, and a has extent 48 there"},
		{"data-dependent guard", guarded, 5, ""},
		// Every size a const: the place is the consts, not an empty list.
		{"no parameters", "kernel k\nconst N = 8\ndomain { [i] : 0 <= i < N }\narray a f32 [4]\ntag i l.0\na[i] = 1.0f\n", 0,
			"instruction insn_0: a[i] is out of bounds at its const values (it has no parameters): its subscript 1 (i) takes 0..7, and a has extent 4 there"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			k, err := ParseKernel("test.knl", []byte(tc.src), nil)
			if err != nil {
				t.Fatal(err)
			}
			c, err := Count(k)
			if err != nil {
				t.Fatal(err)
			}
			params := map[string]int64{"n": tc.n}
			if len(k.Params) == 0 {
				params = nil
			}
			err = c.CheckBounds(params)
			switch {
			case tc.msg == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tc.msg != "" && (err == nil || !strings.Contains(err.Error(), tc.msg)):
				t.Errorf("error %v, want %q", err, tc.msg)
			}
		})
	}
}

// TestGlobalWriteRace checks that the interpreter reports two work-items
// storing different values to one global element: every work-item of
// every group stores to b[0, 0]; a store the barrier separates within a
// group, and one of an unchanged value, are no race.
func TestGlobalWriteRace(t *testing.T) {
	src := `kernel race
domain [n] -> { [i, j] : 0 <= i, j < n }
array a f32 [n, n]
array b f32 [n, n]
split i 4 i_out i_in
tag i_in l.0, i_out g.0
b[0, 0] = a[j, i]
`
	a := make([]float32, 64)
	for i := range a {
		a[i] = float32(i)
	}
	k, err := ParseKernel("test.knl", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Run(k, map[string]int64{"n": 8}, map[string]any{"a": a, "b": make([]float32, 64)}, nil)
	want := "test.knl:7:1: instruction insn_0: stores to b[0, 0], which work-item (0, 0, 0) of group (0, 0, 0) stored a different value to with no barrier in between (a write-write race): add a barrier between the two stores (at n=8, group (0, 0, 0), local id (1, 0, 0))"
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
	// Across groups: work-item 0 of each group stores b[0, 0].
	across := strings.Replace(src, "b[0, 0] = a[j, i]", "if i_in == 0 and j == 0: b[0, 0] = a[0, i]", 1)
	k, err = ParseKernel("test.knl", []byte(across), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Run(k, map[string]int64{"n": 8}, map[string]any{"a": a, "b": make([]float32, 64)}, nil)
	want = "test.knl:7:26: instruction insn_0: stores to b[0, 0], which work-item (0, 0, 0) of group (0, 0, 0) stored a different value to with no barrier in between (a write-write race): work-groups do not wait for one another, so no barrier orders them: give each work-item an element of its own, or store from one work-item alone (guard the store with a condition on the inames) (at n=8, group (1, 0, 0), local id (0, 0, 0))"
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
	// Separated by a barrier, within one group; and unchanged values.
	for _, ok := range []string{
		"kernel sep\ndomain { [i] : 0 <= i < 4 }\narray b f32 [1]\ntag i l.0\nif i == 0: b[0] = 1\nbarrier\nif i == 1: b[0] = 2\n",
		"kernel same\ndomain { [i] : 0 <= i < 4 }\narray b f32 [1]\ntag i l.0\nb[0] = 3\n",
	} {
		k, err := ParseKernel("test.knl", []byte(ok), nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Run(k, nil, map[string]any{"b": make([]float32, 1)}, nil); err != nil {
			t.Errorf("%s: %v", k.Name, err)
		}
	}
}
