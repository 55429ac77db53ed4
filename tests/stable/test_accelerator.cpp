// accelerator.h without an accelerator: the CPU's stream (id 0) has no
// native handle, as in PyTorch (c10 refuses it for the CPU); and the
// guard deleter: delete_device_guard has the DeleterFnPtr shape, so a
// unique_ptr with it owns a raw guard handle.
#include "stable_test_util.h"

#include <torch/csrc/stable/accelerator.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace stable_test {
namespace {

namespace acc = torch::stable::accelerator;

static_assert(std::is_same_v<acc::DeleterFnPtr, void (*)(void*)>);

class StableAcceleratorTest : public StableTest {};

TEST_F(StableAcceleratorTest, CpuStreamHasNoNativeHandle) {
  const acc::Stream s = acc::getCurrentStream(-1);
  EXPECT_EQ(s.id(), 0);
  try {
    (void)s.nativeHandle();
    ADD_FAILURE() << "expected an error";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("torch_stream_native_handle"), std::string::npos) << what;
    EXPECT_NE(what.find("the CPU has no native stream handle"), std::string::npos) << what;
  }
}

TEST_F(StableAcceleratorTest, DeleteDeviceGuardOwnsAGuardHandle) {
  DeviceGuardHandle handle = nullptr;
  ASSERT_EQ(aoti_torch_create_device_guard(0, &handle), AOTI_TORCH_SUCCESS) << last_error();
  ASSERT_NE(handle, nullptr);
  // Deleted once, by the unique_ptr (ASan reports a leak or a double free).
  std::unique_ptr<DeviceGuardOpaque, acc::DeleterFnPtr> guard(handle, acc::delete_device_guard);
  guard.reset();
  // Deleting no guard is a no-op.
  EXPECT_NO_THROW(acc::delete_device_guard(nullptr));
}

}  // namespace
}  // namespace stable_test
