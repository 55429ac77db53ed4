// The launchers of the binary pointwise operators on CUDA (add, mul, eq,
// bitwise_and, ...): one grid-stride kernel over strided, broadcast
// operands, one instantiation per compute type, and the macros that define
// an op's device functor and entry point, one per launcher (Note [CUDA
// pointwise entry points] in cuda_kernels.h). Every binary launcher's
// entry point has the signature BinaryEntry; the launchers differ in the
// host's rules (cuda_pointwise.cpp): result dtype, refused dtypes, alpha,
// the integer division-by-zero flag.
#pragma once

#include <type_traits>

#include "dtype_access.cuh"
#include "pointwise_math.cuh"

namespace st::cuda::kernels {

template <typename Acc, typename F>
__global__ void binary_kernel(F f, Shape shape, Operand out, Operand a, Operand b, Acc alpha,
                              int32_t* zero_division, int64_t n) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const Acc x = load<Acc>(a.data, a.dtype, offset_of(shape, a, i));
    const Acc y = load<Acc>(b.data, b.dtype, offset_of(shape, b, i));
    store<Acc>(out.data, out.dtype, offset_of(shape, out, i), f(x, y, alpha, zero_division));
  }
}

template <typename F>
cudaError_t launch_binary(F f, Compute compute, const Shape& shape, const Operand& out,
                          const Operand& a, const Operand& b, double alpha, int32_t* zero_division,
                          int64_t numel, cudaStream_t stream) {
  if (numel == 0) return cudaSuccess;
  const unsigned int blocks = blocks_for(numel);
  switch (compute) {
    case Compute::Float:
      binary_kernel<float><<<blocks, kThreads, 0, stream>>>(
          f, shape, out, a, b, static_cast<float>(alpha), zero_division, numel);
      break;
    case Compute::Double:
      binary_kernel<double>
          <<<blocks, kThreads, 0, stream>>>(f, shape, out, a, b, alpha, zero_division, numel);
      break;
    case Compute::Int:
      binary_kernel<int64_t><<<blocks, kThreads, 0, stream>>>(
          f, shape, out, a, b, static_cast<int64_t>(alpha), zero_division, numel);
      break;
  }
  return cudaGetLastError();
}

// ---- device math shared by the binary ops --------------------------------

// The CPU's floor division of floats: through fmod, so that the quotient
// agrees with remainder() (a == b * floordiv + remainder).
template <typename Acc>
__device__ __forceinline__ Acc floor_div(Acc a, Acc b) {
  if (b == Acc(0)) return a / b;
  const Acc mod = fmod(a, b);
  Acc div = (a - mod) / b;
  if (mod != Acc(0) && ((b < Acc(0)) != (mod < Acc(0)))) div -= Acc(1);
  if (div == Acc(0)) return copysign(Acc(0), a / b);
  Acc floordiv = floor(div);
  if (div - floordiv > Acc(0.5)) floordiv += Acc(1);
  return floordiv;
}

template <typename Acc>
__device__ __forceinline__ Acc float_remainder(Acc a, Acc b) {
  Acc r = fmod(a, b);
  if (r != Acc(0) && ((b < Acc(0)) != (r < Acc(0)))) r += b;
  return r;
}

enum class IntDivide { Trunc, Floor, Remainder };
// Integer division and remainder. By zero: 0, and *zero_division set (when
// not null) for the host to raise the CPU's error. b == -1 is negation
// (INT64_MIN / -1 would trap).
template <IntDivide kind>
__device__ __forceinline__ int64_t int_divide(int64_t a, int64_t b, int32_t* zero_division) {
  if (b == 0) {
    if (zero_division != nullptr) *zero_division = 1;
    return 0;
  }
  if (b == -1) return kind == IntDivide::Remainder ? 0 : wrap_neg(a);
  const int64_t q = a / b;
  const int64_t r = a % b;
  const bool adjust = r != 0 && ((r < 0) != (b < 0));
  if (kind == IntDivide::Remainder) return adjust ? r + b : r;
  if (kind == IntDivide::Floor && adjust) return q - 1;
  return q;
}

// a ** b for integers, wrapping; a negative exponent gives the CPU's 1, -1
// or 0.
__device__ __forceinline__ int64_t int_pow(int64_t a, int64_t b) {
  if (b < 0) {
    if (a == 1) return 1;
    if (a == -1) return (b % 2 == 0) ? 1 : -1;
    return 0;
  }
  uint64_t r = 1, base = uint64_t(a), e = uint64_t(b);
  while (e) {
    if (e & 1) r *= base;
    base *= base;
    e >>= 1;
  }
  return static_cast<int64_t>(r);
}

}  // namespace st::cuda::kernels

// Defines the entry point ENTRY (a BinaryEntry) of the op whose result is
// FLOAT_EXPR for floating compute types (float for half, bfloat16 and float;
// double) and INT_EXPR for integers and bool (int64), each in terms of a, b
// (and alpha, zero_division where the launcher gives them meaning).
// Comparisons and logical ops give 1 or 0; the store into a bool output
// turns that into true/false.
#define ST_CUDA_BINARY_ENTRY(ENTRY, FLOAT_EXPR, INT_EXPR)                                      \
  namespace st::cuda::kernels {                                                                \
  struct ENTRY##_functor {                                                                     \
    template <typename Acc>                                                                    \
    __device__ __forceinline__ Acc operator()(Acc a, Acc b, Acc alpha,                         \
                                              int32_t* zero_division) const {                  \
      (void)alpha;                                                                             \
      (void)zero_division;                                                                     \
      if constexpr (std::is_same_v<Acc, int64_t>) {                                            \
        return static_cast<Acc>(INT_EXPR);                                                     \
      } else {                                                                                 \
        return static_cast<Acc>(FLOAT_EXPR);                                                   \
      }                                                                                        \
    }                                                                                          \
  };                                                                                           \
  cudaError_t ENTRY(Compute compute, const Shape& shape, const Operand& out, const Operand& a, \
                    const Operand& b, double alpha, int32_t* zero_division, int64_t numel,     \
                    cudaStream_t stream) {                                                     \
    return launch_binary(ENTRY##_functor{}, compute, shape, out, a, b, alpha, zero_division,   \
                         numel, stream);                                                       \
  }                                                                                            \
  }  // namespace st::cuda::kernels

// One macro per launcher (the `cuda_pointwise:` value of the YAML entry):
// the entry point is <launcher>_<op>.
#define ST_CUDA_BINARY(NAME, FLOAT_EXPR, INT_EXPR) \
  ST_CUDA_BINARY_ENTRY(binary_##NAME, FLOAT_EXPR, INT_EXPR)
#define ST_CUDA_BINARY_ALPHA(NAME, FLOAT_EXPR, INT_EXPR) \
  ST_CUDA_BINARY_ENTRY(binary_alpha_##NAME, FLOAT_EXPR, INT_EXPR)
#define ST_CUDA_BINARY_FLOAT(NAME, FLOAT_EXPR) \
  ST_CUDA_BINARY_ENTRY(binary_float_##NAME, FLOAT_EXPR, 0)
#define ST_CUDA_BINARY_NONBOOL(NAME, FLOAT_EXPR, INT_EXPR) \
  ST_CUDA_BINARY_ENTRY(binary_nonbool_##NAME, FLOAT_EXPR, INT_EXPR)
#define ST_CUDA_BINARY_DIVMOD(NAME, FLOAT_EXPR, INT_EXPR) \
  ST_CUDA_BINARY_ENTRY(binary_divmod_##NAME, FLOAT_EXPR, INT_EXPR)
#define ST_CUDA_BINARY_COMPARE(NAME, EXPR) ST_CUDA_BINARY_ENTRY(binary_compare_##NAME, EXPR, EXPR)
#define ST_CUDA_BINARY_BITWISE(NAME, INT_EXPR) \
  ST_CUDA_BINARY_ENTRY(binary_bitwise_##NAME, 0, INT_EXPR)
#define ST_CUDA_BINARY_SHIFT(NAME, INT_EXPR) ST_CUDA_BINARY_ENTRY(binary_shift_##NAME, 0, INT_EXPR)
