// A kernel written for the tests: Rodinia's pyramid pattern (hotspot,
// pathfinder) on a row of n floats, its steps in a loop that a break
// ends, a flag set under each step's guard and read after the loop, and
// the clamps of the block's valid range, one of which a guard compares
// as an or (tx <= lo: tx <= -blkX or tx <= 0).
// uniperf: --local 64 --groups (n+61)/62 --array a=n --array b=n --array e=n -D steps=2
__global__ void steps_kernel(int steps, float *a, float *b, float *e, int n)
{
    __shared__ float s[64];
    int tx = threadIdx.x;
    int blkX = 62*blockIdx.x - 1;
    int x = blkX + tx;
    int lo = (blkX < 0) ? -blkX : 0;
    int hi = (blkX + 63 > n - 1) ? 63 - (blkX + 63 - n + 1) : 63;
    bool done;
    if (x >= 0 && x < n)
        s[tx] = a[x];
    __syncthreads();
    for (int i = 0; i < steps; i++) {
        done = false;
        if (tx >= i + 1 && tx <= 62 - i && tx >= lo && tx <= hi) {
            done = true;
            b[x] = 2.0f*s[tx];
        }
        __syncthreads();
        if (i == steps - 1)
            break;
        if (done)
            s[tx] = b[x] + 1.0f;
        __syncthreads();
    }
    if (done)
        b[x] += 0.5f;
    if (tx <= lo && x >= 0)
        e[x] = s[tx];
}
