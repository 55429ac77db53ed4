// What the reduced-precision float types (Half, BFloat16, Float8_*) share
// for their conversions: bit-level access to binary32 (they all convert
// through float by editing the 32-bit pattern), one round-to-nearest-even
// encoder and its decoder, and the numeric_limits members the 16-bit and the
// 8-bit formats each share. Their arithmetic operators are in
// util/detail/arithmetic_via_float.h.
#pragma once

#include <cstdint>
#include <limits>

#include <torch/headeronly/macros/Macros.h>
#include <torch/headeronly/util/bit_cast.h>

namespace torch::headeronly::detail {

C10_HOST_DEVICE inline TORCH_HEADERONLY_BIT_CAST_CONSTEXPR float fp32_from_bits(
    uint32_t w) noexcept {
  return torch::headeronly::bit_cast<float>(w);
}

C10_HOST_DEVICE inline TORCH_HEADERONLY_BIT_CAST_CONSTEXPR uint32_t fp32_to_bits(float f) noexcept {
  return torch::headeronly::bit_cast<uint32_t>(f);
}

// Rounds the magnitude of a finite binary32 value (sign already cleared,
// `abs_bits` < 0x7F800000) to a binary format with `MantBits` stored
// mantissa bits and exponent bias `Bias`, ties to even, and returns the
// magnitude code (exponent << MantBits | mantissa) of the result, with
// subnormals where the exponent field would be < 1.
//
// The exponent range is deliberately unbounded above: the caller compares
// the code against its format's largest finite code and decides what
// overflow means (Inf for Half/e5m2, NaN for e4m3fn and the fnuz types).
// Doing the rounding before that check is what makes "overflow after
// rounding" come out right, e.g. 464 -> 448 but 465 -> NaN in e4m3fn.
//
// Only valid for formats whose smallest subnormal is far above the float
// subnormal range (true for every format here: the smallest is Half's
// 2^-24), because binary32 subnormal inputs are flushed to code 0.
template <int MantBits, int Bias>
C10_HOST_DEVICE constexpr uint32_t round_fp32_magnitude_rne(uint32_t abs_bits) noexcept {
  static_assert(MantBits >= 0 && MantBits <= 22, "unsupported mantissa width");
  const int32_t f_exp = static_cast<int32_t>(abs_bits >> 23);
  if (f_exp == 0) {
    return 0;
  }
  // 24-bit significand with the hidden bit: value = sig * 2^(f_exp-127-23).
  const uint32_t sig = (abs_bits & 0x7FFFFFu) | 0x800000u;
  const int32_t t_exp = f_exp - 127 + Bias;  // target biased exponent
  // Bits of `sig` below the target's last mantissa bit. A target exponent
  // below 1 is a subnormal: the quantum stays at 2^(1-Bias-MantBits), so
  // more bits drop off.
  int32_t shift = 23 - MantBits + (t_exp < 1 ? 1 - t_exp : 0);
  if (shift > 25) {
    // sig < 2^24 <= half a quantum: rounds to zero whatever the parity.
    return 0;
  }
  uint32_t q = sig >> shift;
  const uint32_t rem = sig & ((1u << shift) - 1u);
  const uint32_t half = 1u << (shift - 1);
  if (rem > half || (rem == half && (q & 1u) != 0)) {
    ++q;  // a carry out of the mantissa correctly bumps the exponent
  }
  // For normals q includes the hidden bit (2^MantBits), which the
  // "- 1" in the exponent cancels; for subnormals q is the whole code.
  const uint32_t exp_part = t_exp < 1 ? 0u : static_cast<uint32_t>(t_exp - 1) << MantBits;
  return exp_part + q;
}

// The inverse of round_fp32_magnitude_rne for finite codes: the binary32
// bit pattern (exact, sign clear) of magnitude code `code` of a format with
// `MantBits` mantissa bits and bias `Bias`. Subnormals are normalised by
// shifting rather than by a float multiply, so flush-to-zero modes on a
// GPU cannot change the result.
template <int MantBits, int Bias>
C10_HOST_DEVICE constexpr uint32_t fp32_bits_from_magnitude(uint32_t code) noexcept {
  constexpr uint32_t mant_mask = (1u << MantBits) - 1u;
  const uint32_t exp = code >> MantBits;
  uint32_t mant = code & mant_mask;
  if (exp != 0) {
    return ((exp - Bias + 127) << 23) | (mant << (23 - MantBits));
  }
  if (mant == 0) {
    return 0;
  }
  uint32_t f_exp = 1 - Bias + 127;
  while ((mant & (1u << MantBits)) == 0) {
    mant <<= 1;
    --f_exp;
  }
  return (f_exp << 23) | ((mant & mant_mask) << (23 - MantBits));
}

// The std::numeric_limits members that are the same for every 8-bit float
// format (Float8_*): what makes them non-IEEE, finite-precision, quiet-NaN
// binary formats that round to nearest. Each format's specialisation
// derives from this and declares only what is its own.
struct float8_numeric_limits_common {
  static constexpr bool is_specialized = true;
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr bool has_quiet_NaN = true;
  static constexpr bool has_signaling_NaN = false;
  static constexpr auto round_style = std::round_to_nearest;
  static constexpr bool is_iec559 = false;
  static constexpr bool is_bounded = true;
  static constexpr bool is_modulo = false;
  static constexpr int radix = 2;
  static constexpr auto traps = std::numeric_limits<float>::traps;
  static constexpr bool tinyness_before = false;
};

// The std::numeric_limits members Half and BFloat16 share: signed binary
// formats with infinities, both NaN kinds, and float's subnormal, rounding
// and trapping behaviour (they compute through float).
struct float16_numeric_limits_common {
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr bool has_signaling_NaN = true;
  static constexpr auto has_denorm = std::numeric_limits<float>::has_denorm;
  static constexpr auto has_denorm_loss = std::numeric_limits<float>::has_denorm_loss;
  static constexpr auto round_style = std::numeric_limits<float>::round_style;
  static constexpr bool is_bounded = true;
  static constexpr bool is_modulo = false;
  static constexpr int radix = 2;
  static constexpr auto traps = std::numeric_limits<float>::traps;
  static constexpr auto tinyness_before = std::numeric_limits<float>::tinyness_before;
};

}  // namespace torch::headeronly::detail

namespace c10::detail {
using torch::headeronly::detail::fp32_from_bits;
using torch::headeronly::detail::fp32_to_bits;
}  // namespace c10::detail
