// softmax.int, log_softmax.int and the _softmax/_log_softmax kernels.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include <st/native/dtype_conversion.h>

#include "native/random_tensors.h"

namespace {

using namespace st_native_test;

TEST(NativeSoftmax, HandComputed) {
  Tensor a = make({0, std::log(3.0), 1, 1}, {2, 2});
  expect_close(values(st::softmax(a, 1)), {0.25, 0.75, 0.5, 0.5});
  expect_close(values(st::log_softmax(a, 1)),
               {std::log(0.25), std::log(0.75), std::log(0.5), std::log(0.5)});
  // along dim 0 (not the last dim)
  Tensor b = make({0, 1, std::log(3.0), 1}, {2, 2});
  expect_close(values(st::softmax(b, 0)), {0.25, 0.5, 0.75, 0.5});
  expect_close(values(st::softmax(b, -2)), {0.25, 0.5, 0.75, 0.5});
  // huge inputs do not overflow
  expect_close(values(st::softmax(make1({1000, 1000}), 0)), {0.5, 0.5});
  expect_close(values(st::log_softmax(make1({-1000, 0}), 0)), {-1000, 0}, 1e-5);
  // dtype argument converts first; Half computes in float
  Tensor d = st::softmax(make1({1, 1}, ScalarType::Long), 0, ScalarType::Double);
  EXPECT_EQ(d.dtype(), ScalarType::Double);
  expect_close(values(d), {0.5, 0.5});
  expect_close(values(st::softmax(make1({0, 0, 0, 0}, ScalarType::Half), 0)),
               {0.25, 0.25, 0.25, 0.25});
  expect_close(values(st::softmax(make({2}, {}), 0)), {1});
  expect_close(values(st::log_softmax(make({2}, {}), 0)), {0});
  EXPECT_EQ(st::softmax(st::empty({0, 3}), 1).numel(), 0);
  Tensor out = st::empty({0});
  st::softmax_out(out, a, 1);
  expect_close(values(out), {0.25, 0.75, 0.5, 0.5});
  Tensor lout = st::empty({0});
  st::_log_softmax_out(lout, a, 1, false);
  expect_close(values(lout), {std::log(0.25), std::log(0.75), std::log(0.5), std::log(0.5)});
  EXPECT_NATIVE_ERROR(st::softmax(make1({1, 2}, ScalarType::Long), 0),
                      "\"softmax\" not implemented for 'Long'");
  EXPECT_NATIVE_ERROR(st::_softmax(a, 1, true),
                      "softmax with half to float conversion is not supported on CPU");
  EXPECT_NATIVE_ERROR(st::softmax(a, 2), "Dimension out of range");
  Tensor dout = st::empty({0}, ScalarType::Double);
  EXPECT_NATIVE_ERROR(st::softmax_out(dout, a, 1),
                      "Expected out tensor to have dtype Float, but got Double instead");
}

TEST(NativeSoftmax, RandomRowsSumToOne) {
  std::mt19937 g(2);
  for (int trial = 0; trial < 30; ++trial) {
    std::vector<int64_t> s = {std::uniform_int_distribution<int64_t>(1, 4)(g),
                              std::uniform_int_distribution<int64_t>(1, 5)(g),
                              std::uniform_int_distribution<int64_t>(1, 3)(g)};
    const ScalarType dt = trial % 3 == 0 ? ScalarType::Double : ScalarType::Float;
    Tensor t = relayout(random_ints(g, s, dt), trial % 3);
    const int64_t dim = trial % 3;
    Tensor p = st::softmax(t, dim);
    expect_close(
        values(st::sum(p, {dim})),
        std::vector<double>(static_cast<size_t>(p.numel() / s[static_cast<size_t>(dim)]), 1.0),
        1e-5);
    expect_close(values(st::exp(st::log_softmax(t, dim))), values(p), 1e-5);
    // shift invariance
    expect_close(values(st::softmax(st::add(t, 3), dim)), values(p), 1e-5);
  }
}

// Float over a dim that is not the last: blocks of columns side by side,
// every column its own softmax (the double kernel, one column at a time,
// is the reference), across block edges and with a NaN in one column.
TEST(NativeSoftmax, FloatColumnsOfEveryBlockMatchTheDoubleKernel) {
  std::mt19937 g(5);
  for (const std::vector<int64_t>& s :
       {std::vector<int64_t>{3, 70, 5}, std::vector<int64_t>{2, 9, 300},
        std::vector<int64_t>{3000, 150}, std::vector<int64_t>{2, 3, 17, 4}}) {
    Tensor t = st::mul(st::randn(IntArrayRef(s), ScalarType::Float), 4.0);
    st::fill_(st::select(st::select(t, 0, 1), 0, 0), std::numeric_limits<double>::quiet_NaN());
    for (int64_t dim = 0; dim + 1 < static_cast<int64_t>(s.size()); ++dim) {
      SCOPED_TRACE(::testing::Message() << s.size() << "-d, dim " << dim << ", size " << s[0]);
      const Tensor d = st::native::to_dtype(t, ScalarType::Double);
      // A column's sum is accumulated in float, one row after another (as
      // PyTorch's): its rounding grows with the rows.
      const double tol = 2e-6 + 4e-9 * static_cast<double>(s[static_cast<size_t>(dim)]);
      for (bool log : {false, true}) {
        const std::vector<double> got = values(log ? st::log_softmax(t, dim) : st::softmax(t, dim));
        const std::vector<double> want =
            values(log ? st::log_softmax(d, dim) : st::softmax(d, dim));
        ASSERT_EQ(got.size(), want.size());
        for (size_t i = 0; i < got.size(); ++i) {
          if (std::isnan(want[i])) {
            EXPECT_TRUE(std::isnan(got[i])) << i;
          } else {
            // (log: the sum's relative error, as an absolute one)
            EXPECT_NEAR(got[i], want[i], tol * (std::abs(want[i]) + (log ? 1 : 0)) + 1e-7) << i;
          }
        }
      }
    }
  }
}

// An empty input gives its empty result before the dtype is checked.
// The softmax of one element is 1 and its log 0, but NaN for an infinite
// or NaN element, as the general steps give (x - max is NaN there), for
// the float and the other dtypes' kernels.
TEST(NativeSoftmax, OneElementGivesOneOrZeroOrNaN) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (ScalarType dt : {ScalarType::Float, ScalarType::Double, ScalarType::Half}) {
    SCOPED_TRACE(torch::headeronly::toString(dt));
    const Tensor a = make({2, -6e4, inf, -inf, nan, 0}, {2, 1, 3}, dt);  // (-6e4: finite in Half)
    for (int64_t dim : {1, -2}) {
      expect_close(values(st::softmax(a, dim)), {1, 1, nan, nan, nan, 1}, 0);
      const std::vector<double> l = values(st::log_softmax(a, dim));
      expect_close(l, {0, 0, nan, nan, nan, 0}, 0);
      for (size_t i : {0, 1, 5}) EXPECT_FALSE(std::signbit(l[i])) << i;  // +0, as x - max is
    }
    // The general steps on the same elements (a size-1 dim of a longer
    // tensor's own rows is not special-cased).
    const Tensor row = st::softmax(st::reshape(a, {6, 1}), 1);
    expect_close(values(row), values(st::softmax(a, 1)), 0);
  }
}

TEST(NativeSoftmax, EmptyInputOfAnyDtypeGivesAnEmptyResult) {
  Tensor e = st::empty({3, 0, 2}, ScalarType::Bool);
  Tensor r = st::_log_softmax(e, -1, false);
  EXPECT_EQ(shape(r), (std::vector<int64_t>{3, 0, 2}));
  EXPECT_EQ(r.dtype(), ScalarType::Bool);
}

}  // namespace
