// sort (plain and stable overloads) and topk.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
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

// Along a size-1 dim every row is sorted already: the values are self's,
// NaN included, the indices 0, in any layout and into outs of another
// layout; topk still refuses Bool.
TEST(NativeSorting, RowsOfOneElementAreTheirOwnSort) {
  for (ScalarType dt : {ScalarType::Float, ScalarType::Long, ScalarType::Half}) {
    for (int kind = 0; kind < 3; ++kind) {
      SCOPED_TRACE(::testing::Message() << torch::headeronly::toString(dt) << " " << kind);
      const std::vector<double> v{3, -1, dt == ScalarType::Long ? 7 : kNan, 0, 5, 2};
      const Tensor a = relayout(make(v, {2, 1, 3}, dt), kind);
      const std::vector<double> zeros(v.size(), 0.0);
      auto [sv, si] = st::sort(a, 1, true);
      expect_close(values(sv), v, 0);
      EXPECT_EQ(values(si), zeros);
      auto [tv, ti] = st::topk(a, 1, 1, false);
      expect_close(values(tv), v, 0);
      EXPECT_EQ(values(ti), zeros);
      Tensor vo = relayout(st::zeros({2, 1, 3}, dt), 2 - kind);
      Tensor io = relayout(st::ones({2, 1, 3}, ScalarType::Long), 2 - kind);
      st::sort_out(vo, io, a, 1);
      expect_close(values(vo), v, 0);
      EXPECT_EQ(values(io), zeros);
    }
  }
  EXPECT_NATIVE_ERROR(st::topk(make({1, 0}, {2, 1}, ScalarType::Bool), 1, 1),
                      "\"topk\" not implemented for 'Bool'");
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

// out= tensors that already have the result's shape are written in place,
// through their own strides (a transposed out keeps its layout), and give
// the functional results; an out sharing self's memory still gets them.
TEST(NativeSorting, OutsOfTheResultShapeAreWrittenInPlace) {
  std::mt19937 g(21);
  Tensor a = random_ints(g, {4, 40}, ScalarType::Float, -9, 9);
  auto [kv, ki] = st::topk(a, 3, 1);
  Tensor vo = st::t(st::empty({3, 4})), io = st::t(st::empty({3, 4}, ScalarType::Long));
  const void* vp = vo.const_data_ptr();
  st::topk_out(vo, io, a, 3, 1);
  EXPECT_EQ(vo.const_data_ptr(), vp);
  EXPECT_EQ(std::vector<int64_t>(vo.strides().begin(), vo.strides().end()),
            (std::vector<int64_t>{1, 4}));
  expect_close(values(vo), values(kv), 0);
  expect_close(values(io), values(ki), 0);
  auto [sv, si] = st::sort(a, 1, true);
  Tensor so = st::empty({4, 40}), sio = st::empty({4, 40}, ScalarType::Long);
  st::sort_out(so, sio, a, 1, true);
  st::sort_out(so, sio, a, 1, true);  // reused
  expect_close(values(so), values(sv), 0);
  expect_close(values(sio), values(si), 0);
  // values is self: the results go through temporaries.
  Tensor self = st::clone(a);
  st::sort_out(self, sio, self, 1, true);
  expect_close(values(self), values(sv), 0);
  EXPECT_NATIVE_ERROR(st::topk_out(vo, st::empty({4, 3}), a, 3, 1),
                      "topk(): Expected out tensor indices to have dtype Long, but got Float");
}

// The indices of a stable sort of one row, by comparisons: NaN above
// every number, -0.0 == 0.0, ties in their original order.
std::vector<int64_t> reference_order(const std::vector<double>& row, bool descending) {
  std::vector<int64_t> order(row.size());
  std::iota(order.begin(), order.end(), int64_t{0});
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    const double x = row[static_cast<size_t>(a)], y = row[static_cast<size_t>(b)];
    if (std::isnan(x) || std::isnan(y)) return descending ? !std::isnan(y) : !std::isnan(x);
    return descending ? x > y : x < y;
  });
  return order;
}

// Rows long enough for the radix path (and short ones for the comparison
// path), every dtype's key mapping, both orders, along a strided dim:
// the indices match a stable comparison sort exactly and the values are
// self's elements bit for bit (the sign of a zero kept).
TEST(NativeSorting, SortMatchesStableReference) {
  std::mt19937 g(11);
  const ScalarType dtypes[] = {ScalarType::Float,    ScalarType::Double, ScalarType::Half,
                               ScalarType::BFloat16, ScalarType::Long,   ScalarType::Int,
                               ScalarType::Short,    ScalarType::Char,   ScalarType::Byte,
                               ScalarType::Bool};
  for (const int64_t n : {int64_t{5}, int64_t{300}, int64_t{1000}}) {
    for (const ScalarType dt : dtypes) {
      for (const bool desc : {false, true}) {
        std::vector<double> data(static_cast<size_t>(3 * n));
        std::uniform_int_distribution<int> d(-6, 6);
        for (double& x : data) x = d(g);
        const bool floating = dt == ScalarType::Float || dt == ScalarType::Double ||
                              dt == ScalarType::Half || dt == ScalarType::BFloat16;
        if (dt == ScalarType::Byte || dt == ScalarType::Bool) {
          for (double& x : data) x = dt == ScalarType::Bool ? (x > 0) : x + 6;
        }
        if (floating) {
          for (size_t i = 0; i < data.size(); i += 7) data[i] = kNan;
          for (size_t i = 3; i < data.size(); i += 11) data[i] = -0.0;
          for (size_t i = 5; i < data.size(); i += 13) data[i] = 0.25 * data[i];
          data[1] = -std::numeric_limits<double>::infinity();
          data[2] = std::numeric_limits<double>::infinity();
        }
        // [n, 3], sorted along dim 0: rows of stride 3 (and a strided
        // copy of it, every other element).
        Tensor t = relayout(make(data, {n, 3}, dt), static_cast<int>(n % 3));
        auto [v, i] = st::sort(t, std::optional<bool>(true), 0, desc);
        const auto tv = values(st::contiguous(st::t(t)));
        const auto sv = values(st::contiguous(st::t(v)));
        const auto si = values(st::contiguous(st::t(i)));
        for (int64_t c = 0; c < 3; ++c) {
          const std::vector<double> row(tv.begin() + c * n, tv.begin() + (c + 1) * n);
          const std::vector<int64_t> want = reference_order(row, desc);
          for (int64_t k = 0; k < n; ++k) {
            const double got_v = sv[static_cast<size_t>(c * n + k)];
            const double want_v = row[static_cast<size_t>(want[static_cast<size_t>(k)])];
            ASSERT_EQ(si[static_cast<size_t>(c * n + k)], want[static_cast<size_t>(k)])
                << "dtype " << static_cast<int>(dt) << " n " << n << " desc " << desc;
            ASSERT_TRUE(std::isnan(want_v)
                            ? std::isnan(got_v)
                            : got_v == want_v && std::signbit(got_v) == std::signbit(want_v));
          }
        }
        // topk: the first k of the descending (largest) or ascending sort.
        if (dt == ScalarType::Bool) continue;
        // The same rows contiguous too ([3, n] along dim 1): the selections'
        // vector pre-checks of blocks (k = 1 and k <= 8) read those.
        const Tensor rows = st::contiguous(st::t(t));
        for (const int64_t k : {int64_t{1}, std::min<int64_t>(n, 8), n / 2, n}) {
          auto [kv, ki] = st::topk(t, k, 0, desc);
          auto [fv, fi] = st::sort(t, 0, desc);
          expect_close(values(ki), values(st::narrow(fi, 0, 0, k)), 0);
          auto [rv, ri] = st::topk(rows, k, 1, desc);
          auto [gv, gi] = st::sort(rows, 1, desc);
          expect_close(values(ri), values(st::narrow(gi, 1, 0, k)), 0);
        }
      }
    }
  }
}

// Rows along an outer dim are copied out in tiles of rows that start one
// element apart (16 at most, ending where the next row does not follow on:
// here at each outer index of [2, n, 37] along dim 1). The results match
// the same rows made contiguous, for every selection path.
TEST(NativeSorting, RowsAlongAnOuterDimMatchTheSameRowsContiguous) {
  for (const ScalarType dt : {ScalarType::Float, ScalarType::Long, ScalarType::Half}) {
    for (const int64_t n : {int64_t{2}, int64_t{40}, int64_t{300}}) {
      SCOPED_TRACE(::testing::Message() << torch::headeronly::toString(dt) << " n " << n);
      const Tensor t = st::to(st::randint(-50, 50, {2, n, 37}), dt, false, false);
      // The same rows contiguous: [2, 37, n].
      const Tensor rows = st::contiguous(st::transpose(t, 1, 2));
      for (const int64_t k : {int64_t{1}, std::min<int64_t>(n, 4), n / 2, n}) {
        for (const bool desc : {false, true}) {
          auto [v, i] = st::topk(t, k, 1, desc);
          auto [rv, ri] = st::topk(rows, k, 2, desc);
          EXPECT_EQ(values(st::transpose(v, 1, 2)), values(rv)) << k << " " << desc;
          EXPECT_EQ(values(st::transpose(i, 1, 2)), values(ri)) << k << " " << desc;
        }
      }
      auto [sv, si] = st::sort(t, std::optional<bool>(true), 1, false);
      auto [rv, ri] = st::sort(rows, std::optional<bool>(true), 2, false);
      EXPECT_EQ(values(st::transpose(sv, 1, 2)), values(rv));
      EXPECT_EQ(values(st::transpose(si, 1, 2)), values(ri));
    }
  }
}

// Keys over the whole range of 64-bit types: the packed (key, index)
// words do not fit, and the pair sort keeps the order and stability.
TEST(NativeSorting, SortWideKeys) {
  const int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
  const int64_t n = 200;
  Tensor t = st::empty({n}, ScalarType::Long);
  int64_t* p = static_cast<int64_t*>(t.data_ptr());
  for (int64_t i = 0; i < n; ++i) p[i] = i % 4 == 0 ? hi : i % 4 == 1 ? lo : (i % 4 == 2 ? -i : 7);
  auto [v, idx] = st::sort(t, std::optional<bool>(true), 0, false);
  const int64_t* vp = static_cast<const int64_t*>(v.const_data_ptr());
  const int64_t* ip = static_cast<const int64_t*>(idx.const_data_ptr());
  for (int64_t k = 1; k < n; ++k) {
    ASSERT_LE(vp[k - 1], vp[k]);
    if (vp[k - 1] == vp[k]) {
      ASSERT_LT(ip[k - 1], ip[k]);
    }
  }
  EXPECT_EQ(vp[0], lo);
  EXPECT_EQ(vp[n - 1], hi);
  auto [dv, di] = st::sort(t, std::optional<bool>(true), 0, true);
  const int64_t* dp = static_cast<const int64_t*>(dv.const_data_ptr());
  const int64_t* dip = static_cast<const int64_t*>(di.const_data_ptr());
  EXPECT_EQ(dp[0], hi);
  EXPECT_EQ(dip[0], 0);
  EXPECT_EQ(dip[1], 4);
  Tensor e = st::empty({0, 4});
  auto [ev, ei] = st::sort(e, 1);
  EXPECT_EQ(shape(ev), (std::vector<int64_t>{0, 4}));
  auto [tv, ti] = st::topk(st::empty({3, 0}), 0);
  EXPECT_EQ(shape(ti), (std::vector<int64_t>{3, 0}));
}

}  // namespace
