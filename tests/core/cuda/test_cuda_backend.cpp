// The CUDA backend (built when STABLETORCH_CUDA resolves ON). Device tests
// use the real CUDA runtime and skip, saying so, when cudaGetDeviceCount
// reports no device; the rest check what must hold on any machine.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include <st/core/generator.h>
#include <st/cuda/cuda_backend.h>
#include <st/device/accelerator.h>
#include <st/device/device_guard.h>
#include <st/device/device_runtime.h>

#include "cuda/cuda_test_util.h"
#include "native/test_helpers.h"

namespace {

using namespace st_native_test;
using namespace st_cuda_test;
using st::Device;
using st::DeviceType;

TEST(CudaBackendTest, RuntimeAndAllocatorAreRegistered) {
  ASSERT_NE(st::try_get_device_runtime(DeviceType::CUDA), nullptr);
  EXPECT_EQ(st::try_get_allocator(DeviceType::CUDA), &st::cuda::caching_allocator());
  EXPECT_FALSE(st::is_host_accessible(kCuda0));
  if (st::device_count(DeviceType::CUDA) == 0) {
    EXPECT_FALSE(st::current_accelerator().has_value());
  } else {
    EXPECT_EQ(st::current_accelerator(), DeviceType::CUDA);
  }
}

TEST(CudaBackendTest, WithoutADeviceTensorsFailCleanly) {
  if (st::device_count(DeviceType::CUDA) > 0) GTEST_SKIP() << "a CUDA device is present";
  EXPECT_NATIVE_ERROR(st::empty({2}, std::nullopt, std::nullopt, kCuda0),
                      "empty: no cuda device is available");
  EXPECT_NATIVE_ERROR(st::empty({2}, std::nullopt, std::nullopt, Device("cuda")),
                      "empty: no cuda device is available");
  EXPECT_NATIVE_ERROR(st::DeviceGuard(kCuda0), "no cuda device is available");
  EXPECT_NATIVE_ERROR(st::current_stream(kCuda0), "no cuda device is available");
}

TEST(CudaBackendTest, CheckMessage) {
  EXPECT_EQ(st::cuda::check_message(0, "f", "g", 1, false), "");
  const std::string m = st::cuda::check_message(2, "file.cu", "fn", 7, false);  // out of memory
  EXPECT_NE(m.find("CUDA error: out of memory"), std::string::npos) << m;
  EXPECT_NE(m.find("fn at file.cu:7"), std::string::npos) << m;
}

TEST(CudaBackendTest, CopiesRoundTripWithConversionAndStrides) {
  SKIP_WITHOUT_GPU();
  Tensor host = make({1, 2, 3, 4, 5, 6}, {2, 3});
  Tensor dev = to_cuda(host);
  EXPECT_EQ(dev.device(), kCuda0);
  EXPECT_EQ(values(to_cpu(dev)), values(host));
  Tensor half = st::to(dev, kCuda0, ScalarType::Half);
  EXPECT_EQ(values(to_cpu(half)), values(host));
  Tensor tr = st::transpose(dev, 0, 1);
  EXPECT_EQ(values(to_cpu(st::contiguous(tr))), (std::vector<double>{1, 4, 2, 5, 3, 6}));
  Tensor ints = st::empty({3, 2}, ScalarType::Int, std::nullopt, kCuda0);
  st::copy_(ints, tr);
  EXPECT_EQ(values(to_cpu(ints)), (std::vector<double>{1, 4, 2, 5, 3, 6}));
  Tensor host_t = st::transpose(st::empty({2, 3}), 0, 1);
  st::copy_(host_t, ints);
  EXPECT_EQ(values(host_t), (std::vector<double>{1, 4, 2, 5, 3, 6}));
}

TEST(CudaBackendTest, FillArangeAndRandom) {
  SKIP_WITHOUT_GPU();
  Tensor f = st::full({4}, 2.5, ScalarType::Float, std::nullopt, kCuda0);
  EXPECT_EQ(values(to_cpu(f)), (std::vector<double>{2.5, 2.5, 2.5, 2.5}));
  st::zero_(f);
  EXPECT_EQ(values(to_cpu(f)), (std::vector<double>{0, 0, 0, 0}));
  Tensor r = st::arange(1, 9, 2, ScalarType::Long, std::nullopt, kCuda0);
  EXPECT_EQ(values(to_cpu(r)), (std::vector<double>{1, 3, 5, 7}));
  st::manual_seed(7);
  Tensor u = to_cpu(st::rand({1000}, ScalarType::Float, std::nullopt, kCuda0));
  st::manual_seed(7);
  Tensor u2 = to_cpu(st::rand({1000}, ScalarType::Float, std::nullopt, kCuda0));
  EXPECT_EQ(values(u), values(u2));
  double mean = 0;
  for (double v : values(u)) {
    EXPECT_GE(v, 0.0);
    EXPECT_LT(v, 1.0);
    mean += v / 1000;
  }
  EXPECT_NEAR(mean, 0.5, 0.05);
  std::vector<double> n =
      values(to_cpu(st::randn({4000}, ScalarType::Double, std::nullopt, kCuda0)));
  double m = 0, var = 0;
  for (double v : n) m += v / 4000;
  for (double v : n) var += (v - m) * (v - m) / 4000;
  EXPECT_NEAR(m, 0.0, 0.1);
  EXPECT_NEAR(var, 1.0, 0.1);
}

TEST(CudaBackendTest, PointwiseMatchesTheCpu) {
  SKIP_WITHOUT_GPU();
  Tensor a = make({1, -2, 3, -4, 5, 6}, {2, 3});
  Tensor b = make({10, 20, 30}, {3});
  Tensor da = to_cuda(a), db = to_cuda(b);
  EXPECT_EQ(values(to_cpu(st::add(da, db, 2))), values(st::add(a, b, 2)));
  EXPECT_EQ(values(to_cpu(st::mul(da, db))), values(st::mul(a, b)));
  EXPECT_EQ(values(to_cpu(st::sub(da, db))), values(st::sub(a, b)));
  EXPECT_EQ(values(to_cpu(st::abs(da))), values(st::abs(a)));
  EXPECT_EQ(values(to_cpu(st::relu(da))), values(st::relu(a)));
  std::vector<double> e = values(to_cpu(st::exp(da)));
  std::vector<double> ec = values(st::exp(a));
  for (size_t i = 0; i < e.size(); ++i) EXPECT_NEAR(e[i], ec[i], 1e-5 * std::abs(ec[i]));
  // A 0-dim CPU scalar mixes with CUDA tensors; another device does not.
  EXPECT_EQ(values(to_cpu(st::mul(da, st::full({}, 3)))), values(st::mul(a, st::full({}, 3))));
  EXPECT_NATIVE_ERROR(st::add(da, b), "expected all tensors to be on the same device");
}

TEST(CudaBackendTest, ReductionsMatchTheCpu) {
  SKIP_WITHOUT_GPU();
  Tensor a = make({1, -2, 3, -4, 5, 6}, {2, 3});
  Tensor da = to_cuda(a);
  EXPECT_EQ(values(to_cpu(st::sum(da))), values(st::sum(a)));
  EXPECT_EQ(values(to_cpu(st::sum(da, st::IntArrayRef{1}, true))),
            values(st::sum(a, st::IntArrayRef{1}, true)));
  EXPECT_EQ(values(to_cpu(st::mean(da, st::IntArrayRef{0}))),
            values(st::mean(a, st::IntArrayRef{0})));
  EXPECT_EQ(values(to_cpu(st::amax(da, {1}))), values(st::amax(a, {1})));
  EXPECT_EQ(values(to_cpu(st::amin(da))), values(st::amin(a)));
}

TEST(CudaBackendTest, ComparisonsLogicalAndBitwiseMatchTheCpu) {
  SKIP_WITHOUT_GPU();
  const double nan = std::nan("");
  Tensor a = make({1, -2, nan, 4, 5, -6}, {2, 3});
  Tensor b = make({1, 3, nan}, {3});
  Tensor da = to_cuda(a), db = to_cuda(b);
  expect_match(st::eq(a, b), st::eq(da, db));
  expect_match(st::ne(a, b), st::ne(da, db));
  expect_match(st::lt(a, b), st::lt(da, db));
  expect_match(st::le(a, b), st::le(da, db));
  expect_match(st::gt(a, b), st::gt(da, db));
  expect_match(st::ge(a, b), st::ge(da, db));
  expect_match(st::gt(a, 2), st::gt(da, 2));  // Scalar overload (composite)
  expect_match(st::eq(a, 4.0), st::eq(da, 4.0));
  Tensor ia = make({3, -7, 0, 12, 5, -1}, {2, 3}, ScalarType::Int);
  Tensor ib = make({3, 2, 1}, {3}, ScalarType::Long);
  Tensor dia = to_cuda(ia), dib = to_cuda(ib);
  expect_match(st::lt(ia, ib), st::lt(dia, dib));
  expect_match(st::le(ia, 2.5), st::le(dia, 2.5));
  // in place and out=: the bool result converts to the target dtype
  Tensor ca = st::clone(a), dca = st::clone(da);
  st::ge_(ca, b);
  st::ge_(dca, db);
  expect_match(ca, dca);
  Tensor out = st::empty({2, 3}, ScalarType::Bool, std::nullopt, kCuda0);
  st::ne_outf(da, db, out);
  expect_match(st::ne(a, b), out);

  expect_match(st::logical_and(a, b), st::logical_and(da, db));
  expect_match(st::logical_or(ia, b), st::logical_or(dia, db));
  expect_match(st::logical_xor(a, ib), st::logical_xor(da, dib));
  expect_match(st::logical_not(a), st::logical_not(da));
  expect_match(st::logical_not(ia), st::logical_not(dia));

  expect_match(st::bitwise_and(ia, ib), st::bitwise_and(dia, dib));
  expect_match(st::bitwise_or(ia, ib), st::bitwise_or(dia, dib));
  expect_match(st::bitwise_xor(ia, 6), st::bitwise_xor(dia, 6));
  expect_match(st::bitwise_not(ia), st::bitwise_not(dia));
  Tensor mask = make({1, 0, 1}, {3}, ScalarType::Bool);
  Tensor dmask = to_cuda(mask);
  expect_match(st::bitwise_not(mask), st::bitwise_not(dmask));  // ~true == false
  expect_match(st::bitwise_xor(mask, mask), st::bitwise_xor(dmask, dmask));
  Tensor u8 = make({1, 128, 255}, {3}, ScalarType::Byte);
  expect_match(st::bitwise_not(u8), st::bitwise_not(to_cuda(u8)));
  // shifts, with amounts at and past the stored width
  Tensor i8 = make({1, -128, 64, -1, 3, -5}, {6}, ScalarType::Char);
  Tensor amt = make({1, 1, 2, 8, 9, 70}, {6}, ScalarType::Char);
  expect_match(st::bitwise_left_shift(i8, amt), st::bitwise_left_shift(to_cuda(i8), to_cuda(amt)));
  expect_match(st::bitwise_right_shift(i8, amt),
               st::bitwise_right_shift(to_cuda(i8), to_cuda(amt)));
  expect_match(st::bitwise_right_shift(u8, 3), st::bitwise_right_shift(to_cuda(u8), 3));
  EXPECT_NATIVE_ERROR(st::bitwise_and(da, db), "\"bitwise_and\" not implemented for 'Float'");
}

TEST(CudaBackendTest, DivisionPowAndWrappingMatchTheCpu) {
  SKIP_WITHOUT_GPU();
  Tensor a = make({7, -7, 7.5, -7.5, 0, 3}, {6});
  Tensor b = make({2, 2, -2, -2, 3, 0}, {6});
  Tensor da = to_cuda(a), db = to_cuda(b);
  expect_match(st::div(a, b), st::div(da, db));
  expect_match(st::div(a, b, "trunc"), st::div(da, db, "trunc"));
  expect_match(st::div(a, b, "floor"), st::div(da, db, "floor"));
  expect_match(st::floor_divide(a, b), st::floor_divide(da, db));
  expect_match(st::remainder(a, b), st::remainder(da, db));
  expect_match(st::remainder(a, 2.5), st::remainder(da, 2.5));
  expect_match(st::pow(a, b), st::pow(da, db), 1e-6);
  expect_match(st::pow(a, 2), st::pow(da, 2), 1e-6);
  expect_match(st::pow(2, b), st::pow(2, db), 1e-6);

  Tensor ia = make({7, -7, 7, -7, 0, -9223372036854775807.0 - 1}, {6}, ScalarType::Long);
  Tensor ib = make({2, 2, -2, -2, 3, -1}, {6}, ScalarType::Long);
  Tensor dia = to_cuda(ia), dib = to_cuda(ib);
  expect_match(st::div(ia, ib), st::div(dia, dib));  // true division: float
  expect_match(st::div(ia, ib, "trunc"), st::div(dia, dib, "trunc"));
  expect_match(st::div(ia, ib, "floor"), st::div(dia, dib, "floor"));
  expect_match(st::remainder(ia, ib), st::remainder(dia, dib));
  Tensor ie = make({0, 1, 2, 3, 62, -1}, {6}, ScalarType::Long);
  Tensor ibase = make({3, -2, 5, -1, 2, 2}, {6}, ScalarType::Long);
  expect_match(st::pow(ibase, ie), st::pow(to_cuda(ibase), to_cuda(ie)));
  EXPECT_NATIVE_ERROR(st::pow(dia, -1), "Integers to negative integer powers are not allowed.");
  // Integer division by zero raises, as on the CPU (read back from a device flag).
  Tensor zero = make({1, 0}, {2}, ScalarType::Int);
  EXPECT_NATIVE_ERROR(st::div(to_cuda(zero), to_cuda(zero), "floor"), "ZeroDivisionError");
  EXPECT_NATIVE_ERROR(st::remainder(to_cuda(zero), Scalar(int64_t{0})), "ZeroDivisionError");
  // Integer arithmetic wraps at the stored width.
  Tensor i8 = make({100, -100, 127}, {3}, ScalarType::Char);
  Tensor di8 = to_cuda(i8);
  expect_match(st::add(i8, i8), st::add(di8, di8));
  expect_match(st::mul(i8, i8), st::mul(di8, di8));
  expect_match(st::sub(i8, 100, 2), st::sub(di8, 100, 2));
  Tensor bools = make({1, 0, 1}, {3}, ScalarType::Bool);
  expect_match(st::add(bools, bools), st::add(to_cuda(bools), to_cuda(bools)));
  EXPECT_NATIVE_ERROR(st::sub(to_cuda(bools), to_cuda(bools)), "Subtraction, the `-` operator");
}

TEST(CudaBackendTest, UnaryAndTernaryMatchTheCpu) {
  SKIP_WITHOUT_GPU();
  const double nan = std::nan(""), inf = INFINITY;
  Tensor a = make({-1.5, 0, 2.25, nan, inf, -inf}, {2, 3});
  Tensor da = to_cuda(a);
  expect_match(st::sign(a), st::sign(da));
  expect_match(st::isnan(a), st::isnan(da));
  expect_match(st::isinf(a), st::isinf(da));
  expect_match(st::relu(a), st::relu(da));
  expect_match(st::abs(a), st::abs(da));
  expect_match(st::nan_to_num(a), st::nan_to_num(da));
  expect_match(st::nan_to_num(a, 1.0, 2.0, -3.0), st::nan_to_num(da, 1.0, 2.0, -3.0));
  Tensor h = st::to(a, ScalarType::Half);
  expect_match(st::nan_to_num(h), st::nan_to_num(to_cuda(h)));
  expect_match(st::gelu(a), st::gelu(da), 1e-6);
  expect_match(st::gelu(a, "tanh"), st::gelu(da, "tanh"), 1e-6);
  Tensor ints = make({-3, 0, 5}, {3}, ScalarType::Int);
  expect_match(st::sign(ints), st::sign(to_cuda(ints)));
  expect_match(st::isnan(ints), st::isnan(to_cuda(ints)));
  expect_match(st::sigmoid(ints), st::sigmoid(to_cuda(ints)), 1e-6);
  expect_match(st::tan(ints), st::tan(to_cuda(ints)), 1e-6);
  expect_match(st::tan(a), st::tan(da), 1e-6);
  Tensor tan_out = to_cuda(make({0}, {1}, ScalarType::Double));
  expect_match(st::to(st::tan(a), ScalarType::Double), st::tan_out(tan_out, da), 1e-6);
  Tensor tan_inplace = to_cuda(h);
  expect_match(st::tan(h), st::tan_(tan_inplace), 1e-3);

  Tensor b = make({0, nan, 1, 1, 1, 1}, {2, 3});
  Tensor db = to_cuda(b);
  expect_match(st::maximum(a, b), st::maximum(da, db));
  expect_match(st::minimum(a, b), st::minimum(da, db));
  expect_match(st::clamp(a, Scalar(-1.0), Scalar(1.0)), st::clamp(da, Scalar(-1.0), Scalar(1.0)));
  expect_match(st::clamp(a, std::nullopt, Scalar(1.0)), st::clamp(da, std::nullopt, Scalar(1.0)));
  expect_match(st::clamp(ints, Scalar(int64_t{-1}), std::nullopt),
               st::clamp(to_cuda(ints), Scalar(int64_t{-1}), std::nullopt));
  Tensor lo = make({-1, 0, 1}, {3});
  Tensor hi = make({0, 1, 2}, {3});
  expect_match(
      st::clamp(a, std::optional<Tensor>(lo), std::optional<Tensor>(hi)),
      st::clamp(da, std::optional<Tensor>(to_cuda(lo)), std::optional<Tensor>(to_cuda(hi))));
  Tensor cond = make({1, 0, 1}, {3}, ScalarType::Bool);
  Tensor dcond = to_cuda(cond);
  expect_match(st::where(cond, a, ints), st::where(dcond, da, to_cuda(ints)));
  expect_match(st::where(cond, a, 7.0), st::where(dcond, da, 7.0));
  Tensor filled = st::clone(a), dfilled = st::clone(da);
  st::masked_fill_(filled, cond, -9.0);
  st::masked_fill_(dfilled, dcond, -9.0);
  expect_match(filled, dfilled);
}

TEST(CudaBackendTest, MoreReductionsMatchTheCpu) {
  SKIP_WITHOUT_GPU();
  const double nan = std::nan("");
  Tensor a = make({3, -1, 3, 2, 0.5, 4, -2, 4, 1, 7, 7, -3}, {3, 4});
  Tensor da = to_cuda(a);
  expect_match(st::prod(a), st::prod(da), 1e-6);
  expect_match(st::prod(a, 1, true), st::prod(da, 1, true), 1e-6);
  Tensor ints = make({3, -1, 3, 2, 5, 4, -2, 4, 1, 7, 7, -3}, {3, 4}, ScalarType::Int);
  Tensor dints = to_cuda(ints);
  expect_match(st::prod(ints, 0), st::prod(dints, 0));  // int64 result
  for (int64_t dim : {0, 1, -1}) {
    auto [v, i] = st::max(a, dim);
    auto [dv, di] = st::max(da, dim);
    expect_match(v, dv);
    expect_match(i, di);  // ties: the first index
    auto [v2, i2] = st::min(ints, dim, true);
    auto [dv2, di2] = st::min(dints, dim, true);
    expect_match(v2, dv2);
    expect_match(i2, di2);
    expect_match(st::argmax(a, dim), st::argmax(da, dim));
    expect_match(st::argmin(ints, dim, true), st::argmin(dints, dim, true));
  }
  expect_match(st::argmax(a), st::argmax(da));
  expect_match(st::argmin(a, std::nullopt, true), st::argmin(da, std::nullopt, true));
  expect_match(st::max(a), st::max(da));
  expect_match(st::min(ints), st::min(dints));
  Tensor with_nan = make({1, nan, 3, nan}, {4});
  expect_match(st::argmax(with_nan), st::argmax(to_cuda(with_nan)));
  expect_match(st::argmin(with_nan), st::argmin(to_cuda(with_nan)));
  expect_match(st::amax(with_nan, {0}), st::amax(to_cuda(with_nan), {0}));
  EXPECT_NATIVE_ERROR(st::max(st::empty({0}, std::nullopt, std::nullopt, kCuda0)),
                      "Expected reduction dim to be specified");

  Tensor flags = make({1, 0, 1, 1, 1, 1}, {2, 3}, ScalarType::Bool);
  Tensor dflags = to_cuda(flags);
  expect_match(st::all(flags), st::all(dflags));
  expect_match(st::any(flags, 1), st::any(dflags, 1));
  expect_match(st::all(a, 1, true), st::all(da, 1, true));
  Tensor u8 = make({0, 2, 0, 0}, {2, 2}, ScalarType::Byte);
  expect_match(st::any(u8, 0), st::any(to_cuda(u8), 0));  // uint8 result

  expect_match(st::var(a), st::var(da), 1e-5);
  expect_match(st::std(a, st::IntArrayRef{1}, Scalar(int64_t{0}), true),
               st::std(da, st::IntArrayRef{1}, Scalar(int64_t{0}), true), 1e-5);
  Tensor ad = st::to(a, ScalarType::Double);
  expect_match(st::var(ad, st::IntArrayRef{0}, true, false),
               st::var(to_cuda(ad), st::IntArrayRef{0}, true, false), 1e-12);

  // out= variants
  Tensor out = st::empty({0}, ScalarType::Double, std::nullopt, kCuda0);
  st::sum_outf(da, st::IntArrayRef{1}, false, std::nullopt, out);
  expect_match(st::sum(a, st::IntArrayRef{1}, false, ScalarType::Double), out);
  Tensor cat_out = st::empty({0}, std::nullopt, std::nullopt, kCuda0);
  st::cat_outf({da, da}, 1, cat_out);
  expect_match(st::cat({a, a}, 1), cat_out);
}

TEST(CudaBackendTest, StreamsAndGuards) {
  SKIP_WITHOUT_GPU();
  const st::Stream pooled = st::stream_from_pool(kCuda0);
  EXPECT_NE(st::native_stream_handle(pooled), nullptr);
  {
    st::StreamGuard g(pooled);
    EXPECT_EQ(st::current_stream(kCuda0), pooled);
    Tensor t = st::ones({1000}, std::nullopt, std::nullopt, kCuda0);  // runs on `pooled`
    st::synchronize_stream(pooled);
    EXPECT_TRUE(st::query_stream(pooled));
  }
  EXPECT_TRUE(st::current_stream(kCuda0).is_default());
  EXPECT_EQ(st::cuda::stream_from_native(st::native_stream_handle(pooled), 0), pooled);
}

TEST(CudaBackendTest, CachingAllocatorReusesBlocks) {
  SKIP_WITHOUT_GPU();
  st::CachingAllocator& a = st::cuda::caching_allocator();
  void* first = nullptr;
  { first = st::empty({1000}, std::nullopt, std::nullopt, kCuda0).data_ptr(); }
  const auto before = a.stats(0);
  Tensor again = st::empty({1000}, std::nullopt, std::nullopt, kCuda0);
  EXPECT_EQ(again.data_ptr(), first);
  EXPECT_EQ(a.stats(0).num_cache_hits, before.num_cache_hits + 1);
}

}  // namespace
