// uniperf: --local 16,16 --groups (w+15)/16,(h+15)/16 --array in=(h+16)*(w+16) --array out=h*w
// A tile load as tuned kernels write it: the whole 16 x 16 tile is
// loaded unguarded, rows w + 16 apart, and only the store is guarded.
// At an edge block the loads read past the h x w image into the
// padding the host allocates, (h + 16) x (w + 16) floats.
#define B 16
__global__ void edgetile(float *out, const float *in, int h, int w) {
    __shared__ float sh[B][B];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * B + tx, y = blockIdx.y * B + ty;
    sh[ty][tx] = in[y * (w + 16) + x];
    __syncthreads();
    if (x < w && y < h) out[y * w + x] = sh[ty][tx] * 2.0f;
}
