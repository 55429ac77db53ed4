// Exhaustive tests of the Float8 types. Each format is described here only
// by its field widths, bias and special-value convention; the references
// below decode fields with ldexp and round by searching a table of every
// representable value, independently of the headers' bit manipulation.
#include <torch/headeronly/util/Float8_e4m3fn.h>
#include <torch/headeronly/util/Float8_e4m3fnuz.h>
#include <torch/headeronly/util/Float8_e5m2.h>
#include <torch/headeronly/util/Float8_e5m2fnuz.h>
#include <torch/headeronly/util/Float8_e8m0fnu.h>

#include <torch/headeronly/util/Float4_e2m1fn_x2.h>

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

namespace th = torch::headeronly;

using narrow_float_reference::bits_of;
using narrow_float_reference::float_of;

// How the top of the code space is used.
enum class Kind {
  FiniteOnly,  // e4m3fn: only s.1111.111 is NaN, no Inf, NaN on overflow
  Ieee,        // e5m2: exponent all ones = Inf/NaN, Inf on overflow
  Fnuz,        // 0x80 is the only NaN, no -0, NaN on overflow
};

struct Format {
  int exp_bits;
  int mant_bits;
  int bias;
  Kind kind;
  uint32_t max_code;  // largest finite magnitude code
};

template <typename T>
struct FormatOf;
template <>
struct FormatOf<th::Float8_e4m3fn> {
  static constexpr Format f{4, 3, 7, Kind::FiniteOnly, 0x7E};
};
template <>
struct FormatOf<th::Float8_e5m2> {
  static constexpr Format f{5, 2, 15, Kind::Ieee, 0x7B};
};
template <>
struct FormatOf<th::Float8_e4m3fnuz> {
  static constexpr Format f{4, 3, 8, Kind::Fnuz, 0x7F};
};
template <>
struct FormatOf<th::Float8_e5m2fnuz> {
  static constexpr Format f{5, 2, 16, Kind::Fnuz, 0x7F};
};

double field_value(const Format& f, uint32_t mag) {
  return narrow_float_reference::field_value(f.mant_bits, f.bias, mag);
}

bool ref_is_nan(const Format& f, uint8_t code) {
  switch (f.kind) {
    case Kind::FiniteOnly:
      return (code & 0x7F) == 0x7F;
    case Kind::Ieee:
      return (code & 0x7F) > 0x7C;
    case Kind::Fnuz:
      return code == 0x80;
  }
  return false;
}

double ref_decode(const Format& f, uint8_t code) {
  if (ref_is_nan(f, code)) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  const uint32_t mag = code & 0x7Fu;
  double v = (f.kind == Kind::Ieee && mag == 0x7C) ? std::numeric_limits<double>::infinity()
                                                   : field_value(f, mag);
  return (code & 0x80) ? -v : v;
}

uint8_t canonical_nan(const Format& f, bool negative) {
  return f.kind == Kind::Fnuz ? 0x80 : (negative ? 0xFF : 0x7F);
}

// Applies the format's overflow / zero rules to a rounded magnitude code
// (max_code + 1 means "rounded past the largest finite value").
uint8_t finish(const Format& f, bool negative, uint32_t code) {
  if (code > f.max_code) {
    if (f.kind == Kind::Ieee) {
      return negative ? 0xFC : 0x7C;
    }
    return canonical_nan(f, negative);
  }
  if (f.kind == Kind::Fnuz && code == 0) {
    return 0;
  }
  return static_cast<uint8_t>((negative ? 0x80 : 0) | code);
}

std::vector<double> table(const Format& f) {
  return narrow_float_reference::magnitude_table(f.mant_bits, f.bias, f.max_code);
}

uint8_t ref_encode(const Format& f, const std::vector<double>& v, float x) {
  const bool neg = std::signbit(x);
  if (std::isnan(x)) {
    return canonical_nan(f, neg);
  }
  if (std::isinf(x)) {
    return finish(f, neg, f.max_code + 1);
  }
  const double a = std::fabs(static_cast<double>(x));
  return finish(f, neg, narrow_float_reference::nearest_even_code(v, a));
}

template <typename T>
class Float8Test : public ::testing::Test {};

using Float8Types =
    ::testing::Types<th::Float8_e4m3fn, th::Float8_e5m2, th::Float8_e4m3fnuz, th::Float8_e5m2fnuz>;
TYPED_TEST_SUITE(Float8Test, Float8Types);

TYPED_TEST(Float8Test, Layout) {
  using T = TypeParam;
  static_assert(sizeof(T) == 1 && alignof(T) == 1);
  static_assert(std::is_trivially_copyable_v<T>);
  static_assert(std::is_same_v<decltype(T::x), uint8_t>);
  constexpr T t(0x42, T::from_bits());
  static_assert(t.x == 0x42);
  EXPECT_EQ(t.x, 0x42);
}

TYPED_TEST(Float8Test, DecodeEveryPattern) {
  using T = TypeParam;
  const Format& f = FormatOf<T>::f;
  for (uint32_t b = 0; b < 256; ++b) {
    const T t(static_cast<uint8_t>(b), T::from_bits());
    const float got = static_cast<float>(t);
    const double want = ref_decode(f, static_cast<uint8_t>(b));
    ASSERT_EQ(t.isnan(), std::isnan(want)) << std::hex << b;
    if (std::isnan(want)) {
      ASSERT_TRUE(std::isnan(got)) << std::hex << b;
      ASSERT_EQ(bits_of(got) & 0x00400000u, 0x00400000u) << "quiet NaN";
    } else {
      ASSERT_EQ(static_cast<double>(got), want) << std::hex << b;
      ASSERT_EQ(std::signbit(got), (b & 0x80) != 0) << std::hex << b;
    }
  }
}

TYPED_TEST(Float8Test, RoundTripEveryPattern) {
  using T = TypeParam;
  const Format& f = FormatOf<T>::f;
  for (uint32_t b = 0; b < 256; ++b) {
    const uint8_t code = static_cast<uint8_t>(b);
    const T back(static_cast<float>(T(code, T::from_bits())));
    if (ref_is_nan(f, code)) {
      ASSERT_EQ(back.x, canonical_nan(f, (b & 0x80) != 0)) << std::hex << b;
    } else {
      ASSERT_EQ(back.x, code) << std::hex << b;
    }
  }
}

TYPED_TEST(Float8Test, RoundsMidpointsToNearestEven) {
  using T = TypeParam;
  const Format& f = FormatOf<T>::f;
  const std::vector<double> v = table(f);
  const int skipped = narrow_float_reference::for_each_float_midpoint(
      v, [&](uint32_t lo, uint32_t hi, uint32_t even, float mid, float below, float above) {
        for (bool neg : {false, true}) {
          const float sg = neg ? -1.0f : 1.0f;
          ASSERT_EQ(T(sg * mid).x, finish(f, neg, even)) << std::hex << lo;
          ASSERT_EQ(T(sg * above).x, finish(f, neg, hi)) << std::hex << lo;
          ASSERT_EQ(T(sg * below).x, finish(f, neg, lo)) << std::hex << lo;
          ASSERT_EQ(T(sg * static_cast<float>(v[lo])).x, finish(f, neg, lo));
        }
      });
  EXPECT_EQ(skipped, 0);
}

TYPED_TEST(Float8Test, MatchesReferenceOnFloatSweep) {
  using T = TypeParam;
  const Format& f = FormatOf<T>::f;
  const std::vector<double> v = table(f);
  for (uint64_t u = 0; u < 0x100000000ull; u += 1009) {
    const float x = float_of(static_cast<uint32_t>(u));
    ASSERT_EQ(T(x).x, ref_encode(f, v, x)) << std::hex << u;
  }
  for (float x :
       {INFINITY, -INFINITY, NAN, -NAN, 0.0f, -0.0f, std::numeric_limits<float>::max(),
        std::numeric_limits<float>::denorm_min(), -std::numeric_limits<float>::denorm_min()}) {
    ASSERT_EQ(T(x).x, ref_encode(f, v, x)) << x;
  }
}

TYPED_TEST(Float8Test, NumericLimitsAgreeWithFormat) {
  using T = TypeParam;
  using L = std::numeric_limits<T>;
  const Format& f = FormatOf<T>::f;
  static_assert(L::is_specialized && L::is_signed && !L::is_integer);
  static_assert(L::has_quiet_NaN && !L::is_iec559);
  EXPECT_EQ(L::digits, f.mant_bits + 1);
  EXPECT_EQ(static_cast<double>(L::max()), field_value(f, f.max_code));
  EXPECT_EQ(static_cast<double>(L::lowest()), -field_value(f, f.max_code));
  EXPECT_EQ(static_cast<double>(L::min()), std::ldexp(1.0, 1 - f.bias));
  EXPECT_EQ(static_cast<double>(L::min()), std::ldexp(1.0, L::min_exponent - 1));
  EXPECT_GE(static_cast<double>(L::max()), std::ldexp(1.0, L::max_exponent - 1));
  EXPECT_LT(static_cast<double>(L::max()), std::ldexp(1.0, L::max_exponent));
  EXPECT_EQ(static_cast<double>(L::denorm_min()), std::ldexp(1.0, 1 - f.bias - f.mant_bits));
  const T one(1.0f);
  const T next_after_one(static_cast<uint8_t>(one.x + 1), T::from_bits());
  EXPECT_EQ(static_cast<float>(L::epsilon()), static_cast<float>(next_after_one) - 1.0f);
  EXPECT_EQ(static_cast<float>(L::round_error()), 0.5f);
  EXPECT_TRUE(L::quiet_NaN().isnan());
  EXPECT_EQ(L::has_infinity, f.kind == Kind::Ieee);
  // 10^max_exponent10 is finite, 10^(max_exponent10 + 1) is not.
  EXPECT_LE(std::pow(10.0, L::max_exponent10), static_cast<double>(L::max()));
  EXPECT_GT(std::pow(10.0, L::max_exponent10 + 1), static_cast<double>(L::max()));
  EXPECT_GE(std::pow(10.0, L::min_exponent10), static_cast<double>(L::min()));
  EXPECT_LT(std::pow(10.0, L::min_exponent10 - 1), static_cast<double>(L::min()));
}

TYPED_TEST(Float8Test, ArithmeticGoesThroughFloat) {
  using T = TypeParam;
  const T a(1.5f), b(2.0f);
  EXPECT_EQ(static_cast<float>(a + b), 3.5f);
  EXPECT_EQ(static_cast<float>(a * b), 3.0f);
  EXPECT_EQ(static_cast<float>(b - a), 0.5f);
  EXPECT_EQ(static_cast<float>(b / T(4.0f)), 0.5f);
  EXPECT_EQ(static_cast<float>(-a), -1.5f);
  EXPECT_EQ(a + 0.25f, 1.75f);
  // Results round to the format: 1.5 + 2 * 0.0625 = 1.625 in e4m3 (3
  // mantissa bits) but 1.5 in e5m2 (1.625 ties to even 1.5).
  const float r = static_cast<float>(a + T(0.125f));
  EXPECT_EQ(r, FormatOf<T>::f.mant_bits == 3 ? 1.625f : 1.5f);
  T c(1.0f);
  c += b;
  c *= 2.0f;
  EXPECT_EQ(static_cast<float>(c), 6.0f);
  c -= T(2.0f);
  c /= T(2.0f);
  EXPECT_EQ(static_cast<float>(c), 2.0f);
  EXPECT_TRUE(a < b);
  EXPECT_TRUE(a == T(1.5f));
  std::ostringstream os;
  os << a << ' ' << -b;
  EXPECT_EQ(os.str(), "1.5 -2");
}

// ---- per-format edge cases ------------------------------------------------

TEST(Float8_e4m3fn, Edges) {
  using T = th::Float8_e4m3fn;
  static_assert(std::is_same_v<c10::Float8_e4m3fn, T>);
  EXPECT_EQ(T(448.0f).x, 0x7E);
  EXPECT_EQ(T(-448.0f).x, 0xFE);
  EXPECT_EQ(T(464.0f).x, 0x7E);                        // tie -> even 448
  EXPECT_EQ(T(std::nextafter(464.0f, 1e9f)).x, 0x7F);  // past it: NaN
  EXPECT_EQ(T(-std::nextafter(464.0f, 1e9f)).x, 0xFF);
  EXPECT_EQ(T(480.0f).x, 0x7F);
  EXPECT_EQ(T(1e30f).x, 0x7F);
  EXPECT_EQ(T(INFINITY).x, 0x7F);  // no Inf in the format
  EXPECT_EQ(T(-INFINITY).x, 0xFF);
  EXPECT_EQ(T(NAN).x, 0x7F);
  EXPECT_EQ(T(-0.0f).x, 0x80);
  EXPECT_EQ(T(std::ldexp(1.0f, -9)).x, 0x01);   // smallest subnormal
  EXPECT_EQ(T(std::ldexp(1.0f, -10)).x, 0x00);  // half of it: tie to 0
  EXPECT_EQ(T(std::ldexp(3.0f, -10)).x, 0x02);  // 1.5 ulp: tie to even
  // Exponent 1111 is an ordinary binade here.
  EXPECT_EQ(static_cast<float>(T(0x78, T::from_bits())), 256.0f);
  EXPECT_EQ(static_cast<float>(T(0x7E, T::from_bits())), 448.0f);
  EXPECT_TRUE(T(0x7F, T::from_bits()).isnan());
  EXPECT_TRUE(T(0xFF, T::from_bits()).isnan());
  EXPECT_FALSE(T(0x7E, T::from_bits()).isnan());
}

TEST(Float8_e5m2, Edges) {
  using T = th::Float8_e5m2;
  static_assert(std::is_same_v<c10::Float8_e5m2, T>);
  EXPECT_EQ(T(57344.0f).x, 0x7B);
  EXPECT_EQ(T(std::nextafter(61440.0f, 0.0f)).x, 0x7B);
  EXPECT_EQ(T(61440.0f).x, 0x7C);  // tie, 57344 is odd -> Inf
  EXPECT_EQ(T(-1e30f).x, 0xFC);
  EXPECT_EQ(T(INFINITY).x, 0x7C);
  EXPECT_EQ(T(-INFINITY).x, 0xFC);
  EXPECT_EQ(T(NAN).x, 0x7F);
  EXPECT_EQ(T(-NAN).x, 0xFF);
  EXPECT_EQ(T(-0.0f).x, 0x80);
  EXPECT_TRUE(T(0x7C, T::from_bits()).isinf());
  EXPECT_TRUE(T(0xFC, T::from_bits()).isinf());
  EXPECT_FALSE(T(0x7C, T::from_bits()).isnan());
  for (uint8_t n : {0x7D, 0x7E, 0x7F, 0xFD, 0xFE, 0xFF}) {
    EXPECT_TRUE(T(n, T::from_bits()).isnan()) << int(n);
    EXPECT_FALSE(T(n, T::from_bits()).isinf()) << int(n);
  }
  EXPECT_EQ(static_cast<float>(T(0x7C, T::from_bits())), INFINITY);
  EXPECT_EQ(static_cast<float>(std::numeric_limits<T>::infinity()), INFINITY);
  EXPECT_EQ(T(std::ldexp(1.0f, -16)).x, 0x01);
}

TEST(Float8_e4m3fnuz, Edges) {
  using T = th::Float8_e4m3fnuz;
  static_assert(std::is_same_v<c10::Float8_e4m3fnuz, T>);
  EXPECT_EQ(T(240.0f).x, 0x7F);
  EXPECT_EQ(T(-240.0f).x, 0xFF);
  EXPECT_EQ(T(std::nextafter(248.0f, 0.0f)).x, 0x7F);
  EXPECT_EQ(T(248.0f).x, 0x80);  // tie, 240 is odd -> overflow -> NaN
  EXPECT_EQ(T(-248.0f).x, 0x80);
  EXPECT_EQ(T(1e30f).x, 0x80);
  EXPECT_EQ(T(INFINITY).x, 0x80);
  EXPECT_EQ(T(-INFINITY).x, 0x80);
  EXPECT_EQ(T(NAN).x, 0x80);
  EXPECT_EQ(T(-NAN).x, 0x80);
  EXPECT_EQ(T(-0.0f).x, 0x00);  // no negative zero
  EXPECT_EQ(T(-std::ldexp(1.0f, -12)).x, 0x00);
  EXPECT_EQ(T(-std::ldexp(1.0f, -10)).x, 0x81);
  EXPECT_EQ(T(std::ldexp(1.0f, -10)).x, 0x01);
  EXPECT_EQ(static_cast<float>(T(0x40, T::from_bits())), 1.0f);
  EXPECT_TRUE(T(0x80, T::from_bits()).isnan());
  EXPECT_FALSE(T(0x80, T::from_bits()).isinf());
  EXPECT_FALSE(T(0x00, T::from_bits()).isnan());
  EXPECT_TRUE(std::isnan(static_cast<float>(std::numeric_limits<T>::infinity())));
}

TEST(Float8_e5m2fnuz, Edges) {
  using T = th::Float8_e5m2fnuz;
  static_assert(std::is_same_v<c10::Float8_e5m2fnuz, T>);
  EXPECT_EQ(T(57344.0f).x, 0x7F);
  EXPECT_EQ(T(std::nextafter(61440.0f, 0.0f)).x, 0x7F);
  EXPECT_EQ(T(61440.0f).x, 0x80);
  EXPECT_EQ(T(INFINITY).x, 0x80);
  EXPECT_EQ(T(NAN).x, 0x80);
  EXPECT_EQ(T(-0.0f).x, 0x00);
  EXPECT_EQ(T(std::ldexp(1.0f, -17)).x, 0x01);
  EXPECT_EQ(T(-std::ldexp(1.0f, -19)).x, 0x00);
  EXPECT_EQ(static_cast<float>(T(0x40, T::from_bits())), 1.0f);
  EXPECT_EQ(static_cast<float>(std::numeric_limits<T>::epsilon()), 0.25f);
}

// ---- e8m0fnu ----------------------------------------------------------------

// The documented PyTorch rule, restated with frexp instead of bit fields.
uint8_t ref_e8m0(float x) {
  if (std::isnan(x) || std::isinf(x)) {
    return 0xFF;
  }
  const double a = std::fabs(static_cast<double>(x));
  if (a == 0.0) {
    return 0;
  }
  int ex = 0;
  const double fr = std::frexp(a, &ex);  // a = fr * 2^ex, fr in [0.5, 1)
  const int k = ex - 1;                  // a = (2 fr) * 2^k
  int e;
  bool up;
  if (k >= -126) {
    e = k + 127;
    up = 2 * fr >= 1.5;
  } else {
    e = 0;
    up = a > std::ldexp(1.0, -127);
  }
  return static_cast<uint8_t>(std::min(e + (up ? 1 : 0), 254));
}

TEST(Float8_e8m0fnu, LayoutAndAliases) {
  using T = th::Float8_e8m0fnu;
  static_assert(sizeof(T) == 1 && alignof(T) == 1);
  static_assert(std::is_trivially_copyable_v<T>);
  static_assert(std::is_same_v<c10::Float8_e8m0fnu, T>);
  // No arithmetic of its own, as in PyTorch: operands decay to float.
  static_assert(std::is_same_v<decltype(T(2.0f) + T(4.0f)), float>);
  EXPECT_EQ(T(2.0f) * T(4.0f), 8.0f);
}

TEST(Float8_e8m0fnu, DecodeEveryPattern) {
  using T = th::Float8_e8m0fnu;
  for (uint32_t b = 0; b < 256; ++b) {
    const T t(static_cast<uint8_t>(b), T::from_bits());
    const float got = static_cast<float>(t);
    if (b == 0xFF) {
      ASSERT_TRUE(t.isnan());
      ASSERT_TRUE(std::isnan(got));
      continue;
    }
    ASSERT_FALSE(t.isnan());
    ASSERT_EQ(static_cast<double>(got), std::ldexp(1.0, static_cast<int>(b) - 127)) << b;
    ASSERT_EQ(T(got).x, b) << "round trip " << b;
  }
  EXPECT_EQ(T(static_cast<float>(T(0xFF, T::from_bits()))).x, 0xFF);
}

TEST(Float8_e8m0fnu, RoundingRule) {
  using T = th::Float8_e8m0fnu;
  EXPECT_EQ(T(1.0f).x, 127);
  EXPECT_EQ(T(std::nextafter(1.5f, 0.0f)).x, 127);
  EXPECT_EQ(T(1.5f).x, 128);  // linear midpoint, ties up
  EXPECT_EQ(T(1.99f).x, 128);
  EXPECT_EQ(T(0.75f).x, 127);
  EXPECT_EQ(T(-4.0f).x, 129);  // sign ignored
  EXPECT_EQ(T(-6.0f).x, 130);
  EXPECT_EQ(T(0.0f).x, 0);
  EXPECT_EQ(T(-0.0f).x, 0);
  EXPECT_EQ(T(INFINITY).x, 0xFF);
  EXPECT_EQ(T(-INFINITY).x, 0xFF);
  EXPECT_EQ(T(NAN).x, 0xFF);
  EXPECT_EQ(T(std::numeric_limits<float>::max()).x, 254);  // saturates
  EXPECT_EQ(T(std::ldexp(1.5f, 127)).x, 254);
  EXPECT_EQ(T(std::ldexp(1.0f, 127)).x, 254);
  // Float subnormals: 2^-127 stays, anything above it goes to 2^-126.
  EXPECT_EQ(T(float_of(0x00400000)).x, 0);
  EXPECT_EQ(T(float_of(0x00400001)).x, 1);
  EXPECT_EQ(T(float_of(0x00600000)).x, 1);
  EXPECT_EQ(T(float_of(0x003FFFFF)).x, 0);
  EXPECT_EQ(T(float_of(0x00000001)).x, 0);
  EXPECT_EQ(T(std::numeric_limits<float>::min()).x, 1);
}

TEST(Float8_e8m0fnu, MatchesReferenceOnFloatSweep) {
  using T = th::Float8_e8m0fnu;
  for (uint64_t u = 0; u < 0x100000000ull; u += 1009) {
    const float x = float_of(static_cast<uint32_t>(u));
    ASSERT_EQ(T(x).x, ref_e8m0(x)) << std::hex << u;
  }
  // Every binade's boundaries and midpoint neighbourhood.
  for (int e = -149; e <= 127; ++e) {
    const float p = std::ldexp(1.0f, e);
    for (float x : {p, std::nextafter(p, 0.0f), std::nextafter(p, INFINITY), p * 1.5f,
                    std::nextafter(p * 1.5f, 0.0f), std::nextafter(p * 1.5f, INFINITY)}) {
      ASSERT_EQ(T(x).x, ref_e8m0(x)) << x;
    }
  }
}

TEST(Float8_e8m0fnu, NumericLimits) {
  using T = th::Float8_e8m0fnu;
  using L = std::numeric_limits<T>;
  static_assert(L::is_specialized && !L::is_signed && !L::has_infinity);
  EXPECT_EQ(static_cast<float>(L::max()), std::ldexp(1.0f, 127));
  EXPECT_EQ(static_cast<float>(L::min()), std::ldexp(1.0f, -127));
  EXPECT_EQ(static_cast<float>(L::lowest()), std::ldexp(1.0f, -127));
  EXPECT_EQ(static_cast<float>(L::epsilon()), 1.0f);
  EXPECT_EQ(static_cast<float>(L::round_error()), 0.5f);
  EXPECT_TRUE(L::quiet_NaN().isnan());
  std::ostringstream os;
  os << T(8.0f);
  EXPECT_EQ(os.str(), "8");
}

TEST(Float4_e2m1fn_x2, EqualityComparesBits) {
  const th::Float4_e2m1fn_x2 a(0x12);
  const th::Float4_e2m1fn_x2 b(0x12);
  const th::Float4_e2m1fn_x2 c(0x21);
  EXPECT_TRUE(a == b);
  EXPECT_FALSE(a != b);
  EXPECT_TRUE(a != c);
  EXPECT_TRUE(c10::operator==(a, b));
}

}  // namespace
