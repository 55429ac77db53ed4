// The launchers of the unary pointwise operators on CUDA with rules of
// their own (neg, sign, logical_not, isnan, bitwise_not, ...; the floating
// functions have float_unary.cuh): one grid-stride kernel over strided
// operands, one instantiation per compute type, and the macros that define
// an op's device functor and entry point, one per launcher (Note [CUDA
// pointwise entry points] in cuda_kernels.h). Every unary launcher's entry
// point has the signature UnaryEntry; the launchers differ in the host's
// rules (cuda_pointwise.cpp): result dtype and refused dtypes.
#pragma once

#include <type_traits>

#include "dtype_access.cuh"
#include "pointwise_math.cuh"

namespace st::cuda::kernels {

template <typename Acc, typename F>
__global__ void unary_kernel(F f, Shape shape, Operand out, Operand in, int64_t n) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const Acc x = load<Acc>(in.data, in.dtype, offset_of(shape, in, i));
    store<Acc>(out.data, out.dtype, offset_of(shape, out, i), f(x));
  }
}

template <typename F>
cudaError_t launch_unary(F f, Compute compute, const Shape& shape, const Operand& out,
                         const Operand& in, int64_t numel, cudaStream_t stream) {
  if (numel == 0) return cudaSuccess;
  const unsigned int blocks = blocks_for(numel);
  switch (compute) {
    case Compute::Float:
      unary_kernel<float><<<blocks, kThreads, 0, stream>>>(f, shape, out, in, numel);
      break;
    case Compute::Double:
      unary_kernel<double><<<blocks, kThreads, 0, stream>>>(f, shape, out, in, numel);
      break;
    case Compute::Int:
      unary_kernel<int64_t><<<blocks, kThreads, 0, stream>>>(f, shape, out, in, numel);
      break;
  }
  return cudaGetLastError();
}

}  // namespace st::cuda::kernels

// Defines the entry point ENTRY (a UnaryEntry) of the op whose result is
// FLOAT_EXPR for floating compute types (float for half, bfloat16 and
// float; double) and INT_EXPR for integers and bool (int64), each in terms
// of x (of type Acc). Predicates give 1 or 0; the store into a bool output
// turns that into true/false.
#define ST_CUDA_UNARY_ENTRY(ENTRY, FLOAT_EXPR, INT_EXPR)                                        \
  namespace st::cuda::kernels {                                                                 \
  struct ENTRY##_functor {                                                                      \
    template <typename Acc>                                                                     \
    __device__ __forceinline__ Acc operator()(Acc x) const {                                    \
      if constexpr (std::is_same_v<Acc, int64_t>) {                                             \
        return static_cast<Acc>(INT_EXPR);                                                      \
      } else {                                                                                  \
        return static_cast<Acc>(FLOAT_EXPR);                                                    \
      }                                                                                         \
    }                                                                                           \
  };                                                                                            \
  cudaError_t ENTRY(Compute compute, const Shape& shape, const Operand& out, const Operand& in, \
                    int64_t numel, cudaStream_t stream) {                                       \
    return launch_unary(ENTRY##_functor{}, compute, shape, out, in, numel, stream);             \
  }                                                                                             \
  }  // namespace st::cuda::kernels

// One macro per launcher (the `cuda_pointwise:` value of the YAML entry):
// the entry point is <launcher>_<op>.
#define ST_CUDA_UNARY(NAME, FLOAT_EXPR, INT_EXPR) \
  ST_CUDA_UNARY_ENTRY(unary_##NAME, FLOAT_EXPR, INT_EXPR)
#define ST_CUDA_UNARY_NONBOOL(NAME, FLOAT_EXPR, INT_EXPR) \
  ST_CUDA_UNARY_ENTRY(unary_nonbool_##NAME, FLOAT_EXPR, INT_EXPR)
#define ST_CUDA_UNARY_BOOL(NAME, FLOAT_EXPR, INT_EXPR) \
  ST_CUDA_UNARY_ENTRY(unary_bool_##NAME, FLOAT_EXPR, INT_EXPR)
#define ST_CUDA_UNARY_BITWISE(NAME, INT_EXPR) ST_CUDA_UNARY_ENTRY(unary_bitwise_##NAME, 0, INT_EXPR)
#define ST_CUDA_UNARY_FLOATING(NAME, FLOAT_EXPR) \
  ST_CUDA_UNARY_ENTRY(unary_floating_##NAME, FLOAT_EXPR, 0)
