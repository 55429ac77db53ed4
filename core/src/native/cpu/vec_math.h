// Internal: float32 math functions (exp, log, sqrt, rsqrt, sin, cos, tan,
// tanh, sigmoid, gelu; the binary operators of BinaryMath) over arrays, compiled once per
// instruction set from one source (vec_math_impl.inc), like the loops of vec_kernels.h, and chosen
// with the same variant as vec_kernels(). (The avx512_256 variant has only its binary functions but
// pow and nan_to_num of its own; the rest are the avx512 table's.) Each function is a polynomial
// with its own range reduction (coefficients from tools/fit_vec_math.py), within 1 to 6 ulp of the
// exact result (the bound per function is in tests/core/native/cpu/test_vec_math.cpp), with IEEE
// special values (NaN, infinities, signed zero, denormal inputs and results, overflow) as the C
// library gives them.
//
// The variants compute bit-identical results: the same lane arithmetic at
// each ISA's native vector width, the compiler's FMA contraction off and
// the polynomials' fused multiply-adds explicit (the baseline, which has no
// FMA instruction, emulates them exactly). Every element is computed by the
// vector code (a partial last vector is padded), so a result does not
// depend on where an element sits in the array.
//
// Thread-safety: the table is selected once (a function-local static) and
// read-only afterwards; the functions are reentrant.
#pragma once

#include <cstdint>

namespace st::native::cpu {

enum class UnaryMath : int {
  Exp,
  Log,
  Sqrt,
  Rsqrt,  // 1 / sqrt(x), two correctly rounded steps as PyTorch computes it
  Sin,
  Cos,
  Tanh,
  Sigmoid,   // 1 / (1 + exp(-x))
  GeluErf,   // x * Phi(x), Phi the standard normal CDF
  GeluTanh,  // x / (1 + exp(-2 sqrt(2/pi) (x + 0.044715 x^3)))
  Tan,
};
constexpr int kUnaryMathCount = static_cast<int>(UnaryMath::Tan) + 1;

// Binary functions on float32 with PyTorch's CPU semantics, exact: each
// gives the bits of the scalar kernel's definition (fmod exact, the float
// quotient a / b correctly rounded, NaN operands as the scalar code
// returns them).
enum class BinaryMath : int {
  Remainder,    // a - b floor(a / b): fmod(a, b), moved to b's sign
  FloorDivide,  // floor(a / b), from fmod as PyTorch's div_floor computes it
  TruncDivide,  // trunc(a / b) of the float quotient
  Divide,       // a / b
  Multiply,     // a * b
  Maximum,      // a NaN operand (b when both are), else the larger (a when equal)
  Minimum,      // a NaN operand (b when both are), else the smaller (a when equal)
  // Comparisons into a float output: 1.0f where a == b (...), else 0.0f.
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  // pow(a, b) within 0.5 + 2^-14 ulp (the C library's powf: 0.82), its
  // special cases (zero, infinite and NaN operands) the C library's (a
  // NaN's sign and payload aside); the one binary function not defined by
  // a scalar formula, so the scalar kernel calls it too.
  Pow,
};
constexpr int kBinaryMathCount = static_cast<int>(BinaryMath::Pow) + 1;

struct VecMath {
  const char* isa;  // "default", "avx2", "avx512", "avx512_256"
  // out[i] = f(in[i]) for i in [0, n); out may be in (in place), no other
  // overlap.
  void (*unary_f32[kUnaryMathCount])(float* out, const float* in, int64_t n);
  // out[i] = f(a[i], b[i]) for i in [0, n); out may be a or b.
  void (*binary_f32[kBinaryMathCount])(float* out, const float* a, const float* b, int64_t n);
  // The same with one operand a single value (a_scalar: a[0] for every i,
  // else b[0]), held in a register: a column broadcast along a row, a
  // 0-dim or wrapped-number other. The bits of binary_f32 over that value
  // repeated (a NaN result's payload aside, as binary_f32's against the
  // scalar kernels', but for maximum and minimum); out may be the array
  // operand. With n == 0 nothing is read.
  void (*binary_scalar_f32[kBinaryMathCount])(float* out, const float* a, const float* b, int64_t n,
                                              bool a_scalar);
  // out[i] = nan where in[i] is NaN, pos / neg where it is +inf / -inf, else
  // in[i] (nan_to_num); out may be in, no other overlap.
  void (*nan_to_num_f32)(float* out, const float* in, int64_t n, float nan, float pos, float neg);
  // Box-Muller: out[2k] = r cos(t), out[2k + 1] = r sin(t), r = sqrt(-2
  // log(u1[k])), t = 2 pi u2[k], for k in [0, pairs); u1 in (0, 1].
  void (*normal_pairs_f32)(float* out, const float* u1, const float* u2, int64_t pairs);
  // Softmax of one contiguous row of n > 0 floats: y[i] = exp(x[i] - max)
  // / sum (log: x[i] - max - log(sum)), the sum accumulated in float
  // lanes. y may be x.
  void (*softmax_row_f32)(float* y, const float* x, int64_t n, bool log);
  // Softmax along the rows of a block, each of cols columns as
  // softmax_row_f32 takes a row: element (k, i) at x[k * stride + i] (and
  // at y[k * stride + i]) for k < n, i < cols; n > 0, cols <= stride. The
  // sum of a column is accumulated in float in order of k. y must not
  // overlap x; work holds 2 * cols floats.
  void (*softmax_cols_f32)(float* y, const float* x, int64_t n, int64_t cols, int64_t stride,
                           bool log, float* work);
};

// The table of the variant vec_kernels() runs.
const VecMath& vec_math();
// A given variant, or nullptr when the CPU lacks it (for tests that check
// that the variants agree).
const VecMath* vec_math_for(const char* isa);

// The per-ISA tables (defined in vec_math_<isa>.cpp).
const VecMath& vec_math_default();
const VecMath& vec_math_avx2();
const VecMath& vec_math_avx512();
const VecMath& vec_math_avx512_256();

}  // namespace st::native::cpu
