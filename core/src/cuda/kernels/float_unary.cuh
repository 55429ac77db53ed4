// The launcher of the floating unary functions on CUDA (exp, sin, ...): the
// unary grid-stride kernel (unary.cuh) for the float and double compute
// types, and ST_CUDA_FLOAT_UNARY, which defines an op's device functor and
// entry point (Note [CUDA pointwise entry points] in cuda_kernels.h).
#pragma once

#include "unary.cuh"

namespace st::cuda::kernels {

// Half and bfloat16 compute in float, as on the CPU; Int never reaches a
// floating function (the host promotes integer inputs).
template <typename F>
cudaError_t launch_float_unary(F f, Compute compute, const Shape& shape, const Operand& out,
                               const Operand& in, int64_t numel, cudaStream_t stream) {
  if (numel == 0) return cudaSuccess;
  const unsigned int blocks = blocks_for(numel);
  if (compute == Compute::Double) {
    unary_kernel<double><<<blocks, kThreads, 0, stream>>>(f, shape, out, in, numel);
  } else {
    unary_kernel<float><<<blocks, kThreads, 0, stream>>>(f, shape, out, in, numel);
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
