// The elementwise engine's binary and unary operations on CUDA: one
// grid-stride launcher over strided operands, one instantiation per compute
// type (Note [CUDA kernels load and store by run-time dtype]).
#include "dtype_access.cuh"

namespace st::cuda::kernels {
namespace {

template <typename Acc>
__device__ __forceinline__ Acc apply_binary(Binary op, Acc a, Acc b, Acc alpha) {
  switch (op) {
    case Binary::Add: return a + alpha * b;
    case Binary::Sub: return a - alpha * b;
    case Binary::Mul: return a * b;
    case Binary::Div: return a / b;
    case Binary::Maximum: return a > b ? a : b;
    default: return a < b ? a : b;
  }
}

template <typename Acc>
__device__ __forceinline__ Acc apply_unary(Unary op, Acc x) {
  switch (op) {
    case Unary::Neg: return -x;
    case Unary::Abs: return x < Acc(0) ? -x : x;
    case Unary::Relu: return x > Acc(0) ? x : Acc(0);
    case Unary::Exp: return exp(x);
    case Unary::Log: return log(x);
    case Unary::Sqrt: return sqrt(x);
    case Unary::Rsqrt: return Acc(1) / sqrt(x);
    case Unary::Sin: return sin(x);
    case Unary::Cos: return cos(x);
    case Unary::Tanh: return tanh(x);
    default: return Acc(1) / (Acc(1) + exp(-x));  // Sigmoid
  }
}

// Integers: only the operations that are closed over them (the host refuses
// the others for integer dtypes before launching).
template <>
__device__ __forceinline__ int64_t apply_unary<int64_t>(Unary op, int64_t x) {
  switch (op) {
    case Unary::Neg: return -x;
    case Unary::Abs: return x < 0 ? -x : x;
    default: return x > 0 ? x : 0;  // Relu
  }
}

template <typename Acc>
__global__ void binary_kernel(Binary op, Shape shape, Operand out, Operand a, Operand b,
                              Acc alpha, int64_t n) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const Acc x = load<Acc>(a.data, a.dtype, offset_of(shape, a, i));
    const Acc y = load<Acc>(b.data, b.dtype, offset_of(shape, b, i));
    store<Acc>(out.data, out.dtype, offset_of(shape, out, i), apply_binary<Acc>(op, x, y, alpha));
  }
}

template <typename Acc>
__global__ void unary_kernel(Unary op, Shape shape, Operand out, Operand in, int64_t n) {
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const Acc x = load<Acc>(in.data, in.dtype, offset_of(shape, in, i));
    store<Acc>(out.data, out.dtype, offset_of(shape, out, i), apply_unary<Acc>(op, x));
  }
}

}  // namespace

cudaError_t binary(Binary op, Compute compute, const Shape& shape, const Operand& out,
                   const Operand& a, const Operand& b, double alpha, int64_t numel,
                   cudaStream_t stream) {
  if (numel == 0) return cudaSuccess;
  const unsigned int blocks = blocks_for(numel);
  switch (compute) {
    case Compute::Float:
      binary_kernel<float><<<blocks, kThreads, 0, stream>>>(op, shape, out, a, b,
                                                            static_cast<float>(alpha), numel);
      break;
    case Compute::Double:
      binary_kernel<double><<<blocks, kThreads, 0, stream>>>(op, shape, out, a, b, alpha, numel);
      break;
    case Compute::Int:
      binary_kernel<int64_t><<<blocks, kThreads, 0, stream>>>(
          op, shape, out, a, b, static_cast<int64_t>(alpha), numel);
      break;
  }
  return cudaGetLastError();
}

cudaError_t unary(Unary op, Compute compute, const Shape& shape, const Operand& out,
                  const Operand& in, int64_t numel, cudaStream_t stream) {
  if (numel == 0) return cudaSuccess;
  const unsigned int blocks = blocks_for(numel);
  switch (compute) {
    case Compute::Float:
      unary_kernel<float><<<blocks, kThreads, 0, stream>>>(op, shape, out, in, numel);
      break;
    case Compute::Double:
      unary_kernel<double><<<blocks, kThreads, 0, stream>>>(op, shape, out, in, numel);
      break;
    case Compute::Int:
      unary_kernel<int64_t><<<blocks, kThreads, 0, stream>>>(op, shape, out, in, numel);
      break;
  }
  return cudaGetLastError();
}

}  // namespace st::cuda::kernels
