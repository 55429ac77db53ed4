// torch::headeronly::Float8_e8m0fnu (also c10::Float8_e8m0fnu): the OCP MX
// scale format. Eight exponent bits, no sign, no mantissa: pattern e means
// 2^(e-127), for e = 0 (2^-127) .. 254 (2^127); 0xFF is the only NaN.
// There is no zero, no Inf and no negative value.
//
// float -> e8m0fnu follows PyTorch exactly (scales computed elsewhere must
// agree bit for bit), which is NOT a rounding to the nearest power of two:
//   * the float's sign is ignored (the exponent field is used as is);
//   * float Inf or NaN (exponent field 255) -> 0xFF (NaN);
//   * for normal floats (exponent field 1..254) the result is the exponent
//     field, plus one when the mantissa is >= 0.5 (bit 22 set), i.e. values
//     in [1.5, 2) * 2^k go up to 2^(k+1): the midpoint is taken on the
//     linear scale, and ties (exactly 1.5 * 2^k) round up;
//   * for zero and subnormal floats the field is 0 and the value goes up to
//     2^-126 only when the mantissa is strictly above 0.5 (bit 22 set and
//     any lower bit set), so +-0 -> 0x00 (2^-127);
//   * rounding never goes past 254: values from 1.5 * 2^127 up to FLT_MAX
//     saturate to 2^127 rather than becoming NaN.
// e8m0fnu -> float is exact: 0x00 gives the float subnormal 2^-127.
#pragma once

#include <cstdint>
#include <limits>
#include <ostream>

#include <torch/headeronly/macros/Macros.h>
#include <torch/headeronly/util/floating_point_utils.h>

namespace torch::headeronly {

namespace detail {

C10_HOST_DEVICE inline TORCH_HEADERONLY_BIT_CAST_CONSTEXPR float fp8e8m0fnu_to_fp32_value(
    uint8_t input) noexcept {
  if (input == 0xFFu) {
    return fp32_from_bits(0x7FC00000u);
  }
  if (input == 0) {
    return fp32_from_bits(0x00400000u);  // 2^-127 needs a subnormal float
  }
  return fp32_from_bits(static_cast<uint32_t>(input) << 23);
}

C10_HOST_DEVICE inline TORCH_HEADERONLY_BIT_CAST_CONSTEXPR uint8_t
fp8e8m0fnu_from_fp32_value(float f) noexcept {
  const uint32_t bits = fp32_to_bits(f);
  const uint32_t exp = (bits >> 23) & 0xFFu;
  if (exp == 0xFFu) {
    return 0xFFu;
  }
  const bool half_or_more = (bits & 0x400000u) != 0;
  const bool below_half_nonzero = (bits & 0x3FFFFFu) != 0;
  // The implicit leading 1 of a normal float acts as an odd last kept bit,
  // so an exact half rounds up for normals and down for subnormals.
  const bool leading_one = exp != 0;
  const bool round_up = half_or_more && (below_half_nonzero || leading_one);
  return static_cast<uint8_t>(round_up && exp < 0xFEu ? exp + 1 : exp);
}

}  // namespace detail

struct alignas(1) Float8_e8m0fnu {
  uint8_t x;

  struct from_bits_t {};
  C10_HOST_DEVICE static constexpr from_bits_t from_bits() { return from_bits_t(); }

  Float8_e8m0fnu() = default;
  C10_HOST_DEVICE constexpr Float8_e8m0fnu(uint8_t bits, from_bits_t) : x(bits) {}
  C10_HOST_DEVICE inline TORCH_HEADERONLY_BIT_CAST_CONSTEXPR Float8_e8m0fnu(float value)
      : x(detail::fp8e8m0fnu_from_fp32_value(value)) {}
  C10_HOST_DEVICE inline TORCH_HEADERONLY_BIT_CAST_CONSTEXPR operator float() const {
    return detail::fp8e8m0fnu_to_fp32_value(x);
  }
  C10_HOST_DEVICE constexpr bool isnan() const { return x == 0xFFu; }
};

// No arithmetic operators of its own: like PyTorch, arithmetic on e8m0fnu
// values happens on their float conversions and yields float.

inline std::ostream& operator<<(std::ostream& out, const Float8_e8m0fnu& value) {
  out << static_cast<float>(value);
  return out;
}

}  // namespace torch::headeronly

namespace c10 {
using torch::headeronly::Float8_e8m0fnu;
using torch::headeronly::operator<<;
namespace detail {
using torch::headeronly::detail::fp8e8m0fnu_from_fp32_value;
using torch::headeronly::detail::fp8e8m0fnu_to_fp32_value;
}  // namespace detail
}  // namespace c10

namespace std {

template <>
class numeric_limits<torch::headeronly::Float8_e8m0fnu>
    : public torch::headeronly::detail::float8_numeric_limits_common {
  using F = torch::headeronly::Float8_e8m0fnu;

 public:
  static constexpr bool is_signed = false;
  static constexpr bool has_infinity = false;
  static constexpr auto has_denorm = denorm_absent;
  static constexpr bool has_denorm_loss = false;
  static constexpr int digits = 1;
  static constexpr int digits10 = 0;
  static constexpr int max_digits10 = 1;
  static constexpr int min_exponent = -126;
  static constexpr int min_exponent10 = -38;
  static constexpr int max_exponent = 128;
  static constexpr int max_exponent10 = 38;

  C10_HOST_DEVICE static constexpr F min() {
    return F(0x00, F::from_bits());  // 2^-127
  }
  C10_HOST_DEVICE static constexpr F lowest() {
    return F(0x00, F::from_bits());  // 2^-127: nothing is smaller
  }
  C10_HOST_DEVICE static constexpr F max() {
    return F(0xFE, F::from_bits());  // 2^127
  }
  C10_HOST_DEVICE static constexpr F epsilon() {
    return F(0x7F, F::from_bits());  // 1: the step from 1 to 2
  }
  C10_HOST_DEVICE static constexpr F round_error() {
    return F(0x7E, F::from_bits());  // 0.5
  }
  C10_HOST_DEVICE static constexpr F quiet_NaN() { return F(0xFF, F::from_bits()); }
  C10_HOST_DEVICE static constexpr F denorm_min() {
    return F(0x00, F::from_bits());  // no subnormals: same as min()
  }
};

}  // namespace std
