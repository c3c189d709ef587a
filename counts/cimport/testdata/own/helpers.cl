// Written for uniperf's tests: OpenCL C helper functions (inline, plain
// and static), which the import inlines as CUDA's __device__ ones.
// uniperf: --local 64 --global n --array x=n --array y=n
inline float sq(float v) { return v * v; }
float clampf(float v, float lo, float hi) { return fmin(fmax(v, lo), hi); }
static int twice(int i) { return 2 * i; }
__kernel void helpers(__global const float *x, __global float *y, int n)
{
    int i = get_global_id(0);
    if (2 * i < n)
        y[twice(i)] = clampf(sq(x[i]) - 1.0f, 0.0f, 2.0f);
}
