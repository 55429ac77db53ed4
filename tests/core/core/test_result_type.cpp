#include <gtest/gtest.h>

#include <complex>
#include <vector>

#include <st/core/result_type.h>

#include "tensor_test_util.h"

namespace {

using st::Scalar;
using st::ScalarType;
using st::Tensor;

Tensor dim1(ScalarType t) { return st::detail::empty_generic({1}, t, st::Device("cpu")); }
Tensor zero_dim(ScalarType t) { return st::detail::empty_generic({}, t, st::Device("cpu")); }
Tensor wrapped(ScalarType t) {
  Tensor z = zero_dim(t);
  z.unsafeGetTensorImpl()->set_wrapped_number(true);
  return z;
}

// The examples of PyTorch's type promotion documentation.
TEST(ResultType, DocumentedExamples) {
  EXPECT_EQ(st::result_type(Scalar(5), Scalar(5)), ScalarType::Long);
  EXPECT_EQ(st::result_type(dim1(ScalarType::Int), Scalar(5)), ScalarType::Int);
  EXPECT_EQ(st::result_type(dim1(ScalarType::Int), zero_dim(ScalarType::Long)), ScalarType::Int);
  EXPECT_EQ(st::result_type(dim1(ScalarType::Long), dim1(ScalarType::Int)), ScalarType::Long);
  EXPECT_EQ(st::result_type(dim1(ScalarType::Bool), dim1(ScalarType::Long)), ScalarType::Long);
  EXPECT_EQ(st::result_type(dim1(ScalarType::Bool), dim1(ScalarType::Byte)), ScalarType::Byte);
  EXPECT_EQ(st::result_type(dim1(ScalarType::Float), dim1(ScalarType::Double)), ScalarType::Double);
  EXPECT_EQ(st::result_type(dim1(ScalarType::ComplexFloat), dim1(ScalarType::ComplexDouble)),
            ScalarType::ComplexDouble);
  EXPECT_EQ(st::result_type(dim1(ScalarType::Long), dim1(ScalarType::Float)), ScalarType::Float);
  EXPECT_EQ(st::result_type(dim1(ScalarType::Int), Scalar(1.0)), ScalarType::Float);
  EXPECT_EQ(st::result_type(dim1(ScalarType::Byte), zero_dim(ScalarType::Long)), ScalarType::Byte);
}

TEST(ResultType, CategoryRules) {
  // A zero-dim tensor of a higher category wins with its own dtype.
  EXPECT_EQ(st::result_type(dim1(ScalarType::Int), zero_dim(ScalarType::Double)),
            ScalarType::Double);
  // Same category: the dimensioned tensor decides.
  EXPECT_EQ(st::result_type(dim1(ScalarType::Float), zero_dim(ScalarType::Double)),
            ScalarType::Float);
  EXPECT_EQ(st::result_type(dim1(ScalarType::Half), Scalar(2.5)), ScalarType::Half);
  // Complex scalar keeps the float precision of the tensor.
  EXPECT_EQ(st::result_type(dim1(ScalarType::Double), Scalar(std::complex<double>(1, 1))),
            ScalarType::ComplexDouble);
  EXPECT_EQ(st::result_type(dim1(ScalarType::Half), Scalar(std::complex<double>(1, 1))),
            ScalarType::ComplexHalf);
  EXPECT_EQ(st::result_type(dim1(ScalarType::Int), Scalar(std::complex<double>(1, 1))),
            ScalarType::ComplexFloat);
  // Bool tensors take the scalar's category.
  EXPECT_EQ(st::result_type(dim1(ScalarType::Bool), Scalar(3)), ScalarType::Long);
  EXPECT_EQ(st::result_type(Scalar(1), Scalar(2.0)), ScalarType::Float);
  EXPECT_EQ(st::result_type(Scalar(true), Scalar(false)), ScalarType::Bool);
  // Wrapped-number tensors behave like Scalars.
  EXPECT_EQ(st::result_type(dim1(ScalarType::Int), wrapped(ScalarType::Double)), ScalarType::Float);
  EXPECT_EQ(st::result_type(Scalar(2.0), dim1(ScalarType::Long)), ScalarType::Float);
  // Zero-dim tensors among themselves promote normally.
  EXPECT_EQ(st::result_type(zero_dim(ScalarType::Int), zero_dim(ScalarType::Long)),
            ScalarType::Long);
}

TEST(ResultType, ListsAndUndefined) {
  std::vector<Tensor> ts = {dim1(ScalarType::Byte), Tensor(), zero_dim(ScalarType::Double),
                            dim1(ScalarType::Char)};
  EXPECT_EQ(st::result_type(st::ArrayRef<Tensor>(ts)), ScalarType::Double);
  std::vector<Tensor> ints = {dim1(ScalarType::Byte), dim1(ScalarType::Char)};
  EXPECT_EQ(st::result_type(st::ArrayRef<Tensor>(ints)), ScalarType::Short);
  EXPECT_NE(st::testing::error_of([] {
              st::result_type(dim1(ScalarType::QInt8), dim1(ScalarType::Float));
            }).find("result_type:"),
            std::string::npos);
  EXPECT_NE(st::testing::error_of([] {
              zero_dim(ScalarType::Float);
              dim1(ScalarType::Float).unsafeGetTensorImpl()->set_wrapped_number(true);
            }).find("only a 0-dim tensor"),
            std::string::npos);
}

}  // namespace
