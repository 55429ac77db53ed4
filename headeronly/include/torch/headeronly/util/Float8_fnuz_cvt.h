// Decoding of the two "fnuz" 8-bit float formats (finite, no negative
// zero: E4M3FNUZ and E5M2FNUZ) from their bits, as one template over the
// exponent and mantissa widths. 0x80 is their only NaN; there are no
// infinities; the exponent bias is 2^(we-1).
// Header-only: depends on floating_point_utils.h.
#pragma once

#include <cstdint>

#include <torch/headeronly/macros/Macros.h>
#include <torch/headeronly/util/floating_point_utils.h>

namespace torch::headeronly::detail {

template <uint32_t we, uint32_t wm>
inline C10_HOST_DEVICE float fp8_fnuz_to_fp32_value(uint8_t x) {
  static_assert((we == 4 && wm == 3) || (we == 5 && wm == 2),
                "fp8_fnuz_to_fp32_value: only E4M3 and E5M2 are fnuz formats");
  if (x == 0x80u) {
    return fp32_from_bits(0x7FC00000u);
  }
  const uint32_t sign = static_cast<uint32_t>(x & 0x80u) << 24;
  return fp32_from_bits(
      sign | fp32_bits_from_magnitude<static_cast<int>(wm), (1 << (we - 1))>(
               x & 0x7Fu));
}

}  // namespace torch::headeronly::detail

namespace c10::detail {
using torch::headeronly::detail::fp8_fnuz_to_fp32_value;
}  // namespace c10::detail
