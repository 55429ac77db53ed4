// The arithmetic operator set of a reduced-precision float type that
// computes in float (Half, BFloat16 and the Float8 formats with
// arithmetic): convert the operands to float, compute, round the result
// back. PyTorch declares these operators as plain (non-template) functions
// for each type, and that matters for callers: a non-template operator
// accepts arguments that reach its parameter types by implicit conversion
// (e.g. CUDA's __half for a Half), where a template would fail deduction.
// So each type's header expands this macro once, in namespace
// torch::headeronly, after the type is complete, and gets exactly
// PyTorch's overloads, written once here.
//
// Mixed-type rules, as PyTorch's:
//   * with float or double on either side, the result is that wider type,
//     computed in it;
//   * with int or int64_t on either side, the integer is first rounded to
//     the reduced type, and the result stays the reduced type (so
//     `Half(1) + 2049` is 1 + 2048, not the rounding of 2050);
//   * comparisons are not declared: operands convert to float implicitly.
#pragma once

#include <cstdint>

#include <torch/headeronly/macros/Macros.h>

#define TORCH_HEADERONLY_DETAIL_ARITHMETIC_VIA_FLOAT(T)                             \
  C10_HOST_DEVICE inline T operator+(const T& a, const T& b) {                      \
    return static_cast<float>(a) + static_cast<float>(b);                           \
  }                                                                                 \
  C10_HOST_DEVICE inline T operator-(const T& a, const T& b) {                      \
    return static_cast<float>(a) - static_cast<float>(b);                           \
  }                                                                                 \
  C10_HOST_DEVICE inline T operator*(const T& a, const T& b) {                      \
    return static_cast<float>(a) * static_cast<float>(b);                           \
  }                                                                                 \
  C10_HOST_DEVICE inline T operator/(const T& a, const T& b)                        \
      __ubsan_ignore_float_divide_by_zero__ {                                       \
    return static_cast<float>(a) / static_cast<float>(b);                           \
  }                                                                                 \
  C10_HOST_DEVICE inline T operator-(const T& a) { return -static_cast<float>(a); } \
  C10_HOST_DEVICE inline T& operator+=(T& a, const T& b) {                          \
    a = a + b;                                                                      \
    return a;                                                                       \
  }                                                                                 \
  C10_HOST_DEVICE inline T& operator-=(T& a, const T& b) {                          \
    a = a - b;                                                                      \
    return a;                                                                       \
  }                                                                                 \
  C10_HOST_DEVICE inline T& operator*=(T& a, const T& b) {                          \
    a = a * b;                                                                      \
    return a;                                                                       \
  }                                                                                 \
  C10_HOST_DEVICE inline T& operator/=(T& a, const T& b) {                          \
    a = a / b;                                                                      \
    return a;                                                                       \
  }                                                                                 \
  TORCH_HEADERONLY_DETAIL_ARITHMETIC_WITH_WIDER(T, float)                           \
  TORCH_HEADERONLY_DETAIL_ARITHMETIC_WITH_WIDER(T, double)                          \
  TORCH_HEADERONLY_DETAIL_ARITHMETIC_WITH_INTEGER(T, int)                           \
  TORCH_HEADERONLY_DETAIL_ARITHMETIC_WITH_INTEGER(T, int64_t)                       \
  C10_HOST_DEVICE inline float& operator+=(float& a, const T& b) {                  \
    return a += static_cast<float>(b);                                              \
  }                                                                                 \
  C10_HOST_DEVICE inline float& operator-=(float& a, const T& b) {                  \
    return a -= static_cast<float>(b);                                              \
  }                                                                                 \
  C10_HOST_DEVICE inline float& operator*=(float& a, const T& b) {                  \
    return a *= static_cast<float>(b);                                              \
  }                                                                                 \
  C10_HOST_DEVICE inline float& operator/=(float& a, const T& b) {                  \
    return a /= static_cast<float>(b);                                              \
  }

// T with the floating-point type S (float or double) on either side: the
// T operand is widened (exactly) and the operation happens in S.
#define TORCH_HEADERONLY_DETAIL_ARITHMETIC_WITH_WIDER(T, S)                            \
  C10_HOST_DEVICE inline S operator+(T a, S b) {                                       \
    return static_cast<S>(static_cast<float>(a)) + b;                                  \
  }                                                                                    \
  C10_HOST_DEVICE inline S operator-(T a, S b) {                                       \
    return static_cast<S>(static_cast<float>(a)) - b;                                  \
  }                                                                                    \
  C10_HOST_DEVICE inline S operator*(T a, S b) {                                       \
    return static_cast<S>(static_cast<float>(a)) * b;                                  \
  }                                                                                    \
  C10_HOST_DEVICE inline S operator/(T a, S b) __ubsan_ignore_float_divide_by_zero__ { \
    return static_cast<S>(static_cast<float>(a)) / b;                                  \
  }                                                                                    \
  C10_HOST_DEVICE inline S operator+(S a, T b) {                                       \
    return a + static_cast<S>(static_cast<float>(b));                                  \
  }                                                                                    \
  C10_HOST_DEVICE inline S operator-(S a, T b) {                                       \
    return a - static_cast<S>(static_cast<float>(b));                                  \
  }                                                                                    \
  C10_HOST_DEVICE inline S operator*(S a, T b) {                                       \
    return a * static_cast<S>(static_cast<float>(b));                                  \
  }                                                                                    \
  C10_HOST_DEVICE inline S operator/(S a, T b) __ubsan_ignore_float_divide_by_zero__ { \
    return a / static_cast<S>(static_cast<float>(b));                                  \
  }

// T with the integer type S on either side: the integer is rounded to T
// first, then T's own operator computes.
#define TORCH_HEADERONLY_DETAIL_ARITHMETIC_WITH_INTEGER(T, S) \
  C10_HOST_DEVICE inline T operator+(T a, S b) {              \
    return a + static_cast<T>(static_cast<float>(b));         \
  }                                                           \
  C10_HOST_DEVICE inline T operator-(T a, S b) {              \
    return a - static_cast<T>(static_cast<float>(b));         \
  }                                                           \
  C10_HOST_DEVICE inline T operator*(T a, S b) {              \
    return a * static_cast<T>(static_cast<float>(b));         \
  }                                                           \
  C10_HOST_DEVICE inline T operator/(T a, S b) {              \
    return a / static_cast<T>(static_cast<float>(b));         \
  }                                                           \
  C10_HOST_DEVICE inline T operator+(S a, T b) {              \
    return static_cast<T>(static_cast<float>(a)) + b;         \
  }                                                           \
  C10_HOST_DEVICE inline T operator-(S a, T b) {              \
    return static_cast<T>(static_cast<float>(a)) - b;         \
  }                                                           \
  C10_HOST_DEVICE inline T operator*(S a, T b) {              \
    return static_cast<T>(static_cast<float>(a)) * b;         \
  }                                                           \
  C10_HOST_DEVICE inline T operator/(S a, T b) { return static_cast<T>(static_cast<float>(a)) / b; }
