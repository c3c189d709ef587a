// Written for uniperf's tests (not from a suite): halves as storage, as
// CUDA C without half arithmetic writes them: loads through
// __half2float (and __ldg), stores through __float2half_rn, the
// arithmetic in float.
// uniperf: --local 64 --global n --array x=n --array y=n --array z=n
#include <cuda_fp16.h>

__global__ void halves(const __half *__restrict__ x, __half *y, float *z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = __half2float(__ldg(&x[i]));
        y[i] = __float2half_rn(2.0f * v + __half2float(y[i]));
        z[i] = v;
    }
}
