#include <torch/headeronly/util/NumericUtils.h>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace {

namespace tho = torch::headeronly;

TEST(NumericUtils, Integers) {
  EXPECT_FALSE(c10::_isnan(3));
  EXPECT_FALSE(c10::_isinf(int64_t{-1}));
}

TEST(NumericUtils, Floating) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(c10::_isnan(nan));
  EXPECT_FALSE(c10::_isnan(1.0));
  EXPECT_TRUE(c10::_isinf(-inf));
  EXPECT_FALSE(c10::_isinf(1.0f));
}

TEST(NumericUtils, Complex) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(c10::_isnan(tho::complex<float>(0.0f, nan)));
  EXPECT_TRUE(c10::_isnan(tho::complex<double>(std::nan(""), 0.0)));
  EXPECT_FALSE(c10::_isnan(tho::complex<float>(1.0f, 2.0f)));
}

TEST(NumericUtils, ReducedTypes) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(c10::_isnan(tho::Half(nan)));
  EXPECT_FALSE(c10::_isnan(tho::Half(inf)));
  EXPECT_TRUE(c10::_isinf(tho::Half(-inf)));
  EXPECT_FALSE(c10::_isinf(tho::Half(65504.0f)));
  EXPECT_TRUE(c10::_isnan(tho::BFloat16(nan)));
  EXPECT_TRUE(c10::_isinf(tho::BFloat16(inf)));
  EXPECT_FALSE(c10::_isinf(tho::BFloat16(1.0f)));
  EXPECT_TRUE(c10::_isnan(tho::Float8_e5m2(nan)));
  EXPECT_TRUE(c10::_isinf(tho::Float8_e5m2(inf)));
  EXPECT_TRUE(c10::_isnan(tho::Float8_e4m3fn(nan)));
  // Formats without infinities: a float infinity saturates or becomes NaN,
  // never an infinity.
  EXPECT_FALSE(c10::_isinf(tho::Float8_e4m3fn(inf)));
  EXPECT_FALSE(c10::_isinf(tho::Float8_e5m2fnuz(inf)));
  EXPECT_FALSE(c10::_isinf(tho::Float8_e4m3fnuz(inf)));
  EXPECT_TRUE(c10::_isnan(tho::Float8_e4m3fnuz(nan)));
  EXPECT_FALSE(tho::Float8_e4m3fn(1.0f).isinf());
}

}  // namespace
