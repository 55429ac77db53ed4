// Exhaustive tests of torch::headeronly::BFloat16 against references
// written here from the format's definition (sign, 8-bit exponent with bias
// 127, 7-bit mantissa), not from the header's code.
#include <torch/headeronly/util/BFloat16.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <type_traits>
#include <vector>

#include "narrow_float_reference.h"

namespace {

using torch::headeronly::BFloat16;

using narrow_float_reference::bits_of;
using narrow_float_reference::float_of;
BFloat16 bf_bits(uint16_t b) { return BFloat16(b, BFloat16::from_bits()); }

double ref_decode(uint16_t h) {
  const uint32_t mag = h & 0x7FFFu;
  const double v = mag < 0x7F80    ? narrow_float_reference::field_value(7, 127, mag)
                   : mag == 0x7F80 ? std::numeric_limits<double>::infinity()
                                   : std::numeric_limits<double>::quiet_NaN();
  return (h >> 15) ? -v : v;
}

// Magnitudes of the finite codes, then the overflow threshold (the value
// code 0x7F80, Inf, would have in an unbounded exponent range).
const std::vector<double>& positive_values() {
  static const std::vector<double> values =
      narrow_float_reference::magnitude_table(7, 127, 0x7F80 - 1);
  return values;
}

uint16_t ref_encode(float f) {
  if (std::isnan(f)) {
    return 0x7FC0;
  }
  const uint16_t sign = std::signbit(f) ? 0x8000 : 0;
  const double a = std::fabs(static_cast<double>(f));
  const auto& v = positive_values();
  return static_cast<uint16_t>(sign | narrow_float_reference::nearest_even_code(v, a));
}

TEST(BFloat16, LayoutAndAliases) {
  static_assert(sizeof(BFloat16) == 2);
  static_assert(alignof(BFloat16) == 2);
  static_assert(std::is_trivially_copyable_v<BFloat16>);
  static_assert(std::is_standard_layout_v<BFloat16>);
  static_assert(std::is_same_v<c10::BFloat16, torch::headeronly::BFloat16>);
  constexpr BFloat16 one(0x3F80, BFloat16::from_bits());
  static_assert(one.x == 0x3F80);
  EXPECT_EQ(static_cast<float>(one), 1.0f);
  EXPECT_EQ(c10::detail::round_to_nearest_even(1.0f), 0x3F80);
  // bits_from_f32 truncates, unlike the constructor.
  EXPECT_EQ(c10::detail::bits_from_f32(float_of(0x3F80FFFF)), 0x3F80);
  EXPECT_EQ(BFloat16(float_of(0x3F80FFFF)).x, 0x3F81);
}

#if defined(TORCH_HEADERONLY_HAS_BUILTIN_BIT_CAST)
TEST(BFloat16, ConstexprConversions) {
  static_assert(BFloat16(1.0f).x == 0x3F80);
  static_assert(static_cast<float>(BFloat16(0xC040, BFloat16::from_bits())) == -3.0f);
  SUCCEED();
}
#endif

TEST(BFloat16, DecodeEveryPattern) {
  for (uint32_t b = 0; b <= 0xFFFF; ++b) {
    const uint16_t h = static_cast<uint16_t>(b);
    const float got = static_cast<float>(bf_bits(h));
    const double want = ref_decode(h);
    if (std::isnan(want)) {
      ASSERT_TRUE(std::isnan(got)) << std::hex << b;
    } else {
      ASSERT_EQ(static_cast<double>(got), want) << std::hex << b;
      ASSERT_EQ(std::signbit(got), (b >> 15) != 0) << std::hex << b;
    }
    // Decoding is a pure widening of the bits, NaN payload included.
    ASSERT_EQ(bits_of(got), b << 16) << std::hex << b;
  }
}

TEST(BFloat16, RoundTripEveryPattern) {
  for (uint32_t b = 0; b <= 0xFFFF; ++b) {
    const uint16_t h = static_cast<uint16_t>(b);
    const BFloat16 back(static_cast<float>(bf_bits(h)));
    if ((h & 0x7FFF) > 0x7F80) {
      ASSERT_EQ(back.x, 0x7FC0) << std::hex << b;
    } else {
      ASSERT_EQ(back.x, h) << std::hex << b;
    }
  }
}

TEST(BFloat16, RoundsMidpointsToNearestEven) {
  const auto& v = positive_values();
  const int skipped = narrow_float_reference::for_each_float_midpoint(
      v, [&](uint32_t lo, uint32_t hi, uint32_t even, float mid, float below, float above) {
        for (const uint32_t sb : {0x0000u, 0x8000u}) {
          const float sg = sb ? -1.0f : 1.0f;
          ASSERT_EQ(BFloat16(sg * mid).x, sb | even) << std::hex << lo;
          ASSERT_EQ(BFloat16(sg * above).x, sb | hi) << std::hex << lo;
          ASSERT_EQ(BFloat16(sg * below).x, sb | lo) << std::hex << lo;
          // The neighbours themselves are exact.
          ASSERT_EQ(BFloat16(sg * static_cast<float>(v[lo])).x, sb | lo);
        }
      });
  // The last midpoint, between the largest finite value and 2^128, is a
  // float and ties to Inf (the odd side); FLT_MAX lies above it.
  EXPECT_EQ(skipped, 0);
  EXPECT_EQ(BFloat16(std::numeric_limits<float>::max()).x, 0x7F80);
}

TEST(BFloat16, MatchesReferenceOnFloatSweep) {
  for (uint64_t u = 0; u < 0x100000000ull; u += 211) {
    const float f = float_of(static_cast<uint32_t>(u));
    ASSERT_EQ(BFloat16(f).x, ref_encode(f)) << std::hex << u;
  }
}

TEST(BFloat16, SpecialValues) {
  EXPECT_EQ(BFloat16(INFINITY).x, 0x7F80);
  EXPECT_EQ(BFloat16(-INFINITY).x, 0xFF80);
  EXPECT_EQ(BFloat16(0.0f).x, 0x0000);
  EXPECT_EQ(BFloat16(-0.0f).x, 0x8000);
  // Every NaN, whatever its sign or payload, becomes 0x7FC0; in particular
  // a NaN whose high bits look like Inf (payload only in the low half) and
  // one that would carry into the sign under rounding.
  for (uint32_t nan_bits : {0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0x7F80FFFFu, 0x7FFFFFFFu,
                            0xFFFFFFFFu, 0xFF800001u}) {
    EXPECT_EQ(BFloat16(float_of(nan_bits)).x, 0x7FC0) << std::hex << nan_bits;
  }
  // Largest finite value and overflow by rounding.
  EXPECT_EQ(BFloat16(float_of(0x7F7F0000)).x, 0x7F7F);
  EXPECT_EQ(BFloat16(float_of(0x7F7F7FFF)).x, 0x7F7F);
  EXPECT_EQ(BFloat16(float_of(0x7F7F8000)).x, 0x7F80);  // tie, odd -> up
  EXPECT_EQ(BFloat16(-std::numeric_limits<float>::max()).x, 0xFF80);
  // Subnormals are rounded like everything else.
  EXPECT_EQ(BFloat16(float_of(0x00008000)).x, 0x0000);  // tie, even
  EXPECT_EQ(BFloat16(float_of(0x00018000)).x, 0x0002);  // tie, odd -> up
  EXPECT_EQ(BFloat16(float_of(0x00008001)).x, 0x0001);
  EXPECT_EQ(BFloat16(float_of(0x007FFFFF)).x, 0x0080);  // into the normals
}

TEST(BFloat16, Arithmetic) {
  const BFloat16 a(1.5f), b(2.25f);
  EXPECT_EQ(static_cast<float>(a + b), 3.75f);
  EXPECT_EQ(static_cast<float>(a - b), -0.75f);
  EXPECT_EQ(static_cast<float>(a * b), 3.375f);
  EXPECT_EQ(static_cast<float>(b / a), 1.5f);
  EXPECT_EQ(static_cast<float>(-a), -1.5f);
  EXPECT_EQ((BFloat16(1.0f) / BFloat16(3.0f)).x, 0x3EAB);
  // 257 rounds to 256 in BFloat16 before the addition.
  EXPECT_EQ(static_cast<float>(BFloat16(2.0f) + 257), 258.0f);
  EXPECT_EQ(static_cast<float>(BFloat16(1.0f) + 257), 256.0f);
  BFloat16 c(1.0f);
  c += b;
  c *= 2.0f;
  EXPECT_EQ(static_cast<float>(c), 6.5f);
  c -= BFloat16(0.5f);
  c /= BFloat16(2.0f);
  EXPECT_EQ(static_cast<float>(c), 3.0f);
  float f = 0.5f;
  f += a;
  EXPECT_EQ(f, 2.0f);
  EXPECT_TRUE(a < b);
  EXPECT_TRUE(a == BFloat16(1.5f));
  EXPECT_TRUE(a != b);
}

TEST(BFloat16, Printing) {
  std::ostringstream os;
  os << BFloat16(1.5f) << ' ' << BFloat16(-2.0f);
  EXPECT_EQ(os.str(), "1.5 -2");
}

TEST(BFloat16, NumericLimits) {
  using L = std::numeric_limits<BFloat16>;
  static_assert(L::is_specialized && L::is_signed && L::has_infinity);
  static_assert(L::digits == 8 && L::max_exponent == 128);
  EXPECT_EQ(static_cast<float>(L::max()), float_of(0x7F7F0000));
  EXPECT_EQ(static_cast<float>(L::lowest()), -float_of(0x7F7F0000));
  EXPECT_EQ(static_cast<float>(L::min()), std::numeric_limits<float>::min());
  EXPECT_EQ(static_cast<float>(L::min()), std::ldexp(1.0f, L::min_exponent - 1));
  EXPECT_EQ(static_cast<float>(L::denorm_min()), std::ldexp(1.0f, -133));
  EXPECT_EQ(static_cast<float>(bf_bits(0x3F81)) - 1.0f, static_cast<float>(L::epsilon()));
  EXPECT_EQ(static_cast<float>(L::round_error()), 0.5f);
  EXPECT_EQ(static_cast<float>(L::infinity()), INFINITY);
  EXPECT_TRUE(std::isnan(static_cast<float>(L::quiet_NaN())));
  EXPECT_TRUE(std::isnan(static_cast<float>(L::signaling_NaN())));
  EXPECT_EQ(bits_of(static_cast<float>(L::signaling_NaN())) & 0x00400000u, 0u);
}

TEST(BFloat16, BitwiseOperatorsWorkOnBitsInPlace) {
  BFloat16 a(0x00F0, BFloat16::from_bits());
  const BFloat16 b(0x0F30, BFloat16::from_bits());
  BFloat16& r = (a | b);
  EXPECT_EQ(&r, &a);  // as in PyTorch, the left operand receives the result
  EXPECT_EQ(a.x, 0x0FF0);
  (a & b);
  EXPECT_EQ(a.x, 0x0F30);
  (a ^ b);
  EXPECT_EQ(a.x, 0x0000);
}

TEST(BFloat16, OrderingOfLvalues) {
  BFloat16 small(1.0f);
  BFloat16 big(2.0f);
  EXPECT_TRUE(small < big);
  EXPECT_TRUE(big > small);
  EXPECT_EQ(static_cast<float>(std::max(small, big)), 2.0f);
  EXPECT_EQ(static_cast<float>(std::min(small, big)), 1.0f);
}

}  // namespace
