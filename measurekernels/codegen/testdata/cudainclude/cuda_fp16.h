/*
 * The declarations of CUDA's cuda_fp16.h that uniperf's generated CUDA C
 * uses, for compiling it with clang's CUDA front end where no CUDA
 * toolkit is installed (see cuda_test.go and nvrtc_prelude.h). __half is
 * the 2-byte storage of a binary16 value; the conversions round to
 * nearest even, as the CUDA Math API documents them.
 */
struct __attribute__((aligned(2))) __half { unsigned short __x; };
__device__ float __half2float(const __half);
__device__ __half __float2half_rn(const float);
__device__ __half __double2half(const double);
__device__ __half __ldg(const __half *);
