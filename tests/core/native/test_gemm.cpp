// The matrix product kernel (core/src/native/gemm.cpp), reached through
// mm, addmm and bmm: for every GEMM dtype, operands handed over transposed
// or with a leading dimension larger than their rows, column-major outputs
// with such a leading dimension, beta == 0 ignoring NaN already in C (also
// with an empty inner dimension, where no product runs), alpha and beta
// scaling, and a product wider than the blocked loop's column strip.
// (Hand-computed values, random layouts and the argument errors of the
// operators are in test_linear_algebra.cpp.)
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "native/random_tensors.h"

namespace {

using namespace st_native_test;

const std::vector<ScalarType> kGemmDtypes = {
    ScalarType::Float,        ScalarType::Double,       ScalarType::Half,  ScalarType::BFloat16,
    ScalarType::Long,         ScalarType::Int,          ScalarType::Short, ScalarType::Byte,
    ScalarType::ComplexFloat, ScalarType::ComplexDouble};

bool has_nan(ScalarType dt) {
  return dt == ScalarType::Float || dt == ScalarType::Double || dt == ScalarType::Half ||
         dt == ScalarType::BFloat16 || dt == ScalarType::ComplexFloat ||
         dt == ScalarType::ComplexDouble;
}

// Row-major [m, k] x [k, n] in double.
std::vector<double> reference(const std::vector<double>& a, const std::vector<double>& b, int64_t m,
                              int64_t k, int64_t n) {
  std::vector<double> c(static_cast<size_t>(m * n), 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t p = 0; p < k; ++p)
      for (int64_t j = 0; j < n; ++j) c[i * n + j] += a[i * k + p] * b[p * n + j];
  return c;
}

// t's values in a [rows, cols] view whose rows are `ld` elements apart
// (ld > cols: a leading dimension larger than the row).
Tensor with_row_ld(const Tensor& t, int64_t ld) {
  Tensor big = st::empty({t.size(0), ld}, t.dtype());
  Tensor v = st::narrow(big, 1, 0, t.size(1));
  st::copy_(v, t);
  return v;
}

// t's values stored column-major, columns `ld` elements apart (ld > rows).
Tensor with_col_ld(const Tensor& t, int64_t ld) {
  Tensor big = st::empty({t.size(1), ld}, t.dtype());
  Tensor v = st::t(st::narrow(big, 1, 0, t.size(0)));
  st::copy_(v, t);
  return v;
}

// An out/self tensor of `shape`, column-major with leading dimension ld,
// filled with `fill` (NaN where the dtype has it).
Tensor column_major_filled(int64_t rows, int64_t cols, int64_t ld, ScalarType dt, double fill) {
  Tensor big = st::full({cols, ld}, fill, dt);
  return st::t(st::narrow(big, 1, 0, rows));
}

double nan_or(ScalarType dt, double other) {
  return has_nan(dt) ? std::numeric_limits<double>::quiet_NaN() : other;
}

TEST(Gemm, TransposedAndLeadingDimensionOperandsEveryDtype) {
  std::mt19937 g(3);
  const int64_t m = 5, k = 4, n = 3;
  for (ScalarType dt : kGemmDtypes) {
    const int lo = dt == ScalarType::Byte ? 0 : -3;
    Tensor a = random_ints(g, {m, k}, dt, lo, 3);
    Tensor b = random_ints(g, {k, n}, dt, lo, 3);
    std::vector<double> want = reference(values(a), values(b), m, k, n);
    if (dt == ScalarType::Byte) {
      for (double& w : want) w = std::fmod(w, 256.0);
    }
    const std::vector<Tensor> as = {a, with_row_ld(a, k + 3), with_col_ld(a, m + 2)};
    const std::vector<Tensor> bs = {b, with_row_ld(b, n + 5), with_col_ld(b, k + 1)};
    for (size_t ia = 0; ia < as.size(); ++ia) {
      for (size_t ib = 0; ib < bs.size(); ++ib) {
        expect_close(values(st::mm(as[ia], bs[ib])), want, 0);
        // into a column-major out with a gap after every column
        Tensor out = column_major_filled(m, n, m + 4, dt, nan_or(dt, 77));
        st::mm_out(out, as[ia], bs[ib]);
        EXPECT_EQ(out.stride(0), 1);
        expect_close(values(out), want, 0);
      }
    }
  }
}

TEST(Gemm, BetaZeroIgnoresNanInCEveryDtype) {
  for (ScalarType dt : kGemmDtypes) {
    Tensor a = make({1, 2, 3, 4, 5, 6}, {2, 3}, dt);
    Tensor b = make({1, 0, 0, 1, 1, 1}, {3, 2}, dt);
    const double bad = nan_or(dt, 99);
    // row-major self
    Tensor self = st::full({2, 2}, bad, dt);
    expect_close(values(st::addmm(self, a, b, 0)), {4, 5, 10, 11}, 0);
    // in place, row-major with a leading dimension, and column-major
    Tensor s1 = st::narrow(st::full({2, 5}, bad, dt), 1, 0, 2);
    st::addmm_(s1, a, b, 0, 1);
    expect_close(values(s1), {4, 5, 10, 11}, 0);
    Tensor s2 = column_major_filled(2, 2, 3, dt, bad);
    st::addmm_(s2, a, b, 0, 2);
    expect_close(values(s2), {8, 10, 20, 22}, 0);
    // an empty inner dimension: no product runs, C is still written
    Tensor s3 = st::full({2, 2}, bad, dt);
    expect_close(values(st::addmm(s3, st::empty({2, 0}, dt), st::empty({0, 2}, dt), 0)),
                 {0, 0, 0, 0}, 0);
    // bmm into an out full of NaN
    Tensor out = st::full({2, 2, 2}, bad, dt);
    st::bmm_out(out, st::stack({a, a}), st::stack({b, b}));
    expect_close(values(out), {4, 5, 10, 11, 4, 5, 10, 11}, 0);
  }
}

TEST(Gemm, AlphaAndBetaScaleEveryDtype) {
  for (ScalarType dt : kGemmDtypes) {
    Tensor a = make({1, 2, 3, 4}, {2, 2}, dt);
    Tensor b = make({1, 1, 0, 1}, {2, 2}, dt);  // a @ b = [[1, 3], [3, 7]]
    Tensor self = make({1, 1, 1, 1}, {2, 2}, dt);
    // 2 * self + 3 * (a @ b)
    expect_close(values(st::addmm(self, a, b, 2, 3)), {5, 11, 11, 23}, 0);
    // the same into a column-major self with a leading dimension
    Tensor s = column_major_filled(2, 2, 4, dt, 1);
    st::addmm_(s, a, b, 2, 3);
    expect_close(values(s), {5, 11, 11, 23}, 0);
    // alpha == 0 keeps beta * self
    expect_close(values(st::addmm(self, a, b, 3, 0)), {3, 3, 3, 3}, 0);
  }
}

TEST(Gemm, WiderThanOneColumnStrip) {
  // n past the blocked loop's strip of columns, with a leading dimension.
  std::mt19937 g(5);
  const int64_t m = 3, k = 7, n = 300;
  for (ScalarType dt :
       {ScalarType::Long, ScalarType::Float, ScalarType::Double, ScalarType::BFloat16}) {
    Tensor a = random_ints(g, {m, k}, dt, -2, 2);
    Tensor b = random_ints(g, {k, n}, dt, -2, 2);
    const std::vector<double> want = reference(values(a), values(b), m, k, n);
    expect_close(values(st::mm(a, with_row_ld(b, n + 9))), want, 0);
    expect_close(values(st::mm(with_col_ld(a, m + 1), with_col_ld(b, k + 2))), want, 0);
    Tensor out = column_major_filled(m, n, m + 1, dt, nan_or(dt, 5));
    st::mm_out(out, a, b);
    expect_close(values(out), want, 0);
  }
}

TEST(Gemm, LargerThanOneBlockEveryWay) {
  // m, k and n each past the blocked loop's block (rows, inner dim,
  // columns), B both row-major and column-major; sums stay exact.
  std::mt19937 g(11);
  const int64_t m = 70, k = 130, n = 260;
  for (ScalarType dt :
       {ScalarType::Long, ScalarType::Int, ScalarType::Half, ScalarType::ComplexFloat}) {
    SCOPED_TRACE(static_cast<int>(dt));
    const int64_t range = dt == ScalarType::Long || dt == ScalarType::Int ? 1000 : 3;
    Tensor a = random_ints(g, {m, k}, dt, -range, range);
    Tensor b = random_ints(g, {k, n}, dt, -range, range);
    const std::vector<double> want = reference(values(a), values(b), m, k, n);
    expect_close(values(st::mm(a, b)), want, 0);
    expect_close(values(st::mm(a, with_col_ld(b, k + 3))), want, 0);
  }
}

TEST(Gemm, BatchedColumnMajorOutWithLeadingDimension) {
  std::mt19937 g(9);
  for (ScalarType dt :
       {ScalarType::Float, ScalarType::Double, ScalarType::Int, ScalarType::ComplexFloat}) {
    Tensor a = random_ints(g, {2, 3, 4}, dt);
    Tensor b = random_ints(g, {2, 4, 5}, dt);
    // out[i] column-major, columns 6 apart, batches 40 apart
    Tensor big = st::full({2, 5, 8}, nan_or(dt, 7), dt);
    Tensor out = st::transpose(st::narrow(big, 2, 0, 3), 1, 2);
    ASSERT_EQ(shape(out), (std::vector<int64_t>{2, 3, 5}));
    st::bmm_out(out, st::transpose(st::contiguous(st::transpose(a, 1, 2)), 1, 2), b);
    const auto va = values(a), vb = values(b), vo = values(out);
    for (int64_t i = 0; i < 2; ++i) {
      std::vector<double> ai(va.begin() + i * 12, va.begin() + (i + 1) * 12);
      std::vector<double> bi(vb.begin() + i * 20, vb.begin() + (i + 1) * 20);
      std::vector<double> oi(vo.begin() + i * 15, vo.begin() + (i + 1) * 15);
      expect_close(oi, reference(ai, bi, 3, 4, 5), 0);
    }
    // the padding columns past the view were not written
    Tensor pad = st::narrow(big, 2, 3, 5);
    for (double v : values(pad)) {
      if (has_nan(dt)) {
        EXPECT_TRUE(std::isnan(v));
      } else {
        EXPECT_EQ(v, 7);
      }
    }
  }
}

// ---- double: the packed blocked product ----

TEST(Gemm, DoubleProductsAcrossEveryBlockBoundary) {
  // m past a row block (96 rows on AVX-512) and not a whole number of
  // tiles, k past two blocks of depth (128), n past a block of columns
  // (1024) and not a whole number of tiles: small integers, so every
  // partial sum is exact and the product is compared exactly.
  std::mt19937 g(23);
  const int64_t m = 101, k = 300, n = 1030;
  const ScalarType dt = ScalarType::Double;
  Tensor a = random_ints(g, {m, k}, dt, -3, 3);
  Tensor b = random_ints(g, {k, n}, dt, -3, 3);
  const std::vector<double> want = reference(values(a), values(b), m, k, n);
  expect_close(values(st::mm(a, b)), want, 0);
  expect_close(values(st::mm(with_col_ld(a, m + 5), with_col_ld(b, k + 1))), want, 0);
  expect_close(values(st::mm(with_row_ld(a, k + 7), b)), want, 0);
  Tensor out = column_major_filled(m, n, m + 2, dt, std::nan(""));
  st::mm_out(out, a, b);
  expect_close(values(out), want, 0);
  // beta scales C once, in the first block of depth; the later ones add.
  Tensor self = random_ints(g, {m, n}, dt, -5, 5);
  std::vector<double> want_addmm = values(self);
  for (size_t i = 0; i < want_addmm.size(); ++i) want_addmm[i] = 2 * want_addmm[i] + 3 * want[i];
  expect_close(values(st::addmm(self, a, b, 2, 3)), want_addmm, 0);
}

TEST(Gemm, DoubleMatrixVectorProductsEveryWayRound) {
  // A column or a row vector on either side, the matrix row- or
  // column-major, the vector contiguous or every other element, more
  // lines than one block of the accumulation (1,024), k not a multiple of
  // four: dot products, accumulated lines, and the strided fallback.
  std::mt19937 g(31);
  const ScalarType dt = ScalarType::Double;
  const int64_t m = 1100, k = 37;
  Tensor a = random_ints(g, {m, k}, dt, -3, 3);
  Tensor v = random_ints(g, {k, 1}, dt, -3, 3);
  Tensor w = random_ints(g, {1, m}, dt, -3, 3);
  const std::vector<double> av = reference(values(a), values(v), m, k, 1);
  const std::vector<double> wa = reference(values(w), values(a), 1, m, k);
  // v every other element of a longer column
  Tensor v2 = st::slice(st::empty({2 * k, 1}, dt), 0, 0, std::nullopt, 2);
  st::copy_(v2, v);
  Tensor w2 = st::slice(st::empty({1, 2 * m}, dt), 1, 0, std::nullopt, 2);
  st::copy_(w2, w);
  for (const Tensor& mat : {a, with_col_ld(a, m + 3), with_row_ld(a, k + 2)}) {
    for (const Tensor& col : {v, v2}) expect_close(values(st::mm(mat, col)), av, 0);
    for (const Tensor& row : {w, w2}) expect_close(values(st::mm(row, mat)), wa, 0);
  }
  // alpha and beta; beta == 0 ignores NaN in self
  Tensor self = random_ints(g, {m, 1}, dt, -5, 5);
  std::vector<double> want = values(self);
  for (size_t i = 0; i < want.size(); ++i) want[i] = 2 * want[i] + 3 * av[i];
  expect_close(values(st::addmm(self, a, v, 2, 3)), want, 0);
  Tensor nan_self = st::full({1, k}, std::nan(""), dt);
  expect_close(values(st::addmm(nan_self, w, a, 0, 1)), wa, 0);
}

TEST(Gemm, DoubleAlphaZeroReadsNeitherOperand) {
  // As BLAS: with alpha == 0 the product is not formed, so NaN in A or B
  // does not reach C = beta * C.
  const ScalarType dt = ScalarType::Double;
  Tensor a = st::full({40, 50}, std::nan(""), dt), b = st::full({50, 30}, 1.0, dt);
  Tensor self = st::full({40, 30}, 4.0, dt);
  expect_close(values(st::addmm(self, a, b, 0.5, 0)), std::vector<double>(40 * 30, 2.0), 0);
}

TEST(Gemm, DoubleProductDoesNotDependOnTheThreadCount) {
  // Rows are split over threads and every element sums in the same order.
  std::mt19937_64 g(29);
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  const int64_t m = 250, k = 270, n = 130;
  Tensor a = st::empty({m, k}, ScalarType::Double), b = st::empty({k, n}, ScalarType::Double);
  for (Tensor* t : {&a, &b}) {
    auto* p = static_cast<double*>(t->data_ptr());
    for (int64_t i = 0; i < t->numel(); ++i) p[i] = d(g);
  }
  Tensor one, two;
  {
    ThreadCount threads(1);
    one = st::mm(a, b);
  }
  {
    ThreadCount threads(2);
    two = st::mm(a, b);
  }
  EXPECT_EQ(std::memcmp(one.const_data_ptr(), two.const_data_ptr(), m * n * sizeof(double)), 0);
  // And the sums are those of the products, to rounding.
  const std::vector<double> want = reference(values(a), values(b), m, k, n);
  expect_close(values(one), want, 1e-12);
}

// ---- integer products: the float GEMM within its bound, the loop past it ----

// A [rows, cols] tensor of T with integers uniform in [lo, hi].
template <typename T>
Tensor int_matrix(std::mt19937_64& g, int64_t rows, int64_t cols, ScalarType dt, int64_t lo,
                  int64_t hi) {
  std::uniform_int_distribution<int64_t> d(lo, hi);
  std::vector<T> v(static_cast<size_t>(rows * cols));
  for (T& x : v) x = static_cast<T>(d(g));
  Tensor t = st::empty({rows, cols}, dt);
  std::memcpy(t.data_ptr(), v.data(), v.size() * sizeof(T));
  return t;
}

template <typename T>
std::vector<T> elements(const Tensor& t) {
  Tensor c = st::contiguous(t);
  std::vector<T> v(static_cast<size_t>(c.numel()));
  std::memcpy(v.data(), c.const_data_ptr(), v.size() * sizeof(T));
  return v;
}

// alpha * a @ b + beta * c with every sum taken exactly (mod 2^64, in
// which the sign-extended products are exact) and wrapped to T's width:
// what every path of an integer product must give.
template <typename T>
std::vector<T> wrapped_reference(const Tensor& a, const Tensor& b, int64_t alpha, int64_t beta,
                                 const std::vector<T>& c) {
  const int64_t m = a.size(0), k = a.size(1), n = b.size(1);
  const std::vector<T> va = elements<T>(a), vb = elements<T>(b);
  std::vector<T> out(static_cast<size_t>(m * n));
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      uint64_t s = 0;
      for (int64_t p = 0; p < k; ++p) {
        s += static_cast<uint64_t>(static_cast<int64_t>(va[i * k + p])) *
             static_cast<uint64_t>(static_cast<int64_t>(vb[p * n + j]));
      }
      uint64_t v = static_cast<uint64_t>(alpha) * static_cast<uint64_t>(static_cast<T>(s));
      if (beta != 0) {
        v += static_cast<uint64_t>(beta) *
             static_cast<uint64_t>(static_cast<int64_t>(c[static_cast<size_t>(i * n + j)]));
      }
      out[static_cast<size_t>(i * n + j)] = static_cast<T>(v);
    }
  }
  return out;
}

// mm of a and b in four layouts (plain, A column-major, B column-major,
// a column-major out=) and addmm with alpha 3, beta 2: all bit-equal to
// the wrapped exact sums.
template <typename T>
void expect_wrapped_sums(const Tensor& a, const Tensor& b) {
  const ScalarType dt = a.dtype();
  const int64_t m = a.size(0), k = a.size(1), n = b.size(1);
  const std::vector<T> none;
  const std::vector<T> want = wrapped_reference<T>(a, b, 1, 0, none);
  EXPECT_EQ(elements<T>(st::mm(a, b)), want);
  EXPECT_EQ(elements<T>(st::mm(with_col_ld(a, m + 3), b)), want);
  EXPECT_EQ(elements<T>(st::mm(a, with_col_ld(b, k + 1))), want);
  Tensor out = column_major_filled(m, n, m + 2, dt, 7);
  st::mm_out(out, a, b);
  EXPECT_EQ(elements<T>(out), want);
  Tensor self = st::randint(0, 50, {m, n}, dt);
  const std::vector<T> c = elements<T>(self);
  EXPECT_EQ(elements<T>(st::addmm(self, a, b, 2, 3)), wrapped_reference<T>(a, b, 3, 2, c));
}

// Integers uniform in [-range, range] ([0, range] unsigned): on each of
// the three paths when range is chosen for it, and 0 skips one.
template <typename T>
void integer_products_on_every_path(ScalarType dt, int64_t in_float, int64_t in_double,
                                    int64_t past) {
  SCOPED_TRACE(static_cast<int>(dt));
  std::mt19937_64 g(21);
  // Past 48^3 products and 32 in every dim, so a floating path may run.
  const int64_t m = 70, k = 130, n = 90;
  for (int64_t range : {in_float, in_double, past}) {
    if (range == 0) continue;
    SCOPED_TRACE(range);
    const int64_t lo = std::is_signed_v<T> ? -range : 0;
    expect_wrapped_sums<T>(int_matrix<T>(g, m, k, dt, lo, range),
                           int_matrix<T>(g, k, n, dt, lo, range));
  }
}

TEST(Gemm, IntegerProductsGiveTheWrappedExactSumsOnEveryPath) {
  // k * range^2 within 2^24 (130 * 300^2 is 11.7M): the float GEMM;
  // within 2^53 (130 * 2^40): the double GEMM; past it: the blocked loop.
  // Sums past the dtype's width wrap on every path.
  integer_products_on_every_path<int64_t>(ScalarType::Long, 300, int64_t{1} << 20,
                                          int64_t{1} << 40);
  integer_products_on_every_path<int32_t>(ScalarType::Int, 300, int64_t{1} << 20, int64_t{1} << 30);
  integer_products_on_every_path<int16_t>(ScalarType::Short, 300, int64_t{1} << 14, 0);
  integer_products_on_every_path<int8_t>(ScalarType::Char, 127, 0, 0);
  integer_products_on_every_path<uint8_t>(ScalarType::Byte, 255, 0, 0);
}

TEST(Gemm, IntegerProductsAtEachBoundAndJustPastIt) {
  const int64_t m = 48, k = 64, n = 48;
  const auto all = [&](int64_t v) { return std::vector<int64_t>(m * n, v); };
  const auto product = [&](int64_t x, int64_t y) {
    return elements<int64_t>(
        st::mm(st::full({m, k}, x, ScalarType::Long), st::full({k, n}, y, ScalarType::Long)));
  };
  // k * 512 * 512 is 2^24: the float path's largest sums, still exact.
  EXPECT_EQ(product(512, -512), all(-(int64_t{1} << 24)));
  // 4097^2 is odd and past 2^24, so no float holds it: the double path.
  EXPECT_EQ(product(4097, 4097), all(64 * 4097 * 4097));
  // k * (2^23)^2 is 2^52: the double path, exact.
  EXPECT_EQ(product(int64_t{1} << 23, int64_t{1} << 23), all(int64_t{1} << 52));
  // (2^24 + 1)^2 * 64 is 2^54 + 2^31 + 64, which no double holds: the loop.
  const int64_t x = (int64_t{1} << 24) + 1;
  EXPECT_EQ(product(x, x), all((int64_t{1} << 54) + (int64_t{1} << 31) + 64));
  // INT64_MIN's magnitude (2^63) takes the loop, which wraps.
  std::mt19937_64 g(3);
  Tensor a = int_matrix<int64_t>(g, m, k, ScalarType::Long, -3, 3);
  Tensor b = int_matrix<int64_t>(g, k, n, ScalarType::Long, -3, 3);
  static_cast<int64_t*>(a.data_ptr())[5] = std::numeric_limits<int64_t>::min();
  expect_wrapped_sums<int64_t>(a, b);
}

}  // namespace
