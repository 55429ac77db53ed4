#include <torch/headeronly/cpu/vec/vec_half.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

namespace {

namespace tho = torch::headeronly;

TEST(VecHalf, RoundTripsEveryHalf) {
  for (uint32_t bits = 0; bits < 0x10000u; ++bits) {
    const auto h = static_cast<uint16_t>(bits);
    const float f = at::vec::half2float_scalar(h);
    const float reference = static_cast<float>(tho::Half(h, tho::Half::from_bits()));
    if (std::isnan(reference)) {
      EXPECT_TRUE(std::isnan(f)) << bits;
    } else {
      EXPECT_EQ(f, reference) << bits;
      EXPECT_EQ(at::vec::float2half_scalar(f), h) << bits;
    }
  }
}

TEST(VecHalf, RoundsToNearestEven) {
  EXPECT_EQ(at::vec::float2half_scalar(1.0f), 0x3C00);
  EXPECT_EQ(at::vec::float2half_scalar(65520.0f), 0x7C00);               // rounds up to inf
  EXPECT_EQ(at::vec::float2half_scalar(1.0f + 1.0f / 2048.0f), 0x3C00);  // tie -> even
  EXPECT_EQ(at::vec::float2half_scalar(1.0f + 3.0f / 2048.0f), 0x3C02);
}

}  // namespace
