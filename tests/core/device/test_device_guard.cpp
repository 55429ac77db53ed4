// DeviceGuard and StreamGuard over the host test backend.
#include <gtest/gtest.h>

#include <string>
#include <thread>

#include <st/core/error.h>
#include <st/device/device_guard.h>
#include <st/device/device_runtime.h>
#include <st/testing/host_test_backend.h>

#include "error_of.h"

namespace {

using st::Device;
using st::DeviceType;
using st::Stream;

using st::testing::error_of;

#define EXPECT_ERROR_HAS(stmt, text) EXPECT_ST_ERROR_HAS(stmt, text)

st::DeviceIndex current() {
  return st::get_device_runtime(DeviceType::PrivateUse1).current_device();
}
Stream current_stream_of(int index) {
  return st::current_stream(Device(DeviceType::PrivateUse1, static_cast<st::DeviceIndex>(index)));
}

class DeviceGuardTest : public ::testing::Test {
 protected:
  void SetUp() override {
    st::testing::register_host_test_backend();
    ASSERT_EQ(current(), 0);
  }
  void TearDown() override { EXPECT_EQ(current(), 0) << "a guard did not restore the device"; }
};

TEST_F(DeviceGuardTest, SetsAndRestoresNested) {
  {
    st::DeviceGuard outer(Device("privateuseone:1"));
    EXPECT_EQ(current(), 1);
    EXPECT_EQ(outer.original_device(), Device("privateuseone:0"));
    EXPECT_EQ(outer.current_device(), Device("privateuseone:1"));
    {
      st::DeviceGuard inner(Device("privateuseone:0"));
      EXPECT_EQ(current(), 0);
    }
    EXPECT_EQ(current(), 1);
    outer.set_index(0);
    EXPECT_EQ(current(), 0);
    outer.set_index(-1);  // no change
    EXPECT_EQ(current(), 0);
    outer.set_index(1);
  }
  EXPECT_EQ(current(), 0);
}

TEST_F(DeviceGuardTest, MinusOneKeepsTheCurrentDevice) {
  st::DeviceGuard a(Device("privateuseone:1"));
  {
    st::DeviceGuard b(Device("privateuseone"));
    EXPECT_EQ(current(), 1);
    b.set_index(0);
    EXPECT_EQ(current(), 0);
  }
  EXPECT_EQ(current(), 1);
}

TEST_F(DeviceGuardTest, BadIndexChangesNothing) {
  EXPECT_ERROR_HAS(st::DeviceGuard(Device("privateuseone:2")),
                   "DeviceGuard: device index 2 is out of range for device type privateuseone");
  EXPECT_EQ(current(), 0);
  st::DeviceGuard g(Device("privateuseone:1"));
  EXPECT_ERROR_HAS(g.set_index(9), "DeviceGuard::set_index: device index 9 is out of range");
  EXPECT_EQ(current(), 1);
}

TEST_F(DeviceGuardTest, CpuAndMetaGuardsDoNothing) {
  st::DeviceGuard c(Device("cpu"));
  st::DeviceGuard m(Device("meta"));
  EXPECT_EQ(current(), 0);
  EXPECT_ERROR_HAS(c.set_index(3), "device index 3 is not valid for the CPU");
  EXPECT_ERROR_HAS(st::DeviceGuard(Device("xla:0")),
                   "no device runtime is registered for device type 'xla'");
}

TEST_F(DeviceGuardTest, CurrentDeviceIsPerThread) {
  st::DeviceGuard g(Device("privateuseone:1"));
  int seen = -5;
  std::thread t([&] { seen = current(); });
  t.join();
  EXPECT_EQ(seen, 0);
  EXPECT_EQ(current(), 1);
}

TEST_F(DeviceGuardTest, StreamGuardSetsStreamAndDevice) {
  const Stream pooled = st::stream_from_pool(Device("privateuseone:1"));
  ASSERT_FALSE(pooled.is_default());
  {
    st::StreamGuard g(pooled);
    EXPECT_EQ(current(), 1);
    EXPECT_EQ(current_stream_of(1), pooled);
    EXPECT_TRUE(current_stream_of(0).is_default());  // other devices untouched
    EXPECT_EQ(g.original_stream(), Stream(Device("privateuseone:1"), 0));
    EXPECT_EQ(g.current_stream(), pooled);
    {
      const Stream other = st::stream_from_pool(Device("privateuseone:1"), true);
      st::StreamGuard inner(other);
      EXPECT_EQ(current_stream_of(1), other);
    }
    EXPECT_EQ(current_stream_of(1), pooled);
  }
  EXPECT_EQ(current(), 0);
  EXPECT_TRUE(current_stream_of(1).is_default());
}

TEST_F(DeviceGuardTest, CurrentStreamIsPerThread) {
  const Stream pooled = st::stream_from_pool(Device("privateuseone:0"));
  st::StreamGuard g(pooled);
  Stream seen(Device("cpu"), -1);
  std::thread t([&] { seen = current_stream_of(0); });
  t.join();
  EXPECT_TRUE(seen.is_default());
  EXPECT_EQ(current_stream_of(0), pooled);
}

TEST_F(DeviceGuardTest, StreamGuardErrors) {
  EXPECT_ERROR_HAS(st::StreamGuard(Stream(Device("privateuseone:0"), 99)),
                   "is not a stream of the host test backend");
  EXPECT_TRUE(current_stream_of(0).is_default());
  EXPECT_ERROR_HAS(st::StreamGuard(Stream(Device("privateuseone:3"), 0)),
                   "device index 3 is out of range");
  EXPECT_ERROR_HAS(st::StreamGuard(Stream(Device("cpu"), 2)),
                   "the CPU has only its default stream");
  st::StreamGuard cpu(Stream(Device("cpu"), 0));  // the CPU's one stream: fine
}

}  // namespace
