// torch::headeronly::Float8_e4m3fn (also c10::Float8_e4m3fn): the OCP
// FP8 E4M3 format, "fn" = finite only (no Inf) with a single NaN mantissa.
// Layout s eeee mmm, exponent bias 7, subnormals, largest finite +-448.
//
// Semantics follow PyTorch (they decide what tensors hold after a cast):
//   * 0x7F and 0xFF are NaN; every other pattern is finite, including the
//     patterns with exponent 1111 that IEEE would reserve;
//   * float -> e4m3fn rounds to nearest, ties to even; a finite value whose
//     rounded magnitude exceeds 448 becomes NaN (the conversion does not
//     saturate), so 464 -> 448 (tie, even) but anything above 464 -> NaN;
//   * +-Inf and NaN become NaN, keeping the input's sign (0x7F / 0xFF);
//   * -0.0 is representable and kept (0x80).
#pragma once

#include <cstdint>
#include <limits>
#include <ostream>

#include <torch/headeronly/macros/Macros.h>
#include <torch/headeronly/util/detail/arithmetic_via_float.h>
#include <torch/headeronly/util/floating_point_utils.h>

namespace torch::headeronly {

namespace detail {

C10_HOST_DEVICE inline TORCH_HEADERONLY_BIT_CAST_CONSTEXPR float fp8e4m3fn_to_fp32_value(
    uint8_t input) noexcept {
  const uint32_t sign = static_cast<uint32_t>(input & 0x80u) << 24;
  const uint32_t mag = input & 0x7Fu;
  if (mag == 0x7Fu) {
    return fp32_from_bits(sign | 0x7FC00000u);
  }
  return fp32_from_bits(sign | fp32_bits_from_magnitude<3, 7>(mag));
}

C10_HOST_DEVICE inline TORCH_HEADERONLY_BIT_CAST_CONSTEXPR uint8_t
fp8e4m3fn_from_fp32_value(float f) noexcept {
  const uint32_t bits = fp32_to_bits(f);
  const uint32_t sign = (bits >> 24) & 0x80u;
  const uint32_t abs_bits = bits & 0x7FFFFFFFu;
  if (abs_bits >= 0x7F800000u) {
    return static_cast<uint8_t>(sign | 0x7Fu);  // Inf has no encoding: NaN
  }
  const uint32_t code = round_fp32_magnitude_rne<3, 7>(abs_bits);
  return static_cast<uint8_t>(sign | (code > 0x7Eu ? 0x7Fu : code));
}

}  // namespace detail

struct alignas(1) Float8_e4m3fn {
  uint8_t x;

  struct from_bits_t {};
  C10_HOST_DEVICE static constexpr from_bits_t from_bits() { return from_bits_t(); }

  Float8_e4m3fn() = default;
  C10_HOST_DEVICE constexpr Float8_e4m3fn(uint8_t bits, from_bits_t) : x(bits) {}
  C10_HOST_DEVICE inline TORCH_HEADERONLY_BIT_CAST_CONSTEXPR Float8_e4m3fn(float value)
      : x(detail::fp8e4m3fn_from_fp32_value(value)) {}
  C10_HOST_DEVICE inline TORCH_HEADERONLY_BIT_CAST_CONSTEXPR operator float() const {
    return detail::fp8e4m3fn_to_fp32_value(x);
  }
  C10_HOST_DEVICE constexpr bool isnan() const { return (x & 0x7Fu) == 0x7Fu; }
  // The format has no infinities.
  C10_HOST_DEVICE constexpr bool isinf() const { return false; }
};

// The arithmetic PyTorch declares for Float8_e4m3fn: computed in float.
TORCH_HEADERONLY_DETAIL_ARITHMETIC_VIA_FLOAT(Float8_e4m3fn)

inline std::ostream& operator<<(std::ostream& out, const Float8_e4m3fn& value) {
  out << static_cast<float>(value);
  return out;
}

}  // namespace torch::headeronly

namespace c10 {
using torch::headeronly::Float8_e4m3fn;
using torch::headeronly::operator<<;
namespace detail {
using torch::headeronly::detail::fp8e4m3fn_from_fp32_value;
using torch::headeronly::detail::fp8e4m3fn_to_fp32_value;
}  // namespace detail
}  // namespace c10

namespace std {

template <>
class numeric_limits<torch::headeronly::Float8_e4m3fn>
    : public torch::headeronly::detail::float8_numeric_limits_common {
  using F = torch::headeronly::Float8_e4m3fn;

 public:
  static constexpr bool is_signed = true;
  static constexpr bool has_infinity = false;
  static constexpr auto has_denorm = denorm_present;
  static constexpr bool has_denorm_loss = true;
  static constexpr int digits = 4;
  static constexpr int digits10 = 0;
  static constexpr int max_digits10 = 3;
  static constexpr int min_exponent = -5;
  static constexpr int min_exponent10 = -1;
  static constexpr int max_exponent = 9;
  static constexpr int max_exponent10 = 2;

  C10_HOST_DEVICE static constexpr F min() {
    return F(0x08, F::from_bits());  // 2^-6
  }
  C10_HOST_DEVICE static constexpr F lowest() {
    return F(0xFE, F::from_bits());  // -448
  }
  C10_HOST_DEVICE static constexpr F max() {
    return F(0x7E, F::from_bits());  // 448
  }
  C10_HOST_DEVICE static constexpr F epsilon() {
    return F(0x20, F::from_bits());  // 2^-3
  }
  C10_HOST_DEVICE static constexpr F round_error() {
    return F(0x30, F::from_bits());  // 0.5
  }
  C10_HOST_DEVICE static constexpr F quiet_NaN() { return F(0x7F, F::from_bits()); }
  C10_HOST_DEVICE static constexpr F denorm_min() {
    return F(0x01, F::from_bits());  // 2^-9
  }
};

}  // namespace std
