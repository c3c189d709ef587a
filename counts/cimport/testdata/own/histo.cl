// Written for uniperf's tests (not from a suite): OpenCL C's atomic_inc
// on a __local histogram of 16-bit values (ushort), read through a
// const restrict pointer, and atomic_add of the bins into the global
// ones; a gather through an index array read into a short.
// uniperf: --local 64 --global n --array v=n --array idx=n --array x=n --array y=n --array hist=32
__kernel void histo_cl(__global const ushort *restrict v, __global const short *restrict idx,
                       __global const float *restrict x, __global float *y, __global int *hist, int n)
{
    __local int part[32];
    int l = get_local_id(0);
    if (l < 32) part[l] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    int i = get_global_id(0);
    if (i < n) {
        atomic_inc(&part[v[i] % 32]);
        short k = idx[i];
        y[i] = x[k] - x[i];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < 32) atomic_add(&hist[l], part[l]);
}
