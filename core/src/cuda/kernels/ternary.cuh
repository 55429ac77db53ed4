// The launcher of the ternary pointwise operations on CUDA (where, clamp):
// one grid-stride kernel over three strided, broadcast operands, one
// instantiation per compute type, and ST_CUDA_TERNARY, which defines an
// op's device functor and entry point (Note [CUDA pointwise entry points]
// in cuda_kernels.h). Their host kernels are hand-written
// (cuda_pointwise.cpp): where's condition, clamp's optional bounds and
// masked_fill_ fit no generated schema form.
#pragma once

#include "dtype_access.cuh"
#include "pointwise_math.cuh"

namespace st::cuda::kernels {

template <typename Acc, typename F>
__global__ void ternary_kernel(F f, Shape shape, Operand out, Operand a, Operand b, Operand c,
                               int64_t n) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const Acc x = load<Acc>(a.data, a.dtype, offset_of(shape, a, i));
    const Acc y = load<Acc>(b.data, b.dtype, offset_of(shape, b, i));
    const Acc z = load<Acc>(c.data, c.dtype, offset_of(shape, c, i));
    store<Acc>(out.data, out.dtype, offset_of(shape, out, i), f(x, y, z));
  }
}

template <typename F>
cudaError_t launch_ternary(F f, Compute compute, const Shape& shape, const Operand& out,
                           const Operand& a, const Operand& b, const Operand& c, int64_t numel,
                           cudaStream_t stream) {
  if (numel == 0) return cudaSuccess;
  const unsigned int blocks = blocks_for(numel);
  switch (compute) {
    case Compute::Float:
      ternary_kernel<float><<<blocks, kThreads, 0, stream>>>(f, shape, out, a, b, c, numel);
      break;
    case Compute::Double:
      ternary_kernel<double><<<blocks, kThreads, 0, stream>>>(f, shape, out, a, b, c, numel);
      break;
    case Compute::Int:
      ternary_kernel<int64_t><<<blocks, kThreads, 0, stream>>>(f, shape, out, a, b, c, numel);
      break;
  }
  return cudaGetLastError();
}

}  // namespace st::cuda::kernels

// Defines the entry point ternary_<NAME> (a TernaryEntry) of the op
// (a, b, c) -> EXPR, EXPR in terms of a, b, c of type Acc (every compute
// type).
#define ST_CUDA_TERNARY(NAME, EXPR)                                                               \
  namespace st::cuda::kernels {                                                                   \
  struct ternary_##NAME##_functor {                                                               \
    template <typename Acc>                                                                       \
    __device__ __forceinline__ Acc operator()(Acc a, Acc b, Acc c) const {                        \
      return static_cast<Acc>(EXPR);                                                              \
    }                                                                                             \
  };                                                                                              \
  cudaError_t ternary_##NAME(Compute compute, const Shape& shape, const Operand& out,             \
                             const Operand& a, const Operand& b, const Operand& c, int64_t numel, \
                             cudaStream_t stream) {                                               \
    return launch_ternary(ternary_##NAME##_functor{}, compute, shape, out, a, b, c, numel,        \
                          stream);                                                                \
  }                                                                                               \
  }  // namespace st::cuda::kernels
