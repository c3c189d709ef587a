// Written for uniperf's tests (not from a suite): unsigned.cu in OpenCL
// C, where uint spells unsigned int.
// uniperf: --local 64 --global n --array a=n --array b=n --array q=n --array h=8
__kernel void mix(__global const uint *a, __global unsigned int *b, __global uint *q, __global uint *h, int n)
{
    int i = get_global_id(0);
    if (i < n) {
        uint t = a[i] * 2654435761u + b[i];
        q[i] = t / 7 + (a[i] >> 31) + t % 16;
        b[i] = t - i;
        if (a[i] > 4000000000u)
            atomic_add(&h[a[i] % 8], 1);
    }
}
