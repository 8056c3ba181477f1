// HD marks the header-only math shared by the CPU loops and the CUDA kernels: under nvcc it expands to
// __host__ __device__, under a host compiler to a plain inline function.
#pragma once

#if defined(__CUDACC__)
#define HD __host__ __device__ __forceinline__
#else
#define HD inline
#endif
