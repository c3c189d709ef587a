// Written for uniperf's tests (not from a suite): a loop whose bounds
// are data in a kernel without a guard, launched on exactly 64*g
// work-items, with a private variable set to a literal inside it.
// uniperf: --local 64 --groups g --array val=nnz --array row=64*g+1 --array y=64*g --trips j=maxrl

__global__ void kh(const float *val, const int *row, float *y, int g)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int start = row[i];
    int end = row[i + 1];
    float t = 0.0f;
    for (int j = start; j < end; j++) {
        float u = 2.0f;
        t += u * val[j];
    }
    y[i] = t;
}
