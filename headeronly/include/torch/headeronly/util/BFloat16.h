// torch::headeronly::BFloat16 (also c10::BFloat16): the upper 16 bits of an
// IEEE binary32 (1 sign, 8 exponent, 7 mantissa bits), with conversions to
// and from float. Stored as a plain uint16_t so its layout is fixed across
// compilers and nvcc.
//
// float -> BFloat16 rounds to nearest, ties to even, on the bit pattern;
// finite values above the largest BFloat16 round to +-Inf as IEEE requires.
// Every NaN becomes the canonical quiet NaN 0x7FC0 (positive, as in
// PyTorch): rounding a NaN's bits could otherwise carry into the exponent
// and turn it into an Inf, or drop the payload and leave an Inf pattern.
// BFloat16 -> float is exact (a shift); NaN patterns pass through unchanged.
#pragma once

#include <cstdint>
#include <limits>
#include <ostream>

#include <torch/headeronly/macros/Macros.h>
#include <torch/headeronly/util/detail/arithmetic_via_float.h>
#include <torch/headeronly/util/floating_point_utils.h>

#if defined(__CUDACC__)
#include <cuda_bf16.h>
#endif

namespace torch::headeronly {

namespace detail {

C10_HOST_DEVICE inline TORCH_HEADERONLY_BIT_CAST_CONSTEXPR float f32_from_bits(
    uint16_t src) noexcept {
  return fp32_from_bits(static_cast<uint32_t>(src) << 16);
}

// Truncation, kept for source compatibility with PyTorch's helper of the
// same name; the BFloat16(float) constructor rounds instead.
C10_HOST_DEVICE inline TORCH_HEADERONLY_BIT_CAST_CONSTEXPR uint16_t
bits_from_f32(float src) noexcept {
  return static_cast<uint16_t>(fp32_to_bits(src) >> 16);
}

C10_HOST_DEVICE inline TORCH_HEADERONLY_BIT_CAST_CONSTEXPR uint16_t
round_to_nearest_even(float src) noexcept {
  const uint32_t bits = fp32_to_bits(src);
  if ((bits & 0x7FFFFFFFu) > 0x7F800000u) {
    return UINT16_C(0x7FC0);
  }
  // Adding 0x7FFF plus the lowest kept bit rounds ties to even: at an exact
  // tie the carry reaches the kept bits only when that bit is odd. A carry
  // out of the mantissa bumps the exponent, which also yields Inf on
  // overflow.
  const uint32_t lsb = (bits >> 16) & 1u;
  return static_cast<uint16_t>((bits + 0x7FFFu + lsb) >> 16);
}

}  // namespace detail

struct alignas(2) BFloat16 {
  uint16_t x;

  struct from_bits_t {};
  C10_HOST_DEVICE static constexpr from_bits_t from_bits() { return from_bits_t(); }

  BFloat16() = default;
  C10_HOST_DEVICE constexpr BFloat16(uint16_t bits, from_bits_t) : x(bits) {}
  C10_HOST_DEVICE inline TORCH_HEADERONLY_BIT_CAST_CONSTEXPR BFloat16(float value)
      : x(detail::round_to_nearest_even(value)) {}
  C10_HOST_DEVICE inline TORCH_HEADERONLY_BIT_CAST_CONSTEXPR operator float() const {
    return detail::f32_from_bits(x);
  }

#if defined(__CUDACC__)
  C10_HOST_DEVICE BFloat16(const __nv_bfloat16& value)
      : x(static_cast<__nv_bfloat16_raw>(value).x) {}
  C10_HOST_DEVICE operator __nv_bfloat16() const {
    __nv_bfloat16_raw raw;
    raw.x = x;
    return __nv_bfloat16(raw);
  }
#endif
};

// The arithmetic PyTorch declares for BFloat16: computed in float.
TORCH_HEADERONLY_DETAIL_ARITHMETIC_VIA_FLOAT(BFloat16)

inline std::ostream& operator<<(std::ostream& out, const BFloat16& value) {
  out << static_cast<float>(value);
  return out;
}

// Bitwise operators on the 16-bit patterns. As in PyTorch they store the
// result in the left operand and return it.
inline C10_HOST_DEVICE BFloat16& operator|(BFloat16& a, const BFloat16& b) {
  a.x = static_cast<uint16_t>(a.x | b.x);
  return a;
}
inline C10_HOST_DEVICE BFloat16& operator^(BFloat16& a, const BFloat16& b) {
  a.x = static_cast<uint16_t>(a.x ^ b.x);
  return a;
}
inline C10_HOST_DEVICE BFloat16& operator&(BFloat16& a, const BFloat16& b) {
  a.x = static_cast<uint16_t>(a.x & b.x);
  return a;
}

// Ordering by value (std::max/std::min on BFloat16 lvalues pick these).
inline C10_HOST_DEVICE bool operator>(BFloat16& lhs, BFloat16& rhs) {
  return static_cast<float>(lhs) > static_cast<float>(rhs);
}
inline C10_HOST_DEVICE bool operator<(BFloat16& lhs, BFloat16& rhs) {
  return static_cast<float>(lhs) < static_cast<float>(rhs);
}

}  // namespace torch::headeronly

namespace c10 {
using torch::headeronly::BFloat16;
using torch::headeronly::operator<<;
using torch::headeronly::operator|;
using torch::headeronly::operator^;
using torch::headeronly::operator&;
using torch::headeronly::operator<;
using torch::headeronly::operator>;
namespace detail {
using torch::headeronly::detail::bits_from_f32;
using torch::headeronly::detail::f32_from_bits;
using torch::headeronly::detail::round_to_nearest_even;
}  // namespace detail
}  // namespace c10

namespace std {

template <>
class numeric_limits<torch::headeronly::BFloat16>
    : public torch::headeronly::detail::float16_numeric_limits_common {
  using B = torch::headeronly::BFloat16;

 public:
  static constexpr bool is_iec559 = false;
  static constexpr int digits = 8;
  static constexpr int digits10 = 2;
  static constexpr int max_digits10 = 4;
  static constexpr int min_exponent = -125;
  static constexpr int min_exponent10 = -37;
  static constexpr int max_exponent = 128;
  static constexpr int max_exponent10 = 38;

  C10_HOST_DEVICE static constexpr B min() { return B(0x0080, B::from_bits()); }
  C10_HOST_DEVICE static constexpr B lowest() { return B(0xFF7F, B::from_bits()); }
  C10_HOST_DEVICE static constexpr B max() { return B(0x7F7F, B::from_bits()); }
  C10_HOST_DEVICE static constexpr B epsilon() {
    return B(0x3C00, B::from_bits());  // 2^-7
  }
  C10_HOST_DEVICE static constexpr B round_error() {
    return B(0x3F00, B::from_bits());  // 0.5
  }
  C10_HOST_DEVICE static constexpr B infinity() { return B(0x7F80, B::from_bits()); }
  C10_HOST_DEVICE static constexpr B quiet_NaN() { return B(0x7FC0, B::from_bits()); }
  C10_HOST_DEVICE static constexpr B signaling_NaN() { return B(0x7FA0, B::from_bits()); }
  C10_HOST_DEVICE static constexpr B denorm_min() { return B(0x0001, B::from_bits()); }
};

}  // namespace std
