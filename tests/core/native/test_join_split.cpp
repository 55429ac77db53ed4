// cat, stack, split.Tensor, chunk.
#include <gtest/gtest.h>

#include "native/random_tensors.h"

namespace {

using namespace st_native_test;

TEST(NativeJoinSplit, CatHandComputed) {
  Tensor a = make({1, 2, 3, 4}, {2, 2});
  Tensor b = make({5, 6}, {1, 2});
  expect_close(values(st::cat({a, b})), {1, 2, 3, 4, 5, 6});
  EXPECT_EQ(shape(st::cat({a, b})), (std::vector<int64_t>{3, 2}));
  Tensor c = make({7, 8}, {2, 1});
  expect_close(values(st::cat({a, c}, 1)), {1, 2, 7, 3, 4, 8});
  expect_close(values(st::cat({a, c}, -1)), {1, 2, 7, 3, 4, 8});
  // type promotion, the legacy skipped [0] tensor, non-contiguous inputs
  Tensor r =
      st::cat({make1({1}, ScalarType::Int), make1({2.5}, ScalarType::Double), st::empty({0})});
  EXPECT_EQ(r.dtype(), ScalarType::Double);
  expect_close(values(r), {1, 2.5});
  expect_close(values(st::cat({st::t(a), st::empty({0}), a})), {1, 3, 2, 4, 1, 2, 3, 4});
  expect_close(values(st::cat({st::empty({0}), st::empty({0})})), {});
  Tensor out = st::empty({0}, ScalarType::Double);
  st::cat_out(out, {a, b});
  expect_close(values(out), {1, 2, 3, 4, 5, 6});
  EXPECT_NATIVE_ERROR(st::cat({a, make1({1, 2, 3})}),
                      "Tensors must have same number of dimensions: got 2 and 1");
  EXPECT_NATIVE_ERROR(st::cat({a, make({1, 2, 3}, {1, 3})}),
                      "Sizes of tensors must match except in dimension 0. Expected size 2 but got "
                      "size 3 for tensor number 1 in the list.");
  // No tensor, no backend (Note [Calls without tensor arguments]).
  EXPECT_NATIVE_ERROR(st::cat(std::vector<Tensor>{}), "aten::cat: There were no tensor arguments");
  EXPECT_NATIVE_ERROR(st::cat({st::ones({})}),
                      "zero-dimensional tensor (at position 0) cannot be concatenated");
  EXPECT_NATIVE_ERROR(st::cat({a}, 2), "Dimension out of range");
  Tensor lo = st::empty({0}, ScalarType::Long);
  EXPECT_NATIVE_ERROR(st::cat_out(lo, {a, b}),
                      "torch.cat(): input types can't be cast to the desired output type Long");
  EXPECT_NATIVE_ERROR(st::cat_out(a, {a, b}), "cannot refer to any of the output memory locations");
}

TEST(NativeJoinSplit, CatRandomAgainstNarrow) {
  std::mt19937 g(3);
  for (int trial = 0; trial < 60; ++trial) {
    const int64_t nd = std::uniform_int_distribution<int64_t>(1, 4)(g);
    std::vector<int64_t> base(static_cast<size_t>(nd));
    for (auto& s : base) s = std::uniform_int_distribution<int64_t>(0, 3)(g);
    const int64_t dim = std::uniform_int_distribution<int64_t>(0, nd - 1)(g);
    const ScalarType dt =
        trial % 3 == 0 ? ScalarType::Half : (trial % 3 == 1 ? ScalarType::Long : ScalarType::Float);
    std::vector<Tensor> parts;
    const int count = std::uniform_int_distribution<int>(1, 4)(g);
    for (int i = 0; i < count; ++i) {
      std::vector<int64_t> s(base);
      s[static_cast<size_t>(dim)] = std::uniform_int_distribution<int64_t>(0, 3)(g);
      parts.push_back(relayout(random_ints(g, s, dt), trial % 3));
    }
    Tensor r = st::cat(parts, dim);
    int64_t off = 0;
    for (const Tensor& p : parts) {
      const int64_t n = p.size(dim);
      expect_close(values(st::narrow(r, dim, off, n)), values(p), 0);
      off += n;
    }
    EXPECT_EQ(off, r.size(dim));
  }
}

TEST(NativeJoinSplit, Stack) {
  Tensor a = make1({1, 2}), b = make1({3, 4});
  expect_close(values(st::stack({a, b})), {1, 2, 3, 4});
  EXPECT_EQ(shape(st::stack({a, b})), (std::vector<int64_t>{2, 2}));
  expect_close(values(st::stack({a, b}, 1)), {1, 3, 2, 4});
  expect_close(values(st::stack({a, b}, -1)), {1, 3, 2, 4});
  EXPECT_EQ(shape(st::stack({st::ones({}), st::ones({})})), (std::vector<int64_t>{2}));
  Tensor out = st::empty({0});
  st::stack_out(out, {a, b}, 1);
  expect_close(values(out), {1, 3, 2, 4});
  EXPECT_NATIVE_ERROR(
      st::stack({a, make1({1, 2, 3})}),
      "stack expects each tensor to be equal size, but got [2] at entry 0 and [3] at entry 1");
  EXPECT_NATIVE_ERROR(st::stack(std::vector<Tensor>{}), "stack expects a non-empty TensorList");
  EXPECT_NATIVE_ERROR(st::stack({a, b}, 2), "Dimension out of range");
}

TEST(NativeJoinSplit, SplitChunk) {
  Tensor a = st::arange(7, ScalarType::Float);
  auto parts = st::split(a, 3);
  ASSERT_EQ(parts.size(), 3u);
  expect_close(values(parts[0]), {0, 1, 2});
  expect_close(values(parts[2]), {6});
  EXPECT_TRUE(parts[1].is_alias_of(a));  // views
  auto m = st::split(a, 7);
  ASSERT_EQ(m.size(), 1u);
  auto big = st::split(a, 10);
  ASSERT_EQ(big.size(), 1u);
  EXPECT_EQ(big[0].numel(), 7);
  auto cols = st::split(st::reshape(st::arange(6, ScalarType::Float), {2, 3}), 2, 1);
  ASSERT_EQ(cols.size(), 2u);
  expect_close(values(cols[1]), {2, 5});
  EXPECT_EQ(st::split(st::empty({0}), 0).size(), 1u);
  EXPECT_NATIVE_ERROR(
      st::split(a, 0),
      "split_size can only be 0 if dimension size is 0, but got dimension size of 7");
  EXPECT_NATIVE_ERROR(st::split(a, -1),
                      "split expects split_size be non-negative, but got split_size=-1");
  EXPECT_NATIVE_ERROR(st::split(st::ones({}), 1), "split expects at least a 1-dimensional tensor");

  auto c = st::chunk(a, 3);
  ASSERT_EQ(c.size(), 3u);
  expect_close(values(c[0]), {0, 1, 2});
  expect_close(values(c[1]), {3, 4, 5});
  expect_close(values(c[2]), {6});
  EXPECT_EQ(st::chunk(st::arange(6, ScalarType::Float), 4).size(), 3u);  // PyTorch: sizes 2, 2, 2
  EXPECT_EQ(st::chunk(st::empty({0}), 3).size(), 3u);
  // More chunks than elements, up to INT64_MAX: one piece per element, no
  // overflow in the piece size (size + chunks - 1 overflowed before).
  EXPECT_EQ(st::chunk(st::arange(6, ScalarType::Float), INT64_MAX).size(), 6u);
  EXPECT_NATIVE_ERROR(st::chunk(st::empty({0}), INT64_MAX),
                      "chunk: cannot return 9223372036854775807 empty pieces");
  EXPECT_EQ(st::chunk(a, 2, 0).size(), 2u);
  EXPECT_NATIVE_ERROR(st::chunk(a, 0), "chunk expects `chunks` to be greater than 0, got: 0");
  EXPECT_NATIVE_ERROR(st::chunk(st::ones({}), 1), "chunk expects at least a 1-dimensional tensor");
  // Property: split pieces cat back to the input.
  std::mt19937 g(9);
  for (int trial = 0; trial < 30; ++trial) {
    std::vector<int64_t> s = {std::uniform_int_distribution<int64_t>(0, 6)(g),
                              std::uniform_int_distribution<int64_t>(1, 6)(g)};
    Tensor t = relayout(random_ints(g, s, ScalarType::Float), trial % 3);
    const int64_t dim = trial % 2;
    const int64_t size = std::uniform_int_distribution<int64_t>(1, 4)(g);
    if (t.size(dim) == 0) continue;
    expect_close(values(st::cat(st::split(t, size, dim), dim)), values(t), 0);
    expect_close(values(st::cat(st::chunk(t, size, dim), dim)), values(t), 0);
  }
}

}  // namespace
