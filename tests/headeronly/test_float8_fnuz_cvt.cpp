#include <torch/headeronly/util/Float8_e4m3fnuz.h>
#include <torch/headeronly/util/Float8_e5m2fnuz.h>
#include <torch/headeronly/util/Float8_fnuz_cvt.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

namespace {

namespace tho = torch::headeronly;

TEST(Float8FnuzCvt, AgreesWithTheTypesOnEveryByte) {
  for (int b = 0; b < 256; ++b) {
    const auto bits = static_cast<uint8_t>(b);
    const float e4m3 = c10::detail::fp8_fnuz_to_fp32_value<4, 3>(bits);
    const float e5m2 = c10::detail::fp8_fnuz_to_fp32_value<5, 2>(bits);
    const float ref4 =
        static_cast<float>(tho::Float8_e4m3fnuz(bits, tho::Float8_e4m3fnuz::from_bits()));
    const float ref5 =
        static_cast<float>(tho::Float8_e5m2fnuz(bits, tho::Float8_e5m2fnuz::from_bits()));
    if (bits == 0x80) {
      EXPECT_TRUE(std::isnan(e4m3));
      EXPECT_TRUE(std::isnan(e5m2));
      continue;
    }
    EXPECT_EQ(e4m3, ref4) << "byte " << b;
    EXPECT_EQ(e5m2, ref5) << "byte " << b;
  }
}

TEST(Float8FnuzCvt, KnownValues) {
  // Bias 8 (E4M3) and 16 (E5M2): 0x40 is 2^0 = 1 in both.
  EXPECT_EQ((c10::detail::fp8_fnuz_to_fp32_value<4, 3>(0x40)), 1.0f);
  EXPECT_EQ((c10::detail::fp8_fnuz_to_fp32_value<5, 2>(0x40)), 1.0f);
  EXPECT_EQ((c10::detail::fp8_fnuz_to_fp32_value<5, 2>(0x44)), 2.0f);
  EXPECT_EQ((c10::detail::fp8_fnuz_to_fp32_value<4, 3>(0xC8)), -2.0f);
  EXPECT_EQ((c10::detail::fp8_fnuz_to_fp32_value<4, 3>(0x00)), 0.0f);
  EXPECT_EQ((c10::detail::fp8_fnuz_to_fp32_value<4, 3>(0x01)), std::ldexp(1.0f, -10));
}

}  // namespace
