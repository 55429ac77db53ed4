#include <torch/headeronly/util/MathConstants.h>

#include <gtest/gtest.h>

#include <cmath>

namespace {

TEST(MathConstants, MatchTheLibraryValues) {
  EXPECT_DOUBLE_EQ(c10::pi<double>, std::acos(-1.0));
  EXPECT_DOUBLE_EQ(c10::e<double>, std::exp(1.0));
  EXPECT_DOUBLE_EQ(c10::ln_2<double>, std::log(2.0));
  EXPECT_DOUBLE_EQ(c10::ln_10<double>, std::log(10.0));
  EXPECT_DOUBLE_EQ(c10::log_2_e<double>, 1.0 / std::log(2.0));
  EXPECT_DOUBLE_EQ(c10::log_10_e<double>, 1.0 / std::log(10.0));
  EXPECT_DOUBLE_EQ(c10::sqrt_2<double>, std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(c10::sqrt_3<double>, std::sqrt(3.0));
  EXPECT_DOUBLE_EQ(c10::frac_sqrt_2<double>, 1.0 / std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(c10::frac_sqrt_3<double>, 1.0 / std::sqrt(3.0));
  EXPECT_DOUBLE_EQ(c10::frac_1_pi<double>, 1.0 / std::acos(-1.0));
  EXPECT_DOUBLE_EQ(c10::frac_1_sqrt_pi<double>, 1.0 / std::sqrt(std::acos(-1.0)));
  EXPECT_DOUBLE_EQ(c10::golden_ratio<double>, (1.0 + std::sqrt(5.0)) / 2.0);
  EXPECT_NEAR(c10::euler<double>, 0.5772156649015329, 1e-16);
  EXPECT_FLOAT_EQ(c10::pi<float>, static_cast<float>(std::acos(-1.0)));
}

TEST(MathConstants, ReducedTypesAreTheNearestValue) {
  constexpr torch::headeronly::Half h = c10::pi<torch::headeronly::Half>;
  constexpr torch::headeronly::BFloat16 b = c10::pi<torch::headeronly::BFloat16>;
  EXPECT_EQ(h.x, torch::headeronly::Half(3.14159265f).x);
  EXPECT_EQ(b.x, torch::headeronly::BFloat16(3.14159265f).x);
  EXPECT_FLOAT_EQ(static_cast<float>(h), 3.140625f);
}

}  // namespace
