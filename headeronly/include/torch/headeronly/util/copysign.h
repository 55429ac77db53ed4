// copysign(a, b): the magnitude of a with the sign of b. For Half and
// BFloat16 it works on the bits, so it is exact for every value, NaNs and
// signed zeros included.
// Header-only: depends on Half.h/BFloat16.h.
#pragma once

#include <cmath>

#include <torch/headeronly/macros/Macros.h>
#include <torch/headeronly/util/BFloat16.h>
#include <torch/headeronly/util/Half.h>

namespace torch::headeronly {

template <typename T, typename U>
inline auto copysign(const T& a, const U& b) {
  return std::copysign(a, b);
}

inline Half copysign(Half a, Half b) {
  return Half(static_cast<uint16_t>((a.x & 0x7FFFu) | (b.x & 0x8000u)), Half::from_bits());
}

inline BFloat16 copysign(BFloat16 a, BFloat16 b) {
  return BFloat16(static_cast<uint16_t>((a.x & 0x7FFFu) | (b.x & 0x8000u)), BFloat16::from_bits());
}

}  // namespace torch::headeronly

namespace c10 {
using torch::headeronly::copysign;
}  // namespace c10
