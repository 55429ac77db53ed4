// sort (plain and stable overloads) and topk.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <numeric>

#include "native/random_tensors.h"

namespace {

using namespace st_native_test;
const double kNan = std::numeric_limits<double>::quiet_NaN();

TEST(NativeSorting, SortHandComputed) {
  Tensor a = make({3, 1, 2, 9, 7, 8}, {2, 3});
  auto [v, i] = st::sort(a);
  expect_close(values(v), {1, 2, 3, 7, 8, 9});
  expect_close(values(i), {1, 2, 0, 1, 2, 0});
  EXPECT_EQ(i.dtype(), ScalarType::Long);
  auto [vd, id] = st::sort(a, 0, true);
  expect_close(values(vd), {9, 7, 8, 3, 1, 2});
  expect_close(values(id), {1, 1, 1, 0, 0, 0});
  // NaN above everything; ties keep their order (stable)
  auto [vn, in] = st::sort(make1({2, kNan, 1, 2, -1}));
  expect_close(values(vn), {-1, 1, 2, 2, kNan});
  expect_close(values(in), {4, 2, 0, 3, 1});
  auto [vs, is] = st::sort(make1({2, kNan, 1, 2}), std::optional<bool>(true), 0, true);
  expect_close(values(vs), {kNan, 2, 2, 1});
  expect_close(values(is), {1, 0, 3, 2});
  auto [vb, ib] = st::sort(a, -1, true);
  expect_close(values(vb), {3, 2, 1, 9, 8, 7});
  for (ScalarType dt : {ScalarType::Bool, ScalarType::Half, ScalarType::Byte, ScalarType::Long}) {
    auto [x, y] = st::sort(make1({1, 0, 1}, dt));
    expect_close(values(x), {0, 1, 1});
    expect_close(values(y), {1, 0, 2});
  }
  auto [v0, i0] = st::sort(make({5}, {}));
  EXPECT_EQ(v0.dim(), 0);
  expect_close(values(i0), {0});
  Tensor vo = st::empty({0}), io = st::empty({0}, ScalarType::Long);
  st::sort_out(vo, io, a, 1);
  expect_close(values(vo), {1, 2, 3, 7, 8, 9});
  expect_close(values(io), {1, 2, 0, 1, 2, 0});
  Tensor bad = st::empty({0});
  EXPECT_NATIVE_ERROR(
      st::sort_out(vo, bad, a),
      "sort(): Expected out tensor indices to have dtype Long, but got Float instead");
  EXPECT_NATIVE_ERROR(st::sort(make1({1}, ScalarType::ComplexFloat)),
                      "sort is not supported for complex");
  EXPECT_NATIVE_ERROR(st::sort(a, 2), "Dimension out of range");
}

TEST(NativeSorting, SortRandomProperty) {
  std::mt19937 g(4);
  for (int trial = 0; trial < 40; ++trial) {
    const int64_t r = std::uniform_int_distribution<int64_t>(0, 5)(g);
    const int64_t c = std::uniform_int_distribution<int64_t>(0, 9)(g);
    const ScalarType dt = trial % 2 ? ScalarType::Float : ScalarType::Int;
    Tensor t = relayout(random_ints(g, {r, c}, dt), trial % 3);
    const int64_t dim = trial % 2;
    const bool desc = trial % 4 < 2;
    auto [v, i] = st::sort(t, dim, desc);
    // values are gather(t, indices), ordered along dim
    expect_close(values(st::gather(t, dim, i)), values(v), 0);
    const Tensor vv = st::contiguous(dim == 0 ? st::t(v) : v);
    const auto x = values(vv);
    const int64_t rows = dim == 0 ? c : r, len = dim == 0 ? r : c;
    for (int64_t row = 0; row < rows; ++row) {
      for (int64_t k = 1; k < len; ++k) {
        const double p = x[row * len + k - 1], q = x[row * len + k];
        EXPECT_TRUE(desc ? p >= q : p <= q);
      }
    }
  }
}

TEST(NativeSorting, Topk) {
  Tensor a = make1({1, 5, 3, 5, 4});
  auto [v, i] = st::topk(a, 2);
  expect_close(values(v), {5, 5});
  expect_close(values(i), {1, 3});
  auto [vs, is] = st::topk(a, 3, 0, false);
  expect_close(values(vs), {1, 3, 4});
  expect_close(values(is), {0, 2, 4});
  auto [vn, in] = st::topk(make1({1, kNan, 3}), 1);
  expect_close(values(vn), {kNan});
  Tensor m = make({1, 2, 3, 6, 5, 4}, {2, 3});
  auto [vm, im] = st::topk(m, 1, 0);
  expect_close(values(vm), {6, 5, 4});
  expect_close(values(im), {1, 1, 1});
  EXPECT_EQ(shape(vm), (std::vector<int64_t>{1, 3}));
  auto [ve, ie] = st::topk(m, 0);
  EXPECT_EQ(shape(ve), (std::vector<int64_t>{2, 0}));
  auto [vt, it] = st::topk(m, 2, -1, true, false);
  expect_close(values(vt), {3, 2, 6, 5});
  Tensor vo = st::empty({0}), io = st::empty({0}, ScalarType::Long);
  st::topk_out(vo, io, a, 1);
  expect_close(values(vo), {5});
  EXPECT_NATIVE_ERROR(st::topk(a, 6), "topk(): selected index k out of range");
  EXPECT_NATIVE_ERROR(st::topk(make1({1, 0}, ScalarType::Bool), 1),
                      "\"topk\" not implemented for 'Bool'");
  // Property: topk(k) equals the first k of a descending sort.
  std::mt19937 g(8);
  for (int trial = 0; trial < 20; ++trial) {
    const int64_t n = std::uniform_int_distribution<int64_t>(1, 12)(g);
    const int64_t k = std::uniform_int_distribution<int64_t>(0, n)(g);
    Tensor t = relayout(random_ints(g, {3, n}, ScalarType::Double), trial % 3);
    auto [tv, ti] = st::topk(t, k, 1);
    auto [sv, si] = st::sort(t, 1, true);
    expect_close(values(tv), values(st::narrow(sv, 1, 0, k)), 0);
    expect_close(values(ti), values(st::narrow(si, 1, 0, k)), 0);
  }
}

// A full sort lays its results out as self (PyTorch's sort does); a
// resized out= takes that layout too.
TEST(NativeSorting, SortFollowsSelfLayout) {
  Tensor a = st::t(make({3, 1, 2, 9, 7, 8}, {2, 3}));  // [3, 2], strides [1, 3]
  auto [v, i] = st::sort(a, 0);
  EXPECT_EQ(std::vector<int64_t>(v.strides().begin(), v.strides().end()),
            (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(std::vector<int64_t>(i.strides().begin(), i.strides().end()),
            (std::vector<int64_t>{1, 3}));
  expect_close(values(v), {1, 7, 2, 8, 3, 9});
  expect_close(values(i), {1, 1, 2, 2, 0, 0});
  Tensor vo = st::empty({0});
  Tensor io = st::empty({0}, ScalarType::Long);
  st::sort_out(vo, io, a, 0);
  EXPECT_EQ(std::vector<int64_t>(vo.strides().begin(), vo.strides().end()),
            (std::vector<int64_t>{1, 3}));
  expect_close(values(vo), {1, 7, 2, 8, 3, 9});
}

}  // namespace
