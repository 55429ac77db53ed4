// index_select, gather, scatter, masked_select, nonzero, index.Tensor,
// index_put_.
#include <gtest/gtest.h>

#include <limits>
#include <optional>
#include <string>

#include "native/random_tensors.h"

namespace {

using namespace st_native_test;

Tensor L(const std::vector<double>& v, std::vector<int64_t> s) {
  return make(v, s, ScalarType::Long);
}
Tensor L1(const std::vector<double>& v) { return make1(v, ScalarType::Long); }
std::vector<int64_t> strides_of(const Tensor& t) {
  return std::vector<int64_t>(t.strides().begin(), t.strides().end());
}

TEST(NativeIndexing, IndexSelect) {
  Tensor a = make({1, 2, 3, 4, 5, 6}, {2, 3});
  expect_close(values(st::index_select(a, 1, L1({2, 0, 2}))), {3, 1, 3, 6, 4, 6});
  expect_close(values(st::index_select(a, 0, make1({1}, ScalarType::Int))), {4, 5, 6});
  expect_close(values(st::index_select(a, -1, L1({2}))), {3, 6});
  expect_close(values(st::index_select(st::t(a), 0, L1({1}))), {2, 5});
  EXPECT_EQ(shape(st::index_select(a, 1, st::empty({0}, ScalarType::Long))),
            (std::vector<int64_t>{2, 0}));
  for (ScalarType dt :
       {ScalarType::Bool, ScalarType::Half, ScalarType::ComplexDouble, ScalarType::Byte}) {
    expect_close(values(st::index_select(make1({0, 1, 1}, dt), 0, L1({2, 0}))), {1, 0});
  }
  Tensor out = st::empty({0});
  st::index_select_out(out, a, 1, L1({1}));
  expect_close(values(out), {2, 5});
  EXPECT_NATIVE_ERROR(st::index_select(a, 1, L1({3})),
                      "index_select(): index 3 is out of bounds for dimension 1 with size 3");
  EXPECT_NATIVE_ERROR(st::index_select(a, 1, make1({1})),
                      "index_select(): Expected dtype int32/int64 for index but got: Float");
  EXPECT_NATIVE_ERROR(st::index_select(a, 1, L({1}, {1, 1})),
                      "index_select(): Index is supposed to be a vector");
  Tensor d = st::empty({0}, ScalarType::Double);
  EXPECT_NATIVE_ERROR(st::index_select_out(d, a, 1, L1({1})),
                      "self and result must have the same scalar type");
}

// index_select against an element-by-element reference: each dim of a
// 3-d self in each layout (contiguous slices copied whole or element by
// element, strided, permuted dims that do not flatten), negative indices,
// out= written in place, strided or resized.
TEST(NativeIndexing, IndexSelectLayoutsAgainstReference) {
  std::mt19937 g(11);
  const std::vector<int64_t> self_shape = {3, 4, 20};  // rows of 20 floats: whole-slice copies
  const std::vector<double> iv = {2, 3, 0, 1, 1};
  for (int kind = 0; kind < 3; ++kind) {
    Tensor base = random_ints(g, self_shape, ScalarType::Float);
    const std::vector<double> sv = values(base);
    Tensor self = relayout(base, kind);
    for (int64_t dim = 0; dim < 3; ++dim) {
      const int64_t size = self_shape[static_cast<size_t>(dim)];
      std::vector<double> idx;
      for (double v : iv) {
        if (v < static_cast<double>(size)) idx.push_back(v);
      }
      std::vector<int64_t> want_shape = self_shape;
      want_shape[static_cast<size_t>(dim)] = static_cast<int64_t>(idx.size());
      std::vector<double> want;
      for (int64_t a = 0; a < want_shape[0]; ++a)
        for (int64_t b = 0; b < want_shape[1]; ++b)
          for (int64_t c = 0; c < want_shape[2]; ++c) {
            int64_t co[3] = {a, b, c};
            co[dim] = static_cast<int64_t>(idx[static_cast<size_t>(co[dim])]);
            want.push_back(sv[static_cast<size_t>((co[0] * 4 + co[1]) * 20 + co[2])]);
          }
      SCOPED_TRACE(::testing::Message() << "layout " << kind << " dim " << dim);
      Tensor r = st::index_select(self, dim, L1(idx));
      EXPECT_EQ(shape(r), want_shape);
      EXPECT_TRUE(r.is_contiguous());
      expect_close(values(r), want, 0);
      // Int indices, a strided index.
      Tensor istrided = relayout(make1(idx, ScalarType::Int), 2);
      expect_close(values(st::index_select(self, dim, istrided)), want, 0);
      // out=: resized in place, of the right shape but strided, and self's
      // own storage (read before written).
      Tensor out = st::empty({0});
      st::index_select_out(out, self, dim, L1(idx));
      EXPECT_TRUE(out.is_contiguous());
      expect_close(values(out), want, 0);
      Tensor sout = relayout(st::zeros(IntArrayRef(want_shape)), 1);
      st::index_select_out(sout, self, dim, L1(idx));
      EXPECT_FALSE(sout.is_contiguous());
      expect_close(values(sout), want, 0);
    }
  }
  Tensor a = st::arange(6, ScalarType::Float);
  st::index_select_out(a, a, 0, L1({5, 4, 3}));
  expect_close(values(a), {5, 4, 3});
  // 0-d self and index; an empty index; a bad index is named, its dim
  // wrapped, before out is written.
  expect_close(values(st::index_select(make({7}, {}), 0, L({0}, {}))), {7});
  EXPECT_EQ(shape(st::index_select(make({7}, {}), 0, L({0}, {}))), (std::vector<int64_t>{}));
  EXPECT_EQ(shape(st::index_select(make({7}, {}), 0, L1({0, 0}))), (std::vector<int64_t>{2}));
  Tensor m = st::ones({2, 3});
  EXPECT_EQ(shape(st::index_select(m, 0, st::empty({0}, ScalarType::Long))),
            (std::vector<int64_t>{0, 3}));
  // As in PyTorch, a negative index does not count from the end.
  EXPECT_NATIVE_ERROR(st::index_select(m, -1, L1({0, -1})),
                      "index_select(): index -1 is out of bounds for dimension 1 with size 3");
  EXPECT_NATIVE_ERROR(st::index_select(make({7}, {}), 0, L({-1}, {})),
                      "index_select(): index -1 is out of bounds for dimension 0 with size 1");
  Tensor keep = st::zeros({2, 2});
  EXPECT_NATIVE_ERROR(st::index_select_out(keep, m, 1, L1({1, 3})),
                      "index_select(): index 3 is out of bounds for dimension 1 with size 3");
  expect_close(values(keep), {0, 0, 0, 0});
}

TEST(NativeIndexing, GatherScatter) {
  Tensor a = make({1, 2, 3, 4}, {2, 2});
  expect_close(values(st::gather(a, 1, L({0, 0, 1, 0}, {2, 2}))), {1, 1, 4, 3});
  expect_close(values(st::gather(a, 0, L({1, 0}, {1, 2}))), {3, 2});
  expect_close(values(st::gather(st::t(a), 1, L({1, 1}, {2, 1}))), {3, 4});
  Tensor out = st::empty({0});
  st::gather_out(out, a, 1, L({1, 1}, {2, 1}));
  expect_close(values(out), {2, 4});
  EXPECT_NATIVE_ERROR(st::gather(a, 1, L({2}, {1, 1})),
                      "gather(): index 2 is out of bounds for dimension 1 with size 2");
  EXPECT_NATIVE_ERROR(st::gather(a, 1, L1({0})),
                      "Index tensor must have the same number of dimensions as input tensor");
  EXPECT_NATIVE_ERROR(st::gather(a, 1, make({0}, {1, 1}, ScalarType::Int)),
                      "gather(): Expected dtype int64 for index");
  EXPECT_NATIVE_ERROR(st::gather(a, 1, L({0, 0, 0}, {3, 1})), "Size does not match at dimension 0");

  Tensor z = st::zeros({2, 3});
  Tensor src = make({1, 2, 3, 4, 5, 6}, {2, 3});
  expect_close(values(st::scatter(z, 1, L({2, 0}, {2, 1}), src)), {0, 0, 1, 4, 0, 0});
  expect_close(values(z), {0, 0, 0, 0, 0, 0});  // functional: z unchanged
  st::scatter_(z, 0, L({1, 0, 1}, {1, 3}), src);
  expect_close(values(z), {0, 2, 0, 1, 0, 3});
  expect_close(values(st::scatter(st::zeros({3}), 0, L1({0, 2}), 7.5)), {7.5, 0, 7.5});
  Tensor zi = st::zeros({3}, ScalarType::Int);
  st::scatter_(zi, 0, L1({1}), 9);
  expect_close(values(zi), {0, 9, 0});
  Tensor so = st::empty({0});
  st::scatter_out(so, st::ones({3}), 0, L1({1}), 5);
  expect_close(values(so), {1, 5, 1});
  EXPECT_NATIVE_ERROR(st::scatter(z, 1, L({3}, {1, 1}), src),
                      "scatter(): index 3 is out of bounds for dimension 1 with size 3");
  EXPECT_NATIVE_ERROR(st::scatter(z, 1, L({0}, {1, 1}), st::ones({2, 3}, ScalarType::Double)),
                      "scatter(): Expected self.dtype to be equal to src.dtype");
  EXPECT_NATIVE_ERROR(st::scatter(z, 1, L({0, 0, 0, 0}, {1, 4}), st::ones({1, 2})),
                      "to be no larger than src");
  // Property: gather(scatter(zeros, idx = a permutation, src)) == src.
  std::mt19937 g(1);
  for (int trial = 0; trial < 20; ++trial) {
    const int64_t r = std::uniform_int_distribution<int64_t>(1, 4)(g);
    const int64_t c = std::uniform_int_distribution<int64_t>(1, 5)(g);
    std::vector<double> perm;
    for (int64_t i = 0; i < r; ++i) {
      std::vector<double> p(static_cast<size_t>(c));
      for (int64_t j = 0; j < c; ++j) p[static_cast<size_t>(j)] = static_cast<double>(j);
      std::shuffle(p.begin(), p.end(), g);
      perm.insert(perm.end(), p.begin(), p.end());
    }
    Tensor idx = relayout(L(perm, {r, c}), trial % 3);
    Tensor s = relayout(random_ints(g, {r, c}, ScalarType::Double), (trial + 1) % 3);
    Tensor scattered = st::scatter(st::zeros({r, c}, ScalarType::Double), 1, idx, s);
    expect_close(values(st::gather(scattered, 1, idx)), values(s), 0);
  }
}

// scatter runs the index row by row: a bad index anywhere in a row
// (contiguous or strided index), including the extremes of int64, is
// named in the error.
TEST(NativeIndexing, ScatterNamesTheBadIndexOfARow) {
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  const int64_t kMin = std::numeric_limits<int64_t>::min();
  Tensor self = st::zeros({2, 6});
  Tensor src = st::ones({2, 6});
  for (int64_t bad : {int64_t{6}, int64_t{-1}, int64_t{-7}, kMax, kMin}) {
    Tensor idx = st::zeros({2, 6}, ScalarType::Long);
    idx.data_ptr<int64_t>()[9] = bad;  // row 1, column 3
    EXPECT_NATIVE_ERROR(st::scatter_(self, 1, idx, src),
                        "scatter(): index " + std::to_string(bad) +
                            " is out of bounds for dimension 1 with size 6");
    EXPECT_NATIVE_ERROR(st::scatter_(self, 1, idx, 2.0),
                        "index " + std::to_string(bad) + " is out of bounds");
    // A transposed index (stride 6 along its rows) over a [6, 2] self.
    EXPECT_NATIVE_ERROR(st::scatter_(st::zeros({6, 2}), 0, st::t(idx), st::ones({6, 2})),
                        "index " + std::to_string(bad) + " is out of bounds for dimension 0");
  }
  // A negative index does not count from the end (as in PyTorch, unlike
  // index.Tensor): gather and scatter name it, and the row before it is
  // written.
  self = st::zeros({2, 6});
  Tensor idx = L({5, 0, -1, 5}, {2, 2});
  EXPECT_NATIVE_ERROR(st::scatter_(self, 1, idx, make({1, 2, 3, 4}, {2, 2})),
                      "scatter(): index -1 is out of bounds for dimension 1 with size 6");
  expect_close(values(self), {2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0});
  EXPECT_NATIVE_ERROR(st::gather(self, 1, idx),
                      "gather(): index -1 is out of bounds for dimension 1 with size 6");
}

// A scatter along the last dim of a contiguous self (the unit-dim row:
// index and src contiguous too) writes what the general row writes into
// the same self in other layouts, in element sizes 1 to 8, with repeated
// indices (the later element of a row wins in both), src rows longer
// than the index's, a scalar value and a src expanded along dim.
TEST(NativeIndexing, ScatterAlongAUnitStrideDimMatchesEveryOtherLayout) {
  std::mt19937 g(11);
  for (ScalarType dt : {ScalarType::Byte, ScalarType::Short, ScalarType::Float, ScalarType::Double,
                        ScalarType::Long}) {
    SCOPED_TRACE(::testing::Message() << "dtype " << dt);
    Tensor base = random_ints(g, {5, 9}, dt, 0, 9);
    Tensor src = random_ints(g, {5, 11}, dt, 10, 60);
    Tensor idx = random_ints(g, {5, 7}, ScalarType::Long, 0, 8);
    Tensor src_rows = st::slice(src, 1, 0, 7);  // rows of the index's length, strided
    std::vector<double> want;
    for (int kind = 0; kind < 3; ++kind) {
      Tensor self = relayout(base, kind);
      st::scatter_(self, 1, idx, kind == 0 ? st::contiguous(src_rows) : src);
      if (kind == 0) {
        want = values(self);
        // The reference: element by element, in order.
        std::vector<double> ref = values(base);
        const std::vector<double> iv = values(idx), sv = values(src);
        for (int64_t r = 0; r < 5; ++r)
          for (int64_t j = 0; j < 7; ++j)
            ref[static_cast<size_t>(r * 9 +
                                    static_cast<int64_t>(iv[static_cast<size_t>(r * 7 + j)]))] =
                sv[static_cast<size_t>(r * 11 + j)];
        expect_close(want, ref, 0);
      } else {
        expect_close(values(self), want, 0);
      }
    }
    // One value for every element: a scalar, or a src expanded along dim.
    Tensor filled = st::contiguous(base);
    st::scatter_(filled, 1, idx, 3.0);
    Tensor filled_t = relayout(base, 1);
    st::scatter_(filled_t, 1, idx, 3.0);
    expect_close(values(filled), values(filled_t), 0);
    const Tensor column = st::expand(random_ints(g, {5, 1}, dt, 10, 60), {5, 7});
    Tensor from_column = st::contiguous(base);
    st::scatter_(from_column, 1, idx, column);
    Tensor from_column_t = relayout(base, 1);
    st::scatter_(from_column_t, 1, idx, st::contiguous(column));
    expect_close(values(from_column), values(from_column_t), 0);
  }
}

// gather/scatter over 3-d index shapes smaller than self (rows of the
// index shorter than self's), each dim as `dim`, a transposed self, and 0-d
// and empty indexes, against an element-by-element reference.
TEST(NativeIndexing, GatherScatterOddShapesAgainstReference) {
  std::mt19937 g(7);
  const std::vector<int64_t> self_shape = {3, 4, 5};
  const std::vector<int64_t> index_shape = {2, 3, 4};
  for (int64_t dim = 0; dim < 3; ++dim) {
    const int64_t size = self_shape[static_cast<size_t>(dim)];
    std::vector<double> iv;
    for (int64_t k = 0; k < 24; ++k)
      iv.push_back(static_cast<double>(std::uniform_int_distribution<int64_t>(0, size - 1)(g)));
    Tensor idx = L(iv, index_shape);
    Tensor self = st::contiguous(st::permute(
        st::reshape(st::arange(60, ScalarType::Float), {5, 4, 3}), {2, 1, 0}));  // [3, 4, 5]
    Tensor self_t =
        st::permute(st::reshape(st::arange(60, ScalarType::Float), {5, 4, 3}), {2, 1, 0});
    const auto sv = values(self);
    std::vector<double> want;
    for (int64_t a = 0; a < 2; ++a)
      for (int64_t b = 0; b < 3; ++b)
        for (int64_t c = 0; c < 4; ++c) {
          int64_t co[3] = {a, b, c};
          int64_t v = static_cast<int64_t>(iv[static_cast<size_t>((a * 3 + b) * 4 + c)]);
          co[dim] = v;
          want.push_back(sv[static_cast<size_t>((co[0] * 4 + co[1]) * 5 + co[2])]);
        }
    SCOPED_TRACE(::testing::Message() << "dim " << dim);
    expect_close(values(st::gather(self, dim, idx)), want, 0);
    expect_close(values(st::gather(self_t, dim, idx)), want, 0);
    // scatter of a non-negative, collision-free index: each row a permutation prefix.
    std::vector<double> pv;
    for (int64_t k = 0; k < 24; ++k) {
      int64_t co[3] = {k / 12, (k / 4) % 3, k % 4};
      pv.push_back(static_cast<double>((co[dim] + 1) % size));
    }
    Tensor pidx = L(pv, index_shape);
    Tensor src = st::add(st::arange(24, ScalarType::Float), Scalar(100.0));
    src = st::reshape(src, index_shape);
    Tensor z = st::zeros(IntArrayRef(self_shape));
    st::scatter_(z, dim, pidx, src);
    std::vector<double> zw(60, 0.0);
    for (int64_t k = 0; k < 24; ++k) {
      int64_t co[3] = {k / 12, (k / 4) % 3, k % 4};
      co[dim] = static_cast<int64_t>(pv[static_cast<size_t>(k)]);
      zw[static_cast<size_t>((co[0] * 4 + co[1]) * 5 + co[2])] = 100.0 + static_cast<double>(k);
    }
    expect_close(values(z), zw, 0);
  }
  // 0-d self and index; an empty index writes nothing.
  Tensor s0 = make({4}, {});
  st::scatter_(s0, 0, L({0}, {}), make({9}, {}));
  expect_close(values(s0), {9});
  expect_close(values(st::gather(s0, 0, L({0}, {}))), {9});
  Tensor z = st::ones({2, 3});
  st::scatter_(z, 1, st::empty({2, 0}, ScalarType::Long), st::zeros({2, 3}));
  expect_close(values(z), std::vector<double>(6, 1.0));
}

// gather's out= is written in place (resized, or of the right shape in
// any layout); out sharing self's storage is computed apart first; a bad
// index of any row is named.
TEST(NativeIndexing, GatherOut) {
  Tensor a = make({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor idx = L({2, 2, 0, 1, 0, 2}, {2, 3});
  const std::vector<double> want = {3, 3, 1, 5, 4, 6};
  Tensor out = st::empty({0});
  st::gather_out(out, a, 1, idx);
  EXPECT_EQ(shape(out), (std::vector<int64_t>{2, 3}));
  expect_close(values(out), want);
  Tensor t = st::t(st::zeros({3, 2}));  // [2, 3], strides [1, 2]
  st::gather_out(t, a, 1, idx);
  expect_close(values(t), want);
  expect_close(values(st::gather(a, 1, st::t(st::contiguous(st::t(idx))))), want);
  Tensor self_out = make({1, 2, 3, 4, 5, 6}, {2, 3});
  st::gather_out(self_out, self_out, 1, idx);
  expect_close(values(self_out), want);
  Tensor d = st::empty({0}, ScalarType::Double);
  EXPECT_NATIVE_ERROR(st::gather_out(d, a, 1, idx),
                      "gather(): Expected out tensor to have dtype Float, but got Double instead");
  Tensor bad = L({0, 0, 0, 0, 0, 7}, {2, 3});
  EXPECT_NATIVE_ERROR(st::gather_out(out, a, 1, bad),
                      "gather(): index 7 is out of bounds for dimension 1 with size 3");
  EXPECT_NATIVE_ERROR(st::gather(a, 0, st::t(L({0, 0, 0, -3, 0, 0}, {3, 2}))),
                      "gather(): index -3 is out of bounds for dimension 0 with size 2");
  // An empty index, a 0-d one.
  EXPECT_EQ(shape(st::gather(a, 1, st::empty({2, 0}, ScalarType::Long))),
            (std::vector<int64_t>{2, 0}));
  Tensor o0 = st::empty({0});
  st::gather_out(o0, make({4}, {}), 0, L({0}, {}));
  EXPECT_EQ(shape(o0), (std::vector<int64_t>{}));
  expect_close(values(o0), {4});
  EXPECT_NATIVE_ERROR(st::gather_out(o0, make({4}, {}), 0, L({-1}, {})),
                      "gather(): index -1 is out of bounds for dimension 0 with size 1");
}

// nonzero against an element-by-element reference: layouts, dtypes, rows
// longer than a block with zeros anywhere, and out= in place (resized
// column-major, or given row-major at the right shape).
TEST(NativeIndexing, NonzeroAgainstReference) {
  std::mt19937 g(5);
  for (const std::vector<int64_t>& sh :
       {std::vector<int64_t>{3, 700}, std::vector<int64_t>{2, 3, 5}, std::vector<int64_t>{600}}) {
    for (ScalarType dt : {ScalarType::Float, ScalarType::Long, ScalarType::Bool, ScalarType::Half,
                          ScalarType::ComplexFloat}) {
      for (int kind = 0; kind < 3; ++kind) {
        Tensor base = random_ints(g, sh, ScalarType::Float, -1, 1);
        const std::vector<double> v = values(base);
        Tensor self = relayout(st::to(base, dt), kind);
        std::vector<std::vector<int64_t>> rows;
        for (size_t i = 0; i < v.size(); ++i) {
          if (v[i] == 0) continue;
          std::vector<int64_t> co(sh.size());
          size_t rest = i;
          for (size_t d = sh.size(); d-- > 0;) {
            co[d] = static_cast<int64_t>(rest % static_cast<size_t>(sh[d]));
            rest /= static_cast<size_t>(sh[d]);
          }
          rows.push_back(co);
        }
        std::vector<double> want;
        for (const auto& r : rows)
          for (int64_t c : r) want.push_back(static_cast<double>(c));
        const std::vector<int64_t> want_shape = {static_cast<int64_t>(rows.size()),
                                                 static_cast<int64_t>(sh.size())};
        SCOPED_TRACE(::testing::Message() << "dims " << sh.size() << " dtype "
                                          << static_cast<int>(dt) << " layout " << kind);
        Tensor nz = st::nonzero(self);
        EXPECT_EQ(shape(nz), want_shape);
        expect_close(values(nz), want, 0);
        Tensor out = st::empty({0}, ScalarType::Long);
        st::nonzero_out(out, self);
        EXPECT_EQ(strides_of(out), strides_of(nz));
        expect_close(values(out), want, 0);
        Tensor row_major = st::zeros(IntArrayRef(want_shape), ScalarType::Long);
        st::nonzero_out(row_major, self);
        EXPECT_TRUE(row_major.is_contiguous());
        expect_close(values(row_major), want, 0);
      }
    }
  }
  // 0-d, empty, all-zero inputs; out sharing self's storage.
  EXPECT_EQ(shape(st::nonzero(st::zeros({}))), (std::vector<int64_t>{0, 0}));
  EXPECT_EQ(shape(st::nonzero(st::empty({2, 0, 3}))), (std::vector<int64_t>{0, 3}));
  Tensor zero_out = st::empty({0}, ScalarType::Long);
  st::nonzero_out(zero_out, st::zeros({2, 3}));
  EXPECT_EQ(shape(zero_out), (std::vector<int64_t>{0, 2}));
  Tensor s = L1({0, 3, 0, 1});
  st::nonzero_out(s, s);
  EXPECT_EQ(shape(s), (std::vector<int64_t>{2, 1}));
  expect_close(values(s), {1, 3});
}

TEST(NativeIndexing, MaskedSelectNonzero) {
  Tensor a = make({1, 2, 3, 4}, {2, 2});
  Tensor m = make({1, 0, 0, 1}, {2, 2}, ScalarType::Bool);
  expect_close(values(st::masked_select(a, m)), {1, 4});
  expect_close(values(st::masked_select(a, make1({0, 1}, ScalarType::Bool))),
               {2, 4});  // broadcast mask
  expect_close(
      values(st::masked_select(make1({5, 6}), make({1, 1, 0, 1}, {2, 2}, ScalarType::Bool))),
      {5, 6, 6});
  Tensor out = st::empty({0});
  st::masked_select_out(out, a, m);
  expect_close(values(out), {1, 4});
  EXPECT_NATIVE_ERROR(st::masked_select(a, st::ones({2, 2})),
                      "masked_select: expected BoolTensor for mask");

  Tensor nz = st::nonzero(make({0, 2, 3, 0, 0, 1}, {2, 3}));
  EXPECT_EQ(nz.dtype(), ScalarType::Long);
  EXPECT_EQ(shape(nz), (std::vector<int64_t>{3, 2}));
  expect_close(values(nz), {0, 1, 0, 2, 1, 2});
  EXPECT_EQ(shape(st::nonzero(st::ones({}))), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(shape(st::nonzero(st::zeros({3}))), (std::vector<int64_t>{0, 1}));
  expect_close(values(st::nonzero(st::t(make({0, 1, 1, 0}, {2, 2}, ScalarType::Bool)))),
               {0, 1, 1, 0});
  Tensor no = st::empty({0}, ScalarType::Long);
  st::nonzero_out(no, make1({0, 3}));
  expect_close(values(no), {1});
  Tensor bad = st::empty({0});
  EXPECT_NATIVE_ERROR(
      st::nonzero_out(bad, make1({1})),
      "nonzero: Expected out tensor to have scalar type Long but got scalar type Float");
}

// An empty index tensor whose leading sizes multiply past int64 before its
// 0 size: no index position, an empty result, no wrapped count.
TEST(NativeIndexing, IndexWithAnEmptyIndexOfHugeSizes) {
  constexpr int64_t k2to62 = int64_t{1} << 62;
  Tensor self = st::arange(3, ScalarType::Float);
  using Idx = std::vector<std::optional<Tensor>>;
  Tensor r = st::index(self, Idx{st::empty({k2to62, 4, 0}, ScalarType::Long)});
  EXPECT_EQ(shape(r), (std::vector<int64_t>{k2to62, 4, 0}));
}

TEST(NativeIndexing, IndexTensor) {
  Tensor a = st::reshape(st::arange(12, ScalarType::Float), {3, 4});
  using Idx = std::vector<std::optional<Tensor>>;
  // a[[2, 0]]
  expect_close(values(st::index(a, Idx{L1({2, 0})})), {8, 9, 10, 11, 0, 1, 2, 3});
  // a[[0, 2], [1, 3]] -> elements (0,1), (2,3)
  expect_close(values(st::index(a, Idx{L1({0, 2}), L1({1, 3})})), {1, 11});
  // a[:, [3, 0]] keeps the indexed dim in place
  Tensor r = st::index(a, Idx{std::nullopt, L1({3, 0})});
  EXPECT_EQ(shape(r), (std::vector<int64_t>{3, 2}));
  expect_close(values(r), {3, 0, 7, 4, 11, 8});
  // broadcast index tensors: a[[[0], [2]], [1, 2]] -> [2, 2]
  expect_close(values(st::index(a, Idx{L({0, 2}, {2, 1}), L1({1, 2})})), {1, 2, 9, 10});
  // boolean mask over both dims, and over the first dim
  Tensor m = st::gt(a, 8);
  expect_close(values(st::index(a, Idx{m})), {9, 10, 11});
  expect_close(values(st::index(a, Idx{make1({1, 0, 1}, ScalarType::Bool)})),
               {0, 1, 2, 3, 8, 9, 10, 11});
  // negative indices, non-contiguous self, Int indices
  expect_close(values(st::index(st::t(a), Idx{make1({-1}, ScalarType::Int)})), {3, 7, 11});
  // non-adjacent advanced indices move the broadcast dims first
  Tensor b = st::reshape(st::arange(24, ScalarType::Float), {2, 3, 4});
  Tensor nb = st::index(b, Idx{L1({1, 0}), std::nullopt, L1({0, 3})});
  EXPECT_EQ(shape(nb), (std::vector<int64_t>{2, 3}));
  expect_close(values(nb), {12, 16, 20, 3, 7, 11});
  // adjacent in the middle: b[:, [0, 2], [1, 1]] -> [2, 2]
  Tensor mid = st::index(b, Idx{std::nullopt, L1({0, 2}), L1({1, 1})});
  EXPECT_EQ(shape(mid), (std::vector<int64_t>{2, 2}));
  expect_close(values(mid), {1, 9, 13, 21});
  // a 0-d boolean index adds a dim
  EXPECT_EQ(shape(st::index(a, Idx{make({1}, {}, ScalarType::Bool)})),
            (std::vector<int64_t>{1, 3, 4}));
  EXPECT_EQ(shape(st::index(a, Idx{make({0}, {}, ScalarType::Bool)})),
            (std::vector<int64_t>{0, 3, 4}));
  Tensor out = st::empty({0});
  st::index_out(out, a, Idx{L1({1})});
  expect_close(values(out), {4, 5, 6, 7});
  EXPECT_NATIVE_ERROR(st::index(a, Idx{L1({3})}),
                      "index 3 is out of bounds for dimension 0 with size 3");
  EXPECT_NATIVE_ERROR(st::index(a, Idx{L1({0}), L1({0}), L1({0})}),
                      "too many indices for tensor of dimension 2 (got 3)");
  EXPECT_NATIVE_ERROR(st::index(a, Idx{make1({0})}),
                      "tensors used as indices must be long, int, byte or bool tensors");
  EXPECT_NATIVE_ERROR(st::index(a, Idx{make1({1, 0}, ScalarType::Bool)}),
                      "The shape of the mask [2] at index 0 does not match the shape of the "
                      "indexed tensor [3, 4] at index 0");
  EXPECT_NATIVE_ERROR(st::index(a, Idx{L1({0, 1}), L1({0, 1, 2})}), "must match the size");
  // Indexing a dim of size 3 when another dim is empty: an empty result,
  // no data touched (self's data pointer is null; fuzz_call_dispatcher
  // found an offset added to it), and the indices still checked.
  Tensor e = st::empty({3, 0});
  EXPECT_EQ(shape(st::index(e, Idx{L1({2, 1})})), (std::vector<int64_t>{2, 0}));
  EXPECT_NATIVE_ERROR(st::index(e, Idx{L1({3})}),
                      "index 3 is out of bounds for dimension 0 with size 3");
}

// index.Tensor's slices: the other dims copied whole (contiguous), element
// by element (strided), or walked (dims that do not flatten).
TEST(NativeIndexing, IndexTensorSlicesAgainstIndexSelect) {
  using Idx = std::vector<std::optional<Tensor>>;
  std::mt19937 g(3);
  Tensor base = random_ints(g, {4, 3, 24}, ScalarType::Float);
  for (int kind = 0; kind < 3; ++kind) {
    Tensor self = relayout(base, kind);
    SCOPED_TRACE(::testing::Message() << "layout " << kind);
    expect_close(values(st::index(self, Idx{L1({3, -4, 1})})),
                 values(st::index_select(base, 0, L1({3, 0, 1}))), 0);
    expect_close(values(st::index(st::select(self, 2, 5), Idx{L1({2, 2})})),
                 values(st::index_select(st::select(base, 2, 5), 0, L1({2, 2}))), 0);
  }
  EXPECT_NATIVE_ERROR(st::index(base, Idx{L1({1, -5})}),
                      "index -5 is out of bounds for dimension 0 with size 4");
}

TEST(NativeIndexing, IndexPut) {
  using Idx = std::vector<std::optional<Tensor>>;
  Tensor a = st::zeros({3, 4});
  // a[[2, 0]] = [row]: values broadcast over the indexing result [2, 4].
  st::index_put_(a, Idx{L1({2, 0})}, make1({1, 2, 3, 4}));
  expect_close(values(a), {1, 2, 3, 4, 0, 0, 0, 0, 1, 2, 3, 4});
  // a[[0, 2], [1, 3]] = [10, 20]; a method call returns self.
  EXPECT_TRUE(a.index_put_(Idx{L1({0, 2}), L1({1, 3})}, make1({10, 20})).is_same(a));
  expect_close(values(a), {1, 10, 3, 4, 0, 0, 0, 0, 1, 2, 3, 20});
  // a[:, [3]] = column of shape [3, 1]: the indexed dim stays in place.
  st::index_put_(a, Idx{std::nullopt, L1({3})}, make({7, 8, 9}, {3, 1}));
  expect_close(values(a), {1, 10, 3, 7, 0, 0, 0, 8, 1, 2, 3, 9});
  // a[a > 8] = 0 (a boolean mask, 0-d value); negative and Int indices.
  st::index_put_(a, Idx{st::gt(a, 8)}, make({0}, {}));
  expect_close(values(a), {1, 0, 3, 7, 0, 0, 0, 8, 1, 2, 3, 0});
  st::index_put_(a, Idx{make1({-1}, ScalarType::Int), make1({-4}, ScalarType::Int)}, make1({5}));
  EXPECT_EQ(values(a)[8], 5);
  // Non-adjacent indices: the broadcast dims come first in the values.
  Tensor b = st::zeros({2, 3, 4}, ScalarType::Long);
  st::index_put_(b, Idx{L1({1, 0}), std::nullopt, L1({0, 3})}, L({1, 2, 3, 4, 5, 6}, {2, 3}));
  const std::vector<double> bv = values(b);
  EXPECT_EQ(bv[12 + 0], 1);  // b[1, 0, 0]
  EXPECT_EQ(bv[12 + 8], 3);  // b[1, 2, 0]
  EXPECT_EQ(bv[3], 4);       // b[0, 0, 3]
  EXPECT_EQ(bv[11], 6);      // b[0, 2, 3]
  // Adjacent in the middle: b[:, [0, 2], [1, 1]] = values of shape [2, 2].
  st::index_put_(b, Idx{std::nullopt, L1({0, 2}), L1({1, 1})}, L({7, 8, 9, 10}, {2, 2}));
  EXPECT_EQ(values(b)[1], 7);        // b[0, 0, 1]
  EXPECT_EQ(values(b)[9], 8);        // b[0, 2, 1]
  EXPECT_EQ(values(b)[12 + 1], 9);   // b[1, 0, 1]
  EXPECT_EQ(values(b)[12 + 9], 10);  // b[1, 2, 1]
  // A non-contiguous self is written through its view.
  Tensor base = st::zeros({3, 2});
  st::index_put_(st::t(base), Idx{L1({1})}, make1({4, 5, 6}));
  expect_close(values(base), {0, 4, 0, 5, 0, 6});
}

TEST(NativeIndexing, IndexPutAccumulate) {
  using Idx = std::vector<std::optional<Tensor>>;
  // Repeated indices are all summed with accumulate=True.
  Tensor a = st::zeros({3});
  st::index_put_(a, Idx{L1({0, 2, 0, 0})}, make1({1, 2, 3, 4}), true);
  expect_close(values(a), {8, 0, 2});
  for (ScalarType t : {ScalarType::Int, ScalarType::Half, ScalarType::BFloat16, ScalarType::Double,
                       ScalarType::UInt16, ScalarType::Char}) {
    Tensor x = make1({1, 1}, t);
    st::index_put_(x, Idx{L1({1, 1})}, make1({2, 3}, t), true);
    expect_close(values(x), {1, 6});
  }
  // Integers wrap, bool accumulates as "or".
  Tensor i8 = make1({120}, ScalarType::Char);
  st::index_put_(i8, Idx{L1({0})}, make1({10}, ScalarType::Char), true);
  expect_close(values(i8), {-126});
  Tensor bo = make1({0, 1, 0}, ScalarType::Bool);
  st::index_put_(bo, Idx{L1({0, 0, 1})}, make1({1, 0, 0}, ScalarType::Bool), true);
  expect_close(values(bo), {1, 1, 0});
  Tensor c = st::zeros({2}, ScalarType::ComplexFloat);
  st::index_put_(c, Idx{L1({1, 1})},
                 st::full({2}, Scalar(std::complex<double>(1, 2)), ScalarType::ComplexFloat), true);
  EXPECT_EQ(cvalues(c)[1], std::complex<double>(2, 4));
  // Without accumulate the last of repeated indices wins (serial order).
  Tensor d = st::zeros({2});
  st::index_put_(d, Idx{L1({1, 1, 1})}, make1({1, 2, 3}));
  expect_close(values(d), {0, 3});
}

TEST(NativeIndexing, IndexPutFunctionalOutAndErrors) {
  using Idx = std::vector<std::optional<Tensor>>;
  Tensor a = st::arange(4, ScalarType::Float);
  Tensor r = st::index_put(a, Idx{L1({1})}, make({9}, {}));
  expect_close(values(r), {0, 9, 2, 3});
  expect_close(values(a), {0, 1, 2, 3});  // the functional form leaves self alone
  Tensor out = st::empty({0});
  st::index_put_out(out, a, Idx{L1({0, 0})}, make1({1, 1}), true);
  expect_close(values(out), {2, 1, 2, 3});
  // No index at all: values fill self (broadcast), as self[...] = values.
  Tensor all = st::zeros({2, 2});
  st::index_put_(all, Idx{}, make1({1, 2}));
  expect_close(values(all), {1, 2, 1, 2});
  // Values that alias self are read before anything is written.
  Tensor s = st::arange(4, ScalarType::Float);
  st::index_put_(s, Idx{L1({1, 2, 3, 0})}, s);
  expect_close(values(s), {3, 0, 1, 2});
  // Empty index: nothing written, still checked.
  Tensor e = st::zeros({3});
  st::index_put_(e, Idx{st::empty({0}, ScalarType::Long)}, make({1}, {}));
  expect_close(values(e), {0, 0, 0});
  EXPECT_NATIVE_ERROR(st::index_put_(e, Idx{L1({3})}, make({1}, {})),
                      "index 3 is out of bounds for dimension 0 with size 3");
  expect_close(values(e), {0, 0, 0});  // an out-of-bounds index writes nothing
  EXPECT_NATIVE_ERROR(st::index_put_(e, Idx{L1({0})}, make({1}, {}, ScalarType::Double)),
                      "Index put requires the source and destination dtypes match, got Float "
                      "for the destination and Double for the source.");
  EXPECT_NATIVE_ERROR(st::index_put_(e, Idx{L1({0, 1})}, make1({1, 2, 3})),
                      "shape mismatch: value tensor of shape [3] cannot be broadcast to indexing "
                      "result of shape [2]");
  EXPECT_NATIVE_ERROR(st::index_put_(e, Idx{L1({0}), L1({0})}, make({1}, {})),
                      "too many indices for tensor of dimension 1 (got 2)");
  EXPECT_NATIVE_ERROR(st::index_put_(e, Idx{make1({0})}, make({1}, {})),
                      "tensors used as indices must be long, int, byte or bool tensors");
  EXPECT_NATIVE_ERROR(st::index_put_(e, Idx{make1({1, 0}, ScalarType::Bool)}, make({1}, {})),
                      "The shape of the mask [2] at index 0 does not match");
}

// nonzero is column-major [n, ndim] (strides [1, n]), as PyTorch's.
TEST(NativeIndexing, NonzeroIsColumnMajor) {
  Tensor a = make({0, 1, 1, 0, 0, 1}, {2, 3});
  Tensor nz = st::nonzero(a);
  EXPECT_EQ(shape(nz), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(strides_of(nz), (std::vector<int64_t>{1, 3}));
  expect_close(values(nz), {0, 1, 0, 2, 1, 2});
  Tensor out = st::empty({0}, ScalarType::Long);
  st::nonzero_out(out, a);
  EXPECT_EQ(strides_of(out), (std::vector<int64_t>{1, 3}));
  expect_close(values(out), {0, 1, 0, 2, 1, 2});
}

// scatter's out= writes into out itself when it can (self copied in, then
// scattered), and computes apart when out shares memory with an input.
TEST(NativeIndexing, ScatterOutWritesIntoOut) {
  Tensor self = make({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor idx = L({2, 0}, {2, 1});
  Tensor src = make({10, 20, 30, 40, 50, 60}, {2, 3});
  // A sized out keeps its storage and its (transposed) strides.
  Tensor out = st::t(st::zeros({3, 2}));
  const void* before = out.const_data_ptr();
  st::scatter_out(out, self, 1, idx, src);
  EXPECT_EQ(out.const_data_ptr(), before);
  EXPECT_EQ(strides_of(out), (std::vector<int64_t>{1, 2}));
  expect_close(values(out), {1, 2, 10, 40, 5, 6});
  expect_close(values(self), {1, 2, 3, 4, 5, 6});  // self unchanged
  st::scatter_out(out, self, 1, idx, 7.0);
  expect_close(values(out), {1, 2, 7, 7, 5, 6});
  // out is src: every read of src comes before out is written.
  Tensor both = make({10, 20, 30, 40, 50, 60}, {2, 3});
  st::scatter_out(both, self, 1, idx, both);
  expect_close(values(both), {1, 2, 10, 40, 5, 6});
  // out is self: the same as scatter_.
  Tensor s2 = make({1, 2, 3, 4, 5, 6}, {2, 3});
  st::scatter_out(s2, s2, 1, idx, src);
  expect_close(values(s2), {1, 2, 10, 40, 5, 6});
  // A bad argument leaves out untouched; a wrong out dtype is named.
  Tensor kept = st::zeros({2, 3});
  EXPECT_NATIVE_ERROR(st::scatter_out(kept, self, 1, idx, st::ones({2, 3}, ScalarType::Double)),
                      "scatter(): Expected self.dtype to be equal to src.dtype");
  expect_close(values(kept), {0, 0, 0, 0, 0, 0});
  Tensor wrong = st::zeros({2, 3}, ScalarType::Double);
  EXPECT_NATIVE_ERROR(st::scatter_out(wrong, self, 1, idx, src),
                      "scatter(): Expected out tensor to have dtype Float, but got Double");
}

// index.Tensor's result takes the dim order of self and the indices
// (PyTorch's elementwise pass); scatter's result is contiguous.
TEST(NativeIndexing, ResultLayoutsMatchPyTorch) {
  // self [2, 3, 4] with strides [1, 2, 6]; index along dim 0.
  Tensor self = st::permute(st::reshape(st::arange(24, ScalarType::Float), {4, 3, 2}), {2, 1, 0});
  Tensor r = st::index(self, {std::optional<Tensor>(L1({1, 0}))});
  EXPECT_EQ(strides_of(r), (std::vector<int64_t>{12, 1, 3}));
  expect_close(values(st::select(r, 0, 0)), values(st::select(self, 0, 1)));
  expect_close(values(st::select(r, 0, 1)), values(st::select(self, 0, 0)));
  Tensor out = st::empty({0});
  st::index_out(out, self, {std::optional<Tensor>(L1({1, 0}))});
  EXPECT_EQ(strides_of(out), (std::vector<int64_t>{12, 1, 3}));
  // index_put.out resizes out contiguous, whatever self's layout.
  Tensor put = st::empty({0});
  st::index_put_out(put, self, {std::optional<Tensor>(L1({0}))}, make({7}, {}), false);
  EXPECT_EQ(strides_of(put), (std::vector<int64_t>{12, 4, 1}));
  expect_close(values(st::select(put, 0, 1)), values(st::select(self, 0, 1)));
  Tensor t = st::t(st::zeros({3, 2}));  // [2, 3], strides [1, 2]
  Tensor s = st::scatter(t, 1, L({1, 2}, {2, 1}), make({5, 6}, {2, 1}));
  EXPECT_TRUE(s.is_contiguous());
  expect_close(values(s), {0, 5, 0, 0, 0, 6});
}

}  // namespace
