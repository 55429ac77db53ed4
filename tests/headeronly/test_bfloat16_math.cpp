#include <torch/headeronly/util/BFloat16-math.h>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace {

namespace tho = torch::headeronly;
using tho::BFloat16;
using tho::Half;

TEST(BFloat16Math, Trait) {
  static_assert(c10::is_reduced_floating_point_v<Half>);
  static_assert(c10::is_reduced_floating_point_v<BFloat16>);
  static_assert(!c10::is_reduced_floating_point_v<float>);
}

TEST(BFloat16Math, ComputesInFloatAndRoundsOnce) {
  for (float x : {0.5f, 1.0f, 2.0f, 3.75f}) {
    EXPECT_EQ(std::exp(Half(x)).x, Half(std::exp(x)).x) << x;
    EXPECT_EQ(std::log(BFloat16(x)).x, BFloat16(std::log(x)).x) << x;
    EXPECT_EQ(std::sqrt(BFloat16(x)).x, BFloat16(std::sqrt(x)).x) << x;
    EXPECT_EQ(std::rsqrt(Half(x)).x, Half(1.0f / std::sqrt(x)).x) << x;
    EXPECT_EQ(std::tanh(Half(x)).x, Half(std::tanh(x)).x) << x;
  }
  EXPECT_EQ(static_cast<float>(std::pow(Half(3.0f), 2.0)), 9.0f);
  EXPECT_EQ(static_cast<float>(std::pow(BFloat16(2.0f), BFloat16(3.0f))), 8.0f);
  EXPECT_EQ(static_cast<float>(std::fmod(Half(7.0f), Half(4.0f))), 3.0f);
  EXPECT_EQ(static_cast<float>(std::abs(BFloat16(-2.5f))), 2.5f);
  EXPECT_EQ(static_cast<float>(std::floor(Half(-1.5f))), -2.0f);
  EXPECT_FALSE(std::isfinite(Half(std::numeric_limits<float>::infinity())));
  EXPECT_TRUE(std::isfinite(BFloat16(1.0f)));
}

TEST(BFloat16Math, NextAfterStepsOneUlp) {
  EXPECT_EQ(std::nextafter(BFloat16(1.0f), BFloat16(2.0f)).x, 0x3F81);
  EXPECT_EQ(std::nextafter(BFloat16(1.0f), BFloat16(0.0f)).x, 0x3F7F);
  EXPECT_EQ(std::nextafter(Half(1.0f), Half(2.0f)).x, 0x3C01);
  EXPECT_EQ(std::nextafter(Half(-1.0f), Half(-2.0f)).x, 0xBC01);
  EXPECT_EQ(std::nextafter(Half(-1.0f), Half(0.0f)).x, 0xBBFF);
  // From zero: the smallest subnormal toward the target.
  EXPECT_EQ(std::nextafter(Half(0.0f), Half(1.0f)).x, 0x0001);
  EXPECT_EQ(std::nextafter(Half(0.0f), Half(-1.0f)).x, 0x8001);
  EXPECT_EQ(std::nextafter(Half(2.0f), Half(2.0f)).x, Half(2.0f).x);
  EXPECT_TRUE(std::isnan(static_cast<float>(
      std::nextafter(BFloat16(std::numeric_limits<float>::quiet_NaN()), BFloat16(1.0f)))));
}

}  // namespace
