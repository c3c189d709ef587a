/*
 * What NVRTC declares implicitly, for compiling uniperf's generated CUDA C
 * with clang's CUDA front end where no CUDA toolkit is installed (see
 * cuda_test.go). NVRTC compiles a source with no #include: the execution
 * space and memory qualifiers, the built-in index variables, the barrier
 * and the math library are predefined. Only what generated kernels use is
 * declared here.
 */
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
#include <__clang_cuda_builtin_vars.h>
__device__ void __syncthreads(void);
__device__ float powf(float, float);   __device__ double pow(double, double);
__device__ float rsqrtf(float);        __device__ double rsqrt(double);
__device__ float sqrtf(float);         __device__ double sqrt(double);
__device__ float expf(float);          __device__ double exp(double);
__device__ float logf(float);          __device__ double log(double);
__device__ float sinf(float);          __device__ double sin(double);
__device__ float cosf(float);          __device__ double cos(double);
__device__ float fabsf(float);         __device__ double fabs(double);
__device__ float fminf(float, float);  __device__ double fmin(double, double);
__device__ float fmaxf(float, float);  __device__ double fmax(double, double);
__device__ int min(int, int);          __device__ long long min(long long, long long);
__device__ int max(int, int);          __device__ long long max(long long, long long);
__device__ unsigned int min(unsigned int, unsigned int);
__device__ unsigned int max(unsigned int, unsigned int);
__device__ float fmodf(float, float);  __device__ double fmod(double, double);
__device__ float __int_as_float(int);  __device__ double __longlong_as_double(long long);
__device__ float __ldg(const float *);  __device__ double __ldg(const double *);
__device__ int __ldg(const int *);      __device__ long long __ldg(const long long *);
__device__ signed char __ldg(const signed char *); __device__ unsigned char __ldg(const unsigned char *);
__device__ short __ldg(const short *);  __device__ unsigned short __ldg(const unsigned short *);
__device__ int atomicAdd(int *, int);   __device__ float atomicAdd(float *, float);
__device__ unsigned int atomicAdd(unsigned int *, unsigned int);
__device__ unsigned int __ldg(const unsigned int *);
