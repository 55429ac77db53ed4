// mm, bmm, addmm, matmul, mv, dot: hand-computed values, every layout the
// GEMM handles without a copy and those it copies, dtypes on both the
// oneDNN path (float, double) and the blocked loop, and the errors.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <st/native/tensor_iterator.h>

#include "native/random_tensors.h"

namespace {

using namespace st_native_test;

// Row-major [m, k] x [k, n] in double.
std::vector<double> naive_mm(const std::vector<double>& a, const std::vector<double>& b, int64_t m,
                             int64_t k, int64_t n) {
  std::vector<double> c(static_cast<size_t>(m * n), 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p)
      for (int64_t j = 0; j < n; ++j) c[i * n + j] += a[i * k + p] * b[p * n + j];
  return c;
}

TEST(NativeLinearAlgebra, MmHandComputedEveryDtype) {
  for (ScalarType dt :
       {ScalarType::Float, ScalarType::Double, ScalarType::Half, ScalarType::BFloat16,
        ScalarType::Long, ScalarType::Int, ScalarType::ComplexFloat, ScalarType::ComplexDouble}) {
    Tensor a = make({1, 2, 3, 4, 5, 6}, {2, 3}, dt);
    Tensor b = make({7, 8, 9, 10, 11, 12}, {3, 2}, dt);
    Tensor c = st::mm(a, b);
    EXPECT_EQ(c.dtype(), dt);
    EXPECT_EQ(shape(c), (std::vector<int64_t>{2, 2}));
    expect_close(values(c), {58, 64, 139, 154});
    expect_close(values(st::mm(a, b)), {58, 64, 139, 154});
  }
  // complex: (1+2i)(3-i) = 5+5i
  Tensor ca = st::view(make({1, 2}, {1, 1, 2}, ScalarType::Float), ScalarType::ComplexFloat);
  Tensor cb = st::view(make({3, -1}, {1, 1, 2}, ScalarType::Float), ScalarType::ComplexFloat);
  auto cv = cvalues(st::mm(st::reshape(ca, {1, 1}), st::reshape(cb, {1, 1})));
  EXPECT_EQ(cv[0], std::complex<double>(5, 5));
  EXPECT_NATIVE_ERROR(
      st::mm(make({1}, {1, 1}, ScalarType::Bool), make({1}, {1, 1}, ScalarType::Bool)),
      "\"mm\" not implemented for 'Bool'");
}

TEST(NativeLinearAlgebra, MmLayoutsAndThreads) {
  std::mt19937 g(7);
  for (ScalarType dt :
       {ScalarType::Float, ScalarType::Double, ScalarType::Long, ScalarType::Half}) {
    for (int trial = 0; trial < 40; ++trial) {
      const int64_t m = std::uniform_int_distribution<int64_t>(0, 9)(g);
      const int64_t k = std::uniform_int_distribution<int64_t>(0, 9)(g);
      const int64_t n = std::uniform_int_distribution<int64_t>(0, 9)(g);
      Tensor a = random_ints(g, {m, k}, dt);
      Tensor b = random_ints(g, {k, n}, dt);
      const auto want = naive_mm(values(a), values(b), m, k, n);
      for (int la = 0; la < 3; ++la) {
        for (int lb = 0; lb < 3; ++lb) {
          Tensor c = st::mm(relayout(a, la), relayout(b, lb));
          ASSERT_EQ(shape(c), (std::vector<int64_t>{m, n}));
          expect_close(values(c), want, 0);
        }
      }
      // out= in a transposed (column-major) layout, filled with NaN first
      // where the dtype has one: beta = 0 must not read it.
      Tensor out = relayout(st::empty({m, n}, dt), 1);
      if (dt != ScalarType::Long) st::fill_(out, std::numeric_limits<double>::quiet_NaN());
      st::mm_out(out, a, b);
      expect_close(values(out), want, 0);
    }
  }
  // Larger float products go through oneDNN with several threads or one;
  // the results agree with the double reference.
  Tensor a = random_ints(g, {70, 130}, ScalarType::Float);
  Tensor b = random_ints(g, {130, 90}, ScalarType::Float);
  const auto want = naive_mm(values(a), values(b), 70, 130, 90);
  {
    ThreadCount one(1);
    expect_close(values(st::mm(a, b)), want, 0);
  }
  {
    ThreadCount two(2);
    expect_close(values(st::mm(st::t(st::contiguous(st::t(a))), b)), want, 0);
  }
}

TEST(NativeLinearAlgebra, MmErrors) {
  Tensor a = st::ones({2, 3});
  EXPECT_NATIVE_ERROR(st::mm(a, st::ones({4, 2})),
                      "mm: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x2)");
  EXPECT_NATIVE_ERROR(st::mm(st::ones({3}), a), "mm: self must be a matrix, got 1-D tensor");
  EXPECT_NATIVE_ERROR(st::mm(a, st::ones({3})), "mm: mat2 must be a matrix, got 1-D tensor");
  EXPECT_NATIVE_ERROR(
      st::mm(a, st::ones({3, 2}, ScalarType::Double)),
      "mm: expected mat1 and mat2 to have the same dtype, but got: Float != Double");
  Tensor out = st::empty({2, 2}, ScalarType::Double);
  EXPECT_NATIVE_ERROR(st::mm_out(out, a, st::ones({3, 2})),
                      "mm: Expected out tensor to have dtype Float, but got Double instead");
}

TEST(NativeLinearAlgebra, MmOutAliasingAnInput) {
  Tensor a = make({1, 2, 3, 4}, {2, 2});
  Tensor b = make({5, 6, 7, 8}, {2, 2});
  st::mm_out(a, a, b);  // goes through a temporary
  expect_close(values(a), {19, 22, 43, 50});
}

TEST(NativeLinearAlgebra, MatmulOutWritesIntoOut) {
  const Tensor a = make({1, 2, 3, 4, 5, 6}, {2, 3});
  const Tensor b = make({1, 0, 2, 1, 0, 3}, {3, 2});
  const Tensor v = make({1, 0, 2}, {3});
  // Sized and typed right: the product lands in out's own storage.
  Tensor out = st::empty({2, 2});
  const void* storage = out.const_data_ptr();
  st::matmul_out(out, a, b);
  EXPECT_EQ(out.const_data_ptr(), storage);
  expect_close(values(out), values(st::matmul(a, b)), 0);
  Tensor column = st::empty({2});
  storage = column.const_data_ptr();
  st::matmul_out(column, a, v);
  EXPECT_EQ(column.const_data_ptr(), storage);
  expect_close(values(column), {7, 16}, 0);
  // Resized from empty, strided out, and out aliasing an input.
  Tensor grown = st::empty({0});
  st::matmul_out(grown, a, b);
  EXPECT_EQ(shape(grown), (std::vector<int64_t>{2, 2}));
  expect_close(values(grown), values(out), 0);
  Tensor wide = st::zeros({2, 4});
  Tensor every_other = st::slice(wide, 1, 0, 4, 2);
  st::matmul_out(every_other, a, b);
  expect_close(values(wide),
               {values(out)[0], 0, values(out)[1], 0, values(out)[2], 0, values(out)[3], 0}, 0);
  Tensor square = make({1, 2, 3, 4}, {2, 2});
  st::matmul_out(square, square, make({5, 6, 7, 8}, {2, 2}));
  expect_close(values(square), {19, 22, 43, 50}, 0);
  // The errors of an out of another dtype, and of shapes that do not match.
  Tensor wrong = st::empty({2, 2}, ScalarType::Double);
  EXPECT_NATIVE_ERROR(st::matmul_out(wrong, a, b),
                      "matmul: Expected out tensor to have dtype Float, but got Double instead");
  EXPECT_NATIVE_ERROR(st::matmul_out(out, a, a), "cannot be multiplied");
}

TEST(NativeLinearAlgebra, Bmm) {
  std::mt19937 g(11);
  for (ScalarType dt :
       {ScalarType::Float, ScalarType::Double, ScalarType::Int, ScalarType::BFloat16}) {
    Tensor a = random_ints(g, {3, 4, 5}, dt);
    Tensor b = random_ints(g, {3, 5, 2}, dt);
    Tensor c = st::bmm(relayout(a, 1), relayout(b, 2));
    ASSERT_EQ(shape(c), (std::vector<int64_t>{3, 4, 2}));
    const auto va = values(a), vb = values(b), vc = values(c);
    for (int64_t i = 0; i < 3; ++i) {
      std::vector<double> ai(va.begin() + i * 20, va.begin() + (i + 1) * 20);
      std::vector<double> bi(vb.begin() + i * 10, vb.begin() + (i + 1) * 10);
      std::vector<double> ci(vc.begin() + i * 8, vc.begin() + (i + 1) * 8);
      expect_close(ci, naive_mm(ai, bi, 4, 5, 2), 0);
    }
  }
  // a broadcast (stride-0) batch
  Tensor m = make({1, 2, 3, 4}, {1, 2, 2});
  Tensor e = st::expand(m, {3, 2, 2});
  Tensor r = st::bmm(e, st::ones({3, 2, 1}));
  expect_close(values(r), {3, 7, 3, 7, 3, 7});
  EXPECT_EQ(shape(st::bmm(st::empty({0, 2, 3}), st::empty({0, 3, 4}))),
            (std::vector<int64_t>{0, 2, 4}));
  expect_close(values(st::bmm(st::empty({2, 2, 0}), st::empty({2, 0, 1}))), {0, 0, 0, 0});
  EXPECT_NATIVE_ERROR(st::bmm(st::ones({2, 3}), st::ones({2, 3, 4})),
                      "bmm: batch1 must be a 3D tensor");
  EXPECT_NATIVE_ERROR(
      st::bmm(st::ones({2, 2, 3}), st::ones({2, 4, 4})),
      "Expected size for first two dimensions of batch2 tensor to be: [2, 3] but got: [2, 4].");
  Tensor out = st::empty({0});
  st::bmm_out(out, e, st::ones({3, 2, 1}));
  expect_close(values(out), {3, 7, 3, 7, 3, 7});
}

TEST(NativeLinearAlgebra, Addmm) {
  Tensor self = make({1, 2}, {2});  // broadcast over rows
  Tensor a = make({1, 2, 3, 4}, {2, 2});
  Tensor b = make({5, 6, 7, 8}, {2, 2});
  expect_close(values(st::addmm(self, a, b)), {20, 24, 44, 52});
  expect_close(values(st::addmm(self, a, b, 2, 3)), {59, 70, 131, 154});
  // beta = 0 ignores self, even NaN
  Tensor nan_self = st::full({2, 2}, std::numeric_limits<double>::quiet_NaN());
  expect_close(values(st::addmm(nan_self, a, b, 0)), {19, 22, 43, 50});
  // in place, on a transposed self
  Tensor s = relayout(make({1, 1, 1, 1}, {2, 2}), 1);
  st::addmm_(s, a, b, 1, -1);
  expect_close(values(s), {-18, -21, -42, -49});
  // integer dtype, blocked loop
  Tensor ai = make({1, 2, 3, 4}, {2, 2}, ScalarType::Long);
  expect_close(values(st::addmm(make({10}, {1}, ScalarType::Long), ai, ai, 1, 2)),
               {24, 30, 40, 54});
  // empty inner dim: beta * self
  expect_close(
      values(st::addmm(make({1, 2, 3, 4}, {2, 2}), st::empty({2, 0}), st::empty({0, 2}), 3)),
      {3, 6, 9, 12});
  Tensor out = st::empty({0});
  st::addmm_out(out, self, a, b);
  expect_close(values(out), {20, 24, 44, 52});
  EXPECT_NATIVE_ERROR(st::addmm(st::ones({3}), a, b), "The size of tensor a (3) must match");
  EXPECT_NATIVE_ERROR(st::addmm_(st::ones({2}), a, b), "addmm_: self must have shape [2, 2]");
  EXPECT_NATIVE_ERROR(st::addmm(st::ones({2, 2}, ScalarType::Double), a, b),
                      "addmm: expected self and mat2 to have the same dtype");
}

TEST(NativeLinearAlgebra, DotMv) {
  expect_close(values(st::dot(make1({1, 2, 3}), make1({4, 5, 6}))), {32});
  EXPECT_EQ(st::dot(make1({1, 2}), make1({3, 4})).dim(), 0);
  expect_close(
      values(st::dot(make1({1, 2, 3}, ScalarType::Int), make1({1, 1, 1}, ScalarType::Int))), {6});
  expect_close(values(st::dot(st::slice(make1({1, 9, 2, 9, 3, 9}), 0, 0, std::nullopt, 2),
                              make1({1, 1, 1}))),
               {6});
  expect_close(values(st::dot(st::empty({0}), st::empty({0}))), {0});
  EXPECT_NATIVE_ERROR(st::dot(st::ones({2, 2}), st::ones({2})),
                      "dot: 1D tensors expected, but got 2D and 1D tensors");
  EXPECT_NATIVE_ERROR(st::dot(st::ones({2}), st::ones({3})), "inconsistent tensor size");
  EXPECT_NATIVE_ERROR(st::dot(st::ones({2}), st::ones({2}, ScalarType::Double)),
                      "dot : expected both vectors to have same dtype, but found Float and Double");
  Tensor o = st::empty({0});
  st::dot_out(o, make1({1, 2}), make1({3, 4}));
  expect_close(values(o), {11});
  expect_close(values(st::mv(make({1, 2, 3, 4, 5, 6}, {2, 3}), make1({1, 0, -1}))), {-2, -2});
  EXPECT_NATIVE_ERROR(st::mv(st::ones({2, 3}), st::ones({2})),
                      "mv: size mismatch, got mat (2x3), vec (2)");
  Tensor mo = st::empty({0});
  st::mv_out(mo, st::ones({2, 3}), st::ones({3}));
  expect_close(values(mo), {3, 3});
}

// Long float and double dots (the per-ISA loop) against a double
// reference, across its 256-product blocks, with a strided operand (the
// scalar loop) giving the same value on integer data, and dot.out's
// dtype check.
TEST(NativeLinearAlgebra, LongDotsMatchADoubleReference) {
  std::mt19937 g(21);
  for (const ScalarType dt : {ScalarType::Float, ScalarType::Double}) {
    for (const int64_t n : {int64_t{1}, int64_t{255}, int64_t{256}, int64_t{257}, int64_t{5000}}) {
      SCOPED_TRACE(std::to_string(n) + " " + torch::headeronly::toString(dt));
      Tensor a = random_ints(g, {n}, dt, -9, 9);
      Tensor b = random_ints(g, {n}, dt, -9, 9);
      const auto va = values(a), vb = values(b);
      double ref = 0;
      for (size_t i = 0; i < va.size(); ++i) ref += va[i] * vb[i];
      // small integers: every partial sum is exact, so all paths agree
      expect_close(values(st::dot(a, b)), {ref}, 0);
      expect_close(values(st::dot(relayout(a, 2), b)), {ref}, 0);
      // both strided: gathered by blocks of 2048 on both sides
      expect_close(values(st::dot(relayout(a, 2), relayout(b, 2))), {ref}, 0);
      Tensor o = st::empty({3}, dt);
      st::dot_out(o, a, b);
      EXPECT_EQ(o.dim(), 0);
      expect_close(values(o), {ref}, 0);
    }
    // non-integer values: within float rounding of the double reference
    const int64_t n = 4099;
    std::uniform_real_distribution<float> u(0, 1);  // exact in both dtypes
    std::vector<double> va(static_cast<size_t>(n)), vb(static_cast<size_t>(n));
    for (auto& x : va) x = u(g);
    for (auto& x : vb) x = u(g);
    Tensor a = make(va, {n}, dt);
    Tensor b = make(vb, {n}, dt);
    double ref = 0;
    for (size_t i = 0; i < va.size(); ++i) ref += va[i] * vb[i];
    const double got = values(st::dot(a, b))[0];
    EXPECT_NEAR(got, ref, (dt == ScalarType::Float ? 1e-6 : 1e-13) * ref);
  }
  EXPECT_NATIVE_ERROR(st::dot_out(st::empty({}, ScalarType::Double), st::ones({4}), st::ones({4})),
                      "dot");
}

// mv and mv.out against mm with vec as a column: every dtype family (the
// library and the loop kernels), self and vec in every layout (an
// expanded vec has stride 0), a strided out, an out that is vec's
// storage, empty operands, and int64 products that wrap.
TEST(NativeLinearAlgebra, MvMatchesMm) {
  std::mt19937 g(9);
  for (const ScalarType dt : {ScalarType::Float, ScalarType::Double, ScalarType::Long,
                              ScalarType::Int, ScalarType::Half}) {
    for (const int64_t m : {int64_t{0}, int64_t{1}, int64_t{7}, int64_t{33}}) {
      for (const int64_t k : {int64_t{0}, int64_t{1}, int64_t{9}}) {
        for (int kind = 0; kind < 3; ++kind) {
          Tensor a = relayout(random_ints(g, {m, k}, dt), kind);
          Tensor v = relayout(random_ints(g, {k}, dt), 2 - kind);
          const auto want = values(st::mm(a, st::unsqueeze(v, 1)));
          expect_close(values(st::mv(a, v)), want, 0);
          Tensor o = relayout(st::zeros({m}, dt), kind);
          st::mv_out(o, a, v);
          expect_close(values(o), want, 0);
          Tensor e = st::expand(random_ints(g, {1}, dt), {k});
          expect_close(values(st::mv(a, e)), values(st::mm(a, st::unsqueeze(e, 1))), 0);
        }
      }
    }
  }
  // out is vec (same storage): the product reads vec before out is written
  Tensor sq = make({1, 2, 3, 4}, {2, 2}, ScalarType::Long);
  Tensor v = make({1, 1}, {2}, ScalarType::Long);
  st::mv_out(v, sq, v);
  expect_close(values(v), {3, 7});
  // int64 products and sums wrap (two's complement), as PyTorch's
  const int64_t big = int64_t{1} << 62;
  Tensor w = make({0, 0}, {1, 2}, ScalarType::Long);
  static_cast<int64_t*>(w.data_ptr())[0] = big;
  static_cast<int64_t*>(w.data_ptr())[1] = big;
  Tensor four = make({4, 4}, {2}, ScalarType::Long);
  EXPECT_EQ(*static_cast<const int64_t*>(st::mv(w, four).const_data_ptr()), 0);
  EXPECT_NATIVE_ERROR(st::mv(st::ones({2, 2}), st::ones({2}, ScalarType::Double)),
                      "mm: expected mat1 and mat2 to have the same dtype");
  Tensor bad = st::empty({0}, ScalarType::Double);
  EXPECT_NATIVE_ERROR(st::mv_out(bad, st::ones({2, 2}), st::ones({2})), "mv");
}

// matmul against bmm on explicitly broadcast operands, for every
// combination of ranks 1..4.
TEST(NativeLinearAlgebra, MatmulAllRanks) {
  std::mt19937 g(5);
  const std::vector<std::vector<int64_t>> lhs = {{3}, {2, 3}, {4, 2, 3}, {2, 1, 2, 3}, {1, 2, 3}};
  const std::vector<std::vector<int64_t>> rhs = {
      {3}, {3, 2}, {4, 3, 2}, {1, 4, 3, 2}, {5, 1, 3, 2}};
  for (const auto& sa : lhs) {
    for (const auto& sb : rhs) {
      Tensor a = random_ints(g, sa, ScalarType::Float);
      Tensor b = random_ints(g, sb, ScalarType::Float);
      Tensor r;
      const std::string err = error_of([&] { r = st::matmul(a, b); });
      // Reference: promote to >= 2-d, broadcast, multiply each matrix.
      Tensor a2 = a.dim() == 1 ? st::unsqueeze(a, 0) : a;
      Tensor b2 = b.dim() == 1 ? st::unsqueeze(b, 1) : b;
      std::vector<int64_t> ba(a2.sizes().begin(), a2.sizes().end() - 2);
      std::vector<int64_t> bb(b2.sizes().begin(), b2.sizes().end() - 2);
      std::vector<int64_t> batch;
      bool broadcastable = true;
      try {
        batch = st::native::infer_size(IntArrayRef(ba), IntArrayRef(bb));
      } catch (const st::Error&) {
        broadcastable = false;
      }
      if (!broadcastable) {
        EXPECT_NE(err.find("must match the size"), std::string::npos) << err;
        continue;
      }
      ASSERT_EQ(err, "<no st::Error>");
      std::vector<int64_t> want_shape(batch);
      if (a.dim() > 1) want_shape.push_back(a2.size(-2 + a2.dim()));
      if (b.dim() > 1) want_shape.push_back(b2.size(-1 + b2.dim()));
      EXPECT_EQ(shape(r), want_shape);
      int64_t nb = 1;
      for (int64_t s : batch) nb *= s;
      std::vector<int64_t> ea(batch), eb(batch);
      ea.insert(ea.end(), {a2.size(-2 + a2.dim()), 3});
      eb.insert(eb.end(), {3, b2.size(-1 + b2.dim())});
      const auto va = values(st::expand(a2, IntArrayRef(ea)));
      const auto vb = values(st::expand(b2, IntArrayRef(eb)));
      const int64_t m = ea[ea.size() - 2], n = eb.back();
      std::vector<double> want;
      for (int64_t i = 0; i < nb; ++i) {
        std::vector<double> ai(va.begin() + i * m * 3, va.begin() + (i + 1) * m * 3);
        std::vector<double> bi(vb.begin() + i * 3 * n, vb.begin() + (i + 1) * 3 * n);
        const auto c = naive_mm(ai, bi, m, 3, n);
        want.insert(want.end(), c.begin(), c.end());
      }
      expect_close(values(r), want, 0);
    }
  }
  EXPECT_NATIVE_ERROR(st::matmul(st::ones({}), st::ones({2})),
                      "both arguments to matmul need to be at least 1D, but they are 0D and 1D");
  EXPECT_NATIVE_ERROR(st::matmul(st::ones({2, 2, 3}), st::ones({4, 2})), "cannot be multiplied");
  Tensor out = st::empty({0});
  st::matmul_out(out, st::ones({2, 2, 3}), st::ones({3}));
  expect_close(values(out), {3, 3, 3, 3});
  EXPECT_EQ(shape(out), (std::vector<int64_t>{2, 2}));
}

}  // namespace
