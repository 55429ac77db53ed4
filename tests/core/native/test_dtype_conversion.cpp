// Conversions between dtypes: to_dtype and copy_into.
#include <gtest/gtest.h>

#include <st/native/dtype_conversion.h>
#include <st/native/scalar_tensor.h>
#include <st/native/view_ops.h>

#include "native/test_helpers.h"

namespace {

using namespace st_native_test;

TEST(NativeDtypeConversion, ToDtypeConvertsAndKeepsTheLayout) {
  Tensor f = make({1.5, -2.5, 3.75, 4, 5, 6}, {2, 3});
  Tensor same = st::native::to_dtype(f, ScalarType::Float);
  EXPECT_EQ(same.data_ptr(), f.data_ptr());  // no copy when the dtype matches
  Tensor l = st::native::to_dtype(st::t(f), ScalarType::Long);
  EXPECT_EQ(l.dtype(), ScalarType::Long);
  EXPECT_EQ(std::vector<int64_t>(l.strides().begin(), l.strides().end()),
            (std::vector<int64_t>{1, 3}));
  expect_close(values(l), {1, 4, -2, 5, 3, 6});
  // A wrapped number stays one, so type promotion still treats it as such.
  Tensor w =
      st::native::to_dtype(st::native::wrapped_scalar_tensor(Scalar(2.5)), ScalarType::Float);
  EXPECT_TRUE(w.unsafeGetTensorImpl()->is_wrapped_number());
}

TEST(NativeDtypeConversion, CopyIntoBroadcastsAndConverts) {
  Tensor dst = st::empty({2, 3}, ScalarType::Int);
  st::native::copy_into(dst, make({1.9, -2.9, 3}, {3}, ScalarType::Double));
  expect_close(values(dst), {1, -2, 3, 1, -2, 3});
  // 8-bit floats go through float.
  Tensor f8 = st::empty({3}, ScalarType::Float8_e4m3fn);
  st::native::copy_into(f8, make({0.5, 2, -4}, {3}));
  Tensor back = st::empty({3}, ScalarType::Double);
  st::native::copy_into(back, f8);
  expect_close(values(back), {0.5, 2, -4});
}

TEST(NativeDtypeConversion, CastToStridedWritesEveryStep) {
  EXPECT_EQ(st::native::cast_to_strided(ScalarType::Float, ScalarType::Float), nullptr);
  EXPECT_EQ(st::native::cast_to_strided(ScalarType::Float, ScalarType::Float8_e4m3fn), nullptr);
  const auto cast = st::native::cast_to_strided(ScalarType::Bool, ScalarType::Double);
  ASSERT_NE(cast, nullptr);
  const bool src[3] = {true, false, true};
  double dst[6] = {7, 7, 7, 7, 7, 7};
  cast(reinterpret_cast<const char*>(src), reinterpret_cast<char*>(dst), 2 * sizeof(double), 3);
  EXPECT_EQ(std::vector<double>(dst, dst + 6), (std::vector<double>{1, 7, 0, 7, 1, 7}));
}

}  // namespace
