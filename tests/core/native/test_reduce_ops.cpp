// Reductions against hand-computed values.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "native/test_helpers.h"

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
                   "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long");
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
  EXPECT_NATIVE_ERROR(st::max(st::empty({0})), "max(): Expected reduction dim to be specified for input.numel() == 0.");
  EXPECT_NATIVE_ERROR(st::amax(st::empty({0, 2}), {0}), "amax(): Expected reduction dim 0 to have non-zero size.");
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
  EXPECT_NATIVE_ERROR(st::argmax(st::empty({0})), "argmax(): Expected reduction dim to be specified for input.numel() == 0.");
}

TEST(NativeReduceOps, AllAny) {
  Tensor a = make({1, 0, 1, 1}, {2, 2});
  EXPECT_EQ(st::all(a).dtype(), ScalarType::Bool);
  expect_close(values(st::all(a)), {0});
  expect_close(values(st::any(a)), {1});
  expect_close(values(st::all(a, 0)), {1, 0});
  expect_close(values(st::any(a, std::optional<IntArrayRef>(std::vector<int64_t>{1}), true)), {1, 1});
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

TEST(NativeReduceOps, VarStd) {
  Tensor a = make1({1, 2, 3, 4});
  expect_close(values(st::var(a)), {5.0 / 3});
  expect_close(values(st::var(a, std::nullopt, Scalar(0))), {1.25});
  expect_close(values(st::std(a, std::optional<IntArrayRef>(std::vector<int64_t>{0}), true, false)), {std::sqrt(5.0 / 3)});
  expect_close(values(st::var(make({1, 2, 3, 5}, {2, 2}), std::vector<int64_t>{1})), {0.5, 2});
  EXPECT_NATIVE_ERROR(st::var(make1({1}, ScalarType::Long)), "std and var only support floating point and complex dtypes");
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
  expect_close(values(st::linalg_vector_norm(m, 2, std::vector<int64_t>{0}, true, ScalarType::Double)),
               {std::sqrt(45.0), std::sqrt(80.0)});
  EXPECT_NATIVE_ERROR(st::linalg_vector_norm(make1({1}, ScalarType::Long)), "Expected a floating point or complex tensor as input. Got Long");
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

}  // namespace
