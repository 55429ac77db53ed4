// torch::headeronly::Float8_e5m2 (also c10::Float8_e5m2): the OCP FP8
// E5M2 format, which is IEEE-like: it is the top byte of a binary16.
// Layout s eeeee mm, exponent bias 15, subnormals, +-Inf, NaN, largest
// finite +-57344.
//
// Semantics follow PyTorch:
//   * exponent 11111 with mantissa 00 is +-Inf, any other mantissa is NaN;
//   * float -> e5m2 rounds to nearest, ties to even; finite values whose
//     rounded magnitude exceeds 57344 become +-Inf (the tie at 61440 rounds
//     to Inf, since 57344's mantissa is odd);
//   * NaN becomes 0x7F with the input's sign; -0.0 is kept (0x80).
#pragma once

#include <cstdint>
#include <limits>
#include <ostream>

#include <torch/headeronly/macros/Macros.h>
#include <torch/headeronly/util/detail/arithmetic_via_float.h>
#include <torch/headeronly/util/floating_point_utils.h>

// The format's exponent width, mantissa width and exponent bias, for code
// that decodes it by hand.
#define EXP_WIDTH_FP8 5
#define MAN_WIDTH_FP8 2
#define EXP_BIAS_FP8 15

namespace torch::headeronly {

namespace detail {

C10_HOST_DEVICE inline TORCH_HEADERONLY_BIT_CAST_CONSTEXPR float fp8e5m2_to_fp32_value(
    uint8_t input) noexcept {
  const uint32_t sign = static_cast<uint32_t>(input & 0x80u) << 24;
  const uint32_t mag = input & 0x7Fu;
  if (mag >= 0x7Cu) {
    // Inf, or NaN made quiet so that using it never traps.
    return fp32_from_bits(sign | (mag == 0x7Cu ? 0x7F800000u : 0x7FC00000u));
  }
  return fp32_from_bits(sign | fp32_bits_from_magnitude<2, 15>(mag));
}

C10_HOST_DEVICE inline TORCH_HEADERONLY_BIT_CAST_CONSTEXPR uint8_t
fp8e5m2_from_fp32_value(float f) noexcept {
  const uint32_t bits = fp32_to_bits(f);
  const uint32_t sign = (bits >> 24) & 0x80u;
  const uint32_t abs_bits = bits & 0x7FFFFFFFu;
  if (abs_bits >= 0x7F800000u) {
    return static_cast<uint8_t>(sign | (abs_bits == 0x7F800000u ? 0x7Cu : 0x7Fu));
  }
  const uint32_t code = round_fp32_magnitude_rne<2, 15>(abs_bits);
  return static_cast<uint8_t>(sign | (code > 0x7Cu ? 0x7Cu : code));
}

}  // namespace detail

struct alignas(1) Float8_e5m2 {
  uint8_t x;

  struct from_bits_t {};
  C10_HOST_DEVICE static constexpr from_bits_t from_bits() { return from_bits_t(); }

  Float8_e5m2() = default;
  C10_HOST_DEVICE constexpr Float8_e5m2(uint8_t bits, from_bits_t) : x(bits) {}
  C10_HOST_DEVICE inline TORCH_HEADERONLY_BIT_CAST_CONSTEXPR Float8_e5m2(float value)
      : x(detail::fp8e5m2_from_fp32_value(value)) {}
  C10_HOST_DEVICE inline TORCH_HEADERONLY_BIT_CAST_CONSTEXPR operator float() const {
    return detail::fp8e5m2_to_fp32_value(x);
  }
  C10_HOST_DEVICE constexpr bool isnan() const { return (x & 0x7Fu) > 0x7Cu; }
  C10_HOST_DEVICE constexpr bool isinf() const { return (x & 0x7Fu) == 0x7Cu; }
};

// The arithmetic PyTorch declares for Float8_e5m2: computed in float.
TORCH_HEADERONLY_DETAIL_ARITHMETIC_VIA_FLOAT(Float8_e5m2)

inline std::ostream& operator<<(std::ostream& out, const Float8_e5m2& value) {
  out << static_cast<float>(value);
  return out;
}

}  // namespace torch::headeronly

namespace c10 {
using torch::headeronly::Float8_e5m2;
using torch::headeronly::operator<<;
namespace detail {
using torch::headeronly::detail::fp8e5m2_from_fp32_value;
using torch::headeronly::detail::fp8e5m2_to_fp32_value;
}  // namespace detail
}  // namespace c10

namespace std {

template <>
class numeric_limits<torch::headeronly::Float8_e5m2>
    : public torch::headeronly::detail::float8_numeric_limits_common {
  using F = torch::headeronly::Float8_e5m2;

 public:
  static constexpr bool is_signed = true;
  static constexpr bool has_infinity = true;
  static constexpr auto has_denorm = denorm_present;
  static constexpr bool has_denorm_loss = true;
  static constexpr int digits = 3;
  static constexpr int digits10 = 0;
  static constexpr int max_digits10 = 2;
  static constexpr int min_exponent = -13;
  static constexpr int min_exponent10 = -4;
  static constexpr int max_exponent = 16;
  static constexpr int max_exponent10 = 4;

  C10_HOST_DEVICE static constexpr F min() {
    return F(0x04, F::from_bits());  // 2^-14
  }
  C10_HOST_DEVICE static constexpr F lowest() {
    return F(0xFB, F::from_bits());  // -57344
  }
  C10_HOST_DEVICE static constexpr F max() {
    return F(0x7B, F::from_bits());  // 57344
  }
  C10_HOST_DEVICE static constexpr F epsilon() {
    return F(0x34, F::from_bits());  // 2^-2
  }
  C10_HOST_DEVICE static constexpr F round_error() {
    return F(0x38, F::from_bits());  // 0.5
  }
  C10_HOST_DEVICE static constexpr F infinity() { return F(0x7C, F::from_bits()); }
  C10_HOST_DEVICE static constexpr F quiet_NaN() { return F(0x7F, F::from_bits()); }
  C10_HOST_DEVICE static constexpr F denorm_min() {
    return F(0x01, F::from_bits());  // 2^-16
  }
};

}  // namespace std
