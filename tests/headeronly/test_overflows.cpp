#include <torch/headeronly/util/overflows.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace {

namespace tho = torch::headeronly;

TEST(Overflows, Integers) {
  EXPECT_FALSE(c10::overflows<int8_t>(127));
  EXPECT_TRUE(c10::overflows<int8_t>(128));
  EXPECT_TRUE(c10::overflows<int8_t>(-129));
  EXPECT_FALSE(c10::overflows<int64_t>(std::numeric_limits<int32_t>::min()));
  EXPECT_FALSE(c10::overflows<uint8_t>(true));
  // Integers always fit a floating range.
  EXPECT_FALSE(c10::overflows<float>(5));
  EXPECT_FALSE(c10::overflows<float>(std::numeric_limits<int64_t>::min()));
  EXPECT_FALSE(c10::overflows<double>(std::numeric_limits<uint64_t>::max()));
  EXPECT_FALSE(c10::overflows<torch::headeronly::complex<float>>(-7));
}

TEST(Overflows, SignedIntoUnsignedWraps) {
  // -1 reads as 255; -256 has no 8-bit two's complement form.
  EXPECT_FALSE(c10::overflows<uint8_t>(-1));
  EXPECT_FALSE(c10::overflows<uint8_t>(-255));
  EXPECT_TRUE(c10::overflows<uint8_t>(-256));
  EXPECT_TRUE(c10::overflows<uint8_t>(256));
  EXPECT_TRUE(c10::overflows<uint8_t>(-1, /*strict_unsigned=*/true));
}

TEST(Overflows, Floating) {
  EXPECT_FALSE(c10::overflows<float>(1e30));
  EXPECT_TRUE(c10::overflows<float>(1e300));
  EXPECT_FALSE(c10::overflows<float>(std::numeric_limits<double>::infinity()));
  EXPECT_FALSE(c10::overflows<float>(std::numeric_limits<double>::quiet_NaN()));
  EXPECT_TRUE(c10::overflows<int32_t>(std::numeric_limits<double>::quiet_NaN()));
  EXPECT_TRUE(c10::overflows<int32_t>(2147483648.0));
  EXPECT_FALSE(c10::overflows<int32_t>(2147483647.0));
  EXPECT_FALSE(c10::overflows<int32_t>(-2147483648.0));
  EXPECT_TRUE(c10::overflows<int32_t>(-2147483649.0));
}

TEST(Overflows, Complex) {
  EXPECT_TRUE(c10::overflows<double>(tho::complex<double>(1.0, 2.0)));
  EXPECT_FALSE(c10::overflows<double>(tho::complex<double>(1.0, 0.0)));
  EXPECT_FALSE((c10::overflows<tho::complex<float>>(tho::complex<double>(1.0, 2.0))));
  EXPECT_TRUE((c10::overflows<tho::complex<float>>(tho::complex<double>(1.0, 1e300))));
}

}  // namespace
