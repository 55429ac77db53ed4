// The device-runtime registry and the generic device and stream functions,
// exercised through the host test backend (PrivateUse1, two devices).
#include <gtest/gtest.h>

#include <string>

#include <st/core/error.h>
#include <st/device/accelerator.h>
#include <st/device/device_guard.h>
#include <st/device/device_runtime.h>
#include <st/testing/host_test_backend.h>

#include "error_of.h"

namespace {

using st::Device;
using st::DeviceType;
using st::Stream;

constexpr DeviceType kPU1 = DeviceType::PrivateUse1;

using st::testing::error_of;

#define EXPECT_ERROR_HAS(stmt, text) EXPECT_ST_ERROR_HAS(stmt, text)

class DeviceRuntimeTest : public ::testing::Test {
 protected:
  void SetUp() override { st::testing::register_host_test_backend(); }
};

// A runtime that claims PrivateUse1 but is not the host test backend's.
class OtherRuntime final : public st::DeviceRuntime {
 public:
  explicit OtherRuntime(DeviceType t) : type_(t) {}
  DeviceType type() const noexcept override { return type_; }
  st::DeviceIndex device_count() const noexcept override { return 1; }
  bool host_accessible() const noexcept override { return false; }
  st::DeviceIndex current_device() const override { return 0; }
  void set_device(st::DeviceIndex) override {}
  void set_device_noexcept(st::DeviceIndex) noexcept override {}
  Stream current_stream(st::DeviceIndex i) const override { return Stream(Device(type_, i), 0); }
  Stream default_stream(st::DeviceIndex i) const override { return Stream(Device(type_, i), 0); }
  Stream stream_from_pool(st::DeviceIndex i, bool) override { return Stream(Device(type_, i), 0); }
  void set_current_stream(const Stream&) override {}
  void set_current_stream_noexcept(const Stream&) noexcept override {}
  void synchronize_stream(const Stream&) override {}
  bool query_stream(const Stream&) override { return true; }
  void synchronize_device(st::DeviceIndex) override {}
  void* native_stream_handle(const Stream&) const override { return nullptr; }

 private:
  DeviceType type_;
};

TEST_F(DeviceRuntimeTest, RegistryFindsTheHostTestBackend) {
  ASSERT_NE(st::try_get_device_runtime(kPU1), nullptr);
  EXPECT_EQ(&st::get_device_runtime(kPU1), st::try_get_device_runtime(kPU1));
  EXPECT_EQ(st::device_count(kPU1), 2);
  EXPECT_EQ(st::device_count(DeviceType::CPU), 1);
  EXPECT_EQ(st::device_count(DeviceType::XLA), 0);
  const auto types = st::registered_device_types();
  EXPECT_NE(std::find(types.begin(), types.end(), kPU1), types.end());
  EXPECT_TRUE(st::is_host_accessible(Device("privateuseone:1")));
  EXPECT_TRUE(st::is_host_accessible(Device("cpu")));
  EXPECT_FALSE(st::is_host_accessible(Device("meta")));
  // Registering the same runtime again is harmless.
  st::testing::register_host_test_backend();
  st::register_device_runtime(st::try_get_device_runtime(kPU1));
}

TEST_F(DeviceRuntimeTest, RegistryErrors) {
  EXPECT_ERROR_HAS(st::get_device_runtime(DeviceType::XLA),
                   "no device runtime is registered for device type 'xla' (registered: ");
  EXPECT_ERROR_HAS(st::get_device_runtime(DeviceType::XLA), "privateuseone");
  EXPECT_ERROR_HAS(st::register_device_runtime(nullptr), "expected a runtime, got null");
  static OtherRuntime other_pu1(kPU1);
  EXPECT_ERROR_HAS(st::register_device_runtime(&other_pu1),
                   "device type privateuseone already has a runtime");
  static OtherRuntime cpu(DeviceType::CPU);
  EXPECT_ERROR_HAS(st::register_device_runtime(&cpu), "the cpu device type has a built-in");
}

TEST_F(DeviceRuntimeTest, AcceleratorIsTheHostBackendWithoutAGpu) {
  const auto accel = st::current_accelerator();
  ASSERT_TRUE(accel.has_value());
  EXPECT_EQ(*accel, st::device_count(DeviceType::CUDA) > 0 ? DeviceType::CUDA : kPU1);
}

TEST_F(DeviceRuntimeTest, DeviceIndexChecks) {
  st::check_device_index(kPU1, 0, "test");
  st::check_device_index(kPU1, 1, "test");
  st::check_device_index(DeviceType::CPU, -1, "test");
  EXPECT_ERROR_HAS(st::check_device_index(kPU1, 2, "where"),
                   "where: device index 2 is out of range for device type privateuseone (2 "
                   "devices available, valid indices 0 to 1)");
  EXPECT_ERROR_HAS(st::check_device_index(kPU1, -1, "where"), "device index -1 is out of range");
  EXPECT_ERROR_HAS(st::check_device_index(DeviceType::CPU, 1, "where"),
                   "where: device index 1 is not valid for the CPU");
  EXPECT_ERROR_HAS(st::check_device_index(DeviceType::XLA, 0, "where"),
                   "no device runtime is registered for device type 'xla'");
}

TEST_F(DeviceRuntimeTest, ResolveDevice) {
  EXPECT_EQ(st::resolve_device(Device("privateuseone"), "t"), Device("privateuseone:0"));
  {
    st::DeviceGuard g(Device("privateuseone:1"));
    EXPECT_EQ(st::resolve_device(Device("privateuseone"), "t"), Device("privateuseone:1"));
  }
  EXPECT_EQ(st::resolve_device(Device("cpu"), "t"), Device("cpu"));
  EXPECT_EQ(st::resolve_device(Device("meta"), "t"), Device("meta"));
  EXPECT_ERROR_HAS(st::resolve_device(Device("privateuseone:7"), "empty"),
                   "empty: device index 7 is out of range");
}

TEST_F(DeviceRuntimeTest, StreamsOfTheHostBackend) {
  const Stream s0 = st::current_stream(Device("privateuseone:0"));
  EXPECT_EQ(s0, Stream(Device("privateuseone:0"), 0));
  EXPECT_TRUE(s0.is_default());
  EXPECT_EQ(st::default_stream(Device("privateuseone:1")), Stream(Device("privateuseone:1"), 0));
  // Pools: normal ids 1-4, high priority 5-8, round robin.
  for (int i = 0; i < 8; ++i) {
    const Stream p = st::stream_from_pool(Device("privateuseone:1"));
    EXPECT_GE(p.id(), 1);
    EXPECT_LE(p.id(), 4);
    EXPECT_EQ(p.device(), Device("privateuseone:1"));
    const Stream h = st::stream_from_pool(Device("privateuseone:1"), /*high_priority=*/true);
    EXPECT_GE(h.id(), 5);
    EXPECT_LE(h.id(), 8);
  }
  const Stream a = st::stream_from_pool(Device("privateuseone:0"));
  const Stream b = st::stream_from_pool(Device("privateuseone:0"));
  EXPECT_NE(a, b);
  EXPECT_TRUE(st::query_stream(a));
  EXPECT_EQ(st::native_stream_handle(a), nullptr);
  const int64_t before = st::testing::host_test_sync_count(a);
  st::synchronize_stream(a);
  EXPECT_EQ(st::testing::host_test_sync_count(a), before + 1);
  st::synchronize_device(Device("privateuseone:0"));
  EXPECT_EQ(st::testing::host_test_sync_count(a), before + 2);
  // The CPU has one stream, id 0.
  EXPECT_EQ(st::current_stream(Device("cpu")), Stream(Device("cpu"), 0));
  st::synchronize_stream(Stream(Device("cpu"), 0));
  EXPECT_EQ(std::string(st::testing::host_test_sync_count(a) > 0 ? "ok" : ""), "ok");
  std::ostringstream os;
  os << a;
  EXPECT_EQ(os.str(), "stream " + std::to_string(a.id()) + " on privateuseone:0");
}

TEST_F(DeviceRuntimeTest, StreamErrors) {
  EXPECT_ERROR_HAS(st::stream_from_pool(Device("cpu")), "the CPU has no stream pool");
  EXPECT_ERROR_HAS(st::native_stream_handle(Stream(Device("cpu"), 0)),
                   "native_stream_handle: the CPU has no native stream handle");
  EXPECT_ERROR_HAS(st::set_current_stream(Stream(Device("cpu"), 3)),
                   "the CPU has only its default stream, got stream 3 on cpu");
  EXPECT_ERROR_HAS(st::set_current_stream(Stream(Device("privateuseone:0"), 42)),
                   "set_current_stream: stream 42 on privateuseone:0 is not a stream of the host "
                   "test backend");
  EXPECT_ERROR_HAS(st::synchronize_stream(Stream(Device("privateuseone:5"), 0)),
                   "synchronize_stream: device index 5 is out of range");
  EXPECT_ERROR_HAS(st::current_stream(Device("privateuseone:2")),
                   "current_stream: device index 2 is out of range");
  EXPECT_ERROR_HAS(st::current_stream(Device("xla:0")),
                   "no device runtime is registered for device type 'xla'");
  EXPECT_ERROR_HAS(st::synchronize_stream(Stream(Device("privateuseone"), 0)),
                   "has no device index");
}

}  // namespace
