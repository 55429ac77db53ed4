// The unary and ternary pointwise families on CUDA: one grid-stride
// launcher per family over strided operands, one instantiation per compute
// type (Note [CUDA kernels load and store by run-time dtype]); each op is
// one case of the family's functor (Note [CUDA pointwise op families]).
#include <cfloat>

#include "dtype_access.cuh"
#include "pointwise_math.cuh"

namespace st::cuda::kernels {
namespace {

template <typename Acc>
__device__ __forceinline__ Acc apply_unary(Unary op, Acc x, const UnaryParams& p) {
  switch (op) {
    // gelu in double for every dtype, with the CPU kernel's expressions
    // (v / sqrt(2), not v * (1 / sqrt(2)), so the bits agree).
    case Unary::Gelu: {
      const double v = static_cast<double>(x);
      return static_cast<Acc>(0.5 * v * (1.0 + erf(v / sqrt(2.0))));
    }
    case Unary::GeluTanh: {
      const double v = static_cast<double>(x);
      const double k = sqrt(2.0 / 3.14159265358979323846);
      return static_cast<Acc>(0.5 * v * (1.0 + tanh(k * (v + 0.044715 * v * v * v))));
    }
    case Unary::NanToNum:
      if (is_nan(x)) return static_cast<Acc>(p.p0);
      if (isinf(x)) return static_cast<Acc>(x > Acc(0) ? p.p1 : p.p2);
      return x;
  }
  return x;
}

// Integers: gelu never reaches here (the host refuses them); nan_to_num
// leaves them as they are.
template <>
__device__ __forceinline__ int64_t apply_unary<int64_t>(Unary, int64_t x, const UnaryParams&) {
  return x;
}

template <typename Acc>
__device__ __forceinline__ Acc apply_ternary(Ternary op, Acc a, Acc b, Acc c) {
  if (op == Ternary::Where) return a != Acc(0) ? b : c;
  const Acc lo = (is_nan(a) || is_nan(b)) ? a + b : (a < b ? b : a);
  return (is_nan(lo) || is_nan(c)) ? lo + c : (lo > c ? c : lo);
}

#define ST_GRID_STRIDE_LOOP(i, n)                                                        \
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < (n); \
       i += static_cast<int64_t>(gridDim.x) * blockDim.x)

template <typename Acc>
__global__ void unary_kernel(Unary op, Shape shape, Operand out, Operand in, UnaryParams p,
                             int64_t n) {
  ST_GRID_STRIDE_LOOP(i, n) {
    const Acc x = load<Acc>(in.data, in.dtype, offset_of(shape, in, i));
    store<Acc>(out.data, out.dtype, offset_of(shape, out, i), apply_unary<Acc>(op, x, p));
  }
}

template <typename Acc>
__global__ void ternary_kernel(Ternary op, Shape shape, Operand out, Operand a, Operand b,
                               Operand c, int64_t n) {
  ST_GRID_STRIDE_LOOP(i, n) {
    const Acc x = load<Acc>(a.data, a.dtype, offset_of(shape, a, i));
    const Acc y = load<Acc>(b.data, b.dtype, offset_of(shape, b, i));
    const Acc z = load<Acc>(c.data, c.dtype, offset_of(shape, c, i));
    store<Acc>(out.data, out.dtype, offset_of(shape, out, i), apply_ternary<Acc>(op, x, y, z));
  }
}

#undef ST_GRID_STRIDE_LOOP

}  // namespace

cudaError_t unary(Unary op, Compute compute, const Shape& shape, const Operand& out,
                  const Operand& in, const UnaryParams& params, int64_t numel,
                  cudaStream_t stream) {
  if (numel == 0) return cudaSuccess;
  const unsigned int blocks = blocks_for(numel);
  switch (compute) {
    case Compute::Float:
      unary_kernel<float><<<blocks, kThreads, 0, stream>>>(op, shape, out, in, params, numel);
      break;
    case Compute::Double:
      unary_kernel<double><<<blocks, kThreads, 0, stream>>>(op, shape, out, in, params, numel);
      break;
    case Compute::Int:
      unary_kernel<int64_t><<<blocks, kThreads, 0, stream>>>(op, shape, out, in, params, numel);
      break;
  }
  return cudaGetLastError();
}

cudaError_t ternary(Ternary op, Compute compute, const Shape& shape, const Operand& out,
                    const Operand& a, const Operand& b, const Operand& c, int64_t numel,
                    cudaStream_t stream) {
  if (numel == 0) return cudaSuccess;
  const unsigned int blocks = blocks_for(numel);
  switch (compute) {
    case Compute::Float:
      ternary_kernel<float><<<blocks, kThreads, 0, stream>>>(op, shape, out, a, b, c, numel);
      break;
    case Compute::Double:
      ternary_kernel<double><<<blocks, kThreads, 0, stream>>>(op, shape, out, a, b, c, numel);
      break;
    case Compute::Int:
      ternary_kernel<int64_t><<<blocks, kThreads, 0, stream>>>(op, shape, out, a, b, c, numel);
      break;
  }
  return cudaGetLastError();
}

}  // namespace st::cuda::kernels
