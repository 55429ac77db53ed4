// torch::headeronly::Float8_e4m3fnuz (also c10::Float8_e4m3fnuz): the FP8
// E4M3 variant of Graphcore/AMD ("fnuz" = finite, NaN, unsigned zero).
// Layout s eeee mmm like e4m3fn, but exponent bias 8, no Inf, no negative
// zero, and a single NaN: 0x80 (the pattern -0 would have had). Largest
// finite +-240, subnormals down to 2^-10.
//
// Semantics follow PyTorch:
//   * float -> e4m3fnuz rounds to nearest, ties to even; a result that
//     would round above 240 becomes NaN (0x80), as do +-Inf and NaN;
//   * values that round to zero give +0 whatever their sign (-0.0 -> 0x00).
#pragma once

#include <cstdint>
#include <limits>
#include <ostream>

#include <torch/headeronly/macros/Macros.h>
#include <torch/headeronly/util/detail/arithmetic_via_float.h>
#include <torch/headeronly/util/Float8_fnuz_cvt.h>

namespace torch::headeronly {

namespace detail {

C10_HOST_DEVICE inline TORCH_HEADERONLY_BIT_CAST_CONSTEXPR float fp8e4m3fnuz_to_fp32_value(
    uint8_t input) noexcept {
  return fp8_fnuz_to_fp32_value<4, 3>(input);
}

C10_HOST_DEVICE inline TORCH_HEADERONLY_BIT_CAST_CONSTEXPR uint8_t
fp8e4m3fnuz_from_fp32_value(float f) noexcept {
  return fp8_fnuz_from_fp32_value<4, 3>(f);
}

}  // namespace detail

struct alignas(1) Float8_e4m3fnuz {
  uint8_t x;

  struct from_bits_t {};
  C10_HOST_DEVICE static constexpr from_bits_t from_bits() { return from_bits_t(); }

  Float8_e4m3fnuz() = default;
  C10_HOST_DEVICE constexpr Float8_e4m3fnuz(uint8_t bits, from_bits_t) : x(bits) {}
  C10_HOST_DEVICE inline TORCH_HEADERONLY_BIT_CAST_CONSTEXPR Float8_e4m3fnuz(float value)
      : x(detail::fp8e4m3fnuz_from_fp32_value(value)) {}
  C10_HOST_DEVICE inline TORCH_HEADERONLY_BIT_CAST_CONSTEXPR operator float() const {
    return detail::fp8e4m3fnuz_to_fp32_value(x);
  }
  C10_HOST_DEVICE constexpr bool isnan() const { return x == 0x80u; }
  C10_HOST_DEVICE constexpr bool isinf() const { return false; }
};

// The arithmetic PyTorch declares for Float8_e4m3fnuz: computed in float.
TORCH_HEADERONLY_DETAIL_ARITHMETIC_VIA_FLOAT(Float8_e4m3fnuz)

inline std::ostream& operator<<(std::ostream& out, const Float8_e4m3fnuz& value) {
  out << static_cast<float>(value);
  return out;
}

}  // namespace torch::headeronly

namespace c10 {
using torch::headeronly::Float8_e4m3fnuz;
using torch::headeronly::operator<<;
namespace detail {
using torch::headeronly::detail::fp8e4m3fnuz_from_fp32_value;
using torch::headeronly::detail::fp8e4m3fnuz_to_fp32_value;
}  // namespace detail
}  // namespace c10

namespace std {

template <>
class numeric_limits<torch::headeronly::Float8_e4m3fnuz>
    : public torch::headeronly::detail::float8_numeric_limits_common {
  using F = torch::headeronly::Float8_e4m3fnuz;

 public:
  static constexpr bool is_signed = true;
  static constexpr bool has_infinity = false;
  static constexpr auto has_denorm = denorm_present;
  static constexpr bool has_denorm_loss = true;
  static constexpr int digits = 4;
  static constexpr int digits10 = 0;
  static constexpr int max_digits10 = 3;
  static constexpr int min_exponent = -6;
  static constexpr int min_exponent10 = -2;
  static constexpr int max_exponent = 8;
  static constexpr int max_exponent10 = 2;

  C10_HOST_DEVICE static constexpr F min() {
    return F(0x08, F::from_bits());  // 2^-7
  }
  C10_HOST_DEVICE static constexpr F lowest() {
    return F(0xFF, F::from_bits());  // -240
  }
  C10_HOST_DEVICE static constexpr F max() {
    return F(0x7F, F::from_bits());  // 240
  }
  C10_HOST_DEVICE static constexpr F epsilon() {
    return F(0x28, F::from_bits());  // 2^-3
  }
  C10_HOST_DEVICE static constexpr F round_error() {
    return F(0x38, F::from_bits());  // 0.5
  }
  C10_HOST_DEVICE static constexpr F infinity() {
    return F(0x80, F::from_bits());  // NaN: no Inf; as PyTorch
  }
  C10_HOST_DEVICE static constexpr F quiet_NaN() { return F(0x80, F::from_bits()); }
  C10_HOST_DEVICE static constexpr F denorm_min() {
    return F(0x01, F::from_bits());  // 2^-10
  }
};

}  // namespace std
