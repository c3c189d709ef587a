// Written for uniperf's tests (not from a suite): C's unsigned int under
// its four spellings, computing modulo 2^32 with unsigned division,
// remainder, shifts and comparisons, and an unsigned atomicAdd.
// uniperf: --local 64 --global n --array a=n --array b=n --array q=n --array h=8
#include <stdint.h>

__global__ void mix(const unsigned *a, unsigned int *b, uint32_t *q, unsigned int *h, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned int t = a[i] * 2654435761u + b[i];
        q[i] = t / 7 + (a[i] >> 31) + t % 16;
        b[i] = t - i;
        if (a[i] > 4000000000u)
            atomicAdd(&h[a[i] % 8], 1);
    }
}
