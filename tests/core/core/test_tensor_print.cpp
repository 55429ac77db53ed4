#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include <st/core/tensor_print.h>
#include <st/native/view_ops.h>

#include "tensor_test_util.h"

namespace {

using st::ScalarType;
using st::Tensor;
using st::testing::arange_float;
using st::testing::from_values;

std::string str(const Tensor& t) {
  std::ostringstream os;
  os << t;
  return os.str();
}

TEST(TensorPrint, FloatMatrix) {
  EXPECT_EQ(str(from_values<float>({1, 2, 3, 4}, {2, 2})), "tensor([[1., 2.],\n        [3., 4.]])");
  EXPECT_EQ(str(from_values<float>({0.5f, -1.25f}, {2})), "tensor([ 0.5000, -1.2500])");
  EXPECT_EQ(str(from_values<double>({1.5}, {})), "tensor(1.5000, dtype=stabletorch.float64)");
  EXPECT_EQ(str(from_values<float>({1e-5f, 1.0f}, {2})), "tensor([1.0000e-05, 1.0000e+00])");
  EXPECT_EQ(str(from_values<float>({NAN, INFINITY, 1}, {3})), "tensor([nan, inf,  1.])");
}

TEST(TensorPrint, IntegersAndBool) {
  EXPECT_EQ(str(from_values<int64_t>({1, -20, 3}, {3})), "tensor([  1, -20,   3])");
  EXPECT_EQ(str(from_values<int32_t>({1, 2}, {2})), "tensor([1, 2], dtype=stabletorch.int32)");
  EXPECT_EQ(str(from_values<bool>({true, false}, {2})), "tensor([ True, False])");
  EXPECT_EQ(str(from_values<uint8_t>({255, 0}, {2})),
            "tensor([255,   0], dtype=stabletorch.uint8)");
}

TEST(TensorPrint, ThreeDimsAndStrided) {
  Tensor a = arange_float({2, 2, 2});
  EXPECT_EQ(str(a),
            "tensor([[[0., 1.],\n         [2., 3.]],\n\n        [[4., 5.],\n"
            "         [6., 7.]]])");
  Tensor t = st::native::t(arange_float({2, 3}));
  EXPECT_EQ(str(t), "tensor([[0., 3.],\n        [1., 4.],\n        [2., 5.]])");
}

TEST(TensorPrint, EmptyUndefinedSummarised) {
  EXPECT_EQ(str(Tensor()), "[ Tensor (undefined) ]");
  EXPECT_EQ(str(arange_float({0})), "tensor([])");
  EXPECT_EQ(str(arange_float({2, 0})), "tensor([], size=(2, 0))");
  EXPECT_EQ(str(arange_float({2000})),
            "tensor([0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 1.9970e+03, "
            "1.9980e+03,\n        1.9990e+03])");
  EXPECT_EQ(str(st::native::view(arange_float({1200}), {400, 3})).substr(0, 59),
            "tensor([[0.0000e+00, 1.0000e+00, 2.0000e+00],\n        [3.00");
  const std::string big = str(arange_float({100, 100}));
  EXPECT_NE(big.find("...,"), std::string::npos);
  EXPECT_LT(big.size(), 600u);
}

TEST(TensorPrint, Complex) {
  Tensor c = from_values<float>({1, 2, 3, -4}, {2, 2});
  Tensor z = st::native::view(c, ScalarType::ComplexFloat);
  EXPECT_EQ(str(z), "tensor([[1.+2.j],\n        [3.-4.j]])");
}

TEST(TensorPrint, LongRowsWrap) {
  const std::string s = str(arange_float({30}));
  EXPECT_EQ(s,
            "tensor([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11., "
            "12., 13.,\n        14., 15., 16., 17., 18., 19., 20., 21., 22., "
            "23., 24., 25., 26., 27.,\n        28., 29.])");
}

}  // namespace
