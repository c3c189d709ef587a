// Written for uniperf's tests (not from a suite): loops whose bounds are
// data, as C writes them. ka and kb are the language's data-bounded
// loops (a start read inline and a guard that is not the whole body; a
// loop nested inside); kd, ke, kf, kg and ki are masked, each for its
// reason (an affine start, a step of 2, <=, an end read in the
// condition, an unsigned end).
// uniperf: --local 64 --global n --array val=nnz --array col=nnz --array row=n+1 --array x=n --array a=n*m --array y=n --trips j=maxrl

__global__ void ka(const float *val, const int *col, const int *row, const float *x, const float *a, float *y, int n, int m)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    __shared__ float s[64];
    s[threadIdx.x] = 1.0f;
    __syncthreads();
    if (i < n) {
        float t = s[threadIdx.x];
        int end = row[i + 1];
        for (int j = row[i]; j < end; j++) t += val[j] * x[col[j]];
        y[i] = t;
    }
}

__global__ void kb(const float *val, const int *col, const int *row, const float *x, const float *a, float *y, int n, int m)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float t = 0.0f;
        int start = row[i];
        int end = row[i + 1];
        for (int j = start; j < end; j++)
            for (int k = 0; k < m; k++) t += a[i * m + k];
        y[i] = t;
    }
}

__global__ void kd(const float *val, const int *col, const int *row, const float *x, const float *a, float *y, int n, int m)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float t = 0.0f;
        int end = row[i + 1];
        for (int j = i; j < end; j++) t += val[j];
        y[i] = t;
    }
}

__global__ void ke(const float *val, const int *col, const int *row, const float *x, const float *a, float *y, int n, int m)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float t = 0.0f;
        int start = row[i];
        int end = row[i + 1];
        for (int j = start; j < end; j += 2) t += val[j];
        y[i] = t;
    }
}

__global__ void kf(const float *val, const int *col, const int *row, const float *x, const float *a, float *y, int n, int m)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float t = 0.0f;
        int start = row[i];
        int last = row[i + 1] - 1;
        for (int j = start; j <= last; j++) t += val[j];
        y[i] = t;
    }
}

__global__ void kg(const float *val, const int *col, const int *row, const float *x, const float *a, float *y, int n, int m)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float t = 0.0f;
        for (int j = row[i]; j < row[i + 1]; j++) t += val[j] * x[col[j]];
        y[i] = t;
    }
}

__global__ void ki(const float *val, const int *col, const int *row, const float *x, const float *a, float *y, int n, int m)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float t = 0.0f;
        unsigned int e = row[i + 1];
        for (int j = row[i]; j < e; j++) t += val[j] * x[col[j]];
        y[i] = t;
    }
}
