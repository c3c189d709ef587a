// Written for uniperf's tests (not from a suite): a float scalar
// argument, casts of an index and of data, integer min and max, and a
// ?: that is a max.
// uniperf: --local 64 --global n --array x=n --array y=n

__global__ void scalecast(const float *x, float *y, int n, int m, float alpha)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int lo = (i - m > 0) ? i - m : 0;
        y[i] = alpha * x[i] + (float)min(i, m) + (float)max(lo, 3) + (float)(int)(4.0f * x[i]);
    }
}
