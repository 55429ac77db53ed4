// Layouts of created tensors: the fastest-first dim order, dense strides in
// an order, empty_like(Preserve).
#include <gtest/gtest.h>

#include <st/native/dense_layout.h>
#include <st/native/view_ops.h>

#include "native/test_helpers.h"

namespace {

using namespace st_native_test;

std::vector<int64_t> vec(IntArrayRef a) { return std::vector<int64_t>(a.begin(), a.end()); }

// The strides argument holds one row of the shape's dims per operand.
std::vector<int64_t> order(std::vector<int64_t> shape, std::vector<int64_t> strides) {
  return vec(st::native::fastest_first_dim_order(shape, strides));
}

TEST(NativeDenseLayout, OrderFollowsTheStridesAndKeepsTies) {
  // Row-major operand: last dim fastest.
  EXPECT_EQ(order({2, 3, 4}, {12, 4, 1}), (std::vector<int64_t>{2, 1, 0}));
  // Column-major operand: first dim fastest.
  EXPECT_EQ(order({2, 3, 4}, {1, 2, 6}), (std::vector<int64_t>{0, 1, 2}));
  // Broadcast (stride 0) dims do not vote: the original order stays.
  EXPECT_EQ(order({2, 3}, {0, 0}), (std::vector<int64_t>{1, 0}));
  // An operand broadcast in one of the two dims leaves the pair to the next.
  EXPECT_EQ(order({2, 3}, {0, 1, 1, 2}), (std::vector<int64_t>{0, 1}));
  // No operand, or no dims.
  EXPECT_EQ(order({2, 3}, {}), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(order({}, {}), (std::vector<int64_t>{}));
}

TEST(NativeDenseLayout, DenseStridesInOrder) {
  EXPECT_EQ(vec(st::native::dense_strides_in_order({2, 3, 4}, {2, 1, 0})),
            (std::vector<int64_t>{12, 4, 1}));
  EXPECT_EQ(vec(st::native::dense_strides_in_order({2, 3, 4}, {0, 1, 2})),
            (std::vector<int64_t>{1, 2, 6}));
  // A zero-size dim counts as one, so the strides stay distinct.
  EXPECT_EQ(vec(st::native::dense_strides_in_order({2, 0, 4}, {2, 1, 0})),
            (std::vector<int64_t>{4, 4, 1}));
  EXPECT_EQ(vec(st::native::permuted_dense_strides({3, 4}, {1, 3})), (std::vector<int64_t>{1, 3}));
}

// empty_like(Preserve): a tensor with gaps gets dense strides in its order.
TEST(NativeDenseLayout, EmptyPreservingFillsGapsInTheSameOrder) {
  Tensor base = st::zeros({4, 6});
  Tensor gappy = st::t(st::narrow(base, 1, 0, 3));  // [3, 4], strides [1, 6]
  Tensor e = st::native::empty_preserving(gappy, ScalarType::Float);
  EXPECT_EQ(std::vector<int64_t>(e.strides().begin(), e.strides().end()),
            (std::vector<int64_t>{1, 3}));
}

TEST(NativeDenseLayout, EmptyPreservingKeepsDenseStrides) {
  Tensor tr = st::t(st::zeros({3, 2}));  // [2, 3], strides [1, 2]
  Tensor e = st::native::empty_preserving(tr, ScalarType::Double);
  EXPECT_EQ(e.dtype(), ScalarType::Double);
  EXPECT_EQ(vec(e.sizes()), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(vec(e.strides()), (std::vector<int64_t>{1, 2}));
  Tensor c = st::native::empty_preserving(st::zeros({2, 3}), ScalarType::Int);
  EXPECT_EQ(vec(c.strides()), (std::vector<int64_t>{3, 1}));
}

}  // namespace
