// Written for uniperf's tests (not from a suite): a __local tile, a
// barrier, the three OpenCL indices, and a predicate with an else.
// uniperf: --local B --groups n/B --array in=n --array out=n

#define B 64

__kernel void shift(__global const float *in, __global float *out, int n)
{
    __local float tile[B];
    int l = get_local_id(0);
    int g = get_group_id(0);
    int i = get_global_id(0);
    tile[l] = in[g * B + l];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < B - 1)
        out[i] = tile[l + 1] - tile[l];
    else
        out[i] = tile[l];
}
