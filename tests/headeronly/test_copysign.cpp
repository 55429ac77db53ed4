#include <torch/headeronly/util/copysign.h>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace {

namespace tho = torch::headeronly;

TEST(Copysign, Builtin) {
  EXPECT_EQ(c10::copysign(2.0, -1.0), -2.0);
  EXPECT_EQ(c10::copysign(-3.0f, 0.0f), 3.0f);
}

TEST(Copysign, ReducedTypesOnBits) {
  EXPECT_EQ(static_cast<float>(c10::copysign(tho::Half(1.5f), tho::Half(-0.0f))), -1.5f);
  EXPECT_EQ(static_cast<float>(c10::copysign(tho::BFloat16(-4.0f), tho::BFloat16(2.0f))), 4.0f);
  const tho::Half nz = c10::copysign(tho::Half(0.0f), tho::Half(-1.0f));
  EXPECT_EQ(nz.x, 0x8000);
  const tho::BFloat16 nan =
      c10::copysign(tho::BFloat16(std::numeric_limits<float>::quiet_NaN()), tho::BFloat16(-1.0f));
  EXPECT_TRUE(std::isnan(static_cast<float>(nan)));
  EXPECT_TRUE(std::signbit(static_cast<float>(nan)));
}

}  // namespace
