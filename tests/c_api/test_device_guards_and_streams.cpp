// Device guards and streams in a CPU-only core (Note [Device guards in a
// CPU-only core]).
#include "c_api_test_util.h"

using namespace stc_test;

class DeviceGuardsAndStreamsTest : public CApiTest {};

TEST_F(DeviceGuardsAndStreamsTest, CpuGuardAcceptsMinusOneAndZero) {
  DeviceGuardHandle g = nullptr;
  ASSERT_C_OK(aoti_torch_create_device_guard(-1, &g));
  EXPECT_C_OK(aoti_torch_device_guard_set_index(g, 0));
  EXPECT_C_OK(aoti_torch_device_guard_set_index(g, -1));
  int32_t index = 5;
  EXPECT_C_OK(aoti_torch_get_current_device_index(&index));
  EXPECT_EQ(index, -1);
  EXPECT_C_FAILURE(aoti_torch_device_guard_set_index(g, 1), "aoti_torch_device_guard_set_index",
                   "device_index: 1 is not a valid device");
  EXPECT_C_OK(aoti_torch_delete_device_guard(g));
  ASSERT_C_OK(aoti_torch_create_device_guard(0, &g));
  EXPECT_C_OK(aoti_torch_delete_device_guard(g));
}

TEST_F(DeviceGuardsAndStreamsTest, GuardBadInput) {
  DeviceGuardHandle g = nullptr;
  EXPECT_C_FAILURE(aoti_torch_create_device_guard(3, &g), "aoti_torch_create_device_guard",
                   "no accelerator");
  EXPECT_C_FAILURE(aoti_torch_create_device_guard(-2, &g), "aoti_torch_create_device_guard", "-2");
  EXPECT_C_FAILURE(aoti_torch_create_device_guard(0, nullptr), "aoti_torch_create_device_guard",
                   "null output");
  EXPECT_C_FAILURE(aoti_torch_device_guard_set_index(nullptr, 0),
                   "aoti_torch_device_guard_set_index", "null device guard handle");
  EXPECT_C_FAILURE(aoti_torch_device_guard_set_index(foreign<DeviceGuardHandle>(), 0),
                   "aoti_torch_device_guard_set_index", "foreign");
  EXPECT_C_OK(aoti_torch_delete_device_guard(nullptr));
  ASSERT_C_OK(aoti_torch_create_device_guard(0, &g));
  ASSERT_C_OK(aoti_torch_delete_device_guard(g));
  EXPECT_C_FAILURE(aoti_torch_delete_device_guard(g), "aoti_torch_delete_device_guard",
                   "already deleted");
  EXPECT_C_FAILURE(aoti_torch_get_current_device_index(nullptr),
                   "aoti_torch_get_current_device_index", "null output");
}

TEST_F(DeviceGuardsAndStreamsTest, CurrentStreamOfTheCpu) {
  StreamHandle s = nullptr;
  ASSERT_C_OK(aoti_torch_get_current_stream(-1, &s));
  int64_t id = -1;
  ASSERT_C_OK(aoti_torch_stream_id(s, &id));
  EXPECT_EQ(id, 0);
  EXPECT_C_FAILURE(aoti_torch_stream_id(s, nullptr), "aoti_torch_stream_id", "null output");
  ASSERT_C_OK(aoti_torch_delete_stream(s));
  EXPECT_C_FAILURE(aoti_torch_stream_id(s, &id), "aoti_torch_stream_id", "already deleted");
  EXPECT_C_FAILURE(aoti_torch_delete_stream(s), "aoti_torch_delete_stream", "already deleted");
  EXPECT_C_FAILURE(aoti_torch_get_current_stream(2, &s), "aoti_torch_get_current_stream",
                   "no accelerator");
  EXPECT_C_FAILURE(aoti_torch_stream_id(foreign<StreamHandle>(), &id), "aoti_torch_stream_id",
                   "foreign stream handle");
  EXPECT_C_FAILURE(aoti_torch_stream_id(nullptr, &id), "aoti_torch_stream_id",
                   "null stream handle");
  EXPECT_C_OK(aoti_torch_delete_stream(nullptr));
}

// As c10: the CPU has no native stream handle to give.
TEST_F(DeviceGuardsAndStreamsTest, CpuStreamHasNoNativeHandle) {
  StreamHandle s = nullptr;
  ASSERT_C_OK(aoti_torch_get_current_stream(-1, &s));
  void* native = &s;
  EXPECT_C_FAILURE(torch_stream_native_handle(s, &native), "torch_stream_native_handle",
                   "the CPU has no native stream handle");
  EXPECT_EQ(native, static_cast<void*>(&s));  // unchanged on failure
  EXPECT_C_FAILURE(torch_stream_native_handle(s, nullptr), "torch_stream_native_handle",
                   "ret_native_handle: null output");
  ASSERT_C_OK(aoti_torch_delete_stream(s));
  EXPECT_C_FAILURE(torch_stream_native_handle(s, &native), "torch_stream_native_handle",
                   "already deleted");
  EXPECT_C_FAILURE(torch_stream_native_handle(nullptr, &native), "torch_stream_native_handle",
                   "null stream handle");
  EXPECT_C_FAILURE(torch_stream_native_handle(foreign<StreamHandle>(), &native),
                   "torch_stream_native_handle", "foreign stream handle");
}
