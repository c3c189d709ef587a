package counts_test

import (
	"strings"
	"testing"

	"github.com/uniperf/uniperf/counts"
)

// A name the generated OpenCL C or CUDA C cannot use is refused where it
// is declared, with the place and a name to write instead; the same
// kernel with the name changed parses.
func TestTargetReservedNames(t *testing.T) {
	kernel := func(name, param, iname, array, temp string, outer ...string) string {
		out := "g_out"
		if len(outer) > 0 {
			out = outer[0]
		}
		return "kernel " + name + "\n" +
			"domain [" + param + "] -> { [" + iname + "] : 0 <= " + iname + " < " + param + " }\n" +
			"array " + array + " f32 [" + param + "]\n" +
			"split " + iname + " 64 " + out + " l_in\n" +
			"tag " + out + " g.0, l_in l.0\n" +
			"<f32> " + temp + " = 2*" + array + "[" + iname + "]\n" +
			array + "[" + iname + "] = " + temp + "\n"
	}
	cases := []struct {
		name, src, pos, msg string
	}{
		{"OpenCL type as array", kernel("k", "n", "i", "half", "t"), "3:7", `array half: "half" is reserved in the OpenCL C or CUDA C that uniperf generates from the kernel (a keyword, type or built-in there); rename it, for example to half_k`},
		{"C type as parameter", kernel("k", "int", "i", "a", "t"), "2:9", `parameter int: "int" is reserved`},
		{"CUDA index as iname", kernel("k", "n", "i", "a", "t", "threadIdx"), "4:7", `iname threadIdx: "threadIdx" is reserved`},
		{"vector type as temporary", kernel("k", "n", "i", "a", "float4"), "6:7", `temporary float4: "float4" is reserved`},
		{"C++ keyword as kernel", kernel("class", "n", "i", "a", "t"), "1:8", `kernel class: "class" is reserved`},
		{"helper as array", kernel("k", "n", "i", "imin", "t"), "3:7", `array imin: "imin" is reserved`},
		{"OpenCL type as scalar", "kernel k\ndomain [n] -> { [i] : 0 <= i < n }\narray a f32 [n]\nscalar half f32 = 2\na[i] = half*a[i]\n", "4:8", `scalar half: "half" is reserved`},
		{"implementation name", kernel("k", "n", "i", "__a", "t"), "3:7", `array __a: "__a" is reserved in the OpenCL C or CUDA C that uniperf generates from the kernel (a keyword, type or built-in there); rename it, for example to a_k`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := counts.ParseKernel("test.knl", []byte(c.src), nil)
			want := "test.knl:" + c.pos + ": "
			if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("error %v, want prefix %q and %q", err, want, c.msg)
			}
		})
	}
	if _, err := counts.ParseKernel("test.knl", []byte(kernel("k", "n", "i", "half_k", "float4_k")), nil); err != nil {
		t.Errorf("the renamed kernel: %v", err)
	}
}
