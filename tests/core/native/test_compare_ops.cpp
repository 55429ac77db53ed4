// Comparisons, where, masked_fill, clamp.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include <st/core/warning.h>

#include "native/test_helpers.h"

namespace {

using namespace st_native_test;
const double kNan = std::numeric_limits<double>::quiet_NaN();

TEST(NativeCompareOps, TensorAndScalar) {
  Tensor a = make1({1, 2, 3}, ScalarType::Int);
  Tensor b = make1({3, 2, 1});
  Tensor r = st::lt(a, b);
  EXPECT_EQ(r.dtype(), ScalarType::Bool);
  expect_close(values(r), {1, 0, 0});
  expect_close(values(st::le(a, b)), {1, 1, 0});
  expect_close(values(st::gt(a, 2)), {0, 0, 1});
  expect_close(values(st::ge(a, 2.5)), {0, 0, 1});
  expect_close(values(st::eq(a, b)), {0, 1, 0});
  expect_close(values(st::ne(a, 2)), {1, 0, 1});
  expect_close(values(st::eq(make1({kNan}), make1({kNan}))), {0});
  expect_close(values(st::ne(make1({kNan}), make1({kNan}))), {1});
  Tensor c = st::full({1}, Scalar(std::complex<double>(1, 1)));
  expect_close(values(st::eq(c, c)), {1});
  EXPECT_NATIVE_ERROR(st::lt(c, c), "not implemented for 'ComplexFloat'");
  Tensor out = st::empty({0}, ScalarType::Float);
  st::gt_out(out, a, 1);
  EXPECT_EQ(out.dtype(), ScalarType::Float);
  expect_close(values(out), {0, 1, 1});
  Tensor x = make1({1, 5});
  st::gt_(x, 2);
  EXPECT_EQ(x.dtype(), ScalarType::Float);
  expect_close(values(x), {0, 1});
}

// An in-place or out= comparison whose output has the inputs' common dtype
// is written by the kernel in that dtype; other outputs get the Bool result
// converted. Both must give 1 and 0 of the output's dtype where the Bool
// comparison is true and false, in every layout.
TEST(NativeCompareOps, InPlaceAndOutComparisonsWriteOnesAndZerosOfTheOutputDtype) {
  const std::vector<double> av = {1, 2, 3, kNan, -0.0, 5, 7, -1, 2, 9, 0, 4, 3, 3, kNan, 8, 6, 1};
  const std::vector<double> bv = {2, 2, 1, 1, 0.0, kNan, 7, -2, 3, 9, 1, 4, 2, 5, kNan, 8, 0, 1};
  using Fn = Tensor (*)(const Tensor&, const Tensor&);
  using OutFn = Tensor (*)(const Tensor&, const Tensor&, const Tensor&);
  struct Op {
    const char* name;
    Fn fn;
    Fn inplace;
    OutFn out;
  };
  const Op ops[] = {
      {"eq", [](const Tensor& x, const Tensor& y) { return st::eq(x, y); },
       [](const Tensor& x, const Tensor& y) { return st::eq_(x, y); },
       [](const Tensor& o, const Tensor& x, const Tensor& y) { return st::eq_out(o, x, y); }},
      {"ne", [](const Tensor& x, const Tensor& y) { return st::ne(x, y); },
       [](const Tensor& x, const Tensor& y) { return st::ne_(x, y); },
       [](const Tensor& o, const Tensor& x, const Tensor& y) { return st::ne_out(o, x, y); }},
      {"lt", [](const Tensor& x, const Tensor& y) { return st::lt(x, y); },
       [](const Tensor& x, const Tensor& y) { return st::lt_(x, y); },
       [](const Tensor& o, const Tensor& x, const Tensor& y) { return st::lt_out(o, x, y); }},
      {"le", [](const Tensor& x, const Tensor& y) { return st::le(x, y); },
       [](const Tensor& x, const Tensor& y) { return st::le_(x, y); },
       [](const Tensor& o, const Tensor& x, const Tensor& y) { return st::le_out(o, x, y); }},
      {"gt", [](const Tensor& x, const Tensor& y) { return st::gt(x, y); },
       [](const Tensor& x, const Tensor& y) { return st::gt_(x, y); },
       [](const Tensor& o, const Tensor& x, const Tensor& y) { return st::gt_out(o, x, y); }},
      {"ge", [](const Tensor& x, const Tensor& y) { return st::ge(x, y); },
       [](const Tensor& x, const Tensor& y) { return st::ge_(x, y); },
       [](const Tensor& o, const Tensor& x, const Tensor& y) { return st::ge_out(o, x, y); }},
  };
  for (ScalarType dt : {ScalarType::Float, ScalarType::Double, ScalarType::Half,
                        ScalarType::BFloat16, ScalarType::Long, ScalarType::Int}) {
    SCOPED_TRACE(torch::headeronly::toString(dt));
    const bool is_float = torch::headeronly::isFloatingType(dt);
    std::vector<double> a2 = av, b2 = bv;
    if (!is_float) {
      for (double& v : a2) v = std::isnan(v) ? 11 : v;
      for (double& v : b2) v = std::isnan(v) ? 12 : v;
    }
    const Tensor a = make(a2, {3, 6}, dt);
    const Tensor b = make(b2, {3, 6}, dt);
    const Tensor brow = st::slice(b, 0, 2, 3);      // [1, 6], broadcast over a's rows
    const Tensor at = st::t(make(a2, {6, 3}, dt));  // a transposed layout
    for (const Op& op : ops) {
      SCOPED_TRACE(op.name);
      for (const Tensor& other : {b, brow}) {
        const std::vector<double> want = values(op.fn(a, other));
        Tensor x = st::clone(a);
        op.inplace(x, other);
        EXPECT_EQ(x.dtype(), dt);
        EXPECT_EQ(values(x), want);
        // out= of the common dtype, of another dtype, and Bool.
        for (ScalarType out_dt : {dt, ScalarType::Double, ScalarType::Bool}) {
          Tensor out = st::empty({0}, out_dt);
          op.out(out, a, other);
          EXPECT_EQ(out.dtype(), out_dt);
          EXPECT_EQ(values(out), want);
        }
      }
      // A strided self, in place.
      Tensor xt = st::clone(at);
      const Tensor bt = st::contiguous(st::t(make(b2, {6, 3}, dt)));
      const std::vector<double> want = values(op.fn(at, bt));
      op.inplace(xt, bt);
      EXPECT_EQ(values(xt), want);
    }
  }
  // Complex: eq and ne only.
  const Tensor c = st::full({4}, Scalar(std::complex<double>(1, 1)));
  const Tensor d = make1({1, 0, 1, 2}, ScalarType::ComplexFloat);
  Tensor e = st::clone(c);
  st::eq_(e, d);
  EXPECT_EQ(values(e), values(st::eq(c, d)));
  Tensor f = st::clone(c);
  st::ne_(f, d);
  EXPECT_EQ(values(f), values(st::ne(c, d)));
}

TEST(NativeCompareOps, Where) {
  Tensor cond = make1({1, 0, 1}, ScalarType::Bool);
  Tensor r = st::where(cond, make1({1, 2, 3}, ScalarType::Int), make1({10}, ScalarType::Double));
  EXPECT_EQ(r.dtype(), ScalarType::Double);
  expect_close(values(r), {1, 10, 3});
  expect_close(values(st::where(cond, 1.5, make1({0, 0, 0}))), {1.5, 0, 1.5});
  Tensor s = st::where(cond, Scalar(1), Scalar(2.0));
  EXPECT_EQ(s.dtype(), ScalarType::Float);
  expect_close(values(s), {1, 2, 1});
  EXPECT_NATIVE_ERROR(
      st::where(make1({1}), make1({1}), make1({1})),
      "where expected condition to be a boolean tensor, but got a tensor with dtype Float");
}

TEST(NativeCompareOps, MaskedFill) {
  Tensor a = make({1, 2, 3, 4}, {2, 2});
  Tensor mask = make1({1, 0}, ScalarType::Bool);
  expect_close(values(st::masked_fill(a, mask, -1)), {-1, 2, -1, 4});
  st::masked_fill_(a, mask, make({7}, {}));
  expect_close(values(a), {7, 2, 7, 4});
  EXPECT_NATIVE_ERROR(st::masked_fill_(a, make1({1, 0}), 1),
                      "masked_fill_ only supports boolean masks, but got mask with dtype Float");
  EXPECT_NATIVE_ERROR(st::masked_fill_(a, mask, make1({1, 2})),
                      "masked_fill_ only supports a 0-dimensional value tensor");
  Tensor small = make1({1, 2});
  EXPECT_NATIVE_ERROR(st::masked_fill_(small, make({1, 0, 0, 1}, {2, 2}, ScalarType::Bool), 0),
                      "doesn't match the broadcast shape");
  Tensor grown = st::masked_fill(small, make({1, 0, 0, 1}, {2, 2}, ScalarType::Bool), 0);
  expect_close(values(grown), {0, 2, 1, 0});
}

TEST(NativeCompareOps, Clamp) {
  Tensor a = make1({-2, 0.5, 3, kNan});
  expect_close(values(st::clamp(a, -1, 1)), {-1, 0.5, 1, kNan});
  expect_close(values(st::clamp(a, std::nullopt, 0)), {-2, 0, 0, kNan});
  expect_close(values(st::clamp(a, make1({0, 0, 0, 0}), make1({1, 1, 2, 2}))), {0, 0.5, 2, kNan});
  expect_close(values(st::clamp(make1({1, 5}, ScalarType::Int), 2, 4)), {2, 4});
  EXPECT_NATIVE_ERROR(st::clamp(a), "At least one of 'min' or 'max' must not be None");
  Tensor x = make1({5});
  st::clamp_(x, 0, 1);
  expect_close(values(x), {1});
}

// where's out= must have the promoted dtype (no cast), as in PyTorch.
TEST(NativeCompareOps, WhereOutNeedsThePromotedDtype) {
  Tensor c = make({1, 0}, {2}, ScalarType::Bool);
  Tensor a = make({1, 2}, {2}, ScalarType::Long);
  Tensor b = make({3, 4}, {2}, ScalarType::Long);
  Tensor f = st::empty({0});
  EXPECT_NATIVE_ERROR(st::where_out(f, c, a, b), "Expected out type to be Long but got Float");
  Tensor l = st::empty({0}, ScalarType::Long);
  st::where_out(l, c, a, b);
  expect_close(values(l), {1, 4});
}

// masked_fill_ writes an expanded self (PyTorch warns that it is
// deprecated, and writes it).
TEST(NativeCompareOps, MaskedFillWritesAnExpandedSelf) {
  Tensor base = make1({1, 2, 3});
  Tensor expanded = st::expand(base, {2, 3});
  Tensor mask = make({1, 0, 1, 1, 0, 1}, {2, 3}, ScalarType::Bool);
  st::WarningCapture cap;
  st::masked_fill_(expanded, mask, make({9}, {}));
  expect_close(values(base), {9, 2, 9});
  EXPECT_EQ(cap.messages().size(), 1u);
}

}  // namespace
