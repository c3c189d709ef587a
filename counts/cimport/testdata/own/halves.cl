// Written for uniperf's tests (not from a suite): halves as storage, as
// OpenCL C without cl_khr_fp16 writes them: vload_half and vstore_half,
// the arithmetic in float.
// uniperf: --local 64 --global n --array x=n --array y=n --array z=n

__kernel void halves_cl(__global const half *x, __global half *y, __global float *z, int n)
{
    int i = get_global_id(0);
    if (i < n) {
        float v = vload_half(i, x);
        vstore_half(2.0f * v + vload_half(i, y), i, y);
        z[i] = v;
    }
}
