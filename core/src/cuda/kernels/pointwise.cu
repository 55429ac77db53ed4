// The elementwise engine's binary, unary and ternary operations on CUDA:
// one grid-stride launcher per family over strided operands, one
// instantiation per compute type (Note [CUDA kernels load and store by
// run-time dtype]); each op is one case of the family's functor (Note [CUDA
// pointwise op families]).
#include <cfloat>

#include "dtype_access.cuh"

namespace st::cuda::kernels {
namespace {

template <typename Acc>
__device__ __forceinline__ bool is_nan(Acc v) {
  return v != v;
}

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

// Floats (float for half/bfloat16/float, double). The bitwise ops never
// reach here (the host refuses floating dtypes for them).
template <typename Acc>
__device__ __forceinline__ Acc apply_binary(Binary op, Acc a, Acc b, Acc alpha, int32_t*) {
  switch (op) {
    case Binary::Add:
      return a + alpha * b;
    case Binary::Sub:
      return a - alpha * b;
    case Binary::Mul:
      return a * b;
    case Binary::Div:
      return a / b;
    case Binary::DivTrunc:
      return trunc(a / b);
    case Binary::DivFloor:
      return floor_div(a, b);
    case Binary::Remainder: {
      Acc r = fmod(a, b);
      if (r != Acc(0) && ((b < Acc(0)) != (r < Acc(0)))) r += b;
      return r;
    }
    case Binary::Pow:
      return pow(a, b);
    // NaN wins in maximum/minimum and clamp, as on the CPU.
    case Binary::Maximum:
      return is_nan(a) ? a : (is_nan(b) ? b : (a < b ? b : a));
    case Binary::Minimum:
      return is_nan(a) ? a : (is_nan(b) ? b : (b < a ? b : a));
    case Binary::ClampMin:
      return (is_nan(a) || is_nan(b)) ? a + b : (a < b ? b : a);
    case Binary::ClampMax:
      return (is_nan(a) || is_nan(b)) ? a + b : (a > b ? b : a);
    case Binary::Eq:
      return Acc(a == b);
    case Binary::Ne:
      return Acc(a != b);
    case Binary::Lt:
      return Acc(a < b);
    case Binary::Le:
      return Acc(a <= b);
    case Binary::Gt:
      return Acc(a > b);
    case Binary::Ge:
      return Acc(a >= b);
    case Binary::LogicalAnd:
      return Acc(a != Acc(0) && b != Acc(0));
    case Binary::LogicalOr:
      return Acc(a != Acc(0) || b != Acc(0));
    case Binary::LogicalXor:
      return Acc((a != Acc(0)) != (b != Acc(0)));
    default:
      return Acc(0);
  }
}

// Integers and bool, in int64. Add, sub, mul, neg and pow wrap (through
// uint64, so overflow is defined); the narrower stored dtype then keeps the
// low bits, which is the same wrap the CPU's native-width arithmetic gives.
template <>
__device__ __forceinline__ int64_t apply_binary<int64_t>(Binary op, int64_t a, int64_t b,
                                                         int64_t alpha, int32_t* zero_division) {
  using U = uint64_t;
  switch (op) {
    case Binary::Add:
      return static_cast<int64_t>(U(a) + U(alpha) * U(b));
    case Binary::Sub:
      return static_cast<int64_t>(U(a) - U(alpha) * U(b));
    case Binary::Mul:
      return static_cast<int64_t>(U(a) * U(b));
    case Binary::Div:
    case Binary::DivTrunc:
    case Binary::DivFloor:
    case Binary::Remainder: {
      if (b == 0) {
        if (zero_division != nullptr) *zero_division = 1;
        return 0;
      }
      // b == -1 is negation (INT64_MIN / -1 would trap).
      if (b == -1) return op == Binary::Remainder ? 0 : static_cast<int64_t>(U(0) - U(a));
      const int64_t q = a / b;
      const int64_t r = a % b;
      const bool adjust = r != 0 && ((r < 0) != (b < 0));
      if (op == Binary::Remainder) return adjust ? r + b : r;
      if (op == Binary::DivFloor && adjust) return q - 1;
      return q;
    }
    case Binary::Pow: {
      if (b < 0) {
        if (a == 1) return 1;
        if (a == -1) return (b % 2 == 0) ? 1 : -1;
        return 0;
      }
      U r = 1, base = U(a), e = U(b);
      while (e) {
        if (e & 1) r *= base;
        base *= base;
        e >>= 1;
      }
      return static_cast<int64_t>(r);
    }
    case Binary::Maximum:
    case Binary::ClampMin:
      return a < b ? b : a;
    case Binary::Minimum:
    case Binary::ClampMax:
      return b < a ? b : a;
    case Binary::Eq:
      return a == b;
    case Binary::Ne:
      return a != b;
    case Binary::Lt:
      return a < b;
    case Binary::Le:
      return a <= b;
    case Binary::Gt:
      return a > b;
    case Binary::Ge:
      return a >= b;
    case Binary::LogicalAnd:
      return a != 0 && b != 0;
    case Binary::LogicalOr:
      return a != 0 || b != 0;
    case Binary::LogicalXor:
      return (a != 0) != (b != 0);
    case Binary::BitAnd:
      return a & b;
    case Binary::BitOr:
      return a | b;
    case Binary::BitXor:
      return a ^ b;
    // Operands are sign- (or zero-, for uint8) extended to 64 bits, so a
    // shift by at least the stored width already gives the CPU's 0 (left)
    // or sign fill (right) once stored; only shifts the int64 cannot do
    // need the explicit rule.
    case Binary::Shl:
      return (b < 0 || b >= 64) ? 0 : static_cast<int64_t>(U(a) << b);
    case Binary::Shr:
      return (b < 0 || b >= 64) ? (a < 0 ? -1 : 0) : (a >> b);
    default:
      return 0;
  }
}

template <typename Acc>
__device__ __forceinline__ Acc apply_unary(Unary op, Acc x, const UnaryParams& p) {
  switch (op) {
    case Unary::Neg:
      return -x;
    case Unary::Abs:
      return fabs(x);
    case Unary::Relu:
      return (x > Acc(0) || is_nan(x)) ? x : Acc(0);
    case Unary::Sign:
      return Acc((Acc(0) < x) - (x < Acc(0)));
    case Unary::LogicalNot:
      return Acc(x == Acc(0));
    case Unary::IsNan:
      return Acc(is_nan(x));
    case Unary::IsInf:
      return Acc(isinf(x));
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
    default:
      return x;  // BitwiseNot: integers only
  }
}

// Integers: the operations that are closed over them.
template <>
__device__ __forceinline__ int64_t apply_unary<int64_t>(Unary op, int64_t x, const UnaryParams&) {
  switch (op) {
    case Unary::Neg:
      return static_cast<int64_t>(uint64_t(0) - uint64_t(x));
    case Unary::Abs:
      return x < 0 ? static_cast<int64_t>(uint64_t(0) - uint64_t(x)) : x;
    case Unary::Relu:
      return x > 0 ? x : 0;
    case Unary::Sign:
      return (0 < x) - (x < 0);
    case Unary::LogicalNot:
      return x == 0;
    case Unary::BitwiseNot:
      return ~x;
    case Unary::IsNan:
    case Unary::IsInf:
      return 0;
    default:
      return x;  // NanToNum
  }
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
__global__ void binary_kernel(Binary op, Shape shape, Operand out, Operand a, Operand b, Acc alpha,
                              int32_t* zero_division, int64_t n) {
  ST_GRID_STRIDE_LOOP(i, n) {
    const Acc x = load<Acc>(a.data, a.dtype, offset_of(shape, a, i));
    const Acc y = load<Acc>(b.data, b.dtype, offset_of(shape, b, i));
    store<Acc>(out.data, out.dtype, offset_of(shape, out, i),
               apply_binary<Acc>(op, x, y, alpha, zero_division));
  }
}

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

cudaError_t binary(Binary op, Compute compute, const Shape& shape, const Operand& out,
                   const Operand& a, const Operand& b, double alpha, int32_t* zero_division,
                   int64_t numel, cudaStream_t stream) {
  if (numel == 0) return cudaSuccess;
  const unsigned int blocks = blocks_for(numel);
  switch (compute) {
    case Compute::Float:
      binary_kernel<float><<<blocks, kThreads, 0, stream>>>(
          op, shape, out, a, b, static_cast<float>(alpha), zero_division, numel);
      break;
    case Compute::Double:
      binary_kernel<double>
          <<<blocks, kThreads, 0, stream>>>(op, shape, out, a, b, alpha, zero_division, numel);
      break;
    case Compute::Int:
      binary_kernel<int64_t><<<blocks, kThreads, 0, stream>>>(
          op, shape, out, a, b, static_cast<int64_t>(alpha), zero_division, numel);
      break;
  }
  return cudaGetLastError();
}

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
