// Reductions against hand-computed values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <st/native/reduction.h>

#include "native/random_tensors.h"

namespace {

using namespace st_native_test;
const double kNan = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

TEST(NativeReduceOps, SumDimsKeepdimDtype) {
  Tensor a = make({1, 2, 3, 4, 5, 6}, {2, 3});
  expect_close(values(st::sum(a)), {21});
  EXPECT_EQ(st::sum(a).dim(), 0);
  expect_close(values(st::sum(a, {0})), {5, 7, 9});
  expect_close(values(st::sum(a, {1}, true)), {6, 15});
  EXPECT_EQ(shape(st::sum(a, {1}, true)), (std::vector<int64_t>{2, 1}));
  expect_close(values(st::sum(a, {-1, 0})), {21});
  expect_close(values(st::sum(a, std::vector<int64_t>{})), {21});  // [] = every dim
  EXPECT_EQ(st::sum(make1({1, 2}, ScalarType::Int)).dtype(), ScalarType::Long);
  EXPECT_EQ(st::sum(make1({1, 1}, ScalarType::Bool)).dtype(), ScalarType::Long);
  expect_close(values(st::sum(make1({1, 1}, ScalarType::Bool))), {2});
  EXPECT_EQ(st::sum(a, ScalarType::Double).dtype(), ScalarType::Double);
  expect_close(values(st::sum(st::t(a), {1})), {5, 7, 9});
  expect_close(values(st::sum(st::empty({0, 3}), {0})), {0, 0, 0});
  Tensor out = st::empty({0}, ScalarType::Double);
  st::sum_out(out, a, {0});
  EXPECT_EQ(out.dtype(), ScalarType::Double);
  expect_close(values(out), {5, 7, 9});
  EXPECT_NATIVE_ERROR(st::sum(a, {0, 0}), "dim 0 appears multiple times in the list of dims");
  EXPECT_NATIVE_ERROR(st::sum(a, {2}), "Dimension out of range");
  // float sums accumulate in double
  Tensor many = st::full({1 << 20}, 0.1f);
  EXPECT_NEAR(values(st::sum(many))[0], 104857.6, 0.05);
}

TEST(NativeReduceOps, MeanProd) {
  Tensor a = make({1, 2, 3, 4}, {2, 2});
  expect_close(values(st::mean(a)), {2.5});
  expect_close(values(st::mean(a, {0})), {2, 3});
  EXPECT_NATIVE_ERROR(st::mean(make1({1}, ScalarType::Long)),
                      "mean(): could not infer output dtype. Input dtype must be either a floating "
                      "point or complex dtype. Got: Long");
  expect_close(values(st::mean(make1({1, 2}, ScalarType::Long), ScalarType::Double)), {1.5});
  expect_close(values(st::mean(st::empty({0}))), {kNan});
  expect_close(values(st::prod(a)), {24});
  expect_close(values(st::prod(a, 1)), {2, 12});
  EXPECT_EQ(st::prod(make1({2, 3}, ScalarType::Byte)).dtype(), ScalarType::Long);
}

TEST(NativeReduceOps, AmaxAminMaxMin) {
  Tensor a = make({1, 5, 3, 7, 2, 7}, {2, 3});
  expect_close(values(st::amax(a)), {7});
  expect_close(values(st::amax(a, {1})), {5, 7});
  expect_close(values(st::amin(a, {0}, true)), {1, 2, 3});
  expect_close(values(st::amax(make1({1, kNan, 3}))), {kNan});
  auto [v, i] = st::max(a, 1);
  expect_close(values(v), {5, 7});
  expect_close(values(i), {1, 0});  // first occurrence of a tie
  auto [mv, mi] = st::min(a, 0, true);
  EXPECT_EQ(shape(mv), (std::vector<int64_t>{1, 3}));
  expect_close(values(mi), {0, 1, 0});
  expect_close(values(st::max(a)), {7});
  expect_close(values(st::min(a)), {1});
  EXPECT_NATIVE_ERROR(st::max(st::empty({0})),
                      "max(): Expected reduction dim to be specified for input.numel() == 0.");
  EXPECT_NATIVE_ERROR(st::amax(st::empty({0, 2}), {0}),
                      "amax(): Expected reduction dim 0 to have non-zero size.");
  auto [nv, ni] = st::max(make1({1, kNan, 3, kNan}), 0);
  expect_close(values(ni), {1});
  Tensor vo = st::empty({0}), io = st::empty({0}, ScalarType::Long);
  st::max_out(vo, io, a, 0);
  expect_close(values(vo), {7, 5, 7});
  expect_close(values(io), {1, 0, 1});
}

TEST(NativeReduceOps, ArgmaxArgmin) {
  Tensor a = make({1, 5, 3, 7, 2, 7}, {2, 3});
  expect_close(values(st::argmax(a)), {3});
  expect_close(values(st::argmax(a, 1)), {1, 0});
  expect_close(values(st::argmin(a, 0, true)), {0, 1, 0});
  EXPECT_EQ(shape(st::argmax(a, std::nullopt, true)), (std::vector<int64_t>{1, 1}));
  EXPECT_NATIVE_ERROR(st::argmax(st::empty({0})),
                      "argmax(): Expected reduction dim to be specified for input.numel() == 0.");
}

TEST(NativeReduceOps, AllAny) {
  Tensor a = make({1, 0, 1, 1}, {2, 2});
  EXPECT_EQ(st::all(a).dtype(), ScalarType::Bool);
  expect_close(values(st::all(a)), {0});
  expect_close(values(st::any(a)), {1});
  expect_close(values(st::all(a, 0)), {1, 0});
  expect_close(values(st::any(a, std::optional<IntArrayRef>(std::vector<int64_t>{1}), true)),
               {1, 1});
  EXPECT_EQ(st::all(make1({1}, ScalarType::Byte)).dtype(), ScalarType::Byte);
  expect_close(values(st::all(st::empty({0}))), {1});
  expect_close(values(st::any(st::empty({0}))), {0});
}

TEST(NativeReduceOps, Cumsum) {
  Tensor a = make({1, 2, 3, 4, 5, 6}, {2, 3});
  expect_close(values(st::cumsum(a, 1)), {1, 3, 6, 4, 9, 15});
  expect_close(values(st::cumsum(a, 0)), {1, 2, 3, 5, 7, 9});
  EXPECT_EQ(st::cumsum(make1({1}, ScalarType::Int), 0).dtype(), ScalarType::Long);
  st::cumsum_(a, -1);
  expect_close(values(a), {1, 3, 6, 4, 9, 15});
  expect_close(values(st::cumsum(make({5}, {}), 0)), {5});
}

// cumsum_ and cumsum.out write in place / into out directly when they
// can: every layout of self and out, out aliasing self, and an expanded
// self or out (elements sharing memory) through a temporary.
// Along a size-1 dim each line is its one element plus 0: the element,
// with -0.0 summed to 0.0 as any line's first running sum, for each dtype,
// layout, in place and into out; int elements sum to Long.
TEST(NativeReduceOps, CumsumAlongASizeOneDimIsEachElementPlusZero) {
  for (int kind = 0; kind < 3; ++kind) {
    for (const ScalarType dt : {ScalarType::Long, ScalarType::Float, ScalarType::Double}) {
      SCOPED_TRACE(::testing::Message() << torch::headeronly::toString(dt) << " " << kind);
      const std::vector<double> v{1, -2, 3, 0, 5, 6};
      Tensor a = relayout(make(v, {2, 1, 3}, dt), kind);
      EXPECT_EQ(values(st::cumsum(a, 1)), v);
      Tensor out = relayout(st::zeros({2, 1, 3}, dt), 2 - kind);
      st::cumsum_out(out, a, 1);
      EXPECT_EQ(values(out), v);
      st::cumsum_(a, 1);
      EXPECT_EQ(values(a), v);
    }
  }
  Tensor neg = make({-0.0, kNan}, {1, 2}, ScalarType::Float);
  const std::vector<double> r = values(st::cumsum(neg, 0));
  EXPECT_FALSE(std::signbit(r[0]));
  EXPECT_TRUE(std::isnan(r[1]));
  EXPECT_EQ(st::cumsum(make({7, 8}, {2, 1}, ScalarType::Int), 1).dtype(), ScalarType::Long);
}

TEST(NativeReduceOps, CumsumInPlaceAndIntoOut) {
  for (int kind = 0; kind < 3; ++kind) {
    for (const ScalarType dt : {ScalarType::Long, ScalarType::Float, ScalarType::Int}) {
      Tensor a = relayout(make({1, 2, 3, 4, 5, 6}, {2, 3}, dt), kind);
      st::cumsum_(a, 1);
      expect_close(values(a), {1, 3, 6, 4, 9, 15});
      st::cumsum_(a, 0);
      expect_close(values(a), {1, 3, 6, 5, 12, 21});
      Tensor src = relayout(make({1, 2, 3, 4, 5, 6}, {2, 3}, dt), kind);
      Tensor out = relayout(st::zeros({2, 3}, dt), 2 - kind);
      st::cumsum_out(out, src, 0);
      expect_close(values(out), {1, 2, 3, 5, 7, 9});
      st::cumsum_out(src, src, -1);  // out is self
      expect_close(values(src), {1, 3, 6, 4, 9, 15});
    }
  }
  // out of another shape is resized; a row of self viewed as out
  // (partial overlap) goes through a temporary.
  Tensor src = make({1, 2, 3, 4, 5, 6}, {2, 3}, ScalarType::Long);
  Tensor out = st::empty({0}, ScalarType::Long);
  st::cumsum_out(out, src, 1);
  expect_close(values(out), {1, 3, 6, 4, 9, 15});
  Tensor base = make({1, 2, 3, 4}, {4}, ScalarType::Long);
  Tensor shifted = st::slice(base, 0, 1, 4), head = st::slice(base, 0, 0, 3);
  st::cumsum_out(shifted, head, 0);
  expect_close(values(base), {1, 1, 3, 6});
  // int in, Long out (out gives the dtype): converted input, direct write
  Tensor io = st::zeros({3}, ScalarType::Long);
  st::cumsum_out(io, make({1, 2, 3}, {3}, ScalarType::Int), 0);
  expect_close(values(io), {1, 3, 6});
  // long lines: a float's running sum is a double, as PyTorch's
  const int64_t n = 1 << 12;
  Tensor f = st::full({n}, 0.1, ScalarType::Float);
  Tensor fo = st::empty({n}, ScalarType::Float);
  st::cumsum_out(fo, f, 0);
  double acc = 0;
  const float* fp = static_cast<const float*>(fo.const_data_ptr());
  const float tenth = 0.1f;
  for (int64_t j = 0; j < n; ++j) {
    acc += static_cast<double>(tenth);
    ASSERT_EQ(fp[j], static_cast<float>(acc));
  }
  st::cumsum_(f, 0);
  EXPECT_EQ(std::memcmp(f.const_data_ptr(), fo.const_data_ptr(), sizeof(float) * n), 0);
  // long int64 lines (vector running sums) wrap, out of place and in place
  Tensor big = st::empty({3, 1001}, ScalarType::Long);
  int64_t* bp = static_cast<int64_t*>(big.data_ptr());
  for (int64_t k = 0; k < big.numel(); ++k) {
    bp[k] = std::numeric_limits<int64_t>::max() / 3 - k * 7919;  // overflows within a line
  }
  std::vector<int64_t> want(static_cast<size_t>(big.numel()));
  for (int64_t r = 0; r < 3; ++r) {
    uint64_t s = 0;
    for (int64_t j = 0; j < 1001; ++j) {
      s += static_cast<uint64_t>(bp[r * 1001 + j]);
      want[static_cast<size_t>(r * 1001 + j)] = static_cast<int64_t>(s);
    }
  }
  const Tensor bo = st::cumsum(big, 1);
  EXPECT_EQ(std::memcmp(bo.const_data_ptr(), want.data(), want.size() * sizeof(int64_t)), 0);
  st::cumsum_(big, -1);
  EXPECT_EQ(std::memcmp(big.const_data_ptr(), want.data(), want.size() * sizeof(int64_t)), 0);
}

// Lines are summed several side by side: each still in order of its own
// elements, so every output has the bits of that line's running sum in
// double, in every layout, along every dim, for line counts that fill no
// group, one, and several with a rest, in place and out of place.
TEST(NativeReduceOps, CumsumLinesSideBySideKeepEachLinesBits) {
  for (const std::vector<int64_t>& sh :
       {std::vector<int64_t>{3, 5}, std::vector<int64_t>{8, 8}, std::vector<int64_t>{19, 37},
        std::vector<int64_t>{3, 5, 7}}) {
    const Tensor t = st::randn(IntArrayRef(sh), ScalarType::Float);
    for (int kind = 0; kind < 3; ++kind) {
      const Tensor in = relayout(t, kind);
      for (int64_t d = 0; d < in.dim(); ++d) {
        SCOPED_TRACE(::testing::Message() << "shape " << sh.size() << "-d " << sh[0] << " layout "
                                          << kind << " dim " << d);
        // dim d last: each row of the permuted view is one line
        std::vector<int64_t> perm;
        for (int64_t i = 0; i < in.dim(); ++i) {
          if (i != d) perm.push_back(i);
        }
        perm.push_back(d);
        const IntArrayRef last(perm);
        const std::vector<double> x = values(st::permute(in, last));
        const int64_t n = sh[static_cast<size_t>(d)];
        std::vector<double> want(x.size());
        for (size_t l = 0; l < x.size(); l += static_cast<size_t>(n)) {
          double acc = 0;
          for (int64_t j = 0; j < n; ++j) {
            acc += static_cast<double>(static_cast<float>(x[l + static_cast<size_t>(j)]));
            want[l + static_cast<size_t>(j)] = static_cast<float>(acc);
          }
        }
        EXPECT_EQ(values(st::permute(st::cumsum(in, d), last)), want);
        Tensor io = relayout(t, kind);
        st::cumsum_(io, d);
        EXPECT_EQ(values(st::permute(io, last)), want);
      }
    }
  }
}

TEST(NativeReduceOps, VarStd) {
  Tensor a = make1({1, 2, 3, 4});
  expect_close(values(st::var(a)), {5.0 / 3});
  expect_close(values(st::var(a, std::nullopt, Scalar(0))), {1.25});
  expect_close(values(st::std(a, std::optional<IntArrayRef>(std::vector<int64_t>{0}), true, false)),
               {std::sqrt(5.0 / 3)});
  expect_close(values(st::var(make({1, 2, 3, 5}, {2, 2}), std::vector<int64_t>{1})), {0.5, 2});
  EXPECT_NATIVE_ERROR(st::var(make1({1}, ScalarType::Long)),
                      "std and var only support floating point and complex dtypes");
  Tensor c = st::full({2}, Scalar(std::complex<double>(1, 1)));
  EXPECT_EQ(st::var(c).dtype(), ScalarType::Float);
  expect_close(values(st::var(make1({1}))), {kNan});
}

TEST(NativeReduceOps, Norms) {
  Tensor a = make1({3, -4});
  expect_close(values(st::norm(a)), {5});
  expect_close(values(st::norm(a, 1)), {7});
  expect_close(values(st::linalg_vector_norm(a, kInf)), {4});
  expect_close(values(st::linalg_vector_norm(a, -kInf)), {3});
  expect_close(values(st::linalg_vector_norm(a, 0)), {2});
  expect_close(values(st::linalg_vector_norm(a, 3)), {std::cbrt(27 + 64.0)});
  Tensor m = make({3, 4, 6, 8}, {2, 2});
  expect_close(values(st::norm(m, 2, {1})), {5, 10});
  expect_close(
      values(st::linalg_vector_norm(m, 2, std::vector<int64_t>{0}, true, ScalarType::Double)),
      {std::sqrt(45.0), std::sqrt(80.0)});
  EXPECT_NATIVE_ERROR(st::linalg_vector_norm(make1({1}, ScalarType::Long)),
                      "Expected a floating point or complex tensor as input. Got Long");
  Tensor c = st::full({1}, Scalar(std::complex<double>(3, 4)));
  EXPECT_EQ(st::linalg_vector_norm(c).dtype(), ScalarType::Float);
  expect_close(values(st::linalg_vector_norm(c)), {5});
}

}  // namespace

namespace {

using namespace st_native_test;

TEST(NativeReduceOps, FullReductionOutVariants) {
  Tensor out = st::empty({0}, ScalarType::Long);
  st::sum_out(out, make1({1, 2, 3}, ScalarType::Int));
  EXPECT_EQ(out.dim(), 0);
  expect_close(values(out), {6});
  Tensor pout = st::empty({0}, ScalarType::Long);
  st::prod_out(pout, make1({2, 3, 4}, ScalarType::Int));
  expect_close(values(pout), {24});
  Tensor big = st::ones({3, 70000}, ScalarType::Double);  // long rows take the blocked path
  expect_close(values(st::sum(big, {1})), {70000, 70000, 70000});
  expect_close(values(st::sum(st::ones({200000}))), {200000});
  expect_close(values(st::argmax(st::arange(200000))), {199999});
}

// out= dtypes as PyTorch's structured reductions require them: the
// computed dtype exactly (a given dtype must match the out=; without dims
// integers sum to Long; indices are Long), never a silent cast.
TEST(NativeReduceOps, OutDtypeMustMatchExactly) {
  Tensor a = make({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor f = st::empty({0});
  EXPECT_NATIVE_ERROR(st::sum_out(f, a, {1}, false, ScalarType::Double),
                      "sum(): Expected out tensor to have dtype Double, but got Float instead");
  st::sum_out(f, a, {1});
  expect_close(values(f), {6, 15});
  Tensor i = make({1, 2, 3}, {3}, ScalarType::Int);
  Tensor io = st::empty({0}, ScalarType::Int);
  EXPECT_NATIVE_ERROR(st::sum_out(io, i), "Expected out tensor to have dtype Long, but got Int");
  EXPECT_NATIVE_ERROR(st::prod_out(io, i), "Expected out tensor to have dtype Long, but got Int");
  st::cumsum_out(io, i, 0);  // with a dim, the out= gives the dtype
  expect_close(values(io), {1, 3, 6});
  EXPECT_NATIVE_ERROR(st::cumsum_out(f, a, 1, ScalarType::Double), "cumsum(): Expected out tensor");
  EXPECT_NATIVE_ERROR(st::mean_out(f, a, {1}, false, ScalarType::Double), "mean(): Expected out");
  EXPECT_NATIVE_ERROR(st::argmax_out(f, a), "argmax(): Expected out tensor to have dtype Long");
  EXPECT_NATIVE_ERROR(st::argmin_out(f, a), "argmin(): Expected out tensor to have dtype Long");
  Tensor vals = st::empty({0});
  Tensor idx = st::empty({0}, ScalarType::Long);
  EXPECT_NATIVE_ERROR(st::max_out(vals, f, a, 1), "max(): Expected out tensor to have dtype Long");
  st::max_out(vals, idx, a, 1);
  expect_close(values(idx), {2, 2});
}

// sum/mean/prod out= compute into the out= itself when it is contiguous
// (after resizing) and not a view of the input; a strided out= or one
// that is a view of the input gets the values through a temporary.
TEST(NativeReduceOps, OutVariantsWriteIntoOrCopyIntoOut) {
  Tensor a = make({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor o = st::empty({2});
  const void* p = o.data_ptr();
  st::sum_out(o, a, {1});
  expect_close(values(o), {6, 15});
  EXPECT_EQ(o.data_ptr(), p);  // written in place, no reallocation
  Tensor grown = st::empty({0});
  st::mean_out(grown, a, {0}, true);
  EXPECT_EQ(shape(grown), (std::vector<int64_t>{1, 3}));
  expect_close(values(grown), {2.5, 3.5, 4.5});
  Tensor wide = st::zeros({3, 2});
  Tensor strided = st::select(wide, 1, 1);  // [3], stride 2
  st::prod_out(strided, a, 0);
  expect_close(values(strided), {4, 10, 18});
  expect_close(values(st::select(wide, 1, 0)), {0, 0, 0});  // the gaps untouched
  Tensor x = make1({1, 2, 3, 4});
  Tensor first = st::select(x, 0, 0);  // a 0-d view of the input
  st::sum_out(first, x);
  expect_close(values(x), {10, 2, 3, 4});
  Tensor empty_in = st::empty({0, 3});
  Tensor eo = st::ones({3});
  st::sum_out(eo, empty_in, {0});
  expect_close(values(eo), {0, 0, 0});
  Tensor one = st::empty({});
  st::prod_out(one, make1({-2.5}));
  expect_close(values(one), {-2.5});
  Tensor lo = st::empty({}, ScalarType::Long);
  EXPECT_NATIVE_ERROR(st::prod_out(lo, a),
                      "prod(): Expected out tensor to have dtype Float, but got Long instead");
}

TEST(NativeReduceOps, ArgmaxRefusesBoolAndCumsumRefusesBoolAccumulation) {
  Tensor b = make({0, 1, 1}, {3}, ScalarType::Bool);
  EXPECT_NATIVE_ERROR(st::argmax(b), "argmax(): does not support bool input");
  EXPECT_NATIVE_ERROR(st::argmin(b, 0), "argmin(): does not support bool input");
  EXPECT_NATIVE_ERROR(st::cumsum_(b, 0), "\"cumsum_out_cpu\" not implemented for 'Bool'");
  Tensor bo = st::empty({0}, ScalarType::Bool);
  EXPECT_NATIVE_ERROR(st::cumsum_out(bo, b, 0), "not implemented for 'Bool'");
  expect_close(values(st::cumsum(b, 0)), {0, 1, 2});  // bool sums to Long
}

// max()/min() into an out= of an empty tensor write the identity.
TEST(NativeReduceOps, MaxMinOfEmptyIntoOutGiveTheIdentity) {
  Tensor e = st::empty({0, 3});
  Tensor out = st::empty({0});
  st::max_out(out, e);
  EXPECT_EQ(out.dim(), 0);
  expect_close(values(out), {-kInf});
  st::min_out(out, e);
  expect_close(values(out), {kInf});
  Tensor io = st::empty({0}, ScalarType::Int);
  st::max_out(io, st::empty({0}, ScalarType::Int));
  expect_close(values(io), {static_cast<double>(std::numeric_limits<int32_t>::lowest())});
  EXPECT_NATIVE_ERROR(st::max(e), "Expected reduction dim to be specified");
}

// The vectorized loops (cpu/vec_reduce_kernels.h, through reduction.h's
// run/row hooks) against element-by-element references, on every tail
// length, contiguous, strided (gathered) and over an outer dim (across
// outputs).
std::vector<double> ramp(int64_t n, double scale) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    v[static_cast<size_t>(i)] = scale * static_cast<double>((i * 37) % 101 - 50);
  return v;
}

TEST(NativeReduceOps, VectorLoopsMatchReferencesOnEveryLength) {
  for (ScalarType dt : {ScalarType::Float, ScalarType::Double, ScalarType::Long}) {
    const bool fp = dt != ScalarType::Long;
    for (int64_t n :
         {1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 255, 256, 257, 1000, 4099}) {
      SCOPED_TRACE(std::to_string(n) + " " + torch::headeronly::toString(dt));
      const std::vector<double> v = ramp(n, fp ? 0.25 : 1.0);
      Tensor a = make1(v, dt);
      double sum = 0, mx = -kInf, mn = kInf, sq = 0;
      for (double x : v) {
        sum += x;
        mx = std::max(mx, x);
        mn = std::min(mn, x);
        sq += x * x;
      }
      expect_close(values(st::sum(a)), {sum});
      expect_close(values(st::amax(a)), {mx});
      expect_close(values(st::amin(a)), {mn});
      expect_close(values(st::max(a)), {mx});
      expect_close(values(st::min(a)), {mn});
      // products of a few values (1.5 and -1 alternating stay finite)
      std::vector<double> pv(static_cast<size_t>(std::min<int64_t>(n, 40)));
      double prod = 1;
      for (size_t i = 0; i < pv.size(); ++i) {
        pv[i] = fp ? (i % 2 ? 1.5 : -1.0) : (i % 2 ? 2.0 : -1.0);
        prod *= pv[i];
      }
      expect_close(values(st::prod(make1(pv, dt))), {prod});
      if (fp) {
        const double mean = sum / static_cast<double>(n);
        double m2 = 0;
        for (double x : v) m2 += (x - mean) * (x - mean);
        expect_close(values(st::mean(a)), {mean});
        if (n > 1) expect_close(values(st::var(a)), {m2 / static_cast<double>(n - 1)});
        expect_close(values(st::linalg_vector_norm(a)), {std::sqrt(sq)});
        double l1 = 0;
        for (double x : v) l1 += std::fabs(x);
        expect_close(values(st::linalg_vector_norm(a, 1)), {l1});
      }
      // The same values strided (every other element: gathered), and as
      // the columns of a 2-row matrix reduced over dim 0 (across outputs).
      Tensor wide = make1(std::vector<double>(static_cast<size_t>(2 * n), 7), dt);
      Tensor strided = st::as_strided(wide, {n}, {2}, 0);
      strided.copy_(a);
      expect_close(values(st::sum(strided)), {sum});
      expect_close(values(st::amax(strided)), {mx});
      Tensor two = st::stack({a, a}, 0);  // [2, n]
      std::vector<double> twice(v.size()), maxes(v);
      for (size_t i = 0; i < v.size(); ++i) twice[i] = 2 * v[i];
      expect_close(values(st::sum(two, {0})), twice);
      expect_close(values(st::amax(two, {0})), maxes);
      expect_close(values(st::amin(two, {0}, true)), maxes);
      EXPECT_EQ(shape(st::amin(two, {0}, true)), (std::vector<int64_t>{1, n}));
      expect_close(values(st::sum(two, {1}, true)), {sum, sum});
      EXPECT_EQ(shape(st::sum(two, {1}, true)), (std::vector<int64_t>{2, 1}));
    }
  }
}

// Strided stretches longer than one gather chunk (8 KiB: 2048 floats,
// 1024 doubles or int64), every other and every third element, reduced in
// full (the blocked split for the long one), along the strided dim of
// rows and across strided rows, against double references; sum and mean
// in out= tensors too.
TEST(NativeReduceOps, LongStridedStretchesMatchReferences) {
  for (ScalarType dt : {ScalarType::Float, ScalarType::Double, ScalarType::Long}) {
    const bool fp = dt != ScalarType::Long;
    for (int64_t n : {1023, 1024, 1025, 2047, 2048, 2049, 5000, 70001}) {
      for (int64_t stride : {2, 3}) {
        SCOPED_TRACE(std::to_string(n) + " stride " + std::to_string(stride) + " " +
                     torch::headeronly::toString(dt));
        const std::vector<double> v = ramp(n, fp ? 0.25 : 1.0);
        Tensor wide = make1(std::vector<double>(static_cast<size_t>(stride * n), 7), dt);
        Tensor a = st::as_strided(wide, {n}, {stride}, 1);
        a.copy_(make1(v, dt));
        double sum = 0, mx = -kInf, mn = kInf;
        for (double x : v) {
          sum += x;
          mx = std::max(mx, x);
          mn = std::min(mn, x);
        }
        expect_close(values(st::sum(a)), {sum}, 0);
        expect_close(values(st::amax(a)), {mx}, 0);
        expect_close(values(st::amin(a)), {mn}, 0);
        Tensor so = st::empty({2}, fp ? dt : ScalarType::Long);
        st::sum_out(so, a);
        expect_close(values(so), {sum}, 0);
        if (fp) {
          expect_close(values(st::mean(a)), {sum / static_cast<double>(n)}, 1e-7);
          Tensor mo = st::empty({}, dt);
          st::mean_out(mo, a, {0});
          expect_close(values(mo), {sum / static_cast<double>(n)}, 1e-7);
        }
        // two strided rows reduced along the strided dim
        if (n <= 5000) {
          Tensor rows = st::as_strided(wide, {2, n / 2}, {stride * (n / 2), stride}, 1);
          const auto rv = values(rows);
          double r0 = 0, r1 = 0;
          for (int64_t i = 0; i < n / 2; ++i) {
            r0 += rv[static_cast<size_t>(i)];
            r1 += rv[static_cast<size_t>(n / 2 + i)];
          }
          expect_close(values(st::sum(rows, {1})), {r0, r1}, 0);
          // and across the rows (dim 0: the strided rows gathered)
          std::vector<double> cs, cm, ci;
          for (int64_t i = 0; i < n / 2; ++i) {
            const double x0 = rv[static_cast<size_t>(i)];
            const double x1 = rv[static_cast<size_t>(n / 2 + i)];
            cs.push_back(x0 + x1);
            cm.push_back(std::max(x0, x1));
            ci.push_back(x1 > x0 ? 1 : 0);
          }
          expect_close(values(st::sum(rows, {0})), cs, 0);
          expect_close(values(st::amax(rows, {0})), cm, 0);
          expect_close(values(st::argmax(rows, 0)), ci, 0);
          expect_close(values(st::sum(rows, {0})), values(st::sum(st::contiguous(rows), {0})), 0);
        }
      }
    }
  }
  // products of a long strided stretch of 1.0 and one -2 stay exact
  Tensor wide = st::ones({6000});
  Tensor a = st::as_strided(wide, {3000}, {2}, 0);
  st::fill_(st::as_strided(wide, {1}, {1}, 2 * 2500), -2);
  expect_close(values(st::prod(a)), {-2}, 0);
}

TEST(NativeReduceOps, MaxMinPropagateNanThroughEveryLoop) {
  for (ScalarType dt : {ScalarType::Float, ScalarType::Double}) {
    for (int64_t n : {1, 9, 33, 100}) {
      for (int64_t at : {int64_t{0}, n / 2, n - 1}) {
        std::vector<double> v = ramp(n, 1.0);
        v[static_cast<size_t>(at)] = kNan;
        Tensor a = make1(v, dt);
        SCOPED_TRACE(std::to_string(n) + " at " + std::to_string(at));
        EXPECT_TRUE(std::isnan(values(st::amax(a))[0]));
        EXPECT_TRUE(std::isnan(values(st::amin(a))[0]));
        EXPECT_TRUE(std::isnan(values(st::max(a))[0]));
        EXPECT_TRUE(std::isnan(values(st::min(a))[0]));
        EXPECT_TRUE(std::isnan(values(st::sum(a))[0]));
        // over dim 0 of [n, 3]: only the NaN's column is NaN
        Tensor m = st::stack({a, st::zeros_like(a), a}, 1);
        const std::vector<double> cols = values(st::amax(m, {0}));
        EXPECT_TRUE(std::isnan(cols[0]));
        EXPECT_FALSE(std::isnan(cols[1]));
        EXPECT_TRUE(std::isnan(values(st::amin(m, {0}))[2]));
        // strided (gathered)
        EXPECT_TRUE(std::isnan(values(st::amax(st::t(m), {1}))[0]));
      }
    }
  }
}

TEST(NativeReduceOps, Int64SumsAndProductsWrap) {
  Tensor a = st::empty({2, 20}, ScalarType::Long);
  int64_t* p = static_cast<int64_t*>(a.data_ptr());
  for (int i = 0; i < 40; ++i) p[i] = std::numeric_limits<int64_t>::max();
  // 20 copies of INT64_MAX = 20 * (2^63 - 1) = -20 (mod 2^64)
  Tensor rows = st::sum(a, {1});
  EXPECT_EQ(static_cast<const int64_t*>(rows.const_data_ptr())[0], -20);
  Tensor cols = st::sum(a, {0});  // across outputs: 2 * INT64_MAX = -2
  EXPECT_EQ(static_cast<const int64_t*>(cols.const_data_ptr())[19], -2);
  EXPECT_EQ(*static_cast<const int64_t*>(st::sum(a).const_data_ptr()), -40);
  for (int i = 0; i < 40; ++i) p[i] = 4;  // 4^20 = 2^40; 4^40 = 2^80 = 0 (mod 2^64)
  EXPECT_EQ(*static_cast<const int64_t*>(st::prod(a).const_data_ptr()), 0);
  EXPECT_EQ(static_cast<const int64_t*>(st::prod(a, 1).const_data_ptr())[1], int64_t{1} << 40);
  EXPECT_EQ(static_cast<const int64_t*>(st::prod(a, 0).const_data_ptr())[3], 16);
  p[5] = std::numeric_limits<int64_t>::min();
  EXPECT_EQ(*static_cast<const int64_t*>(st::amin(a).const_data_ptr()),
            std::numeric_limits<int64_t>::min());
}

TEST(NativeReduceOps, LongReductionsStayAccurate) {
  // 2^22 floats of 0.1f: float lanes add 16 values before widening to
  // double, so the sum is that of a double accumulation.
  const int64_t n = int64_t{1} << 22;
  const double want = static_cast<double>(0.1f) * static_cast<double>(n);
  EXPECT_NEAR(values(st::sum(st::full({n}, 0.1f)))[0], want, want * 1e-6);
  EXPECT_NEAR(values(st::mean(st::full({n}, 0.1f)))[0], static_cast<double>(0.1f), 1e-7);
  // A large mean with a small spread: the two-pass chunks keep the
  // variance exact where a one-pass sum of squares would cancel.
  Tensor v = st::empty({1 << 20}, ScalarType::Float);
  float* q = static_cast<float*>(v.data_ptr());
  for (int64_t i = 0; i < v.numel(); ++i) q[i] = 10000.0f + ((i % 2) ? 0.5f : -0.5f);
  EXPECT_NEAR(values(st::var(v))[0], 0.25, 1e-6);
  EXPECT_NEAR(values(st::std(v, std::vector<int64_t>{0}, false, true))[0], 0.5, 1e-6);
  // empty and single elements
  expect_close(values(st::sum(st::empty({0}))), {0});
  expect_close(values(st::prod(st::empty({0}))), {1});
  expect_close(values(st::amax(make1({-3}))), {-3});
  expect_close(values(st::var(make1({2}), std::vector<int64_t>{0}, false, false)), {0});
}

// var/std against a two-pass variance in double (the mean, then the
// squared deviations), on data where a naive sum of squares cancels: a
// large mean with a small spread, outliers, lengths across the 4,096-element
// chunks that are merged Welford-style, float and double, full and per-row.
TEST(NativeReduceOps, VarianceMatchesATwoPassReferenceInDouble) {
  std::mt19937 g(21);
  std::normal_distribution<double> noise(0, 1);
  auto two_pass = [](const std::vector<double>& v, double correction) {
    double mean = 0;
    for (double x : v) mean += x;
    mean /= static_cast<double>(v.size());
    double m2 = 0;
    for (double x : v) m2 += (x - mean) * (x - mean);
    return m2 / (static_cast<double>(v.size()) - correction);
  };
  for (ScalarType dt : {ScalarType::Float, ScalarType::Double}) {
    for (int64_t n : {5, 4096, 4097, 10000, 70001}) {
      for (double offset : {0.0, 1e4, -3e6}) {
        SCOPED_TRACE(std::to_string(n) + " " + std::to_string(offset) + " " +
                     torch::headeronly::toString(dt));
        std::vector<double> v(static_cast<size_t>(n));
        for (auto& x : v) x = offset + noise(g);
        v[0] = offset + 1000;  // an outlier where each chunk's shift starts
        v[static_cast<size_t>(n / 2)] = offset - 500;
        Tensor t = make1(v, dt);
        // the reference sees the values the tensor holds
        const std::vector<double> held = values(t);
        const double want = two_pass(held, 1);
        const double tol = want * (dt == ScalarType::Float ? 2e-7 : 1e-10);
        EXPECT_NEAR(values(st::var(t))[0], want, tol);
        EXPECT_NEAR(values(st::std(t))[0], std::sqrt(want), std::sqrt(want) * 2e-7);
        EXPECT_NEAR(values(st::var(t, std::nullopt, Scalar(0)))[0], two_pass(held, 0), tol);
        // two rows, reduced per row
        Tensor rows = st::reshape(
            make1(held.size() % 2 ? std::vector<double>(held.begin() + 1, held.end()) : held, dt),
            {2, -1});
        const std::vector<double> rv = values(rows);
        const size_t half = rv.size() / 2;
        const std::vector<double> r0(rv.begin(), rv.begin() + static_cast<std::ptrdiff_t>(half));
        const std::vector<double> r1(rv.begin() + static_cast<std::ptrdiff_t>(half), rv.end());
        const std::vector<double> got = values(st::var(rows, std::vector<int64_t>{1}));
        EXPECT_NEAR(got[0], two_pass(r0, 1), two_pass(r0, 1) * 2e-7);
        EXPECT_NEAR(got[1], two_pass(r1, 1), two_pass(r1, 1) * 2e-7);
      }
    }
  }
  // non-finite values
  EXPECT_TRUE(std::isnan(values(st::var(make1({kInf, 1, 2})))[0]));
  EXPECT_TRUE(std::isnan(values(st::var(make1({1, 2, kNan})))[0]));
  // a constant run has no variance, whatever its size
  expect_close(values(st::var(st::full({10000}, 3e7f))), {0});
}

// argmax/argmin and max/min(dim) find the extreme with the vector loop and
// then its first position: ties and NaN give the first occurrence, also
// across the blocks of a long reduction and in gathered (strided) runs.
TEST(NativeReduceOps, ArgExtremesGiveTheFirstOccurrence) {
  for (ScalarType dt : {ScalarType::Float, ScalarType::Double, ScalarType::Long}) {
    for (int64_t n : {5, 40, 100000}) {
      SCOPED_TRACE(std::to_string(n) + " " + torch::headeronly::toString(dt));
      std::vector<double> v(static_cast<size_t>(n), 1);
      v[static_cast<size_t>(n / 3)] = 9;
      v[static_cast<size_t>(n - 2)] = 9;  // a later tie
      v[static_cast<size_t>(n / 2)] = -4;
      v[static_cast<size_t>(n - 1)] = -4;
      Tensor a = make1(v, dt);
      expect_close(values(st::argmax(a)), {static_cast<double>(n / 3)});
      expect_close(values(st::argmin(a)), {static_cast<double>(n / 2)});
      auto [mv, mi] = st::max(st::reshape(a, {1, n}), 1);
      expect_close(values(mv), {9});
      expect_close(values(mi), {static_cast<double>(n / 3)});
      Tensor wide = make1(std::vector<double>(static_cast<size_t>(2 * n), 0), dt);
      Tensor strided = st::as_strided(wide, {n}, {2}, 1);
      strided.copy_(a);
      expect_close(values(st::argmax(strided)), {static_cast<double>(n / 3)});
      if (dt != ScalarType::Long) {
        v[static_cast<size_t>(n / 4 + 1)] = kNan;
        v[static_cast<size_t>(n - 3)] = kNan;
        Tensor b = make1(v, dt);
        expect_close(values(st::argmax(b)), {static_cast<double>(n / 4 + 1)});
        expect_close(values(st::argmin(b)), {static_cast<double>(n / 4 + 1)});
        auto [nv, ni] = st::min(st::reshape(b, {1, n}), 1);
        EXPECT_TRUE(std::isnan(values(nv)[0]));
        expect_close(values(ni), {static_cast<double>(n / 4 + 1)});
      }
    }
  }
}

// Over a middle dim the outputs fold their rows side by side (the table's
// value-and-index rows for float, double and int64; the engine's steps for
// Half), in chunks of rows: each output is its column's first extreme, the
// first NaN where the column holds one, across chunks, contiguous, every
// other element (gathered rows) and permuted.
TEST(NativeReduceOps, ArgExtremesOverAMiddleDimGiveTheFirstOccurrence) {
  std::mt19937 g(31);
  for (ScalarType dt :
       {ScalarType::Float, ScalarType::Double, ScalarType::Long, ScalarType::Half}) {
    for (int64_t rows : {1, 6, 700}) {
      for (int64_t n : {1, 70}) {
        SCOPED_TRACE(::testing::Message()
                     << torch::headeronly::toString(dt) << " rows " << rows << " n " << n);
        const int64_t outer = 2;
        Tensor t = random_ints(g, {outer, rows, n}, dt, -3, 3);  // many ties
        if (dt != ScalarType::Long) {
          for (int64_t j = 1; j < n; j += 4) {  // NaNs in some columns, a second one in others
            Tensor col = st::select(st::select(t, 0, 1), 1, j);
            st::fill_(st::select(col, 0, (j * 7) % rows), kNan);
            if (j % 8 == 1) st::fill_(st::select(col, 0, rows - 1), kNan);
          }
        }
        const std::vector<double> v = values(t);
        std::vector<double> want_max, want_min, want_imax, want_imin;
        for (int64_t b = 0; b < outer; ++b) {
          for (int64_t j = 0; j < n; ++j) {
            int64_t imax = 0, imin = 0;
            const auto at = [&](int64_t r) {
              return v[static_cast<size_t>((b * rows + r) * n + j)];
            };
            for (int64_t r = 1; r < rows; ++r) {
              const double x = at(r);
              if (!std::isnan(at(imax)) && (x > at(imax) || std::isnan(x))) imax = r;
              if (!std::isnan(at(imin)) && (x < at(imin) || std::isnan(x))) imin = r;
            }
            want_max.push_back(at(imax));
            want_min.push_back(at(imin));
            want_imax.push_back(static_cast<double>(imax));
            want_imin.push_back(static_cast<double>(imin));
          }
        }
        for (int kind : {0, 1, 2}) {
          SCOPED_TRACE(kind);
          const Tensor in = relayout(t, kind);
          auto [mv, mi] = st::max(in, 1);
          auto [nv, ni] = st::min(in, 1);
          expect_close(values(mv), want_max, 0);
          expect_close(values(nv), want_min, 0);
          EXPECT_EQ(values(mi), want_imax);
          EXPECT_EQ(values(ni), want_imin);
          EXPECT_EQ(values(st::argmax(in, 1)), want_imax);
          EXPECT_EQ(values(st::argmin(in, 1)), want_imin);
        }
      }
    }
  }
}

// Over dims of size 1 each output folds its one element (a walk of the
// outputs of its own): the element itself, its index 0, whether it is
// nonzero, in every layout, a NaN included, and a 1-element full reduction.
TEST(NativeReduceOps, ReductionsOverSizeOneDimsGiveEachElement) {
  std::mt19937 g(37);
  for (ScalarType dt :
       {ScalarType::Float, ScalarType::Double, ScalarType::Long, ScalarType::Half}) {
    SCOPED_TRACE(torch::headeronly::toString(dt));
    Tensor t = random_ints(g, {1, 5, 1, 70}, dt, -3, 3);  // zeros among them
    if (dt != ScalarType::Long) {
      st::fill_(st::select(st::reshape(t, {-1}), 0, 2 * 70 + 9), kNan);  // t[0, 2, 0, 9]
    }
    for (int kind : {0, 1, 2}) {
      SCOPED_TRACE(kind);
      const Tensor in = relayout(t, kind);
      const std::vector<double> v = values(t);
      std::vector<double> nonzero, zeros(v.size(), 0.0);
      for (double x : v) nonzero.push_back(x != 0 ? 1.0 : 0.0);
      const std::vector<int64_t> both{0, 2};
      expect_close(values(st::sum(in, both)), v, 0);
      if (dt != ScalarType::Long) expect_close(values(st::mean(in, both)), v, 0);
      expect_close(values(st::prod(in, 2)), v, 0);
      expect_close(values(st::amax(in, both)), v, 0);
      expect_close(values(st::amin(in, {2})), v, 0);
      auto [mv, mi] = st::max(in, 0);
      expect_close(values(mv), v, 0);
      EXPECT_EQ(values(mi), zeros);
      EXPECT_EQ(values(st::argmin(in, 2)), zeros);
      EXPECT_EQ(values(st::all(in, 0)), nonzero);
      EXPECT_EQ(values(st::any(in, 2)), nonzero);
      EXPECT_EQ(shape(st::sum(in, both, true)), (std::vector<int64_t>{1, 5, 1, 70}));
    }
    Tensor one = random_ints(g, {1, 1}, dt, 1, 3);
    expect_close(values(st::sum(one)), values(st::reshape(one, {-1})), 0);
  }
}

// all/any over size-1 dims of many outputs run as one compare with 0;
// each output must be the one the engine folds for fewer outputs (chunks
// of 1000), in the engine's dtype (Byte for Byte, Bool otherwise), for
// every dtype and layout: NaN and a complex with only an imaginary part
// are nonzero, -0.0 is zero.
TEST(NativeReduceOps, AllAndAnyOfManyOneElementOutputsMatchTheFoldedOnes) {
  std::mt19937 g(41);
  for (ScalarType dt :
       {ScalarType::Bool, ScalarType::Byte, ScalarType::Char, ScalarType::Short, ScalarType::Int,
        ScalarType::Long, ScalarType::Half, ScalarType::BFloat16, ScalarType::Float,
        ScalarType::Double, ScalarType::ComplexFloat, ScalarType::ComplexDouble}) {
    SCOPED_TRACE(torch::headeronly::toString(dt));
    Tensor t = random_ints(g, {2, 1, 20000}, dt, -1, 1);  // a third of them zeros
    Tensor flat = st::reshape(t, {-1});
    if (torch::headeronly::isFloatingType(dt)) {
      st::fill_(st::select(flat, 0, 7), kNan);
      st::fill_(st::select(flat, 0, 8), -0.0);
    }
    if (torch::headeronly::isComplexType(dt)) {
      st::fill_(st::select(flat, 0, 9), Scalar(std::complex<double>(0, 1)));
    }
    for (int kind : {0, 1, 2}) {
      SCOPED_TRACE(kind);
      const Tensor in = relayout(t, kind);
      for (bool keepdim : {false, true}) {
        for (bool is_all : {true, false}) {
          const Tensor got = is_all ? st::all(in, 1, keepdim) : st::any(in, 1, keepdim);
          EXPECT_EQ(got.dtype(), dt == ScalarType::Byte ? ScalarType::Byte : ScalarType::Bool);
          EXPECT_EQ(shape(got), keepdim ? (std::vector<int64_t>{2, 1, 20000})
                                        : (std::vector<int64_t>{2, 20000}));
          std::vector<double> want;
          for (int64_t k = 0; k < 40; ++k) {
            const Tensor part = st::narrow(st::reshape(in, {1, 40000}), 1, k * 1000, 1000);
            const std::vector<double> w = values(is_all ? st::all(part, 0) : st::any(part, 0));
            want.insert(want.end(), w.begin(), w.end());
          }
          EXPECT_EQ(values(got), want);
          if (torch::headeronly::isFloatingType(dt)) {
            EXPECT_EQ(want[7], 1.0);  // NaN
            EXPECT_EQ(want[8], 0.0);  // -0.0
          }
          if (torch::headeronly::isComplexType(dt)) {
            EXPECT_EQ(want[9], 1.0);
          }
        }
      }
    }
  }
}

Tensor relayout2(const Tensor& t) { return t.dim() ? relayout(t, 2) : t; }

// Contiguous inputs (vector runs) and every-other-element copies (gathered
// runs) give the same sums, on the per-output and the blocked paths.
TEST(NativeReduceOps, SumOfContiguousAndStridedInputsAgree) {
  std::mt19937 g(13);
  for (ScalarType dt : {ScalarType::Float, ScalarType::Double}) {
    Tensor t = random_ints(g, {3, 4, 5}, dt, -9, 9);
    expect_close(values(st::sum(t)), values(st::sum(relayout2(t))), 0);
    expect_close(values(st::sum(t, {2})), values(st::sum(relayout2(t), {2})), 0);
    expect_close(values(st::sum(t, {1, 2}, true)), values(st::sum(relayout2(t), {1, 2}, true)), 0);
    EXPECT_EQ(shape(st::sum(t, {-1, -2}, true)), (std::vector<int64_t>{3, 1, 1}));
    expect_close(values(st::sum(t, {0})), values(st::sum(relayout2(t), {0})), 0);  // an outer dim
    Tensor big = random_ints(g, {300000}, dt, -9, 9);  // the blocked split
    expect_close(values(st::sum(big)), values(st::sum(relayout2(big))), 0);
    EXPECT_NATIVE_ERROR(st::sum(t, {2, 2}), "dim 2 appears multiple times in the list of dims");
  }
}

}  // namespace

namespace {

using namespace st_native_test;

// A one-dim reduction of many rows folds kRunGroup rows at a time (short
// rows side by side, contiguous float sums and long contiguous runs by
// the vector loops one after the other); each output must keep the bits of
// the row's own full sum, mean and product, on both sides of the float
// lanes' group and of the block lengths, for the rows of the groups and
// the rest, contiguous and every other element.
TEST(NativeReduceOps, RowSumsKeepTheBitsOfEachRowsSum) {
  for (ScalarType dt : {ScalarType::Float, ScalarType::Double}) {
    for (int64_t n : {1, 7, 15, 16, 17, 31, 32, 33, 48, 255, 256, 257, 300, 1000}) {
      SCOPED_TRACE(::testing::Message() << torch::headeronly::toString(dt) << " n " << n);
      const int64_t rows = 2 * st::native::kRunGroup + 5;
      Tensor t = st::randn({rows, n}, dt);
      // Factors near 1, so that long products stay finite and nonzero.
      const Tensor f = st::add(st::mul(t, 0.01), 1.0);
      for (int kind : {0, 2}) {
        const Tensor in = kind ? relayout(t, kind) : t;
        const Tensor near_one = kind ? relayout(f, kind) : f;
        const std::vector<double> sums = values(st::sum(in, {1}));
        const std::vector<double> means = values(st::mean(in, {1}));
        const std::vector<double> prods = values(st::prod(near_one, 1));
        for (int64_t r = 0; r < rows; ++r) {
          const Tensor row = st::select(in, 0, r);
          EXPECT_EQ(sums[static_cast<size_t>(r)], values(st::sum(row))[0]) << "row " << r;
          EXPECT_EQ(means[static_cast<size_t>(r)], values(st::mean(row))[0]) << "row " << r;
          EXPECT_EQ(prods[static_cast<size_t>(r)], values(st::prod(st::select(near_one, 0, r)))[0])
              << "row " << r;
        }
      }
    }
  }
}

// max and min over the last dim take their contiguous rows kRunGroup at a
// time (the vector loop per row, its last vector folded by halving): each
// output is its row's own amax and amin, NaN wherever a row holds one, for
// the rows of the groups and the rest, contiguous and every other element.
TEST(NativeReduceOps, RowMaxMinKeepEachRowsValue) {
  for (ScalarType dt : {ScalarType::Float, ScalarType::Double, ScalarType::Long}) {
    for (int64_t n : {1, 7, 16, 33, 64, 100}) {
      SCOPED_TRACE(::testing::Message() << torch::headeronly::toString(dt) << " n " << n);
      const int64_t rows = 2 * st::native::kRunGroup + 5;
      Tensor t = dt == ScalarType::Long ? st::randint(-1000, 1000, {rows, n}, dt)
                                        : st::randn({rows, n}, dt);
      if (dt != ScalarType::Long) {
        for (int64_t r = 3; r < rows; r += 7) {  // a NaN in every seventh row, anywhere in it
          st::fill_(st::select(st::select(t, 0, r), 0, (r * 5) % n), kNan);
        }
      }
      for (int kind : {0, 2}) {
        const Tensor in = kind ? relayout(t, kind) : t;
        const std::vector<double> maxes = values(st::amax(in, {1}));
        const std::vector<double> mins = values(st::amin(in, {1}));
        for (int64_t r = 0; r < rows; ++r) {
          const Tensor row = st::select(in, 0, r);
          const double want_max = values(st::amax(row))[0], want_min = values(st::amin(row))[0];
          const double got_max = maxes[static_cast<size_t>(r)];
          const double got_min = mins[static_cast<size_t>(r)];
          EXPECT_TRUE(got_max == want_max || (std::isnan(got_max) && std::isnan(want_max)))
              << "row " << r << ": " << got_max << " vs " << want_max;
          EXPECT_TRUE(got_min == want_min || (std::isnan(got_min) && std::isnan(want_min)))
              << "row " << r << ": " << got_min << " vs " << want_min;
          EXPECT_EQ(std::isnan(want_max), dt != ScalarType::Long && r >= 3 && (r - 3) % 7 == 0)
              << "row " << r;
        }
      }
    }
  }
}

// int64 rows fold kRunGroup at a time too (long contiguous ones by the
// vector sum or product, shorter or strided ones by the engine): each
// output is the row's wrapping sum and product, on both sides of the
// vector loop's group, contiguous and every other element.
TEST(NativeReduceOps, Int64RowSumsAndProductsWrapAsEachRows) {
  for (int64_t n : {1, 31, 32, 33, 63, 64, 65, 1000}) {
    SCOPED_TRACE(::testing::Message() << "n " << n);
    const int64_t rows = 2 * st::native::kRunGroup + 5;
    Tensor t = st::empty({rows, n}, ScalarType::Long);
    int64_t* p = static_cast<int64_t*>(t.data_ptr());
    for (int64_t k = 0; k < t.numel(); ++k) {
      // Sums overflow within a row; odd factors keep products nonzero.
      p[k] = std::numeric_limits<int64_t>::max() / 5 - k * 104729 + (k % 2 ? 0 : 1);
    }
    for (int kind : {0, 2}) {
      const Tensor in = kind ? relayout(t, kind) : t;
      const Tensor sums = st::sum(in, {1});
      const Tensor prods = st::prod(in, 1);
      ASSERT_EQ(sums.dtype(), ScalarType::Long);
      ASSERT_EQ(prods.dtype(), ScalarType::Long);
      const Tensor rows_in = st::contiguous(in);
      const int64_t* q = static_cast<const int64_t*>(rows_in.const_data_ptr());
      for (int64_t r = 0; r < rows; ++r) {
        uint64_t s = 0, m = 1;
        for (int64_t j = 0; j < n; ++j) {
          s += static_cast<uint64_t>(q[r * n + j]);
          m *= static_cast<uint64_t>(q[r * n + j]);
        }
        EXPECT_EQ(static_cast<const int64_t*>(sums.const_data_ptr())[r], static_cast<int64_t>(s))
            << "row " << r;
        EXPECT_EQ(static_cast<const int64_t*>(prods.const_data_ptr())[r], static_cast<int64_t>(m))
            << "row " << r;
      }
    }
  }
}

}  // namespace

namespace {

using namespace st_native_test;

// all/any test their rows by blocks of 64: one zero (all) or one nonzero
// (any) anywhere in a long row decides it, in the blocks and the tail,
// contiguous and every other element, for floats (NaN is nonzero, -0.0
// is zero) and integers.
TEST(NativeReduceOps, AllAnyDecideOnOneElementAnywhere) {
  const int64_t n = 200;  // three blocks and a tail
  for (ScalarType dt :
       {ScalarType::Float, ScalarType::Double, ScalarType::Long, ScalarType::Bool}) {
    for (int64_t at : {int64_t{0}, int64_t{63}, int64_t{64}, int64_t{150}, int64_t{199}}) {
      SCOPED_TRACE(::testing::Message() << torch::headeronly::toString(dt) << " at " << at);
      std::vector<double> ones(static_cast<size_t>(2 * n), 1.0), zeros(static_cast<size_t>(2 * n));
      ones[static_cast<size_t>(n + at)] = dt == ScalarType::Float ? -0.0 : 0.0;  // row 1
      zeros[static_cast<size_t>(n + at)] = dt == ScalarType::Double ? std::nan("") : 1.0;
      for (int kind : {0, 2}) {
        Tensor a = relayout(make(ones, {2, n}, dt), kind),
               b = relayout(make(zeros, {2, n}, dt), kind);
        expect_close(values(st::all(a, 1)), {1, 0});
        expect_close(values(st::any(b, 1)), {0, 1});
        expect_close(values(st::all(a)), {0});
        expect_close(values(st::any(b)), {1});
        expect_close(values(st::all(st::select(a, 0, 0))), {1});
        expect_close(values(st::any(st::select(b, 0, 0))), {0});
        // Over the outer dim: each column's flag, by the rows' loop.
        std::vector<double> want_all(static_cast<size_t>(n), 1.0), want_any(want_all.size());
        want_all[static_cast<size_t>(at)] = 0;
        want_any[static_cast<size_t>(at)] = 1;
        expect_close(values(st::all(a, 0)), want_all);
        expect_close(values(st::any(b, 0)), want_any);
      }
    }
  }
}

}  // namespace
