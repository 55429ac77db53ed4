// Conversions of the two "fnuz" 8-bit float formats (finite, no negative
// zero: E4M3FNUZ and E5M2FNUZ), as one template over the exponent and
// mantissa widths: the two formats differ in nothing else. 0x80 is their
// only NaN; there are no infinities; the exponent bias is 2^(we-1).
#pragma once

#include <cstdint>

#include <torch/headeronly/macros/Macros.h>
#include <torch/headeronly/util/floating_point_utils.h>

namespace torch::headeronly::detail {

template <uint32_t we, uint32_t wm>
inline C10_HOST_DEVICE TORCH_HEADERONLY_BIT_CAST_CONSTEXPR float fp8_fnuz_to_fp32_value(
    uint8_t x) noexcept {
  static_assert((we == 4 && wm == 3) || (we == 5 && wm == 2),
                "fp8_fnuz_to_fp32_value: only E4M3 and E5M2 are fnuz formats");
  if (x == 0x80u) {
    return fp32_from_bits(0x7FC00000u);
  }
  const uint32_t sign = static_cast<uint32_t>(x & 0x80u) << 24;
  return fp32_from_bits(sign |
                        fp32_bits_from_magnitude<static_cast<int>(wm), (1 << (we - 1))>(x & 0x7Fu));
}

// The encoder, as PyTorch's: round to nearest, ties to even; a result that
// would round above the largest finite value becomes NaN (0x80), as do
// +-Inf and NaN; a result that rounds to zero is +0 whatever its sign.
template <uint32_t we, uint32_t wm>
inline C10_HOST_DEVICE TORCH_HEADERONLY_BIT_CAST_CONSTEXPR uint8_t
fp8_fnuz_from_fp32_value(float f) noexcept {
  static_assert((we == 4 && wm == 3) || (we == 5 && wm == 2),
                "fp8_fnuz_from_fp32_value: only E4M3 and E5M2 are fnuz formats");
  const uint32_t bits = fp32_to_bits(f);
  const uint32_t sign = (bits >> 24) & 0x80u;
  const uint32_t abs_bits = bits & 0x7FFFFFFFu;
  if (abs_bits >= 0x7F800000u) {
    return 0x80u;
  }
  const uint32_t code = round_fp32_magnitude_rne<static_cast<int>(wm), (1 << (we - 1))>(abs_bits);
  if (code > 0x7Fu) {
    return 0x80u;
  }
  return static_cast<uint8_t>(code == 0 ? 0u : (sign | code));
}

}  // namespace torch::headeronly::detail

namespace c10::detail {
using torch::headeronly::detail::fp8_fnuz_from_fp32_value;
using torch::headeronly::detail::fp8_fnuz_to_fp32_value;
}  // namespace c10::detail
