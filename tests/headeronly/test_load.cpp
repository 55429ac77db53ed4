#include <torch/headeronly/util/Load.h>

#include <gtest/gtest.h>

#include <cstdint>

namespace {

TEST(Load, ReadsValues) {
  const int32_t v = -12345;
  EXPECT_EQ(c10::load(&v), -12345);
  const double d = 2.5;
  EXPECT_EQ(c10::load<double>(static_cast<const void*>(&d)), 2.5);
}

TEST(Load, AnyNonZeroByteIsTrue) {
  // A raw buffer may hold any byte where a bool is expected.
  const unsigned char bytes[] = {0, 1, 2, 255};
  EXPECT_FALSE(c10::load<bool>(&bytes[0]));
  EXPECT_TRUE(c10::load<bool>(&bytes[1]));
  EXPECT_TRUE(c10::load<bool>(&bytes[2]));
  EXPECT_TRUE(c10::load<bool>(&bytes[3]));
}

}  // namespace
