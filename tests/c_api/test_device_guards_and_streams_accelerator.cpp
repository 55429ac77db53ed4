// The C ABI's device guards and streams with an accelerator: the host test
// backend (PrivateUse1, two devices) registered in this process (Note
// [Device guards and the current accelerator]). The CPU-only behaviour is
// tested in test_device_guards_and_streams.cpp, in a process without it.
#include <st/device/accelerator.h>
#include <st/device/device_guard.h>
#include <st/device/device_runtime.h>
#include <st/testing/host_test_backend.h>

#include "c_api_test_util.h"

using namespace stc_test;

namespace {

int32_t current_index() {
  int32_t index = -7;
  EXPECT_EQ(aoti_torch_get_current_device_index(&index), AOTI_TORCH_SUCCESS);
  return index;
}

class AcceleratorGuardsTest : public CApiTest {
 protected:
  void SetUp() override {
    st::testing::register_host_test_backend();
    if (st::current_accelerator() != st::DeviceType::PrivateUse1) {
      GTEST_SKIP() << "a GPU is present: the C ABI acts on CUDA, not the host test backend";
    }
    CApiTest::SetUp();
    ASSERT_EQ(current_index(), 0);
  }
  void TearDown() override {
    if (IsSkipped()) return;
    EXPECT_EQ(current_index(), 0) << "a guard did not restore the device";
    CApiTest::TearDown();
  }
};

TEST_F(AcceleratorGuardsTest, GuardSetsAndRestoresTheDevice) {
  DeviceGuardHandle g = nullptr;
  ASSERT_C_OK(aoti_torch_create_device_guard(1, &g));
  EXPECT_EQ(current_index(), 1);
  EXPECT_C_OK(aoti_torch_device_guard_set_index(g, 0));
  EXPECT_EQ(current_index(), 0);
  EXPECT_C_OK(aoti_torch_device_guard_set_index(g, 1));
  EXPECT_EQ(current_index(), 1);
  DeviceGuardHandle inner = nullptr;
  ASSERT_C_OK(aoti_torch_create_device_guard(-1, &inner));  // keeps the current device
  EXPECT_EQ(current_index(), 1);
  EXPECT_C_OK(aoti_torch_device_guard_set_index(inner, 0));
  EXPECT_EQ(current_index(), 0);
  EXPECT_C_OK(aoti_torch_delete_device_guard(inner));
  EXPECT_EQ(current_index(), 1);
  EXPECT_C_OK(aoti_torch_delete_device_guard(g));
  EXPECT_EQ(current_index(), 0);
}

TEST_F(AcceleratorGuardsTest, GuardBadIndexChangesNothing) {
  DeviceGuardHandle g = nullptr;
  EXPECT_C_FAILURE(aoti_torch_create_device_guard(2, &g), "aoti_torch_create_device_guard",
                   "device index 2 is out of range for device type privateuseone (2 devices "
                   "available, valid indices 0 to 1)");
  EXPECT_EQ(g, nullptr);
  EXPECT_C_FAILURE(aoti_torch_create_device_guard(-3, &g), "aoti_torch_create_device_guard",
                   "device_index: -3 is not a valid device index");
  EXPECT_C_FAILURE(aoti_torch_create_device_guard(1000, &g), "aoti_torch_create_device_guard",
                   "device_index: 1000");
  ASSERT_C_OK(aoti_torch_create_device_guard(1, &g));
  EXPECT_C_FAILURE(aoti_torch_device_guard_set_index(g, 5), "aoti_torch_device_guard_set_index",
                   "device index 5 is out of range");
  EXPECT_EQ(current_index(), 1);
  EXPECT_C_OK(aoti_torch_delete_device_guard(g));
}

TEST_F(AcceleratorGuardsTest, CurrentStreamFollowsTheRuntime) {
  StreamHandle s = nullptr;
  int64_t id = -1;
  ASSERT_C_OK(aoti_torch_get_current_stream(1, &s));
  ASSERT_C_OK(aoti_torch_stream_id(s, &id));
  EXPECT_EQ(id, 0);  // the default stream
  ASSERT_C_OK(aoti_torch_delete_stream(s));

  const st::Stream pooled = st::stream_from_pool(st::Device("privateuseone:1"));
  {
    st::StreamGuard guard(pooled);
    ASSERT_C_OK(aoti_torch_get_current_stream(-1, &s));  // -1: the current device, now 1
    ASSERT_C_OK(aoti_torch_stream_id(s, &id));
    EXPECT_EQ(id, pooled.id());
    ASSERT_C_OK(aoti_torch_delete_stream(s));
    ASSERT_C_OK(aoti_torch_get_current_stream(0, &s));  // device 0 keeps its default
    ASSERT_C_OK(aoti_torch_stream_id(s, &id));
    EXPECT_EQ(id, 0);
    ASSERT_C_OK(aoti_torch_delete_stream(s));
  }
  // The host test backend has no backend object behind its streams.
  ASSERT_C_OK(aoti_torch_get_current_stream(0, &s));
  void* native = &s;
  ASSERT_C_OK(torch_stream_native_handle(s, &native));
  EXPECT_EQ(native, nullptr);
  ASSERT_C_OK(aoti_torch_delete_stream(s));
  EXPECT_C_FAILURE(aoti_torch_get_current_stream(4, &s), "aoti_torch_get_current_stream",
                   "device index 4 is out of range");
  EXPECT_C_FAILURE(aoti_torch_get_current_stream(0, nullptr), "aoti_torch_get_current_stream",
                   "null output");
}

TEST_F(AcceleratorGuardsTest, TensorsCreatedUnderAGuardLandOnItsDevice) {
  DeviceGuardHandle g = nullptr;
  ASSERT_C_OK(aoti_torch_create_device_guard(1, &g));
  const int64_t sizes[] = {2, 3};
  const int64_t strides[] = {3, 1};
  AtenTensorHandle t = nullptr;
  // Device index -1: the current device of the accelerator.
  ASSERT_C_OK(aoti_torch_empty_strided(2, sizes, strides, aoti_torch_dtype_float32(),
                                       aoti_torch_device_type_privateuse1(), -1, &t));
  int32_t index = -7;
  ASSERT_C_OK(aoti_torch_get_device_index(t, &index));
  EXPECT_EQ(index, 1);
  int32_t type = -1;
  ASSERT_C_OK(aoti_torch_get_device_type(t, &type));
  EXPECT_EQ(type, aoti_torch_device_type_privateuse1());
  EXPECT_C_OK(aoti_torch_delete_tensor_object(t));
  EXPECT_C_OK(aoti_torch_delete_device_guard(g));
  EXPECT_C_FAILURE(aoti_torch_empty_strided(2, sizes, strides, aoti_torch_dtype_float32(),
                                            aoti_torch_device_type_privateuse1(), 3, &t),
                   "aoti_torch_empty_strided", "device index 3 is out of range");
}

TEST_F(AcceleratorGuardsTest, CopyBetweenDevicesThroughTheCApi) {
  AtenTensorHandle cpu = make_floats({1.5f, -2.0f, 3.25f});
  const int64_t sizes[] = {3};
  const int64_t strides[] = {1};
  AtenTensorHandle d0 = nullptr;
  AtenTensorHandle d1 = nullptr;
  ASSERT_C_OK(aoti_torch_empty_strided(1, sizes, strides, aoti_torch_dtype_float32(),
                                       aoti_torch_device_type_privateuse1(), 0, &d0));
  ASSERT_C_OK(aoti_torch_empty_strided(1, sizes, strides, aoti_torch_dtype_float32(),
                                       aoti_torch_device_type_privateuse1(), 1, &d1));
  ASSERT_C_OK(aoti_torch_copy_(d0, cpu, 0));
  ASSERT_C_OK(aoti_torch_copy_(d1, d0, 0));
  AtenTensorHandle back = make_floats({0, 0, 0});
  ASSERT_C_OK(aoti_torch_copy_(back, d1, 0));
  EXPECT_EQ(read_floats(back), (std::vector<float>{1.5f, -2.0f, 3.25f}));
  for (AtenTensorHandle h : {cpu, d0, d1, back}) EXPECT_C_OK(aoti_torch_delete_tensor_object(h));
}

}  // namespace
