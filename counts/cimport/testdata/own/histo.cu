// Written for uniperf's tests (not from a suite): a 64-bin histogram of
// bytes read with __ldg into an unsigned char, counted with atomicAdd in
// shared memory and added to the global bins; a float atomicAdd into
// four sums picked by the byte; a compound scatter through a const
// __restrict__ permutation.
// uniperf: --local 128 --groups 4 --array data=n --array perm=n --array x=n --array y=n --array hist=64 --array total=4
#define BINS 64

__global__ void histo(const unsigned char *data, const int *__restrict__ perm, const float *x, float *y,
                      unsigned int *hist, float *total, int n)
{
    __shared__ unsigned int part[BINS];
    if (threadIdx.x < BINS) part[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += 4 * 128) {
        unsigned char d = __ldg(&data[i]);
        atomicAdd(&part[d >> 2], 1);
        atomicAdd(total + (d & 3), x[i]);
        y[perm[i]] += 2.0f * x[i];
    }
    __syncthreads();
    if (threadIdx.x < BINS) atomicAdd(hist + threadIdx.x, part[threadIdx.x]);
}
