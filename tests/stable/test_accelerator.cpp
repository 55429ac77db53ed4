// torch::stable::accelerator's guard deleter: delete_device_guard has the
// DeleterFnPtr shape, so a unique_ptr with it owns a raw guard handle.
#include "stable_test_util.h"

#include <torch/csrc/stable/accelerator.h>

#include <memory>
#include <type_traits>

namespace stable_test {
namespace {

namespace acc = torch::stable::accelerator;

static_assert(std::is_same_v<acc::DeleterFnPtr, void (*)(void*)>);

class StableAcceleratorTest : public StableTest {};

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
