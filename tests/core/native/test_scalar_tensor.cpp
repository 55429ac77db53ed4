// Scalars as 0-dim tensors.
#include <gtest/gtest.h>

#include <st/native/scalar_tensor.h>

#include "native/test_helpers.h"

namespace {

using namespace st_native_test;

TEST(NativeScalarTensor, WrappedScalarKeepsItsOwnDtypeAndIsMarked) {
  Tensor i = st::native::wrapped_scalar_tensor(Scalar(int64_t{7}));
  EXPECT_EQ(i.dtype(), ScalarType::Long);
  EXPECT_EQ(i.dim(), 0);
  EXPECT_TRUE(i.unsafeGetTensorImpl()->is_wrapped_number());
  expect_close(values(i), {7});
  EXPECT_EQ(st::native::wrapped_scalar_tensor(Scalar(true)).dtype(), ScalarType::Bool);
  EXPECT_EQ(st::native::wrapped_scalar_tensor(Scalar(0.5)).dtype(), ScalarType::Double);
}

TEST(NativeScalarTensor, ScalarToTensorConvertsWithoutWrapping) {
  Tensor h = st::native::scalar_to_tensor(Scalar(2.75), ScalarType::Int);
  EXPECT_EQ(h.dtype(), ScalarType::Int);
  EXPECT_FALSE(h.unsafeGetTensorImpl()->is_wrapped_number());
  expect_close(values(h), {2});
}

}  // namespace
