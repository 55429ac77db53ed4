// The CUDA backend (built when STABLETORCH_CUDA resolves ON). Device tests
// use the real CUDA runtime and skip, saying so, when cudaGetDeviceCount
// reports no device; the rest check what must hold on any machine.
#include <gtest/gtest.h>

#include <cmath>

#include <st/core/generator.h>
#include <st/cuda/cuda_backend.h>
#include <st/device/accelerator.h>
#include <st/device/device_guard.h>
#include <st/device/device_runtime.h>

#include "native/test_helpers.h"

namespace {

using namespace st_native_test;
using st::Device;
using st::DeviceType;

const Device kCuda0("cuda:0");

#define SKIP_WITHOUT_GPU()                                                 \
  do {                                                                     \
    if (st::device_count(DeviceType::CUDA) == 0) {                         \
      GTEST_SKIP() << "cudaGetDeviceCount reports no CUDA device";         \
    }                                                                      \
  } while (0)

Tensor to_cpu(const Tensor& t) { return st::to(t, std::nullopt, std::nullopt, Device("cpu")); }
Tensor to_cuda(const Tensor& t) { return st::to(t, std::nullopt, std::nullopt, kCuda0); }

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
  std::vector<double> n = values(to_cpu(st::randn({4000}, ScalarType::Double, std::nullopt, kCuda0)));
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
  EXPECT_EQ(values(to_cpu(st::mean(da, st::IntArrayRef{0}))), values(st::mean(a, st::IntArrayRef{0})));
  EXPECT_EQ(values(to_cpu(st::amax(da, {1}))), values(st::amax(a, {1})));
  EXPECT_EQ(values(to_cpu(st::amin(da))), values(st::amin(a)));
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
