// Written for uniperf's tests (not from a suite): device functions that
// the kernel's calls inline: an index of one return, a clamp that
// returns early, a maximum whose branches set a variable and return,
// and a void function that counts into bins with atomicAdd.
// uniperf: --local 64 --global n --array x=2*n --array y=n --array bins=16

__device__ int at(int i, int w) { return 2 * i + w; }

__device__ float clampf(float v, float lo)
{
    if (v < lo) return lo;
    return v;
}

__device__ __host__ float biggest(float a, float b, float c)
{
    float k;
    if (a <= b)
        k = b;
    else
        k = a;
    if (k <= c)
        return c;
    else
        return k;
}

inline __device__ void count(unsigned int *bins, int b) { atomicAdd(&bins[b & 15], 1); }

__global__ void devfn(const float *x, float *y, unsigned int *bins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = biggest(x[at(i, 0)], x[at(i, 1)], 0.5f);
        y[i] = clampf(v - 1.0f, 0.25f);
        count(bins, (int)(v * 8.0f));
    }
}
