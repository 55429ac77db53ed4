// torch::headeronly::Half (also c10::Half): IEEE 754 binary16 storage with
// conversions to and from float. It is a plain 2-byte struct rather than a
// compiler's _Float16/__half so that its layout and rounding are identical
// on every host compiler and under nvcc, which matters because Half values
// cross the stable ABI inside tensors.
//
// Rounding rules (float -> Half), chosen to match PyTorch's portable path:
//   * round to nearest, ties to even, including into and within subnormals;
//   * finite values that round above 65504 become +-Inf;
//   * NaN becomes the quiet NaN 0x7E00 with the input's sign (the payload is
//     not kept).
// Half -> float is exact; NaN payloads are kept and the result is quiet.
#pragma once

#include <cstdint>
#include <limits>
#include <ostream>

#include <torch/headeronly/macros/Macros.h>
#include <torch/headeronly/util/detail/arithmetic_via_float.h>
#include <torch/headeronly/util/floating_point_utils.h>

#if defined(__CUDACC__)
#include <cuda_fp16.h>
#endif

// 1 on x86 host code compiled with F16C, whose half<->float instructions
// code may use directly (util/Half.h itself converts portably, with the
// same results).
#if (defined(__GNUC__) || defined(__clang__)) &&                                       \
    (defined(__x86_64__) || defined(_M_X64) || defined(__i386) || defined(_M_IX86)) && \
    defined(__F16C__) &&                                                               \
    !(defined(__CUDA_ARCH__) || defined(__CUDACC__) || defined(__HIP_DEVICE_COMPILE__))
#define C10_X86_F16 1
#include <immintrin.h>
#endif

namespace torch::headeronly {

namespace detail {

C10_HOST_DEVICE inline TORCH_HEADERONLY_BIT_CAST_CONSTEXPR uint32_t
fp16_ieee_to_fp32_bits(uint16_t h) noexcept {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1Fu;
  const uint32_t mant = h & 0x3FFu;
  if (exp == 0x1Fu) {
    // Inf, or NaN made quiet (bit 22) so it never traps when used.
    return sign | 0x7F800000u | (mant << 13) | (mant != 0 ? 0x400000u : 0u);
  }
  if (exp != 0) {
    return sign | ((exp + (127 - 15)) << 23) | (mant << 13);
  }
  if (mant == 0) {
    return sign;
  }
  // Subnormal: mant * 2^-24 is a normal float. Normalise by hand (at most
  // ten steps) rather than multiplying, so that a flush-to-zero FPU mode
  // under nvcc cannot interfere.
  uint32_t e = 127 - 15 + 1;
  uint32_t m = mant;
  while ((m & 0x400u) == 0) {
    m <<= 1;
    --e;
  }
  return sign | (e << 23) | ((m & 0x3FFu) << 13);
}

C10_HOST_DEVICE inline TORCH_HEADERONLY_BIT_CAST_CONSTEXPR float fp16_ieee_to_fp32_value(
    uint16_t h) noexcept {
  return fp32_from_bits(fp16_ieee_to_fp32_bits(h));
}

C10_HOST_DEVICE inline TORCH_HEADERONLY_BIT_CAST_CONSTEXPR uint16_t
fp16_ieee_from_fp32_value(float f) noexcept {
  const uint32_t bits = fp32_to_bits(f);
  const uint32_t sign = (bits >> 16) & 0x8000u;
  const uint32_t abs_bits = bits & 0x7FFFFFFFu;
  if (abs_bits >= 0x7F800000u) {
    return static_cast<uint16_t>(sign | (abs_bits == 0x7F800000u ? 0x7C00u : 0x7E00u));
  }
  const uint32_t code = round_fp32_magnitude_rne<10, 15>(abs_bits);
  return static_cast<uint16_t>(sign | (code < 0x7C00u ? code : 0x7C00u));
}

}  // namespace detail

struct alignas(2) Half {
  uint16_t x;

  // Tag for the constructor that takes a raw bit pattern, so that
  // Half(uint16_t) can never be confused with a numeric conversion.
  struct from_bits_t {};
  C10_HOST_DEVICE static constexpr from_bits_t from_bits() { return from_bits_t(); }

  Half() = default;
  C10_HOST_DEVICE constexpr Half(uint16_t bits, from_bits_t) : x(bits) {}
  C10_HOST_DEVICE inline TORCH_HEADERONLY_BIT_CAST_CONSTEXPR Half(float value)
      : x(detail::fp16_ieee_from_fp32_value(value)) {}
  C10_HOST_DEVICE inline TORCH_HEADERONLY_BIT_CAST_CONSTEXPR operator float() const {
    return detail::fp16_ieee_to_fp32_value(x);
  }

#if defined(__CUDACC__)
  // Kernels move between c10::Half and CUDA's __half freely; the raw form
  // keeps the bits unchanged and works on host and device.
  C10_HOST_DEVICE Half(const __half& value) : x(static_cast<__half_raw>(value).x) {}
  C10_HOST_DEVICE operator __half() const {
    __half_raw raw;
    raw.x = x;
    return __half(raw);
  }
#endif
};

// The arithmetic PyTorch declares for Half: computed in float.
TORCH_HEADERONLY_DETAIL_ARITHMETIC_VIA_FLOAT(Half)

inline std::ostream& operator<<(std::ostream& out, const Half& value) {
  out << static_cast<float>(value);
  return out;
}

}  // namespace torch::headeronly

namespace c10 {
using torch::headeronly::Half;
using torch::headeronly::operator<<;
namespace detail {
using torch::headeronly::detail::fp16_ieee_from_fp32_value;
using torch::headeronly::detail::fp16_ieee_to_fp32_bits;
using torch::headeronly::detail::fp16_ieee_to_fp32_value;
}  // namespace detail
}  // namespace c10

namespace std {

template <>
class numeric_limits<torch::headeronly::Half>
    : public torch::headeronly::detail::float16_numeric_limits_common {
  using H = torch::headeronly::Half;

 public:
  static constexpr bool is_iec559 = true;
  static constexpr int digits = 11;
  static constexpr int digits10 = 3;
  static constexpr int max_digits10 = 5;
  static constexpr int min_exponent = -13;
  static constexpr int min_exponent10 = -4;
  static constexpr int max_exponent = 16;
  static constexpr int max_exponent10 = 4;

  C10_HOST_DEVICE static constexpr H min() { return H(0x0400, H::from_bits()); }
  C10_HOST_DEVICE static constexpr H lowest() { return H(0xFBFF, H::from_bits()); }
  C10_HOST_DEVICE static constexpr H max() { return H(0x7BFF, H::from_bits()); }
  C10_HOST_DEVICE static constexpr H epsilon() {
    return H(0x1400, H::from_bits());  // 2^-10
  }
  C10_HOST_DEVICE static constexpr H round_error() {
    return H(0x3800, H::from_bits());  // 0.5
  }
  C10_HOST_DEVICE static constexpr H infinity() { return H(0x7C00, H::from_bits()); }
  C10_HOST_DEVICE static constexpr H quiet_NaN() { return H(0x7E00, H::from_bits()); }
  C10_HOST_DEVICE static constexpr H signaling_NaN() { return H(0x7D00, H::from_bits()); }
  C10_HOST_DEVICE static constexpr H denorm_min() { return H(0x0001, H::from_bits()); }
};

}  // namespace std
