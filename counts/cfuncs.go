package counts

// cFunctions maps C's, CUDA's and OpenCL C's spellings of the math
// functions to the .knl's: a .knl function computes in its argument's
// type, so C's single-precision sqrtf, CUDA's fast __expf and OpenCL's
// native_exp are all sqrt or exp of an f32 value.
var cFunctions = map[string]string{
	"sqrt": "sqrt", "sqrtf": "sqrt", "__fsqrt_rn": "sqrt", "native_sqrt": "sqrt", "half_sqrt": "sqrt",
	"exp": "exp", "expf": "exp", "__expf": "exp", "native_exp": "exp",
	"log": "log", "logf": "log", "__logf": "log", "native_log": "log",
	"sin": "sin", "sinf": "sin", "__sinf": "sin", "native_sin": "sin",
	"cos": "cos", "cosf": "cos", "__cosf": "cos", "native_cos": "cos",
	"fabs": "fabs", "fabsf": "fabs",
	"rsqrt": "rsqrt", "rsqrtf": "rsqrt", "native_rsqrt": "rsqrt",
	"pow": "pow", "powf": "pow", "__powf": "pow", "native_powr": "pow", "powr": "pow",
	"fmin": "fmin", "fminf": "fmin", "fmax": "fmax", "fmaxf": "fmax", "fmod": "fmod", "fmodf": "fmod",
}

// CFunction returns the .knl function that a C, CUDA or OpenCL C math
// function is (sqrt for sqrtf, __fsqrt_rn and native_sqrt), and whether
// there is one. Package cimport translates calls with it, and the
// resolver names it where a kernel calls the C spelling.
func CFunction(name string) (string, bool) {
	knl, ok := cFunctions[name]
	return knl, ok
}
