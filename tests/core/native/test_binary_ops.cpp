// Binary pointwise operators against hand-computed values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

#include "native/test_helpers.h"
#include "native/float_binary_reference.h"

namespace {

using namespace st_native_test;
const double kInf = std::numeric_limits<double>::infinity();
const double kNan = std::numeric_limits<double>::quiet_NaN();

TEST(NativeBinaryOps, AddSubWithAlpha) {
  Tensor a = make1({1, 2, 3}, ScalarType::Int);
  Tensor b = make1({10, 20, 30}, ScalarType::Int);
  expect_close(values(st::add(a, b, 2)), {21, 42, 63});
  expect_close(values(st::sub(a, b)), {-9, -18, -27});
  expect_close(values(st::subtract(a, b, 3)), {-29, -58, -87});
  expect_close(values(st::sub(a, 1)), {0, 1, 2});
  EXPECT_NATIVE_ERROR(
      st::add(a, b, 1.5),
      "For integral input tensors, argument alpha must not be a floating point number.");
  EXPECT_NATIVE_ERROR(st::sub(make1({1}, ScalarType::Bool), make1({1}, ScalarType::Bool)),
                      "Subtraction, the `-` operator, with two bool tensors is not supported");
  EXPECT_NATIVE_ERROR(st::sub(make1({1}, ScalarType::Bool), make1({1})),
                      "Subtraction, the `-` operator, with a bool tensor is not supported");
  expect_close(values(st::add(make1({0, 1}, ScalarType::Bool), make1({0, 1}, ScalarType::Bool))),
               {0, 1});
  auto c = cvalues(st::add(st::full({1}, Scalar(std::complex<double>(1, 2))), 1, 2));
  EXPECT_EQ(c[0], std::complex<double>(3, 2));
  expect_close(values(st::add(make1({1, 2}, ScalarType::Half), 0.5)), {1.5, 2.5});
  expect_close(
      values(st::add(make1({1, 2}, ScalarType::BFloat16), make1({1, 1}, ScalarType::BFloat16))),
      {2, 3});
  Tensor x = make1({1, 2});
  st::sub_(x, 1);
  expect_close(values(x), {0, 1});
  st::add_(x, make1({1, 1}), 10);
  expect_close(values(x), {10, 11});
}

TEST(NativeBinaryOps, MulDiv) {
  expect_close(values(st::mul(make1({2, 3}, ScalarType::Long), 4)), {8, 12});
  Tensor d = st::div(make1({1, 3}, ScalarType::Long), make1({2, 2}, ScalarType::Long));
  EXPECT_EQ(d.dtype(), ScalarType::Float);
  expect_close(values(d), {0.5, 1.5});
  expect_close(values(st::divide(make1({1, -1, 0}), 0)), {kInf, -kInf, kNan});
  Tensor a = make1({7, -7, 7, -7}, ScalarType::Long);
  Tensor b = make1({2, 2, -2, -2}, ScalarType::Long);
  expect_close(values(st::div(a, b, "trunc")), {3, -3, -3, 3});
  expect_close(values(st::div(a, b, "floor")), {3, -4, -4, 3});
  EXPECT_EQ(st::div(a, b, "floor").dtype(), ScalarType::Long);
  expect_close(values(st::div(make1({7.5, -7.5}), 2, "floor")), {3, -4});
  expect_close(values(st::div(make1({7.5, -7.5}), 2, "trunc")), {3, -3});
  EXPECT_NATIVE_ERROR(
      st::div(a, b, "round"),
      "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found 'round'");
  EXPECT_NATIVE_ERROR(st::div(a, st::zeros({4}, ScalarType::Long), "floor"), "ZeroDivisionError");
  expect_close(values(st::floor_divide(a, b)), {3, -4, -4, 3});
  expect_close(values(st::floor_divide(make1({5.0, -5.0}), 2.0)), {2, -3});
  Tensor i = make1({1, 2}, ScalarType::Long);
  EXPECT_NATIVE_ERROR(st::div_(i, 2),
                      "result type Float can't be cast to the desired output type Long");
}

// Same dtype, sizes and bits, element by element in logical order.
bool same_bits(const Tensor& got, const Tensor& want) {
  const Tensor g = st::contiguous(got), w = st::contiguous(want);
  return g.dtype() == w.dtype() && g.sizes() == w.sizes() &&
         std::memcmp(g.const_data_ptr(), w.const_data_ptr(),
                     static_cast<size_t>(g.numel() * g.itemsize())) == 0;
}

// True division of two integer tensors of one dtype converts both inside
// the loop, block by block: the bits of the division of the inputs
// converted to float first, for every integer dtype, on lengths around the
// 256-element blocks, contiguous, strided and broadcast (a stride-0 row),
// and into a Double out= (through the iterator's float temporary).
TEST(NativeBinaryOps, IntegerTrueDivisionGivesTheBitsOfTheFloatConvertedInputs) {
  for (ScalarType dt : {ScalarType::Long, ScalarType::Int, ScalarType::Short, ScalarType::Char,
                        ScalarType::Byte, ScalarType::Bool, ScalarType::UInt32}) {
    for (int64_t n : {int64_t{1}, int64_t{255}, int64_t{257}, int64_t{1000}}) {
      SCOPED_TRACE(::testing::Message() << torch::headeronly::toString(dt) << " n " << n);
      // Values in [-50, 50] (wrapped into the smaller and unsigned dtypes),
      // zeros among the divisors: x / 0 and 0 / 0.
      Tensor wide =
          st::sub(st::remainder(st::arange(2 * n, ScalarType::Long), 101), Scalar(int64_t{50}));
      const Tensor a = st::to(wide, dt);
      const Tensor b = st::to(st::remainder(st::mul(wide, Scalar(int64_t{7})), 11), dt);
      const Tensor fa = st::to(a, ScalarType::Float), fb = st::to(b, ScalarType::Float);
      const Tensor got = st::div(a, b);
      EXPECT_EQ(got.dtype(), ScalarType::Float);
      EXPECT_TRUE(same_bits(got, st::div(fa, fb)));
      const Tensor sa = a.slice(0, 0, 2 * n, 2), sb = b.slice(0, 1, 2 * n, 2);
      EXPECT_TRUE(same_bits(st::div(sa, sb), st::div(st::contiguous(st::to(sa, ScalarType::Float)),
                                                     st::to(sb, ScalarType::Float))));
      const Tensor row = b.slice(0, 0, 3, 1);  // [3] against [2n/3 rows, 3]
      const Tensor grid = a.slice(0, 0, (2 * n / 3) * 3, 1).view({2 * n / 3, 3});
      if (grid.numel() > 0) {
        EXPECT_TRUE(same_bits(st::div(grid, row), st::div(st::to(grid, ScalarType::Float),
                                                          st::to(row, ScalarType::Float))));
      }
      Tensor out = st::empty({0}, ScalarType::Double);
      st::div_out(out, a, b);
      EXPECT_TRUE(same_bits(out, st::to(st::div(fa, fb), ScalarType::Double)));
    }
  }
}

// Same value and sign (zeros), or both NaN.
bool same_float(double got, float want) {
  if (std::isnan(want)) return std::isnan(got);
  return got == static_cast<double>(want) && std::signbit(got) == std::signbit(want);
}

// The float32 operators run vector loops (vec_math.h; add and sub the
// vec_kernels.h loop) over contiguous rows and gather other layouts into
// buffers; every element must get the scalar
// definition's bits whatever its layout: contiguous rows of 37 (a partial
// last vector), every other element, a broadcast row or column, in place
// and out=.
TEST(NativeBinaryOps, Float32OperatorsMatchTheScalarDefinitionsInEveryLayout) {
  const std::vector<double> special = {0.0,  -0.0,  kInf,   -kInf, kNan, 1,       -1,
                                       7.5,  -7.5,  2.5,    -2.5,  3,    -3,      0.3,
                                       -0.3, 1e-40, -1e-40, 3e38,  1e10, 16777217};
  const int64_t rows = 3, cols = 37;
  std::vector<double> av, bv;
  for (int64_t i = 0; i < rows * cols; ++i) {
    av.push_back(special[static_cast<size_t>(i) % special.size()]);
    bv.push_back(special[static_cast<size_t>(i * 7 + i / special.size()) % special.size()]);
  }
  for (double& v : bv) v = static_cast<float>(v);
  for (double& v : av) v = static_cast<float>(v);
  struct Op {
    const char* name;
    Tensor (*fn)(const Tensor&, const Tensor&);
    Tensor (*inplace)(const Tensor&, const Tensor&);
    Tensor (*out)(const Tensor&, const Tensor&, const Tensor&);
    float (*ref)(float, float);
  };
  const Op ops[] = {
      {"add", [](const Tensor& x, const Tensor& y) { return st::add(x, y); },
       [](const Tensor& x, const Tensor& y) { return st::add_(x, y); },
       [](const Tensor& o, const Tensor& x, const Tensor& y) { return st::add_out(o, x, y); },
       [](float x, float y) { return x + y; }},
      {"add alpha", [](const Tensor& x, const Tensor& y) { return st::add(x, y, 2.5); },
       [](const Tensor& x, const Tensor& y) { return st::add_(x, y, 2.5); },
       [](const Tensor& o, const Tensor& x, const Tensor& y) { return st::add_out(o, x, y, 2.5); },
       [](float x, float y) { return x + 2.5f * y; }},
      {"sub alpha", [](const Tensor& x, const Tensor& y) { return st::sub(x, y, 0.5); },
       [](const Tensor& x, const Tensor& y) { return st::sub_(x, y, 0.5); },
       [](const Tensor& o, const Tensor& x, const Tensor& y) { return st::sub_out(o, x, y, 0.5); },
       [](float x, float y) { return x - 0.5f * y; }},
      {"div", [](const Tensor& x, const Tensor& y) { return st::div(x, y); },
       [](const Tensor& x, const Tensor& y) { return st::div_(x, y); },
       [](const Tensor& o, const Tensor& x, const Tensor& y) { return st::div_out(o, x, y); },
       [](float x, float y) { return x / y; }},
      {"div trunc", [](const Tensor& x, const Tensor& y) { return st::div(x, y, "trunc"); },
       [](const Tensor& x, const Tensor& y) { return st::div_(x, y, "trunc"); },
       [](const Tensor& o, const Tensor& x, const Tensor& y) {
         return st::div_out(o, x, y, "trunc");
       },
       [](float x, float y) { return std::trunc(x / y); }},
      {"div floor", [](const Tensor& x, const Tensor& y) { return st::div(x, y, "floor"); },
       [](const Tensor& x, const Tensor& y) { return st::div_(x, y, "floor"); },
       [](const Tensor& o, const Tensor& x, const Tensor& y) {
         return st::div_out(o, x, y, "floor");
       },
       floor_divide_ref},
      {"mul", [](const Tensor& x, const Tensor& y) { return st::mul(x, y); },
       [](const Tensor& x, const Tensor& y) { return st::mul_(x, y); },
       [](const Tensor& o, const Tensor& x, const Tensor& y) { return st::mul_out(o, x, y); },
       [](float x, float y) { return x * y; }},
      {"remainder", [](const Tensor& x, const Tensor& y) { return st::remainder(x, y); },
       [](const Tensor& x, const Tensor& y) { return st::remainder_(x, y); },
       [](const Tensor& o, const Tensor& x, const Tensor& y) { return st::remainder_out(o, x, y); },
       remainder_ref},
      {"maximum", [](const Tensor& x, const Tensor& y) { return st::maximum(x, y); }, nullptr,
       [](const Tensor& o, const Tensor& x, const Tensor& y) { return st::maximum_out(o, x, y); },
       maximum_ref},
      {"minimum", [](const Tensor& x, const Tensor& y) { return st::minimum(x, y); }, nullptr,
       [](const Tensor& o, const Tensor& x, const Tensor& y) { return st::minimum_out(o, x, y); },
       minimum_ref},
  };
  const Tensor a = make(av, {rows, cols});
  const Tensor b = make(bv, {rows, cols});
  // The same values every other element of a wider tensor.
  auto spread = [&](const std::vector<double>& v) {
    std::vector<double> wide;
    for (double x : v) wide.insert(wide.end(), {x, 99.0});
    return st::slice(make(wide, {rows, 2 * cols}), 1, 0, std::nullopt, 2);
  };
  const Tensor as = spread(av), bs = spread(bv);
  const Tensor brow = st::slice(b, 0, 1, 2);  // row 1 of b, broadcast over a's rows
  for (const Op& op : ops) {
    SCOPED_TRACE(op.name);
    auto check = [&](const Tensor& got, bool row) {
      const std::vector<double> g = values(got);
      ASSERT_EQ(g.size(), av.size());
      for (size_t i = 0; i < g.size(); ++i) {
        const size_t j = row ? static_cast<size_t>(cols) + i % static_cast<size_t>(cols) : i;
        const float want = op.ref(static_cast<float>(av[i]), static_cast<float>(bv[j]));
        ASSERT_TRUE(same_float(g[i], want)) << "at " << i << ": " << av[i] << ", " << bv[j]
                                            << " gave " << g[i] << ", want " << want;
      }
    };
    check(op.fn(a, b), false);
    check(op.fn(as, bs), false);
    check(op.fn(a, brow), true);
    Tensor out = st::empty({0}, ScalarType::Float);
    op.out(out, a, brow);
    check(out, true);
    if (op.inplace != nullptr) {
      Tensor x = st::clone(a);
      op.inplace(x, b);
      check(x, false);
      Tensor y = st::clone(a);
      op.inplace(y, brow);
      check(y, true);
    }
    // A column on either side: stride 0 along each row, whose value is
    // held in a register by the scalar-operand functions (vec_math's, and
    // the add kernel's but for a column first with alpha other than 1), or
    // repeated in a 256-element buffer (rows of 600: two full blocks and a
    // partial one).
    const int64_t wide = 600;
    std::vector<double> wv;
    for (int64_t i = 0; i < 2 * wide; ++i) {
      wv.push_back(static_cast<float>(special[static_cast<size_t>(i * 3) % special.size()]));
    }
    const std::vector<double> cv = {-2.5, 0.3};
    const Tensor w = make(wv, {2, wide});
    const Tensor col = make(cv, {2, 1});
    for (bool col_first : {false, true}) {
      const std::vector<double> g = values(col_first ? op.fn(col, w) : op.fn(w, col));
      for (size_t i = 0; i < g.size(); ++i) {
        const float x = static_cast<float>(wv[i]);
        const float y = static_cast<float>(cv[i / static_cast<size_t>(wide)]);
        const float want = col_first ? op.ref(y, x) : op.ref(x, y);
        ASSERT_TRUE(same_float(g[i], want)) << col_first << " at " << i;
      }
    }
  }
}

// A row broadcast down a tensor's rows: a short row runs several rows per
// call of the vector function (the repeated row laid out in a buffer), a
// long one a call per row straight from the 2-d loop. Either way the bits
// must be those of the same operator on the row expanded into a
// contiguous tensor, with the row on either side, in place and out=, for
// row counts around the short rows that fit one call (256 / 37 = 6), and
// for rows that are a slice of wider ones (the rows' stride is not their
// length).
TEST(NativeBinaryOps, BroadcastRowsGiveTheBitsOfTheExpandedRow) {
  using Fn = Tensor (*)(const Tensor&, const Tensor&);
  const std::pair<const char*, Fn> ops[] = {
      {"add", [](const Tensor& x, const Tensor& y) { return st::add(x, y, 0.5); }},
      {"mul", [](const Tensor& x, const Tensor& y) { return st::mul(x, y); }},
      {"div", [](const Tensor& x, const Tensor& y) { return st::div(x, y); }},
      {"remainder", [](const Tensor& x, const Tensor& y) { return st::remainder(x, y); }},
      {"pow", [](const Tensor& x, const Tensor& y) { return st::pow(x, y); }},
      {"maximum", [](const Tensor& x, const Tensor& y) { return st::maximum(x, y); }},
      {"lt", [](const Tensor& x, const Tensor& y) { return st::lt(x, y); }},
  };
  for (const int64_t cols : {37, 301}) {
    for (const bool sliced : {false, true}) {
      for (int64_t rows : {2, 5, 6, 7, 13, 20}) {
        const int64_t width = sliced ? cols + 11 : cols;
        const Tensor full = st::sub(st::mul(st::rand({rows, width}), Scalar(4.0)), Scalar(2.0));
        const Tensor a = st::slice(full, 1, 0, cols);
        const Tensor row = st::add(st::rand({cols}), Scalar(0.25));
        const Tensor wide = st::contiguous(st::expand(row, {rows, cols}));
        for (const auto& [name, fn] : ops) {
          SCOPED_TRACE(::testing::Message()
                       << name << " rows " << rows << " cols " << cols << " sliced " << sliced);
          EXPECT_TRUE(same_bits(fn(a, row), fn(a, wide)));
          EXPECT_TRUE(same_bits(fn(row, a), fn(wide, a)));
        }
        SCOPED_TRACE(::testing::Message()
                     << "rows " << rows << " cols " << cols << " sliced " << sliced);
        Tensor x = st::clone(full), y = st::clone(full);
        st::mul_(st::slice(x, 1, 0, cols), row);
        st::mul_(st::slice(y, 1, 0, cols), wide);
        EXPECT_TRUE(same_bits(x, y)) << "mul_";
        x = st::clone(full);
        y = st::clone(full);
        st::lt_(st::slice(x, 1, 0, cols), row);
        st::lt_(st::slice(y, 1, 0, cols), wide);
        EXPECT_TRUE(same_bits(x, y)) << "lt_";
        Tensor out = st::empty({0});
        st::div_out(out, row, a);
        EXPECT_TRUE(same_bits(out, st::div(wide, a))) << "div.out";
      }
    }
  }
}

// float64 add and sub take the per-ISA add loop over the iterator's rows
// too: a broadcast row, every other element, in place, out=, an alpha of
// 1 and of another value, on rows of 37 (a partial last vector).
TEST(NativeBinaryOps, Float64AddAndSubMatchTheScalarDefinitionInEveryLayout) {
  const int64_t rows = 3, cols = 37;
  std::vector<double> av, bv, wide;
  for (int64_t i = 0; i < rows * cols; ++i) {
    av.push_back(0.1 * static_cast<double>(i) - 3.3);
    bv.push_back(1.0 / static_cast<double>(i + 7));
  }
  for (double x : bv) wide.insert(wide.end(), {x, 99.0});
  const Tensor a = make(av, {rows, cols}, ScalarType::Double);
  const Tensor b = make(bv, {rows, cols}, ScalarType::Double);
  const Tensor bs =
      st::slice(make(wide, {rows, 2 * cols}, ScalarType::Double), 1, 0, std::nullopt, 2);
  const Tensor brow = st::slice(b, 0, 1, 2);
  for (double alpha : {1.0, -2.5}) {
    SCOPED_TRACE(alpha);
    auto check = [&](const Tensor& got, bool row, double sign) {
      const std::vector<double> g = values(got);
      ASSERT_EQ(g.size(), av.size());
      for (size_t i = 0; i < g.size(); ++i) {
        const size_t j = row ? static_cast<size_t>(cols) + i % static_cast<size_t>(cols) : i;
        ASSERT_EQ(g[i], av[i] + (sign * alpha) * bv[j]) << "at " << i;
      }
    };
    check(st::add(a, bs, alpha), false, 1);
    check(st::sub(a, brow, alpha), true, -1);
    Tensor out = st::empty({0}, ScalarType::Double);
    st::add_out(out, a, brow, alpha);
    check(out, true, 1);
    Tensor x = st::clone(a);
    st::sub_(x, bs, alpha);
    check(x, false, -1);
    // A column on either side: its value is stride 0 along each row of 600
    // (the add kernel's scalar forms).
    const int64_t wide_cols = 600;
    std::vector<double> wv;
    for (int64_t i = 0; i < rows * wide_cols; ++i)
      wv.push_back(0.37 * static_cast<double>(i % 97) - 5.1);
    const std::vector<double> cv = {0.7, -1.3, 2.9};
    const Tensor w = make(wv, {rows, wide_cols}, ScalarType::Double);
    const Tensor col = make(cv, {rows, 1}, ScalarType::Double);
    for (const bool col_first : {true, false}) {
      for (const double sign : {1.0, -1.0}) {
        const Tensor got = col_first ? (sign > 0 ? st::add(col, w, alpha) : st::sub(col, w, alpha))
                                     : (sign > 0 ? st::add(w, col, alpha) : st::sub(w, col, alpha));
        const std::vector<double> g = values(got);
        ASSERT_EQ(g.size(), wv.size());
        for (size_t i = 0; i < g.size(); ++i) {
          const double c = cv[i / static_cast<size_t>(wide_cols)];
          const double want = col_first ? c + (sign * alpha) * wv[i] : wv[i] + (sign * alpha) * c;
          ASSERT_EQ(g[i], want) << col_first << " " << sign << " at " << i;
        }
      }
    }
  }
}

TEST(NativeBinaryOps, Remainder) {
  Tensor a = make1({7, -7, 7, -7}, ScalarType::Int);
  Tensor b = make1({3, 3, -3, -3}, ScalarType::Int);
  expect_close(values(st::remainder(a, b)), {1, 2, -2, -1});
  expect_close(values(st::remainder(make1({5.5, -5.5}), 2)), {1.5, 0.5});
  expect_close(values(st::remainder(10, make1({3, 4}, ScalarType::Long))), {1, 2});
}

// PyTorch defines integer tensor arithmetic to wrap (two's complement);
// the kernels are built with -fwrapv so that is defined C++ too, and the
// asan stage's UBSan would report any signed overflow left outside them.
// 64 elements: long enough for the vectorized paths as well.
TEST(NativeBinaryOps, IntegerOverflowWraps) {
  const double kMax = std::numeric_limits<int32_t>::max();
  const double kMin = std::numeric_limits<int32_t>::min();
  Tensor big = st::full({64}, kMax, ScalarType::Int);
  Tensor small = st::full({64}, kMin, ScalarType::Int);
  EXPECT_EQ(values(st::add(big, big)), std::vector<double>(64, -2));
  EXPECT_EQ(values(st::add(big, 1)), std::vector<double>(64, kMin));
  EXPECT_EQ(values(st::add(big, big, 3)), std::vector<double>(64, -4));
  EXPECT_EQ(values(st::sub(small, 1)), std::vector<double>(64, kMax));
  EXPECT_EQ(values(st::mul(big, big)), std::vector<double>(64, 1));
  EXPECT_EQ(values(st::mul(big, 2)), std::vector<double>(64, -2));
  EXPECT_EQ(values(st::neg(small)), std::vector<double>(64, kMin));
  EXPECT_EQ(values(st::abs(small)), std::vector<double>(64, kMin));
  Tensor two = make1({kMax, 1}, ScalarType::Int);
  EXPECT_EQ(values(st::sum(two, ScalarType::Int)), std::vector<double>{kMin});
  EXPECT_EQ(values(st::cumsum(two, 0, ScalarType::Int)), (std::vector<double>{kMax, kMin}));
  EXPECT_EQ(values(st::prod(make1({65536, 65536}, ScalarType::Int), ScalarType::Int)),
            std::vector<double>{0});
  EXPECT_EQ(values(st::dot(big, big)), std::vector<double>{64});
  Tensor m = st::full({2, 2}, kMax, ScalarType::Int);
  EXPECT_EQ(values(st::mm(m, m)), std::vector<double>(4, 2));
  Tensor l = st::full({64}, Scalar(std::numeric_limits<int64_t>::max()), ScalarType::Long);
  Tensor l2 = st::add(l, 1);
  EXPECT_EQ(static_cast<const int64_t*>(l2.const_data_ptr())[63],
            std::numeric_limits<int64_t>::min());
}

TEST(NativeBinaryOps, PowOverloads) {
  expect_close(values(st::pow(make1({2, 3}, ScalarType::Long), 2)), {4, 9});
  expect_close(values(st::pow(make1({2, 3}), make1({0.5, 2}))), {std::sqrt(2.0), 9});
  expect_close(values(st::pow(2, make1({1, 2, 3}, ScalarType::Long))), {2, 4, 8});
  EXPECT_EQ(st::pow(2.5, make1({1}, ScalarType::Long)).dtype(), ScalarType::Float);
  expect_close(
      values(st::pow(make1({2, 1, -1}, ScalarType::Long), make1({-1, -2, -3}, ScalarType::Long))),
      {0, 1, -1});
  EXPECT_NATIVE_ERROR(st::pow(make1({2}, ScalarType::Long), -1),
                      "Integers to negative integer powers are not allowed.");
  Tensor x = make1({3});
  st::pow_(x, 2);
  expect_close(values(x), {9});
}

// float32 pow runs one vector function (vec_math.h, BinaryMath::Pow) in
// every layout: contiguous rows, strided rows by blocks, short rows one
// element at a time, a broadcast row, a Scalar exponent, out= and in
// place give the same bits, and the C library's powf within one ulp (its
// special cases exactly, any NaN for NaN).
TEST(NativeBinaryOps, PowFloatIsTheSameInEveryLayout) {
  const std::vector<double> xs = {0.0,  -0.0,  kInf, -kInf, kNan, 1.0, -1.0,  2.0,  -2.0, 0.5,
                                  -3.0, 1e-40, 10.0, 0.9,   1.1,  7.5, -0.25, 1e30, 3e-5};
  const std::vector<double> ys = {0.0, -0.0, kInf, -kInf, kNan,  1.0, -1.0, 2.0, -3.0,
                                  0.5, 2.5,  -0.5, 40.0,  -40.0, 3.0, 17.0, 1e9, 0.1};
  const int64_t rows = 3;
  const int64_t cols = static_cast<int64_t>(xs.size() * ys.size()) / rows;
  std::vector<double> av, bv;
  for (int64_t i = 0; i < rows * cols; ++i) {
    av.push_back(xs[static_cast<size_t>(i) % xs.size()]);
    bv.push_back(ys[static_cast<size_t>(i) / xs.size()]);
  }
  const Tensor a = make(av, {rows, cols});
  const Tensor b = make(bv, {rows, cols});
  const Tensor base = st::pow(a, b);
  auto bits_of = [](const Tensor& t) {
    const Tensor c = st::contiguous(t);
    const auto* p = static_cast<const float*>(c.const_data_ptr());
    std::vector<uint32_t> r(static_cast<size_t>(c.numel()));
    for (size_t i = 0; i < r.size(); ++i) std::memcpy(&r[i], p + i, sizeof(float));
    return r;
  };
  const std::vector<uint32_t> want = bits_of(base);
  for (size_t i = 0; i < want.size(); ++i) {
    const float x = static_cast<float>(av[i]), y = static_cast<float>(bv[i]);
    const float c = std::pow(x, y);
    float got;
    std::memcpy(&got, &want[i], sizeof(float));
    if (std::isnan(c)) {
      EXPECT_TRUE(std::isnan(got)) << x << "^" << y;
    } else if (!std::isfinite(c) || c == 0.0f || !std::isfinite(x) || x == 0.0f ||
               !std::isfinite(y) || y == 0.0f || x == 1.0f) {
      EXPECT_EQ(std::signbit(got), std::signbit(c)) << x << "^" << y;
      EXPECT_EQ(got, c) << x << "^" << y;
    } else {
      EXPECT_LE(std::fabs(got - c), std::fabs(std::nextafter(c, 0.0f) - c)) << x << "^" << y;
    }
  }
  auto spread = [&](const std::vector<double>& v, int64_t r, int64_t c) {
    std::vector<double> wide;
    for (double x : v) wide.insert(wide.end(), {x, 99.0});
    return st::slice(make(wide, {r, 2 * c}), 1, 0, std::nullopt, 2);
  };
  EXPECT_EQ(bits_of(st::pow(spread(av, rows, cols), spread(bv, rows, cols))), want);
  // Rows of 2: too short to gather, one element at a time.
  const int64_t pairs = rows * cols / 2;
  EXPECT_EQ(bits_of(st::pow(spread(av, pairs, 2), spread(bv, pairs, 2))), want);
  Tensor out = st::empty({0});
  st::pow_out(out, a, b);
  EXPECT_EQ(bits_of(out), want);
  Tensor x = st::clone(a);
  st::pow_(x, b);
  EXPECT_EQ(bits_of(x), want);
  // A broadcast row, and a Scalar exponent (a repeated buffer).
  const Tensor brow = st::slice(b, 0, 1, 2);
  const std::vector<uint32_t> by_row =
      bits_of(st::pow(a, st::contiguous(st::expand(brow, {rows, cols}))));
  EXPECT_EQ(bits_of(st::pow(a, brow)), by_row);
  EXPECT_EQ(bits_of(st::pow(a, 2.5)),
            bits_of(st::pow(a, st::full({rows, cols}, 2.5, ScalarType::Float))));
}

TEST(NativeBinaryOps, MaximumMinimumPropagateNan) {
  Tensor a = make1({1, kNan, 3});
  Tensor b = make1({2, 0, kNan});
  expect_close(values(st::maximum(a, b)), {2, kNan, kNan});
  expect_close(values(st::minimum(a, b)), {1, kNan, kNan});
  expect_close(values(st::max(make1({1, 5}, ScalarType::Int), make1({3, 2}, ScalarType::Int))),
               {3, 5});
  EXPECT_NATIVE_ERROR(st::maximum(st::zeros({1}, ScalarType::ComplexFloat),
                                  st::zeros({1}, ScalarType::ComplexFloat)),
                      "maximum not implemented for complex tensors.");
}

// Which operand's bits maximum and minimum return: a NaN wins (b's when
// both are NaN), and a tie keeps a (so +0 and -0 keep a's zero). The
// vector kernels, the scalar one (doubles, and rows too short for the
// vector loops) and the repeated column must all give the same bits.
template <typename T, typename U>
void expect_nan_and_zero_rule(ScalarType dtype) {
  const U nan_a = static_cast<U>(sizeof(T) == 4 ? 0x7fc00001u : 0x7ff8000000000001u);
  const U nan_b = static_cast<U>(sizeof(T) == 4 ? 0xffc00002u : 0xfff8000000000002u);
  auto nan = [](U bits) {
    T v;
    std::memcpy(&v, &bits, sizeof(v));
    return v;
  };
  auto bits_of = [](T v) {
    U u;
    std::memcpy(&u, &v, sizeof(u));
    return u;
  };
  // a, b, and the bits both operators want.
  const T a6[] = {nan(nan_a), nan(nan_a), T(1), T(-0.0), T(0.0), T(2)};
  const T b6[] = {nan(nan_b), T(3), nan(nan_b), T(0.0), T(-0.0), T(2)};
  const U want6[] = {nan_b, nan_a, nan_b, bits_of(T(-0.0)), bits_of(T(0.0)), bits_of(T(2))};
  auto filled = [&](const T* six, int64_t n, int64_t step) {
    Tensor t = st::empty({n * step}, dtype);
    T* p = static_cast<T*>(t.data_ptr());
    for (int64_t i = 0; i < n * step; ++i) p[i] = six[(i / step) % 6];
    return st::slice(t, 0, 0, std::nullopt, step);
  };
  auto expect = [&](const Tensor& got, int64_t n, const char* layout) {
    const Tensor c = st::contiguous(got);
    const T* p = static_cast<const T*>(c.const_data_ptr());
    for (int64_t i = 0; i < n; ++i) {
      ASSERT_EQ(bits_of(p[i]), want6[i % 6]) << layout << " at " << i;
    }
  };
  for (bool is_max : {true, false}) {
    SCOPED_TRACE(is_max ? "maximum" : "minimum");
    auto op = [&](const Tensor& x, const Tensor& y) {
      return is_max ? st::maximum(x, y) : st::minimum(x, y);
    };
    for (const int64_t n : {int64_t{6}, int64_t{600}}) {
      expect(op(filled(a6, n, 1), filled(b6, n, 1)), n, "contiguous");
      expect(op(filled(a6, n, 2), filled(b6, n, 2)), n, "strided");
    }
    // Each a value as a column beside a row of its b value (the column's
    // value repeated along the rows), and the other way round.
    auto constant = [&](T v, std::vector<int64_t> shape) {
      Tensor t = st::empty(IntArrayRef(shape), dtype);
      T* p = static_cast<T*>(t.data_ptr());
      for (int64_t i = 0; i < t.numel(); ++i) p[i] = v;
      return t;
    };
    for (int k = 0; k < 6; ++k) {
      const Tensor col_a = constant(a6[k], {300, 1}), row_a = constant(a6[k], {1, 300});
      const Tensor col_b = constant(b6[k], {300, 1}), row_b = constant(b6[k], {1, 300});
      for (const Tensor& got : {op(col_a, row_b), op(row_a, col_b)}) {
        ASSERT_EQ(got.numel(), 300 * 300);
        const Tensor c = st::contiguous(got);
        const T* p = static_cast<const T*>(c.const_data_ptr());
        for (int64_t i = 0; i < c.numel(); ++i) {
          ASSERT_EQ(bits_of(p[i]), want6[k]) << "column and row, case " << k << " at " << i;
        }
      }
    }
  }
}

TEST(NativeBinaryOps, MaximumMinimumKeepTheWinningNansBitsAndATiesZero) {
  expect_nan_and_zero_rule<float, uint32_t>(ScalarType::Float);
  expect_nan_and_zero_rule<double, uint64_t>(ScalarType::Double);
}

TEST(NativeBinaryOps, BitwiseAndShifts) {
  Tensor a = make1({12, 10}, ScalarType::Int);
  Tensor b = make1({10, 6}, ScalarType::Int);
  expect_close(values(st::bitwise_and(a, b)), {8, 2});
  expect_close(values(st::bitwise_or(a, b)), {14, 14});
  expect_close(values(st::bitwise_xor(a, 3)), {15, 9});
  expect_close(values(st::bitwise_and(make1({1, 0}, ScalarType::Bool), true)), {1, 0});
  // bool's truth tables: contiguous (the byte loops), every other element
  // (the scalar kernel), and into an int64 out= (the iterator converts).
  const Tensor p = make1({0, 0, 1, 1}, ScalarType::Bool), q = make1({0, 1, 0, 1}, ScalarType::Bool);
  const Tensor p2 = st::slice(make1({0, 1, 0, 1, 1, 0, 1, 0}, ScalarType::Bool), 0, 0, 8, 2);
  const Tensor q2 = st::slice(make1({0, 1, 1, 0, 0, 1, 1, 1}, ScalarType::Bool), 0, 0, 8, 2);
  Tensor long_out = st::empty({4}, ScalarType::Long);
  for (const auto& [x, y] : {std::pair{p, q}, std::pair{p2, q2}}) {
    expect_close(values(st::bitwise_and(x, y)), {0, 0, 0, 1});
    expect_close(values(st::bitwise_or(x, y)), {0, 1, 1, 1});
    expect_close(values(st::bitwise_xor(x, y)), {0, 1, 1, 0});
    st::bitwise_xor_out(long_out, x, y);
    EXPECT_EQ(long_out.dtype(), ScalarType::Long);
    expect_close(values(long_out), {0, 1, 1, 0});
  }
  expect_close(values(st::bitwise_left_shift(make1({1, 3}, ScalarType::Long), 2)), {4, 12});
  expect_close(values(st::bitwise_right_shift(make1({-8, 8}, ScalarType::Char),
                                              make1({1, 9}, ScalarType::Char))),
               {-4, 0});
  expect_close(values(st::bitwise_not(make1({0, 5}, ScalarType::Int))), {-1, -6});
  expect_close(values(st::bitwise_not(make1({0, 1}, ScalarType::Bool))), {1, 0});
  EXPECT_NATIVE_ERROR(st::bitwise_and(make1({1.0}), make1({1.0})), "not implemented for 'Float'");
}

// The int64 bitwise, shift, maximum and minimum operators (per-ISA loops)
// in every layout: contiguous, strided (blocks), short strided rows (the
// scalar kernel), a broadcast row, a column (a repeated buffer), in-place
// and out=, against PyTorch's definitions: a shift count outside [0, 64)
// gives 0 (left) or the sign fill (right).
TEST(NativeBinaryOps, Int64BitwiseShiftsMaximumMinimumInEveryLayout) {
  const int64_t big = int64_t{1} << 40;
  const std::vector<int64_t> vals = {0, 1, -1, 3, -5, big, -big, 12345, 7};
  const std::vector<int64_t> counts = {-1, 0, 1, 5, 63, 64, 65, -64, 2, 40};
  const int64_t rows = 3, cols = 37;
  std::vector<double> av, bv;
  for (int64_t i = 0; i < rows * cols; ++i) {
    av.push_back(static_cast<double>(vals[static_cast<size_t>(i) % vals.size()]));
    bv.push_back(static_cast<double>(counts[static_cast<size_t>(i * 7 + i / 5) % counts.size()]));
  }
  struct Op {
    const char* name;
    Tensor (*fn)(const Tensor&, const Tensor&);
    Tensor (*inplace)(const Tensor&, const Tensor&);
    Tensor (*out)(const Tensor&, const Tensor&, const Tensor&);
    int64_t (*ref)(int64_t, int64_t);
  };
  const Op ops[] = {
      {"and", [](const Tensor& x, const Tensor& y) { return st::bitwise_and(x, y); },
       [](const Tensor& x, const Tensor& y) { return st::bitwise_and_(x, y); },
       [](const Tensor& o, const Tensor& x, const Tensor& y) {
         return st::bitwise_and_out(o, x, y);
       },
       [](int64_t x, int64_t y) { return x & y; }},
      {"or", [](const Tensor& x, const Tensor& y) { return st::bitwise_or(x, y); },
       [](const Tensor& x, const Tensor& y) { return st::bitwise_or_(x, y); },
       [](const Tensor& o, const Tensor& x, const Tensor& y) {
         return st::bitwise_or_out(o, x, y);
       },
       [](int64_t x, int64_t y) { return x | y; }},
      {"xor", [](const Tensor& x, const Tensor& y) { return st::bitwise_xor(x, y); },
       [](const Tensor& x, const Tensor& y) { return st::bitwise_xor_(x, y); },
       [](const Tensor& o, const Tensor& x, const Tensor& y) {
         return st::bitwise_xor_out(o, x, y);
       },
       [](int64_t x, int64_t y) { return x ^ y; }},
      {"lshift", [](const Tensor& x, const Tensor& y) { return st::bitwise_left_shift(x, y); },
       [](const Tensor& x, const Tensor& y) { return st::bitwise_left_shift_(x, y); },
       [](const Tensor& o, const Tensor& x, const Tensor& y) {
         return st::bitwise_left_shift_out(o, x, y);
       },
       [](int64_t x, int64_t y) -> int64_t {
         return y < 0 || y >= 64 ? 0 : static_cast<int64_t>(static_cast<uint64_t>(x) << y);
       }},
      {"rshift", [](const Tensor& x, const Tensor& y) { return st::bitwise_right_shift(x, y); },
       [](const Tensor& x, const Tensor& y) { return st::bitwise_right_shift_(x, y); },
       [](const Tensor& o, const Tensor& x, const Tensor& y) {
         return st::bitwise_right_shift_out(o, x, y);
       },
       [](int64_t x, int64_t y) -> int64_t {
         return y < 0 || y >= 64 ? (x < 0 ? -1 : 0) : x >> y;
       }},
      // No maximum_: in place is out= into self. max.other's out= calls maximum's.
      {"maximum", [](const Tensor& x, const Tensor& y) { return st::maximum(x, y); },
       [](const Tensor& x, const Tensor& y) { return st::maximum_out(x, x, y); },
       [](const Tensor& o, const Tensor& x, const Tensor& y) { return st::max_out(o, x, y); },
       [](int64_t x, int64_t y) { return std::max(x, y); }},
      {"minimum", [](const Tensor& x, const Tensor& y) { return st::minimum(x, y); },
       [](const Tensor& x, const Tensor& y) { return st::minimum_out(x, x, y); },
       [](const Tensor& o, const Tensor& x, const Tensor& y) { return st::min_out(o, x, y); },
       [](int64_t x, int64_t y) { return std::min(x, y); }},
  };
  const Tensor a = make(av, {rows, cols}, ScalarType::Long);
  const Tensor b = make(bv, {rows, cols}, ScalarType::Long);
  auto spread = [&](const std::vector<double>& v) {
    std::vector<double> wide;
    for (double x : v) wide.insert(wide.end(), {x, 99.0});
    return st::slice(make(wide, {rows, 2 * cols}, ScalarType::Long), 1, 0, std::nullopt, 2);
  };
  const Tensor as = spread(av), bs = spread(bv);
  const int64_t pairs = rows * cols / 2;
  auto short_rows = [&](const std::vector<double>& v) {
    std::vector<double> wide;
    for (int64_t i = 0; i < 2 * pairs; ++i)
      wide.insert(wide.end(), {v[static_cast<size_t>(i)], 99.0});
    return st::slice(make(wide, {pairs, 4}, ScalarType::Long), 1, 0, std::nullopt, 2);
  };
  const Tensor brow = st::slice(b, 0, 1, 2);
  for (const Op& op : ops) {
    SCOPED_TRACE(op.name);
    auto check = [&](const Tensor& got, bool row) {
      EXPECT_EQ(got.dtype(), ScalarType::Long);
      const std::vector<double> g = values(got);
      ASSERT_EQ(g.size(), av.size());
      for (size_t i = 0; i < g.size(); ++i) {
        const size_t j = row ? static_cast<size_t>(cols) + i % static_cast<size_t>(cols) : i;
        const int64_t want = op.ref(static_cast<int64_t>(av[i]), static_cast<int64_t>(bv[j]));
        ASSERT_EQ(g[i], static_cast<double>(want)) << "at " << i << ": " << av[i] << ", " << bv[j];
      }
    };
    check(op.fn(a, b), false);
    check(op.fn(as, bs), false);
    // Rows of two items at stride 2, too short for the blocks.
    const std::vector<double> sr = values(op.fn(short_rows(av), short_rows(bv)));
    ASSERT_EQ(sr.size(), static_cast<size_t>(2 * pairs));
    for (size_t i = 0; i < sr.size(); ++i) {
      ASSERT_EQ(sr[i], static_cast<double>(
                           op.ref(static_cast<int64_t>(av[i]), static_cast<int64_t>(bv[i]))))
          << "short rows, at " << i;
    }
    check(op.fn(a, brow), true);
    Tensor out = st::empty({0}, ScalarType::Long);
    op.out(out, as, brow);
    check(out, true);
    Tensor x = st::clone(a);
    op.inplace(x, b);
    check(x, false);
    // A Scalar count: a column of stride 0.
    const std::vector<double> g = values(op.fn(a, st::scalar_tensor(3, ScalarType::Long)));
    for (size_t i = 0; i < g.size(); ++i) {
      ASSERT_EQ(g[i], static_cast<double>(op.ref(static_cast<int64_t>(av[i]), 3))) << i;
    }
  }
}

// Logical ops through the per-ISA loops: bool results, and out= or
// in-place outputs of the inputs' dtype written directly, in every layout.
TEST(NativeBinaryOps, LogicalInEveryLayout) {
  const std::vector<double> fvals = {0.0, -0.0, 1.0, kNan, -2.5, 1e-40, kInf, 0.0, 3.0, 0.0, -1.0};
  const int64_t rows = 3, cols = 37;
  std::vector<double> av, bv;
  for (int64_t i = 0; i < rows * cols; ++i) {
    av.push_back(fvals[static_cast<size_t>(i) % fvals.size()]);
    bv.push_back(fvals[static_cast<size_t>(i * 5 + i / 3) % fvals.size()]);
  }
  auto truth = [](double v) { return v != 0.0; };  // NaN is true
  for (ScalarType dt : {ScalarType::Float, ScalarType::Long}) {
    SCOPED_TRACE(torch::headeronly::toString(dt));
    std::vector<double> ai = av, bi = bv;
    if (dt == ScalarType::Long) {
      for (double& v : ai) v = std::isnan(v) || std::isinf(v) || std::abs(v) < 1 ? (v != 0) : v;
      for (double& v : bi) v = std::isnan(v) || std::isinf(v) || std::abs(v) < 1 ? (v != 0) : v;
    }
    const Tensor a = make(ai, {rows, cols}, dt), b = make(bi, {rows, cols}, dt);
    auto spread = [&](const std::vector<double>& v) {
      std::vector<double> wide;
      for (double x : v) wide.insert(wide.end(), {x, 5.0});
      return st::slice(make(wide, {rows, 2 * cols}, dt), 1, 0, std::nullopt, 2);
    };
    const Tensor as = spread(ai), bs = spread(bi);
    for (int op = 0; op < 4; ++op) {
      SCOPED_TRACE(op);
      auto ref = [&](size_t i) {
        const bool x = truth(ai[i]), y = truth(bi[i]);
        return op == 0 ? (x && y) : op == 1 ? (x || y) : op == 2 ? (x != y) : !x;
      };
      auto run = [&](const Tensor& x, const Tensor& y) {
        return op == 0   ? st::logical_and(x, y)
               : op == 1 ? st::logical_or(x, y)
               : op == 2 ? st::logical_xor(x, y)
                         : st::logical_not(x);
      };
      auto run_out = [&](const Tensor& x, const Tensor& y, const Tensor& o) {
        return op == 0   ? st::logical_and_out(o, x, y)
               : op == 1 ? st::logical_or_out(o, x, y)
               : op == 2 ? st::logical_xor_out(o, x, y)
                         : st::logical_not_out(o, x);
      };
      auto check = [&](const Tensor& got, ScalarType want_dtype) {
        EXPECT_EQ(got.dtype(), want_dtype);
        const std::vector<double> g = values(got);
        ASSERT_EQ(g.size(), ai.size());
        for (size_t i = 0; i < g.size(); ++i) {
          ASSERT_EQ(g[i], ref(i) ? 1.0 : 0.0) << "at " << i << ": " << ai[i] << ", " << bi[i];
        }
      };
      check(run(a, b), ScalarType::Bool);
      check(run(as, bs), ScalarType::Bool);
      Tensor same = st::empty({0}, dt);
      run_out(as, bs, same);
      check(same, dt);
      Tensor boolean = st::empty({0}, ScalarType::Bool);
      run_out(a, bs, boolean);
      check(boolean, ScalarType::Bool);
      Tensor x = st::clone(a);
      if (op == 0) st::logical_and_(x, b);
      if (op == 1) st::logical_or_(x, b);
      if (op == 2) st::logical_xor_(x, b);
      if (op == 3) st::logical_not_(x);
      check(x, dt);
    }
  }
}

TEST(NativeBinaryOps, Logical) {
  Tensor a = make1({0, 1, 2, 0});
  Tensor b = make1({0, 0, 3, 4}, ScalarType::Long);
  Tensor r = st::logical_and(a, b);
  EXPECT_EQ(r.dtype(), ScalarType::Bool);
  expect_close(values(r), {0, 0, 1, 0});
  expect_close(values(st::logical_or(a, b)), {0, 1, 1, 1});
  expect_close(values(st::logical_xor(a, b)), {0, 1, 0, 1});
  expect_close(values(st::logical_not(a)), {1, 0, 0, 1});
  Tensor inplace = make1({0, 2});
  st::logical_not_(inplace);
  EXPECT_EQ(inplace.dtype(), ScalarType::Float);
  expect_close(values(inplace), {1, 0});
}

}  // namespace

namespace {

using namespace st_native_test;

TEST(NativeBinaryOps, UnsignedWideTypes) {
  Tensor a = make1({1, 2}, ScalarType::UInt32);
  Tensor r = st::add(a, a, 3);
  EXPECT_EQ(r.dtype(), ScalarType::UInt32);
  expect_close(values(r), {4, 8});
  expect_close(values(st::sub(make1({1}, ScalarType::UInt16), make1({2}, ScalarType::UInt16))),
               {65535});
  EXPECT_NATIVE_ERROR(st::add(a, make1({1}, ScalarType::Int)),
                      "Promotion for uint16, uint32, uint64 types is not supported");
}

}  // namespace
