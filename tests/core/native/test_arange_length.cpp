// arange's length: exact in integers near the int64 limits, refused (never
// cast) when it does not fit.
#include <gtest/gtest.h>

#include <cmath>

#include <st/native/arange_length.h>

#include "native/test_helpers.h"

namespace {

using namespace st_native_test;
using st::native::arange_length;

TEST(NativeArangeLength, IntegralRangesAreExact) {
  EXPECT_EQ(arange_length(0, 5, 1, ScalarType::Long), 5);
  EXPECT_EQ(arange_length(5, 0, -2, ScalarType::Long), 3);
  EXPECT_EQ(arange_length(0, 0, 3, ScalarType::Int), 0);
  EXPECT_EQ(arange_length(0, INT64_MAX, 1, ScalarType::Long), INT64_MAX);
  // 2^53 + 1 is not a double: the integral path does not round it.
  EXPECT_EQ(arange_length(0, (int64_t{1} << 53) + 1, 1, ScalarType::Long), (int64_t{1} << 53) + 1);
  // Spans wider than int64 are fine while the length fits.
  EXPECT_EQ(arange_length(INT64_MIN + 1, INT64_MAX, 2, ScalarType::Long), INT64_MAX);
  EXPECT_EQ(arange_length(INT64_MAX, INT64_MIN, INT64_MIN, ScalarType::Long), 2);
  EXPECT_EQ(arange_length(INT64_MIN, INT64_MAX, INT64_MAX, ScalarType::Long), 3);
  // Bounds that are equal as doubles but not as integers.
  EXPECT_NATIVE_ERROR(arange_length(INT64_MAX, INT64_MAX - 1, 1, ScalarType::Long),
                      "upper bound and larger bound inconsistent with step sign");
}

TEST(NativeArangeLength, LengthsPastInt64AreRefused) {
  EXPECT_NATIVE_ERROR(arange_length(INT64_MIN, INT64_MAX, 1, ScalarType::Long),
                      "(18446744073709551615) does not fit int64");
  EXPECT_NATIVE_ERROR(arange_length(INT64_MAX, INT64_MIN, -1, ScalarType::Long),
                      "does not fit int64");
  EXPECT_NATIVE_ERROR(arange_length(INT64_MIN, INT64_MAX, 2, ScalarType::Long),
                      "(9223372036854775808) does not fit int64");
  // Integral bounds with a floating dtype take the double path: INT64_MAX
  // rounds to 2^63, which must not be converted to int64.
  EXPECT_NATIVE_ERROR(arange_length(0, INT64_MAX, 1, ScalarType::Float), "does not fit int64");
  EXPECT_NATIVE_ERROR(arange_length(0.0, 9223372036854775808.0, 1.0, ScalarType::Double),
                      "does not fit int64");
  EXPECT_NATIVE_ERROR(arange_length(-1e308, 1e308, 1e-308, ScalarType::Double),
                      "does not fit int64");
  // Just below 2^63 is a length; whether it can be allocated is resize's call.
  EXPECT_EQ(arange_length(0.0, 9223372036854774784.0, 1.0, ScalarType::Double),
            INT64_C(9223372036854774784));
}

TEST(NativeArangeLength, BadRangesAreRefused) {
  EXPECT_NATIVE_ERROR(arange_length(0, 5, 0, ScalarType::Long), "step must be nonzero");
  EXPECT_NATIVE_ERROR(arange_length(0.0, 5.0, 0.0, ScalarType::Float), "step must be nonzero");
  EXPECT_NATIVE_ERROR(arange_length(0, 5, -1, ScalarType::Long),
                      "upper bound and larger bound inconsistent with step sign");
  EXPECT_NATIVE_ERROR(arange_length(0.0, INFINITY, 1.0, ScalarType::Float), "unsupported range");
  EXPECT_NATIVE_ERROR(arange_length(NAN, 1.0, 1.0, ScalarType::Float), "unsupported range");
}

}  // namespace
