// The launcher of the floating unary functions on CUDA (exp, sin, ...): a
// grid-stride kernel over strided operands, one instantiation per compute
// type, and ST_CUDA_FLOAT_UNARY, which defines an op's device functor and
// entry point (Note [CUDA pointwise entry points] in cuda_kernels.h).
#pragma once

#include "dtype_access.cuh"

namespace st::cuda::kernels {

template <typename Acc, typename F>
__global__ void float_unary_kernel(F f, Shape shape, Operand out, Operand in, int64_t n) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const Acc x = load<Acc>(in.data, in.dtype, offset_of(shape, in, i));
    store<Acc>(out.data, out.dtype, offset_of(shape, out, i), f(x));
  }
}

// Half and bfloat16 compute in float, as on the CPU; Int never reaches a
// floating function (the host promotes integer inputs).
template <typename F>
cudaError_t launch_float_unary(F f, Compute compute, const Shape& shape, const Operand& out,
                               const Operand& in, int64_t numel, cudaStream_t stream) {
  if (numel == 0) return cudaSuccess;
  const unsigned int blocks = blocks_for(numel);
  if (compute == Compute::Double) {
    float_unary_kernel<double><<<blocks, kThreads, 0, stream>>>(f, shape, out, in, numel);
  } else {
    float_unary_kernel<float><<<blocks, kThreads, 0, stream>>>(f, shape, out, in, numel);
  }
  return cudaGetLastError();
}

}  // namespace st::cuda::kernels

// Defines the entry point float_unary_<NAME> (a FloatUnaryEntry) of the
// function `x -> EXPR` (EXPR in terms of x, of type float or double).
#define ST_CUDA_FLOAT_UNARY(NAME, EXPR)                                                     \
  namespace st::cuda::kernels {                                                             \
  struct FloatUnary_##NAME {                                                                \
    template <typename Acc>                                                                 \
    __device__ __forceinline__ Acc operator()(Acc x) const {                                \
      return EXPR;                                                                          \
    }                                                                                       \
  };                                                                                        \
  cudaError_t float_unary_##NAME(Compute compute, const Shape& shape, const Operand& out,   \
                                 const Operand& in, int64_t numel, cudaStream_t stream) {   \
    return launch_float_unary(FloatUnary_##NAME{}, compute, shape, out, in, numel, stream); \
  }                                                                                         \
  }  // namespace st::cuda::kernels
