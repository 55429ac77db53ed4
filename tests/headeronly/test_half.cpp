// Exhaustive tests of torch::headeronly::Half against references written
// here from the IEEE binary16 definition (not from the header's code).
#include <torch/headeronly/util/Half.h>

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

using torch::headeronly::Half;

using narrow_float_reference::bits_of;
using narrow_float_reference::float_of;
Half half_bits(uint16_t b) { return Half(b, Half::from_bits()); }

// Value of a binary16 pattern from its fields; NaN is reported separately.
double ref_decode(uint16_t h) {
  const uint32_t mag = h & 0x7FFFu;
  const double v = mag < 0x7C00    ? narrow_float_reference::field_value(10, 15, mag)
                   : mag == 0x7C00 ? std::numeric_limits<double>::infinity()
                                   : std::numeric_limits<double>::quiet_NaN();
  return (h >> 15) ? -v : v;
}

// Magnitudes of the finite codes, then the overflow threshold (the value
// code 0x7C00, Inf, would have in an unbounded exponent range).
const std::vector<double>& positive_values() {
  static const std::vector<double> values =
      narrow_float_reference::magnitude_table(10, 15, 0x7C00 - 1);
  return values;
}

// Independent round-to-nearest-even: nearest table entry, ties to the even
// code. Returns 0x7C00 for overflow.
uint16_t ref_encode(float f) {
  if (std::isnan(f)) {
    return std::signbit(f) ? 0xFE00 : 0x7E00;
  }
  const uint16_t sign = std::signbit(f) ? 0x8000 : 0;
  const double a = std::fabs(static_cast<double>(f));
  const auto& v = positive_values();
  return static_cast<uint16_t>(sign | narrow_float_reference::nearest_even_code(v, a));
}

TEST(Half, LayoutAndAliases) {
  static_assert(sizeof(Half) == 2);
  static_assert(alignof(Half) == 2);
  static_assert(std::is_trivially_copyable_v<Half>);
  static_assert(std::is_standard_layout_v<Half>);
  static_assert(std::is_same_v<c10::Half, torch::headeronly::Half>);
  static_assert(std::is_same_v<decltype(Half::x), uint16_t>);
  constexpr Half h(0x3C00, Half::from_bits());
  static_assert(h.x == 0x3C00);
  EXPECT_EQ(static_cast<float>(h), 1.0f);
  EXPECT_EQ(c10::detail::fp16_ieee_from_fp32_value(1.0f), 0x3C00);
  EXPECT_EQ(c10::detail::fp16_ieee_to_fp32_value(0x3C00), 1.0f);
}

#if defined(TORCH_HEADERONLY_HAS_BUILTIN_BIT_CAST)
TEST(Half, ConstexprConversions) {
  static_assert(Half(1.0f).x == 0x3C00);
  static_assert(Half(-2.0f).x == 0xC000);
  static_assert(static_cast<float>(Half(0x3555, Half::from_bits())) == 0.333251953125f);
  SUCCEED();
}
#endif

TEST(Half, DecodeEveryPattern) {
  for (uint32_t b = 0; b <= 0xFFFF; ++b) {
    const uint16_t h = static_cast<uint16_t>(b);
    const float got = static_cast<float>(half_bits(h));
    const double want = ref_decode(h);
    ASSERT_EQ(bits_of(torch::headeronly::detail::fp16_ieee_to_fp32_value(h)), bits_of(got));
    if (std::isnan(want)) {
      ASSERT_TRUE(std::isnan(got)) << std::hex << b;
      const uint32_t fb = bits_of(got);
      // Sign and payload kept, quiet bit set.
      ASSERT_EQ(fb >> 31, b >> 15) << std::hex << b;
      ASSERT_EQ(fb & 0x7FC00000u, 0x7FC00000u) << std::hex << b;
      ASSERT_EQ((fb >> 13) & 0x1FFu, b & 0x1FFu) << std::hex << b;
    } else {
      ASSERT_EQ(static_cast<double>(got), want) << std::hex << b;
      ASSERT_EQ(std::signbit(got), (b >> 15) != 0) << std::hex << b;
    }
  }
}

TEST(Half, RoundTripEveryPattern) {
  for (uint32_t b = 0; b <= 0xFFFF; ++b) {
    const uint16_t h = static_cast<uint16_t>(b);
    const Half back(static_cast<float>(half_bits(h)));
    if ((h & 0x7FFF) > 0x7C00) {
      // Canonical quiet NaN with the sign kept.
      ASSERT_EQ(back.x, (h & 0x8000) | 0x7E00) << std::hex << b;
    } else {
      ASSERT_EQ(back.x, h) << std::hex << b;
    }
  }
}

// Between every pair of neighbours (and between the largest finite value
// and the overflow threshold): the exact midpoint rounds to the even code,
// the floats just above and below it go to the nearer neighbour.
TEST(Half, RoundsMidpointsToNearestEven) {
  const auto& v = positive_values();
  const int skipped = narrow_float_reference::for_each_float_midpoint(
      v, [&](uint32_t lo, uint32_t hi, uint32_t even, float mid, float below, float above) {
        for (const uint32_t sb : {0x0000u, 0x8000u}) {
          const float sg = sb ? -1.0f : 1.0f;
          ASSERT_EQ(Half(sg * mid).x, sb | even) << std::hex << lo;
          ASSERT_EQ(Half(sg * above).x, sb | hi) << std::hex << lo;
          ASSERT_EQ(Half(sg * below).x, sb | lo) << std::hex << lo;
          // The neighbours themselves are exact.
          ASSERT_EQ(Half(sg * static_cast<float>(v[lo])).x, sb | lo);
        }
      });
  EXPECT_EQ(skipped, 0);
}

TEST(Half, MatchesReferenceOnFloatSweep) {
  // Every 211th float bit pattern of both signs: covers all binades,
  // including float subnormals and values far beyond the Half range.
  for (uint64_t u = 0; u < 0x100000000ull; u += 211) {
    const float f = float_of(static_cast<uint32_t>(u));
    if (std::isnan(f)) {
      continue;
    }
    ASSERT_EQ(Half(f).x, ref_encode(f)) << std::hex << u;
  }
}

TEST(Half, SpecialValues) {
  EXPECT_EQ(Half(INFINITY).x, 0x7C00);
  EXPECT_EQ(Half(-INFINITY).x, 0xFC00);
  EXPECT_EQ(Half(std::numeric_limits<float>::quiet_NaN()).x, 0x7E00);
  EXPECT_EQ(Half(-std::numeric_limits<float>::quiet_NaN()).x, 0xFE00);
  EXPECT_EQ(Half(std::numeric_limits<float>::signaling_NaN()).x & 0x7E00, 0x7E00);
  EXPECT_EQ(Half(0.0f).x, 0x0000);
  EXPECT_EQ(Half(-0.0f).x, 0x8000);
  // Overflow: 65504 is the largest finite value; 65519.99 still rounds to
  // it, the tie 65520 goes to Inf (65504 has an odd mantissa).
  EXPECT_EQ(Half(65504.0f).x, 0x7BFF);
  EXPECT_EQ(Half(65519.99f).x, 0x7BFF);
  EXPECT_EQ(Half(65520.0f).x, 0x7C00);
  EXPECT_EQ(Half(1e10f).x, 0x7C00);
  EXPECT_EQ(Half(-1e10f).x, 0xFC00);
  EXPECT_EQ(Half(std::numeric_limits<float>::max()).x, 0x7C00);
  // Subnormals: 2^-24 is the smallest; half of it ties to 0, a hair more
  // rounds up.
  EXPECT_EQ(Half(std::ldexp(1.0f, -24)).x, 0x0001);
  EXPECT_EQ(Half(std::ldexp(1.0f, -25)).x, 0x0000);
  EXPECT_EQ(Half(std::nextafter(std::ldexp(1.0f, -25), 1.0f)).x, 0x0001);
  EXPECT_EQ(Half(std::ldexp(3.0f, -25)).x, 0x0002);  // 1.5 ulp: tie to even
  EXPECT_EQ(Half(-std::ldexp(1.0f, -26)).x, 0x8000);
  EXPECT_EQ(Half(std::numeric_limits<float>::denorm_min()).x, 0x0000);
  // Largest subnormal rounding up into the smallest normal.
  EXPECT_EQ(Half(std::ldexp(1023.5f, -24)).x, 0x0400);
  EXPECT_EQ(static_cast<float>(half_bits(0x7C00)), INFINITY);
  EXPECT_EQ(static_cast<float>(half_bits(0xFC00)), -INFINITY);
}

TEST(Half, Arithmetic) {
  const Half a(1.5f);
  const Half b(2.25f);
  EXPECT_EQ(static_cast<float>(a + b), 3.75f);
  EXPECT_EQ(static_cast<float>(a - b), -0.75f);
  EXPECT_EQ(static_cast<float>(a * b), 3.375f);
  EXPECT_EQ(static_cast<float>(b / a), 1.5f);
  EXPECT_EQ(static_cast<float>(-a), -1.5f);
  EXPECT_EQ(a + 1.0f, 2.5f);
  EXPECT_EQ(1.0 - a, -0.5);
  EXPECT_EQ(static_cast<float>(a * 2), 3.0f);
  EXPECT_EQ(static_cast<float>(3 - a), 1.5f);
  // Each operation rounds to Half: 1/3 is not exact.
  EXPECT_EQ((Half(1.0f) / Half(3.0f)).x, 0x3555);
  // The integer is rounded to Half before the operation, as in PyTorch:
  // 2049 -> 2048, so 1 + 2049 gives 2049 -> 2048 (tie to even), not 2050.
  EXPECT_EQ(static_cast<float>(Half(1.0f) + 2049), 2048.0f);
  EXPECT_EQ(static_cast<float>(Half(1.0f) + int64_t{2049}), 2048.0f);
  // Overflow through arithmetic.
  EXPECT_EQ((Half(60000.0f) + Half(60000.0f)).x, 0x7C00);

  Half c(1.0f);
  c += b;
  EXPECT_EQ(static_cast<float>(c), 3.25f);
  c -= Half(0.25f);
  EXPECT_EQ(static_cast<float>(c), 3.0f);
  c *= 2.0f;  // the float converts to Half
  EXPECT_EQ(static_cast<float>(c), 6.0f);
  c /= Half(4.0f);
  EXPECT_EQ(static_cast<float>(c), 1.5f);
  float f = 1.0f;
  f += a;
  f *= b;
  EXPECT_EQ(f, 5.625f);
  f -= a;
  f /= Half(0.5f);
  EXPECT_EQ(f, 8.25f);
}

TEST(Half, ComparisonsGoThroughFloat) {
  const Half a(1.5f), b(2.0f);
  EXPECT_TRUE(a < b);
  EXPECT_TRUE(b > a);
  EXPECT_TRUE(a <= Half(1.5f));
  EXPECT_TRUE(a == Half(1.5f));
  EXPECT_TRUE(a != b);
  EXPECT_TRUE(a == 1.5f);
  EXPECT_TRUE(Half(0.0f) == Half(-0.0f));
  const Half nan = std::numeric_limits<Half>::quiet_NaN();
  EXPECT_FALSE(nan == nan);
  EXPECT_TRUE(std::isnan(static_cast<float>(nan)));
}

TEST(Half, Printing) {
  std::ostringstream os;
  os << Half(1.5f) << ' ' << Half(-0.25f) << ' ' << Half(INFINITY);
  EXPECT_EQ(os.str(), "1.5 -0.25 inf");
}

TEST(Half, NumericLimits) {
  using L = std::numeric_limits<Half>;
  static_assert(L::is_specialized && L::is_signed && !L::is_integer);
  static_assert(L::has_infinity && L::has_quiet_NaN && L::is_iec559);
  static_assert(L::digits == 11 && L::radix == 2);
  static_assert(L::max_exponent == 16 && L::min_exponent == -13);
  EXPECT_EQ(static_cast<float>(L::max()), 65504.0f);
  EXPECT_EQ(static_cast<float>(L::lowest()), -65504.0f);
  EXPECT_EQ(static_cast<float>(L::min()), std::ldexp(1.0f, -14));
  EXPECT_EQ(static_cast<float>(L::denorm_min()), std::ldexp(1.0f, -24));
  EXPECT_EQ(static_cast<float>(L::epsilon()), std::ldexp(1.0f, -10));
  // epsilon is the gap above 1.
  EXPECT_EQ(static_cast<float>(half_bits(0x3C01)) - 1.0f, static_cast<float>(L::epsilon()));
  EXPECT_EQ(static_cast<float>(L::round_error()), 0.5f);
  EXPECT_EQ(static_cast<float>(L::infinity()), INFINITY);
  EXPECT_TRUE(std::isnan(static_cast<float>(L::quiet_NaN())));
  EXPECT_TRUE(std::isnan(static_cast<float>(L::signaling_NaN())));
  EXPECT_NE(L::signaling_NaN().x & 0x0200, 0x0200);  // quiet bit clear
  // Constants agree with the format: min_exponent and max_exponent.
  EXPECT_EQ(static_cast<float>(L::min()), std::ldexp(1.0f, L::min_exponent - 1));
  EXPECT_LT(static_cast<float>(L::max()), std::ldexp(1.0f, L::max_exponent));
  EXPECT_GE(static_cast<float>(L::max()), std::ldexp(1.0f, L::max_exponent - 1));
}

}  // namespace
