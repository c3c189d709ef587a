// SHOC's spmv_csr_vector_kernel (shoc/spmv.cl, github.com/vetter/shoc at
// commit 0aea03beba2f09fcb5935cc11737372fe4de9ec0; licence in
// shoc/LICENSE), in single precision, edited as uniperf import's refusals
// of the original say, for the tests: the lane t & (vecWidth-1) and the
// row in the group t / vecWidth of the local index t are the indices of
// a two-dimensional work-group of vecWidth x 4 (get_local_id(0) and
// get_local_id(1); t is get_local_id(1)*vecWidth + get_local_id(0)), and
// the barriers leave if (myRow < dim): the if closes after the row's
// ends are read (an else sets them to 0, an empty row) and the final
// store tests myRow < dim again. Each warp does what the original's
// does; the original's barriers, which the last group's rows past dim
// skip where dim is no multiple of 4, are reached by every work-item.
// The reduction's while loop is the original's.
// uniperf: -D vecWidth=32 --local 32,4 --global 32,dim --array val=nnz --array vec=dim --array cols=nnz --array rowDelimiters=dim+1 --array out=dim --trips j=maxtrips
__kernel void
spmv_csr_vector_kernel(__global const float * restrict val,
                       __global const float * restrict vec,
                       __global const int * restrict cols,
                       __global const int * restrict rowDelimiters,
                       const int dim, const int vecWidth, __global float * restrict out)
{
    // Thread ID in block
    int t = get_local_id(1) * vecWidth + get_local_id(0);
    // Thread ID within warp
    int id = get_local_id(0);
    // One row per warp
    int vecsPerBlock = get_local_size(1);
    int myRow = (get_group_id(1) * vecsPerBlock) + get_local_id(1);

    __local volatile float partialSums[128];
    partialSums[t] = 0;

    int vecStart;
    int vecEnd;
    if (myRow < dim)
    {
        vecStart = rowDelimiters[myRow];
        vecEnd = rowDelimiters[myRow+1];
    }
    else
    {
        vecStart = 0;
        vecEnd = 0;
    }
    float mySum = 0;
    for (int j= vecStart + id; j < vecEnd;
         j+=vecWidth)
    {
        int col = cols[j];
        mySum += val[j] * vec[col];
    }

    partialSums[t] = mySum;
    barrier(CLK_LOCAL_MEM_FENCE);

    // Reduce partial sums
    int bar = vecWidth / 2;
    while(bar > 0)
    {
        if (id < bar) partialSums[t] += partialSums[t+ bar];
        barrier(CLK_LOCAL_MEM_FENCE);
        bar = bar / 2;
    }

    // Write result
    if (myRow < dim && id == 0)
    {
        out[myRow] = partialSums[t];
    }
}
