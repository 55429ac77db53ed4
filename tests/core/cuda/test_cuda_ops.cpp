// The CUDA kernels (linalg_vector_norm, dot, addmm_ and the
// mm/bmm/addmm out= variants, softmax, log_softmax, cumsum, flip, gather,
// scatter, masked_select, nonzero, index.Tensor, sort, topk) against the
// CPU kernels.
// Device tests use the real CUDA runtime and skip, saying so, when
// cudaGetDeviceCount reports no device (test_register_cuda.cpp checks the
// registrations).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <st/cuda/cuda_backend.h>
#include <st/device/device_runtime.h>
#include <st/dispatch/dispatcher.h>

#include "cuda/cuda_test_util.h"
#include "native/test_helpers.h"

namespace {

using namespace st_native_test;
using namespace st_cuda_test;
using st::Device;
using st::DeviceType;

// 0, 1, ..., n-1 scaled and shifted, as a float tensor of `shape`.
Tensor ramp(std::vector<int64_t> shape, double scale = 1, double shift = 0,
            ScalarType dtype = ScalarType::Float) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    v[static_cast<size_t>(i)] = static_cast<double>(i) * scale + shift;
  }
  return make(v, std::move(shape), dtype);
}

TEST(CudaOpsTest, VectorNormMatchesTheCpu) {
  SKIP_WITHOUT_GPU();
  const double inf = std::numeric_limits<double>::infinity();
  Tensor a = make({3, -1, 0, 2, 0.5, -4, -2, 4, 1, 0, 7, -3}, {3, 4});
  Tensor da = to_cuda(a);
  for (double p : {2.0, 1.0, inf, -inf, 0.0, 3.0, 0.5, -1.0}) {
    SCOPED_TRACE(p);
    expect_match(st::linalg_vector_norm(a, p), st::linalg_vector_norm(da, p), 1e-5);
    expect_match(st::linalg_vector_norm(a, p, st::IntArrayRef{1}),
                 st::linalg_vector_norm(da, p, st::IntArrayRef{1}), 1e-5);
    expect_match(st::linalg_vector_norm(a, p, st::IntArrayRef{0}, true),
                 st::linalg_vector_norm(da, p, st::IntArrayRef{0}, true), 1e-5);
    expect_match(st::linalg_vector_norm(a, p, st::IntArrayRef{-1, 0}),
                 st::linalg_vector_norm(da, p, st::IntArrayRef{-1, 0}), 1e-5);
  }
  // non-contiguous input, dtype=, double, half, 0-dim
  Tensor t = st::transpose(a, 0, 1), dt = st::transpose(da, 0, 1);
  expect_match(st::linalg_vector_norm(t, 2, st::IntArrayRef{1}),
               st::linalg_vector_norm(dt, 2, st::IntArrayRef{1}), 1e-5);
  expect_match(st::linalg_vector_norm(a, 2, std::nullopt, false, ScalarType::Double),
               st::linalg_vector_norm(da, 2, std::nullopt, false, ScalarType::Double), 1e-12);
  Tensor h = st::to(a, ScalarType::Half);
  expect_match(st::linalg_vector_norm(h, 1, st::IntArrayRef{1}),
               st::linalg_vector_norm(to_cuda(h), 1, st::IntArrayRef{1}), 1e-3);
  Tensor s = st::full({}, -2.5);
  expect_match(st::linalg_vector_norm(s, 2), st::linalg_vector_norm(to_cuda(s), 2), 1e-6);
  // a long row (many threads per block, several loop rounds)
  Tensor big = ramp({3, 5000}, 1e-3, -2);
  expect_match(st::linalg_vector_norm(big, 2, st::IntArrayRef{1}),
               st::linalg_vector_norm(to_cuda(big), 2, st::IntArrayRef{1}), 1e-5);
  // NaN propagates through the max norm
  Tensor n = make({1, std::nan(""), 3}, {3});
  expect_match(st::linalg_vector_norm(n, inf), st::linalg_vector_norm(to_cuda(n), inf));
  // empty: the identity, or the CPU's error
  Tensor e = st::empty({0}, std::nullopt, std::nullopt, kCuda0);
  expect_match(st::linalg_vector_norm(st::empty({0}), 2), st::linalg_vector_norm(e, 2));
  EXPECT_NATIVE_ERROR(st::linalg_vector_norm(e, -inf), "cannot compute the -inf norm");
  EXPECT_NATIVE_ERROR(st::linalg_vector_norm(e, -1), "norm on an empty tensor");
  EXPECT_NATIVE_ERROR(st::linalg_vector_norm(to_cuda(make1({1, 2}, ScalarType::Long)), 2),
                      "Expected a floating point or complex tensor as input. Got Long");
  EXPECT_NATIVE_ERROR(st::linalg_vector_norm(da, 2, std::nullopt, false, ScalarType::Int),
                      "dtype should be floating point or complex");
  // out=
  Tensor out = st::empty({0}, std::nullopt, std::nullopt, kCuda0);
  st::linalg_vector_norm_outf(da, 2, st::IntArrayRef{1}, false, std::nullopt, out);
  expect_match(st::linalg_vector_norm(a, 2, st::IntArrayRef{1}), out, 1e-5);
}

TEST(CudaOpsTest, DotMatchesTheCpu) {
  SKIP_WITHOUT_GPU();
  for (ScalarType dt : {ScalarType::Float, ScalarType::Double, ScalarType::Int, ScalarType::Long,
                        ScalarType::Char, ScalarType::Half, ScalarType::BFloat16}) {
    SCOPED_TRACE(torch::headeronly::toString(dt));
    Tensor a = ramp({7}, 1, -3, dt), b = ramp({7}, 2, 1, dt);
    expect_match(st::dot(a, b), st::dot(to_cuda(a), to_cuda(b)), 1e-2);
  }
  // integers wrap at their width, as on the CPU
  Tensor w = make1({100, 100, 100}, ScalarType::Char);
  expect_match(st::dot(w, w), st::dot(to_cuda(w), to_cuda(w)));
  // long, strided (every other element of a longer vector)
  Tensor x = ramp({20000}, 1e-4, -1);
  Tensor xs = st::slice(x, 0, 0, 20000, 2), ys = st::slice(x, 0, 1, 20000, 2);
  Tensor dx = to_cuda(x);
  expect_match(st::dot(xs, ys),
               st::dot(st::slice(dx, 0, 0, 20000, 2), st::slice(dx, 0, 1, 20000, 2)), 1e-4);
  Tensor e = st::empty({0}, std::nullopt, std::nullopt, kCuda0);
  expect_match(st::dot(st::empty({0}), st::empty({0})), st::dot(e, e));
  Tensor out = st::empty({}, std::nullopt, std::nullopt, kCuda0);
  st::dot_outf(to_cuda(xs), to_cuda(ys), out);
  expect_match(st::dot(xs, ys), out, 1e-4);
  EXPECT_NATIVE_ERROR(st::dot(to_cuda(ramp({2, 2})), to_cuda(ramp({4}))), "1D tensors expected");
  EXPECT_NATIVE_ERROR(st::dot(to_cuda(ramp({2})), to_cuda(ramp({2}, 1, 0, ScalarType::Double))),
                      "expected both vectors to have same dtype");
  EXPECT_NATIVE_ERROR(st::dot(to_cuda(ramp({2})), to_cuda(ramp({3}))), "inconsistent tensor size");
  Tensor flags = to_cuda(make1({1, 0}, ScalarType::Bool));
  EXPECT_NATIVE_ERROR(st::dot(flags, flags), "\"dot\" not implemented for 'Bool'");
}

TEST(CudaOpsTest, AddmmInPlaceMatchesTheCpu) {
  SKIP_WITHOUT_GPU();
  Tensor m1 = ramp({3, 4}, 0.5, -1), m2 = ramp({4, 2}, -0.25, 1);
  Tensor self = ramp({3, 2}, 1, 2);
  Tensor expected = st::addmm(self, m1, m2, 0.5, 2);
  Tensor d = to_cuda(self);
  Tensor r = st::addmm_(d, to_cuda(m1), to_cuda(m2), 0.5, 2);
  EXPECT_TRUE(r.is_same(d));
  expect_match(expected, d, 1e-5);
  // a transposed (non-contiguous) self goes through a temporary
  Tensor selft = ramp({2, 3}, 1, 2);
  Tensor dt = st::transpose(to_cuda(selft), 0, 1);
  st::addmm_(dt, to_cuda(m1), to_cuda(m2), 1, 1);
  expect_match(st::addmm(st::transpose(selft, 0, 1), m1, m2), dt, 1e-5);
  // beta = 0 ignores self, NaNs included
  Tensor nans = st::full({3, 2}, std::nan(""));
  Tensor dn = to_cuda(nans);
  st::addmm_(dn, to_cuda(m1), to_cuda(m2), 0, 1);
  expect_match(st::mm(m1, m2), dn, 1e-5);
  EXPECT_NATIVE_ERROR(st::addmm_(to_cuda(ramp({3})), to_cuda(m1), to_cuda(m2)),
                      "in-place results cannot broadcast");
  // the out= variants of mm, bmm and addmm (out = self: not resized)
  Tensor out = st::empty({0}, std::nullopt, std::nullopt, kCuda0);
  st::mm_outf(to_cuda(m1), to_cuda(m2), out);
  expect_match(st::mm(m1, m2), out, 1e-5);
  Tensor b1 = ramp({2, 3, 4}, 0.1, -1), b2 = ramp({2, 4, 2}, -0.2, 1);
  st::bmm_outf(to_cuda(b1), to_cuda(b2), out);
  expect_match(st::bmm(b1, b2), out, 1e-5);
  Tensor bias = ramp({2}, 1, 1);
  st::addmm_outf(to_cuda(bias), to_cuda(m1), to_cuda(m2), 2, 0.5, out);
  expect_match(st::addmm(bias, m1, m2, 2, 0.5), out, 1e-5);
  Tensor same = to_cuda(self);
  st::addmm_outf(same, to_cuda(m1), to_cuda(m2), 1, 1, same);
  expect_match(st::addmm(self, m1, m2), same, 1e-5);
  EXPECT_NATIVE_ERROR(st::mm_outf(to_cuda(m1), to_cuda(m2),
                                  st::empty({0}, ScalarType::Double, std::nullopt, kCuda0)),
                      "mm: Expected out tensor to have dtype Float, but got Double instead");
}

TEST(CudaOpsTest, SoftmaxMatchesTheCpu) {
  SKIP_WITHOUT_GPU();
  const double inf = std::numeric_limits<double>::infinity();
  Tensor a = ramp({2, 3, 4}, 0.7, -5);
  Tensor da = to_cuda(a);
  for (int64_t dim : {0, 1, 2, -1}) {
    SCOPED_TRACE(dim);
    expect_match(st::_softmax(a, dim, false), st::_softmax(da, dim, false), 1e-6);
    expect_match(st::_log_softmax(a, dim, false), st::_log_softmax(da, dim, false), 1e-5);
  }
  // large values do not overflow; -inf entries give 0 / -inf; a NaN row
  Tensor big = make({1000, 1001, -inf, 999, 5, std::nan(""), 1, 2}, {2, 4});
  expect_match(st::_softmax(big, 1, false), st::_softmax(to_cuda(big), 1, false), 1e-6);
  expect_match(st::_log_softmax(big, 1, false), st::_log_softmax(to_cuda(big), 1, false), 1e-5);
  expect_match(st::_softmax(big, 0, false), st::_softmax(to_cuda(big), 0, false), 1e-6);
  // a long row, double, half, non-contiguous, 0-dim, empty
  Tensor row = ramp({2, 3000}, 1e-3, -1);
  expect_match(st::_softmax(row, 1, false), st::_softmax(to_cuda(row), 1, false), 1e-6);
  Tensor ad = st::to(a, ScalarType::Double);
  expect_match(st::_log_softmax(ad, 1, false), st::_log_softmax(to_cuda(ad), 1, false), 1e-12);
  Tensor ah = st::to(a, ScalarType::Half);
  expect_match(st::_softmax(ah, 2, false), st::_softmax(to_cuda(ah), 2, false), 1e-3);
  Tensor at = st::transpose(a, 0, 2);
  expect_match(st::_softmax(at, 1, false), st::_softmax(st::transpose(da, 0, 2), 1, false), 1e-6);
  Tensor s = st::full({}, 3.0);
  expect_match(st::_softmax(s, 0, false), st::_softmax(to_cuda(s), 0, false));
  Tensor e = st::empty({0, 3});
  expect_match(st::_softmax(e, 1, false), st::_softmax(to_cuda(e), 1, false));
  // the composite softmax.int / log_softmax.int reach these kernels
  expect_match(st::softmax(a, 1), st::softmax(da, 1), 1e-6);
  expect_match(st::log_softmax(a, 1, ScalarType::Double),
               st::log_softmax(da, 1, ScalarType::Double), 1e-12);
  // out=, including out being self
  Tensor out = st::empty({0}, std::nullopt, std::nullopt, kCuda0);
  st::_softmax_outf(da, 1, false, out);
  expect_match(st::_softmax(a, 1, false), out, 1e-6);
  Tensor self_out = st::clone(da);
  st::_log_softmax_outf(self_out, 1, false, self_out);
  expect_match(st::_log_softmax(a, 1, false), self_out, 1e-5);
  EXPECT_NATIVE_ERROR(st::_softmax(to_cuda(ah), 1, true), "half to float conversion");
  EXPECT_NATIVE_ERROR(st::_softmax(to_cuda(make1({1, 2}, ScalarType::Long)), 0, false),
                      "\"softmax\" not implemented for 'Long'");
  EXPECT_NATIVE_ERROR(st::_softmax(da, 3, false), "Dimension out of range");
}

TEST(CudaOpsTest, CumsumMatchesTheCpu) {
  SKIP_WITHOUT_GPU();
  Tensor a = ramp({2, 3, 4}, 0.5, -3);
  Tensor da = to_cuda(a);
  for (int64_t dim : {0, 1, 2, -1}) {
    SCOPED_TRACE(dim);
    expect_match(st::cumsum(a, dim), st::cumsum(da, dim), 1e-6);
  }
  // integers and bool sum to int64; dtype= converts first
  Tensor ints = ramp({3, 700}, 3, -1000, ScalarType::Int);
  expect_match(st::cumsum(ints, 1), st::cumsum(to_cuda(ints), 1));  // several chunks per line
  Tensor flags = make({1, 0, 1, 1}, {4}, ScalarType::Bool);
  expect_match(st::cumsum(flags, 0), st::cumsum(to_cuda(flags), 0));
  expect_match(st::cumsum(a, 1, ScalarType::Double), st::cumsum(da, 1, ScalarType::Double), 1e-12);
  expect_match(st::cumsum(a, 2, ScalarType::Int), st::cumsum(da, 2, ScalarType::Int));
  // a long float line: both accumulate in double
  Tensor line = ramp({100000}, 1e-3, -7);
  expect_match(st::cumsum(line, 0), st::cumsum(to_cuda(line), 0), 1e-6);
  // non-contiguous, 0-dim, empty
  expect_match(st::cumsum(st::transpose(a, 0, 2), 1), st::cumsum(st::transpose(da, 0, 2), 1), 1e-6);
  Tensor s = st::full({}, 4.0);
  expect_match(st::cumsum(s, 0), st::cumsum(to_cuda(s), -1));
  expect_match(st::cumsum(st::empty({0, 2}), 0),
               st::cumsum(st::empty({0, 2}, std::nullopt, std::nullopt, kCuda0), 0));
  // in place and out=
  Tensor c = st::clone(da);
  st::cumsum_(c, 1);
  expect_match(st::cumsum(a, 1), c, 1e-6);
  EXPECT_NATIVE_ERROR(st::cumsum_(c, 1, ScalarType::Double),
                      "provided dtype must match the dtype of self tensor in cumsum");
  Tensor out = st::empty({0}, ScalarType::Double, std::nullopt, kCuda0);
  st::cumsum_outf(da, 0, std::nullopt, out);
  expect_match(st::cumsum(a, 0, ScalarType::Double), out, 1e-12);
}

TEST(CudaOpsTest, FlipMatchesTheCpu) {
  SKIP_WITHOUT_GPU();
  Tensor a = ramp({2, 3, 4});
  Tensor da = to_cuda(a);
  for (const std::vector<int64_t>& dims :
       std::vector<std::vector<int64_t>>{{0}, {1}, {-1}, {0, 2}, {0, 1, 2}, {}}) {
    expect_match(st::flip(a, dims), st::flip(da, dims));
  }
  Tensor t = st::transpose(a, 0, 2);
  expect_match(st::flip(t, {1}), st::flip(st::transpose(da, 0, 2), {1}));
  Tensor l = ramp({5}, 1, 0, ScalarType::Long);
  expect_match(st::flip(l, {0}), st::flip(to_cuda(l), {0}));
  Tensor h = ramp({5}, 1, 0, ScalarType::Half);
  expect_match(st::flip(h, {0}), st::flip(to_cuda(h), {0}));
  Tensor s = st::full({}, 2.0);
  expect_match(st::flip(s, {}), st::flip(to_cuda(s), {}));
  Tensor out = st::empty({0}, std::nullopt, std::nullopt, kCuda0);
  st::flip_outf(da, {1}, out);
  expect_match(st::flip(a, {1}), out);
  EXPECT_NATIVE_ERROR(st::flip(da, {0, 0}), "appears multiple times");
}

TEST(CudaOpsTest, GatherAndScatterMatchTheCpu) {
  SKIP_WITHOUT_GPU();
  Tensor a = ramp({3, 4}, 1, 1);
  Tensor da = to_cuda(a);
  Tensor idx = make({0, 2, 2, 1, 1, 0}, {2, 3}, ScalarType::Long);
  Tensor didx = to_cuda(idx);
  expect_match(st::gather(a, 0, idx), st::gather(da, 0, didx));
  expect_match(st::gather(a, 1, idx), st::gather(da, -1, didx));
  expect_match(st::gather(st::transpose(a, 0, 1), 0, idx),
               st::gather(st::transpose(da, 0, 1), 0, didx));
  Tensor l = ramp({3, 4}, 1, 0, ScalarType::Long);
  expect_match(st::gather(l, 1, idx), st::gather(to_cuda(l), 1, didx));
  Tensor gout = st::empty({0}, std::nullopt, std::nullopt, kCuda0);
  st::gather_outf(da, 1, didx, false, gout);
  expect_match(st::gather(a, 1, idx), gout);
  EXPECT_NATIVE_ERROR(st::gather(da, 1, to_cuda(make({0, 4}, {1, 2}, ScalarType::Long))),
                      "gather(): index 4 is out of bounds for dimension 1 with size 4");
  EXPECT_NATIVE_ERROR(st::gather(da, 1, to_cuda(make({0, 1}, {1, 2}, ScalarType::Int))),
                      "Expected dtype int64 for index");
  // more dims than the kernels' operands hold: an error, not a host overflow
  const std::vector<int64_t> ones13(13, 1);
  EXPECT_NATIVE_ERROR(
      st::gather(st::zeros(st::IntArrayRef(ones13), ScalarType::Float, std::nullopt, kCuda0), 0,
                 st::zeros(st::IntArrayRef(ones13), ScalarType::Long, std::nullopt, kCuda0)),
      "the CUDA kernels handle at most 12 dimensions");
  expect_match(st::gather(a, 0, st::empty({0, 4}, ScalarType::Long)),
               st::gather(da, 0, st::empty({0, 4}, ScalarType::Long, std::nullopt, kCuda0)));

  // scatter: distinct targets, so the result does not depend on write order
  Tensor sidx = make({2, 0, 1, 1, 2, 0}, {2, 3}, ScalarType::Long);
  Tensor dsidx = to_cuda(sidx);
  Tensor src = ramp({2, 3}, -1, -1);
  Tensor dsrc = to_cuda(src);
  // along dim 1: each row's indices are distinct
  Tensor srow = make({3, 0, 1, 2, 0, 3}, {2, 3}, ScalarType::Long);
  expect_match(st::scatter(a, 0, st::narrow(sidx, 0, 0, 1), st::narrow(src, 0, 0, 1)),
               st::scatter(da, 0, st::narrow(dsidx, 0, 0, 1), st::narrow(dsrc, 0, 0, 1)));
  expect_match(st::scatter(a, 1, srow, src), st::scatter(da, 1, to_cuda(srow), dsrc));
  expect_match(st::scatter(a, 1, srow, Scalar(9.5)),
               st::scatter(da, 1, to_cuda(srow), Scalar(9.5)));
  expect_match(st::scatter(l, 1, srow, Scalar(int64_t{-7})),
               st::scatter(to_cuda(l), 1, to_cuda(srow), Scalar(int64_t{-7})));
  Tensor inplace = st::clone(da);
  st::scatter_(inplace, 1, to_cuda(srow), dsrc);
  expect_match(st::scatter(a, 1, srow, src), inplace);
  Tensor sout = st::empty({0}, std::nullopt, std::nullopt, kCuda0);
  st::scatter_outf(da, 1, to_cuda(srow), Scalar(2.0), sout);
  expect_match(st::scatter(a, 1, srow, Scalar(2.0)), sout);
  EXPECT_NATIVE_ERROR(st::scatter(da, 0, dsidx, to_cuda(ramp({2, 3}, 1, 0, ScalarType::Double))),
                      "Expected self.dtype to be equal to src.dtype");
  EXPECT_NATIVE_ERROR(st::scatter(da, 0, to_cuda(make({5}, {1, 1}, ScalarType::Long)), dsrc),
                      "scatter(): index 5 is out of bounds for dimension 0 with size 3");
  // a negative index is out of range, as on the CPU (not counted from the end)
  EXPECT_NATIVE_ERROR(st::scatter(da, 1, to_cuda(make({-1}, {1, 1}, ScalarType::Long)), dsrc),
                      "scatter(): index -1 is out of bounds for dimension 1 with size 4");
  EXPECT_NATIVE_ERROR(st::gather(da, 1, to_cuda(make({-1}, {1, 1}, ScalarType::Long))),
                      "gather(): index -1 is out of bounds for dimension 1 with size 4");
}

TEST(CudaOpsTest, MaskedSelectAndNonzeroMatchTheCpu) {
  SKIP_WITHOUT_GPU();
  const double nan = std::nan("");
  Tensor a = make({1, 0, -2, nan, 0, 5, -0.0, 7, 0, 0, 3, 1}, {3, 4});
  Tensor da = to_cuda(a);
  Tensor mask = make({1, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 1}, {3, 4}, ScalarType::Bool);
  expect_match(st::masked_select(a, mask), st::masked_select(da, to_cuda(mask)));
  Tensor row_mask = make1({0, 1, 1, 0}, ScalarType::Bool);  // broadcast over rows
  expect_match(st::masked_select(a, row_mask), st::masked_select(da, to_cuda(row_mask)));
  Tensor none = st::zeros({3, 4}, ScalarType::Bool);
  expect_match(st::masked_select(a, none), st::masked_select(da, to_cuda(none)));
  Tensor l = ramp({3, 4}, 1, 0, ScalarType::Long);
  expect_match(st::masked_select(l, mask), st::masked_select(to_cuda(l), to_cuda(mask)));
  Tensor out = st::empty({0}, std::nullopt, std::nullopt, kCuda0);
  st::masked_select_outf(da, to_cuda(mask), out);
  expect_match(st::masked_select(a, mask), out);
  EXPECT_NATIVE_ERROR(st::masked_select(da, to_cuda(make({1}, {1}, ScalarType::Byte))),
                      "masked_select: expected BoolTensor for mask, got Byte");

  expect_match(st::nonzero(a), st::nonzero(da));  // NaN counts, -0.0 does not
  expect_match(st::nonzero(mask), st::nonzero(to_cuda(mask)));
  Tensor cube = make({0, 1, 2, 0, 0, 3, 0, 0}, {2, 2, 2}, ScalarType::Int);
  expect_match(st::nonzero(cube), st::nonzero(to_cuda(cube)));
  Tensor s = st::full({}, 2.0);
  expect_match(st::nonzero(s), st::nonzero(to_cuda(s)));
  expect_match(st::nonzero(st::empty({0, 3})),
               st::nonzero(st::empty({0, 3}, std::nullopt, std::nullopt, kCuda0)));
  // many blocks: every third element set
  std::vector<double> v(100000);
  for (size_t i = 0; i < v.size(); ++i) v[i] = i % 3 == 0 ? 1.0 : 0.0;
  Tensor big = make(v, {100, 1000});
  expect_match(st::nonzero(big), st::nonzero(to_cuda(big)));
  expect_match(st::masked_select(big, st::ne(big, 0)),
               st::masked_select(to_cuda(big), st::ne(to_cuda(big), 0)));
  Tensor nz_out = st::empty({0}, ScalarType::Long, std::nullopt, kCuda0);
  st::nonzero_outf(da, nz_out);
  expect_match(st::nonzero(a), nz_out);
  EXPECT_NATIVE_ERROR(st::nonzero_outf(da, st::empty({0}, std::nullopt, std::nullopt, kCuda0)),
                      "Expected out tensor to have scalar type Long");
}

TEST(CudaOpsTest, SortAndTopkMatchTheCpu) {
  SKIP_WITHOUT_GPU();
  const double nan = std::nan("");
  const double inf = std::numeric_limits<double>::infinity();
  // duplicates, NaN, signed zeros and infinities: ties keep index order
  Tensor a = make({3, nan, -1, 0, 3, -inf, -0.0, 2, nan, inf, 2, -1}, {3, 4});
  Tensor da = to_cuda(a);
  for (int64_t dim : {0, 1, -1}) {
    for (bool desc : {false, true}) {
      SCOPED_TRACE(std::to_string(dim) + (desc ? " descending" : " ascending"));
      auto [v, i] = st::sort(a, std::optional<bool>(true), dim, desc);
      auto [dv, di] = st::sort(da, std::optional<bool>(true), dim, desc);
      expect_match(v, dv);
      expect_match(i, di);
      for (int64_t k : {0, 1, 3}) {
        auto [tv, ti] = st::topk(a, k, dim, desc);
        auto [dtv, dti] = st::topk(da, k, dim, desc);
        expect_match(tv, dtv);
        expect_match(ti, dti);
      }
    }
  }
  // integer extremes, small signed ints, bool, half, 0-dim, empty, strided
  Tensor big = make1({9.0e18, -9.0e18, 0, -1, 1, 9.0e18}, ScalarType::Long);
  expect_match(std::get<1>(st::sort(big, 0, true)), std::get<1>(st::sort(to_cuda(big), 0, true)));
  expect_match(std::get<0>(st::sort(big)), std::get<0>(st::sort(to_cuda(big))));
  Tensor c = make1({5, -128, 127, 0, -1, 5}, ScalarType::Char);
  expect_match(std::get<1>(st::sort(c)), std::get<1>(st::sort(to_cuda(c))));
  Tensor b = make1({1, 0, 1, 0, 0}, ScalarType::Bool);
  expect_match(std::get<1>(st::sort(b, 0, true)), std::get<1>(st::sort(to_cuda(b), 0, true)));
  Tensor h = st::to(a, ScalarType::Half);
  expect_match(std::get<0>(st::sort(h, 1)), std::get<0>(st::sort(to_cuda(h), 1)));
  expect_match(std::get<1>(st::topk(h, 2, 0, false)),
               std::get<1>(st::topk(to_cuda(h), 2, 0, false)));
  Tensor s = st::full({}, 4.0);
  expect_match(std::get<1>(st::sort(s)), std::get<1>(st::sort(to_cuda(s))));
  expect_match(std::get<0>(st::topk(s, 1)), std::get<0>(st::topk(to_cuda(s), 1)));
  Tensor e = st::empty({2, 0});
  expect_match(std::get<0>(st::sort(e, 1)), std::get<0>(st::sort(to_cuda(e), 1)));
  Tensor t = st::transpose(a, 0, 1);
  expect_match(std::get<1>(st::sort(t, 1, true)),
               std::get<1>(st::sort(st::transpose(da, 0, 1), 1, true)));
  // long rows with many ties
  std::vector<double> v(3 * 5000);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>((i * 7919) % 101);
  Tensor rows = make(v, {3, 5000});
  expect_match(std::get<1>(st::sort(rows, 1)), std::get<1>(st::sort(to_cuda(rows), 1)));
  expect_match(std::get<1>(st::topk(rows, 50, 1)), std::get<1>(st::topk(to_cuda(rows), 50, 1)));
  // out= variants
  Tensor ov = st::empty({0}, std::nullopt, std::nullopt, kCuda0);
  Tensor oi = st::empty({0}, ScalarType::Long, std::nullopt, kCuda0);
  st::sort_outf(da, std::optional<bool>(true), 1, false, ov, oi);
  expect_match(std::get<0>(st::sort(a, 1)), ov);
  expect_match(std::get<1>(st::sort(a, 1)), oi);
  st::topk_outf(da, 2, 0, true, true, ov, oi);
  expect_match(std::get<0>(st::topk(a, 2, 0)), ov);
  expect_match(std::get<1>(st::topk(a, 2, 0)), oi);
  EXPECT_NATIVE_ERROR(st::topk(da, 5, 1), "topk(): selected index k out of range");
  EXPECT_NATIVE_ERROR(st::topk(to_cuda(b), 1), "\"topk\" not implemented for 'Bool'");
  EXPECT_NATIVE_ERROR(st::sort_outf(da, std::optional<bool>(true), 1, false, oi, oi),
                      "Expected out tensor values to have dtype Float");
}

TEST(CudaOpsTest, AdvancedIndexingMatchesTheCpu) {
  SKIP_WITHOUT_GPU();
  using Idx = std::vector<std::optional<Tensor>>;
  Tensor a = ramp({3, 4, 5});
  Tensor da = to_cuda(a);
  auto L = [](std::vector<double> v, std::vector<int64_t> shape) {
    return make(v, std::move(shape), ScalarType::Long);
  };
  // one index, two broadcast indices, a None before (adjacent: stays in
  // place), separated indices (broadcast dims first), negative values
  const std::vector<Idx> cases = {
      Idx{L({2, 0, -1}, {3})},
      Idx{L({0, 2}, {2}), L({1, 3}, {2})},
      Idx{std::nullopt, L({3, 0, -4}, {3})},
      Idx{L({0, 2, 1, 1}, {2, 2}), L({1, 2}, {2})},
      Idx{L({1}, {1}), std::nullopt, L({4, 0}, {2})},
      Idx{std::nullopt, std::nullopt, L({0, 4, 2}, {3})},
  };
  for (size_t c = 0; c < cases.size(); ++c) {
    SCOPED_TRACE(c);
    Idx dev;
    for (const auto& i : cases[c]) {
      dev.push_back(i.has_value() ? std::optional<Tensor>(to_cuda(*i)) : std::nullopt);
    }
    expect_match(st::index(a, cases[c]), st::index(da, dev));
    expect_match(st::index(a, cases[c]), st::index(da, cases[c]));  // indices on the host
  }
  // int32 indices, bool masks (full, partial, 0-d), a strided self
  Tensor i32 = make1({2, 1}, ScalarType::Int);
  expect_match(st::index(a, Idx{i32}), st::index(da, Idx{to_cuda(i32)}));
  Tensor m = st::gt(st::select(a, 2, 0), 20);
  expect_match(st::index(a, Idx{m}), st::index(da, Idx{to_cuda(m)}));
  Tensor row = make1({1, 0, 1}, ScalarType::Bool);
  expect_match(st::index(a, Idx{row, std::nullopt, L({1}, {1})}),
               st::index(da, Idx{to_cuda(row), std::nullopt, to_cuda(L({1}, {1}))}));
  Tensor yes = st::full({}, 1, ScalarType::Bool);
  expect_match(st::index(a, Idx{yes}), st::index(da, Idx{to_cuda(yes)}));
  Tensor t = st::transpose(a, 0, 2);
  expect_match(st::index(t, Idx{L({4, 1}, {2})}),
               st::index(st::transpose(da, 0, 2), Idx{to_cuda(L({4, 1}, {2}))}));
  Tensor h = st::to(a, ScalarType::Half);
  expect_match(st::index(h, Idx{L({1}, {1})}), st::index(to_cuda(h), Idx{to_cuda(L({1}, {1}))}));
  expect_match(st::index(a, Idx{L({}, {0})}), st::index(da, Idx{to_cuda(L({}, {0}))}));
  Tensor out = st::empty({0}, std::nullopt, std::nullopt, kCuda0);
  st::index_outf(da, Idx{to_cuda(L({2, 0}, {2}))}, out);
  expect_match(st::index(a, Idx{L({2, 0}, {2})}), out);
  EXPECT_NATIVE_ERROR(st::index(da, Idx{to_cuda(L({0, 3}, {2}))}),
                      "index 3 is out of bounds for dimension 0 with size 3");
  EXPECT_NATIVE_ERROR(st::index(da, Idx{std::nullopt, to_cuda(L({-5}, {1}))}),
                      "index -5 is out of bounds for dimension 1 with size 4");
  // an indexed dim of size 0: every value is out of range, and nothing
  // may be read from the (empty) self
  Tensor empty_rows = st::empty({0, 3}, std::nullopt, std::nullopt, kCuda0);
  EXPECT_NATIVE_ERROR(st::index(empty_rows, Idx{to_cuda(L({0, 0}, {2}))}),
                      "index 0 is out of bounds for dimension 0 with size 0");
  const std::vector<int64_t> ones13(13, 1);
  EXPECT_NATIVE_ERROR(
      st::index(st::zeros(st::IntArrayRef(ones13), ScalarType::Float, std::nullopt, kCuda0),
                Idx{to_cuda(L({0}, {1}))}),
      "the CUDA kernels handle at most 12");
  EXPECT_NATIVE_ERROR(st::index(da, Idx{to_cuda(make1({0.5}))}),
                      "tensors used as indices must be long, int, byte or bool tensors");
  EXPECT_NATIVE_ERROR(st::index(da, Idx{L({0}, {1}), L({0}, {1}), L({0}, {1}), L({0}, {1})}),
                      "too many indices for tensor of dimension 3");
}

}  // namespace
