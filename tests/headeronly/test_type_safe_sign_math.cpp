#include <torch/headeronly/util/TypeSafeSignMath.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace {

TEST(TypeSafeSignMath, IsNegative) {
  static_assert(c10::is_negative(-1));
  static_assert(!c10::is_negative(0));
  static_assert(!c10::is_negative(3u));
  static_assert(c10::is_negative(-0.5));
}

TEST(TypeSafeSignMath, Signum) {
  static_assert(c10::signum(-7) == -1);
  static_assert(c10::signum(0) == 0);
  static_assert(c10::signum(9) == 1);
  static_assert(c10::signum(0u) == 0);
  static_assert(c10::signum(4u) == 1);
}

TEST(TypeSafeSignMath, SignsDiffer) {
  static_assert(c10::signs_differ(-1, 1u));
  static_assert(!c10::signs_differ(2, 3u));
  static_assert(!c10::signs_differ(-1, -2));
}

TEST(TypeSafeSignMath, Limits) {
  static_assert(c10::greater_than_max<int8_t>(128));
  static_assert(!c10::greater_than_max<int8_t>(127));
  static_assert(!c10::greater_than_max<int64_t>(int8_t{100}));
  static_assert(c10::less_than_lowest<uint8_t>(-1));
  static_assert(!c10::less_than_lowest<uint8_t>(0));
  static_assert(c10::less_than_lowest<int8_t>(-129));
  static_assert(!c10::less_than_lowest<int8_t>(-128));
  static_assert(!c10::less_than_lowest<int8_t>(5u));
  EXPECT_TRUE(c10::greater_than_max<uint8_t>(256.0));
  EXPECT_FALSE(c10::greater_than_max<float>(std::numeric_limits<int64_t>::max()));
  EXPECT_FALSE(c10::less_than_lowest<float>(std::numeric_limits<int64_t>::min()));
}

}  // namespace
