// Comparisons, where, masked_fill, clamp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <st/core/warning.h>

#include "native/random_tensors.h"
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

// ---- every predicate, dtype, layout and form against a scalar reference ----------------

template <typename T>
std::vector<T> raw(const Tensor& t) {
  const Tensor c = st::contiguous(t);
  std::vector<T> v(static_cast<size_t>(c.numel()));
  if (!v.empty()) std::memcpy(v.data(), c.const_data_ptr(), v.size() * sizeof(T));
  return v;
}

template <typename T>
Tensor make_raw(const std::vector<T>& v, std::vector<int64_t> shape, ScalarType dt) {
  Tensor t = st::empty(IntArrayRef(shape), dt);
  EXPECT_EQ(static_cast<size_t>(t.numel()), v.size());
  if (!v.empty()) std::memcpy(t.data_ptr(), v.data(), v.size() * sizeof(T));
  return t;
}

// C++'s comparisons, PyTorch's too: a NaN operand makes ne true and the
// others false; -0.0 == +0.0.
template <typename T>
bool compare_ref(int op, T x, T y) {
  switch (op) {
    case 0:
      return x == y;
    case 1:
      return x != y;
    case 2:
      return x < y;
    case 3:
      return x <= y;
    case 4:
      return x > y;
    default:
      return x >= y;
  }
}

struct CompareFns {
  const char* name;
  Tensor (*fn)(const Tensor&, const Tensor&);
  Tensor (*inplace)(const Tensor&, const Tensor&);
  Tensor (*out)(const Tensor&, const Tensor&, const Tensor&);
  Tensor (*fn_scalar)(const Tensor&, const Scalar&);
  Tensor (*inplace_scalar)(const Tensor&, const Scalar&);
};

#define ST_COMPARE_FNS(NAME)                                                      \
  {                                                                               \
#NAME,                                                                          \
   [](const Tensor& x, const Tensor& y) { return st::NAME(x, y); },                \
   [](const Tensor& x, const Tensor& y) { return st::NAME##_(x, y); },             \
   [](const Tensor& o, const Tensor& x, const Tensor& y) { return st::NAME##_out(o, x, y); }, \
   [](const Tensor& x, const Scalar& s) { return st::NAME(x, s); },                \
   [](const Tensor& x, const Scalar& s) { return st::NAME##_(x, s); } \
  }

const CompareFns kCompareFns[] = {ST_COMPARE_FNS(eq), ST_COMPARE_FNS(ne), ST_COMPARE_FNS(lt),
                                  ST_COMPARE_FNS(le), ST_COMPARE_FNS(gt), ST_COMPARE_FNS(ge)};
#undef ST_COMPARE_FNS

// Checks r (Bool, or T holding 1 and 0) against op over the broadcast
// values ea, eb (row-major, of r's shape).
template <typename T>
void expect_compare(const Tensor& r, int op, const std::vector<T>& ea, const std::vector<T>& eb,
                    const char* form) {
  SCOPED_TRACE(form);
  ASSERT_EQ(static_cast<size_t>(r.numel()), ea.size());
  if (r.dtype() == ScalarType::Bool) {
    const std::vector<uint8_t> got = raw<uint8_t>(r);
    for (size_t i = 0; i < ea.size(); ++i) {
      ASSERT_EQ(got[i], compare_ref(op, ea[i], eb[i]) ? 1 : 0) << "at " << i;
    }
  } else {
    const std::vector<T> got = raw<T>(r);
    for (size_t i = 0; i < ea.size(); ++i) {
      // Bits: 1.0f or +0.0f exactly.
      const T want = compare_ref(op, ea[i], eb[i]) ? T(1) : T(0);
      ASSERT_EQ(std::memcmp(&got[i], &want, sizeof(T)), 0) << "at " << i;
    }
  }
}

// Every form of every predicate on a and b (a of the broadcast shape
// unless a_rep: then b is, and there is no in-place form).
template <typename T>
void check_all_forms(ScalarType dt, const Tensor& a, const Tensor& b, bool a_rep) {
  const Tensor full = a_rep ? b : a;
  const std::vector<int64_t> sh = shape(full);
  const std::vector<T> ea = raw<T>(st::expand(a, IntArrayRef(sh)));
  const std::vector<T> eb = raw<T>(st::expand(b, IntArrayRef(sh)));
  for (int op = 0; op < 6; ++op) {
    const CompareFns& f = kCompareFns[op];
    SCOPED_TRACE(f.name);
    const Tensor r = f.fn(a, b);
    EXPECT_EQ(r.dtype(), ScalarType::Bool);
    expect_compare<T>(r, op, ea, eb, "functional");
    for (ScalarType out_dt : {ScalarType::Bool, dt}) {
      Tensor out = st::empty({0}, out_dt);
      f.out(out, a, b);
      EXPECT_EQ(out.dtype(), out_dt);
      expect_compare<T>(out, op, ea, eb, "out=");
    }
    if (!a_rep) {
      // In place on a copy of a in a's own layout (strides kept).
      Tensor x = st::empty_strided(a.sizes(), a.strides(), dt);
      st::copy_(x, a);
      f.inplace(x, b);
      EXPECT_EQ(x.dtype(), dt);
      expect_compare<T>(x, op, ea, eb, "in place");
    }
    if (b.numel() == 1) {
      // The Scalar overloads (a wrapped number), functional and in place.
      const T s = raw<T>(b)[0];
      const Scalar sc = std::is_same_v<T, float> ? Scalar(static_cast<double>(s))
                                                 : Scalar(static_cast<int64_t>(s));
      if (!a_rep) {
        expect_compare<T>(f.fn_scalar(a, sc), op, ea, eb, "functional, Scalar");
        Tensor x = st::clone(a);
        f.inplace_scalar(x, sc);
        expect_compare<T>(x, op, ea, eb, "in place, Scalar");
      }
    }
  }
}

template <typename T>
void check_every_layout(ScalarType dt, const std::vector<T>& pool) {
  std::mt19937_64 g(5);
  auto draw = [&](int64_t n) {
    std::vector<T> v(static_cast<size_t>(n));
    for (T& x : v) x = pool[g() % pool.size()];
    return v;
  };
  for (int64_t n : {1, 3, 15, 16, 17, 37, 1000}) {
    SCOPED_TRACE("n " + std::to_string(n));
    const Tensor a = make_raw(draw(n), {n}, dt);
    const Tensor b = make_raw(draw(n), {n}, dt);
    {
      SCOPED_TRACE("contiguous");
      check_all_forms<T>(dt, a, b, false);
    }
    {
      SCOPED_TRACE("strided");
      const Tensor sa = st::slice(make_raw(draw(2 * n), {2 * n}, dt), 0, 0, 2 * n, 2);
      const Tensor sb = st::slice(make_raw(draw(3 * n), {3 * n}, dt), 0, 1, 3 * n, 3);
      check_all_forms<T>(dt, sa, sb, false);
      check_all_forms<T>(dt, sa, b, false);
    }
    {
      SCOPED_TRACE("broadcast scalar");
      for (const T& s : pool) {
        const Tensor one = make_raw(std::vector<T>{s}, {1}, dt);
        check_all_forms<T>(dt, a, one, false);
        check_all_forms<T>(dt, one, b, true);
      }
    }
    {
      SCOPED_TRACE("short rows");
      // Rows of 3 (contiguous, then every other element) under a row
      // stride the rows cannot be merged with.
      const Tensor wide = make_raw(draw(12 * n), {n, 12}, dt);
      const Tensor rows = make_raw(draw(3 * n), {n, 3}, dt);
      check_all_forms<T>(dt, st::slice(wide, 1, 0, 3, 1), rows, false);
      check_all_forms<T>(dt, st::slice(wide, 1, 0, 6, 2), rows, false);
      check_all_forms<T>(dt, rows, st::slice(wide, 1, 1, 7, 2), false);
      // A broadcast row.
      check_all_forms<T>(dt, rows, st::slice(rows, 0, 0, 1, 1), false);
    }
  }
}

TEST(NativeCompareOps, EveryPredicateLayoutAndFormMatchesAScalarReference) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  check_every_layout<float>(ScalarType::Float, {nan, -nan, 0.0f, -0.0f, inf, -inf, 1.0f, -1.0f,
                                                2.5f, std::numeric_limits<float>::max(),
                                                std::numeric_limits<float>::denorm_min(), 1.0f});
  const int64_t lo = std::numeric_limits<int64_t>::min();
  const int64_t hi = std::numeric_limits<int64_t>::max();
  check_every_layout<int64_t>(ScalarType::Long,
                              {lo, lo + 1, -1, 0, 1, int64_t{1} << 40, hi - 1, hi, 0});
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

// where and masked_fill over a long random mask (the select is made of
// bits, not a branch: loops.h, select_item), contiguous and strided, in
// every dtype: each element the one its mask picks.
TEST(NativeCompareOps, WhereAndMaskedFillPickEachElementInEveryDtype) {
  std::mt19937 g(11);
  const int64_t n = 1000;
  for (ScalarType dtype :
       {ScalarType::Bool, ScalarType::Byte, ScalarType::Char, ScalarType::Short, ScalarType::Int,
        ScalarType::Long, ScalarType::Half, ScalarType::BFloat16, ScalarType::Float,
        ScalarType::Double, ScalarType::ComplexFloat, ScalarType::ComplexDouble}) {
    SCOPED_TRACE(::testing::Message() << dtype);
    for (int layout : {0, 2}) {
      Tensor cond = relayout(random_ints(g, {n}, ScalarType::Bool, 0, 1), layout);
      Tensor a = relayout(random_ints(g, {n}, dtype, 1, 9), layout);
      Tensor b = relayout(random_ints(g, {n}, dtype, 0, 9), layout);
      const auto c = values(cond), av = values(a), bv = values(b);
      const double five = values(make1({5}, dtype))[0];  // 1 as a Bool
      std::vector<double> want_where(c.size()), want_fill(c.size());
      for (size_t i = 0; i < c.size(); ++i) {
        want_where[i] = c[i] != 0 ? av[i] : bv[i];
        want_fill[i] = c[i] != 0 ? five : av[i];
      }
      expect_close(values(st::where(cond, a, b)), want_where, 0);
      expect_close(values(st::masked_fill(a, cond, 5)), want_fill, 0);
      st::masked_fill_(a, cond, 5);
      expect_close(values(a), want_fill, 0);
    }
  }
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

// A bool tensor of n items, true at every index that is 0 or 1 modulo 3
// (runs of both values, so a select cannot pass by luck).
Tensor pattern_mask(int64_t n) {
  std::vector<double> v(static_cast<size_t>(n));
  for (size_t i = 0; i < v.size(); ++i) v[i] = i % 3 != 2 ? 1 : 0;
  return make1(v, ScalarType::Bool);
}

// Items `step` apart in `base` (zeros of step * n + 3), from offset 3,
// holding the n items of x: the sweep's strided layout for step 2.
Tensor spread(const Tensor& x, int64_t step, Tensor& base) {
  base = st::zeros({step * x.numel() + 3}, x.dtype());
  Tensor view = st::slice(base, 0, 3, std::nullopt, step);
  view = st::slice(view, 0, 0, x.numel());
  st::copy_(view, x);
  return view;
}

// Every item of `whole` outside the view spread(.., step, whole) made is 0.
void expect_gaps_untouched(const Tensor& whole, int64_t step) {
  const std::vector<double> w = values(whole);
  for (size_t i = 0; i < w.size(); ++i) {
    if (i < 3 || (i - 3) % static_cast<size_t>(step) != 0) {
      EXPECT_EQ(w[i], 0) << "gap " << i;
    }
  }
}

// Row lengths below, at and above the block sizes of the strided loops.
const int64_t kSelectLengths[] = {1, 5, 16, 63, 64, 65, 256, 257, 1000};

// where and masked_fill on strided conditions and masks (stride 2 and 3
// bytes), strided values and strided outputs give what contiguous operands
// give, in every element size; the gaps of a strided output stay as they
// were.
TEST(NativeCompareOps, WhereAndMaskedFillOnStridedOperands) {
  for (ScalarType dtype : {ScalarType::Float, ScalarType::Double, ScalarType::Long,
                           ScalarType::Half, ScalarType::Char, ScalarType::Bool}) {
    for (int64_t n : kSelectLengths) {
      SCOPED_TRACE(::testing::Message() << "dtype " << dtype << " n " << n);
      Tensor ramp = st::arange(n, ScalarType::Float);
      Tensor c = pattern_mask(n);
      Tensor a = st::_to_copy(st::remainder(ramp, Scalar(7.0)), dtype);
      Tensor b = st::_to_copy(st::remainder(ramp, Scalar(5.0)), dtype);
      const std::vector<double> vc = values(c), va = values(a), vb = values(b);
      std::vector<double> want_where(va.size()), want_fill(va.size());
      for (size_t i = 0; i < va.size(); ++i) {
        want_where[i] = vc[i] != 0 ? va[i] : vb[i];
        want_fill[i] = vc[i] != 0 ? 1 : va[i];
      }
      Tensor c_base, c3_base, a_base, b_base;
      Tensor c2 = spread(c, 2, c_base), c3 = spread(c, 3, c3_base);
      Tensor as = spread(a, 2, a_base), bs = spread(b, 2, b_base);
      expect_close(values(st::where(c2, as, bs)), want_where, 0);
      expect_close(values(st::where(c3, as, b)), want_where, 0);
      expect_close(values(st::masked_fill(as, c2, 1)), want_fill, 0);
      expect_close(values(st::masked_fill(a, c3, make({1}, {}, dtype))), want_fill, 0);
      // In place on a strided view, and where's out= a strided view: the
      // view's items are written, the gaps are not.
      Tensor target_base, out2_base, out3_base;
      Tensor target = spread(a, 2, target_base);
      st::masked_fill_(target, c2, 1);
      expect_close(values(target), want_fill, 0);
      Tensor out2 = spread(b, 2, out2_base), out3 = spread(b, 3, out3_base);
      st::where_out(out2, c2, as, bs);
      st::where_out(out3, c3, as, b);
      expect_close(values(out2), want_where, 0);
      expect_close(values(out3), want_where, 0);
      expect_gaps_untouched(target_base, 2);
      expect_gaps_untouched(out2_base, 2);
      expect_gaps_untouched(out3_base, 3);
    }
  }
}

// A mask or condition broadcast along rows (the trailing dims only), and a
// Scalar or 0-dim value: every row gets the same selection.
TEST(NativeCompareOps, WhereAndMaskedFillWithABroadcastMask) {
  for (int64_t n : kSelectLengths) {
    SCOPED_TRACE(::testing::Message() << "n " << n);
    Tensor c = pattern_mask(n);
    Tensor a = st::reshape(st::arange(4 * n, ScalarType::Float), {4, n});
    const std::vector<double> vc = values(c), va = values(a);
    std::vector<double> want_where(va.size()), want_fill(va.size());
    for (size_t i = 0; i < va.size(); ++i) {
      const bool m = vc[i % static_cast<size_t>(n)] != 0;
      want_where[i] = m ? va[i] : -2.0;
      want_fill[i] = m ? 0.5 : va[i];
    }
    expect_close(values(st::where(c, a, Scalar(-2.0))), want_where, 0);
    expect_close(values(st::masked_fill(a, c, make({0.5}, {}))), want_fill, 0);
    Tensor in_place = st::clone(a);
    st::masked_fill_(in_place, c, 0.5);
    expect_close(values(in_place), want_fill, 0);
  }
}

// The out-of-place masked_fill's result is contiguous whatever self's
// layout (PyTorch clones self contiguous), and self is left as it was.
TEST(NativeCompareOps, MaskedFillResultIsContiguous) {
  Tensor a = make({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor t = st::t(a);  // 3 x 2, transposed strides
  Tensor mask = make({1, 0, 0, 1, 1, 0}, {3, 2}, ScalarType::Bool);
  Tensor r = st::masked_fill(t, mask, -1);
  EXPECT_TRUE(r.is_contiguous());
  expect_close(values(r), {-1, 4, 2, -1, -1, 6}, 0);
  expect_close(values(a), {1, 2, 3, 4, 5, 6}, 0);
}

// The out-of-place masked_fill checks its mask and value as masked_fill_
// does, naming the argument.
TEST(NativeCompareOps, MaskedFillChecksItsArguments) {
  Tensor a = make({1, 2, 3, 4}, {2, 2});
  EXPECT_NATIVE_ERROR(st::masked_fill(a, make1({1, 0}, ScalarType::Long), 1),
                      "masked_fill_ only supports boolean masks, but got mask with dtype Long");
  EXPECT_NATIVE_ERROR(st::masked_fill(a, make1({1, 0}, ScalarType::Bool), make1({1, 2})),
                      "masked_fill_ only supports a 0-dimensional value tensor");
  EXPECT_NATIVE_ERROR(st::where(make1({1, 0}, ScalarType::Byte), a, a),
                      "where expected condition to be a boolean tensor, but got a tensor with "
                      "dtype Byte");
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
