// The operator set util/detail/arithmetic_via_float.h gives each reduced
// float type with arithmetic: PyTorch's overloads and result types, plain
// (non-template) functions that accept implicitly converted operands, and
// "compute in float, round back once" for every operator.
#include <torch/headeronly/util/BFloat16.h>
#include <torch/headeronly/util/Float8_e4m3fn.h>
#include <torch/headeronly/util/Float8_e4m3fnuz.h>
#include <torch/headeronly/util/Float8_e5m2.h>
#include <torch/headeronly/util/Float8_e5m2fnuz.h>
#include <torch/headeronly/util/Half.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "narrow_float_reference.h"

namespace {

namespace th = torch::headeronly;
using narrow_float_reference::bits_of;

template <typename T>
class ArithmeticViaFloat : public ::testing::Test {};

using ReducedFloatTypes =
    ::testing::Types<th::Half, th::BFloat16, th::Float8_e4m3fn, th::Float8_e4m3fnuz,
                     th::Float8_e5m2, th::Float8_e5m2fnuz>;
TYPED_TEST_SUITE(ArithmeticViaFloat, ReducedFloatTypes);

// Reaches T only through its own conversion operator: a function template
// with a T parameter would not deduce T from it, a plain overload (as
// PyTorch declares) accepts it.
template <typename T>
struct ConvertsTo {
  T value;
  operator T() const { return value; }
};

// Every bit pattern of an 8-bit type; a spread of patterns of a 16-bit one.
template <typename T>
std::vector<T> sample_values() {
  std::vector<T> out;
  const uint32_t count = 1u << (8 * sizeof(T));
  const uint32_t step = sizeof(T) == 1 ? 1 : 251;
  for (uint32_t b = 0; b < count; b += step) {
    out.push_back(T(static_cast<decltype(T::x)>(b), T::from_bits()));
  }
  return out;
}

TYPED_TEST(ArithmeticViaFloat, ResultTypesArePyTorchs) {
  using T = TypeParam;
  T a(1.0f);
  float f = 1.0f;
  static_assert(std::is_same_v<decltype(a + a), T>);
  static_assert(std::is_same_v<decltype(a - a), T>);
  static_assert(std::is_same_v<decltype(a * a), T>);
  static_assert(std::is_same_v<decltype(a / a), T>);
  static_assert(std::is_same_v<decltype(-a), T>);
  static_assert(std::is_same_v<decltype(a += a), T&>);
  static_assert(std::is_same_v<decltype(a /= a), T&>);
  static_assert(std::is_same_v<decltype(a + 1.0f), float>);
  static_assert(std::is_same_v<decltype(1.0f - a), float>);
  static_assert(std::is_same_v<decltype(a * 1.0), double>);
  static_assert(std::is_same_v<decltype(1.0 / a), double>);
  static_assert(std::is_same_v<decltype(a + 1), T>);
  static_assert(std::is_same_v<decltype(1 - a), T>);
  static_assert(std::is_same_v<decltype(a * int64_t{1}), T>);
  static_assert(std::is_same_v<decltype(int64_t{1} / a), T>);
  static_assert(std::is_same_v<decltype(f += a), float&>);
  static_assert(std::is_same_v<decltype(f *= a), float&>);
  SUCCEED();
}

TYPED_TEST(ArithmeticViaFloat, OperandsReachTheOperatorsByConversion) {
  using T = TypeParam;
  const T a(1.0f);
  const ConvertsTo<T> two{T(2.0f)};
  static_assert(std::is_same_v<decltype(a + two), T>);
  static_assert(std::is_same_v<decltype(two * a), T>);
  EXPECT_EQ(static_cast<float>(a + two), 3.0f);
  EXPECT_EQ(static_cast<float>(two - a), 1.0f);
  EXPECT_EQ(static_cast<float>(two * a), 2.0f);
  EXPECT_EQ(static_cast<float>(a / two), 0.5f);
  T c(1.0f);
  c += two;
  EXPECT_EQ(static_cast<float>(c), 3.0f);
  c *= 2.0f;  // the float converts to T
  EXPECT_EQ(static_cast<float>(c), 6.0f);
}

// Equal bits, or both NaN: which NaN (its sign) a float operation on a NaN
// operand gives follows the order in which the compiler puts the operands,
// which neither C++ nor PyTorch fixes.
template <typename T>
bool same_result(T x, T y) {
  const float fx = static_cast<float>(x), fy = static_cast<float>(y);
  if (std::isnan(fx) || std::isnan(fy)) return std::isnan(fx) && std::isnan(fy);
  if constexpr (std::is_same_v<T, float>) {
    return bits_of(x) == bits_of(y);
  } else {
    return x.x == y.x;
  }
}

TYPED_TEST(ArithmeticViaFloat, ComputesInFloatAndRoundsOnce) {
  using T = TypeParam;
  const std::vector<T> values = sample_values<T>();
  for (const T a : values) {
    for (const T b : values) {
      const float fa = static_cast<float>(a);
      const float fb = static_cast<float>(b);
      ASSERT_TRUE(same_result(a + b, T(fa + fb))) << +a.x << ' ' << +b.x;
      ASSERT_TRUE(same_result(a - b, T(fa - fb))) << +a.x << ' ' << +b.x;
      ASSERT_TRUE(same_result(a * b, T(fa * fb))) << +a.x << ' ' << +b.x;
      ASSERT_TRUE(same_result(a / b, T(fa / fb))) << +a.x << ' ' << +b.x;
      T c = a;
      c -= b;
      ASSERT_TRUE(same_result(c, a - b));
    }
    const float fa = static_cast<float>(a);
    ASSERT_TRUE(same_result(-a, T(-fa)));
    ASSERT_TRUE(same_result(a * 0.75f, fa * 0.75f));
    ASSERT_TRUE(same_result(static_cast<float>(1.25 - a),
                            static_cast<float>(1.25 - static_cast<double>(fa))));
    // The integer is rounded to T first (257 is not exact in BFloat16 or
    // any Float8 format), then T's operator computes.
    ASSERT_TRUE(same_result(a + 257, a + T(257.0f)));
    ASSERT_TRUE(same_result(int64_t{-3} * a, T(-3.0f) * a));
    float f = 0.5f;
    f /= a;
    ASSERT_TRUE(same_result(f, 0.5f / fa));
  }
}

}  // namespace
