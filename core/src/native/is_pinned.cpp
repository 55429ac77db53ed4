// aten::is_pinned. The core has no page-locked (pinned) host allocator:
// pin_memory=True is refused by every factory, so no tensor the core
// allocates is pinned, and tensors on a device are never pinned (as in
// PyTorch). Stable extensions call it through the dispatcher.
#include <st/core/error.h>
#include <st/generated/native_kernels.h>

namespace st::native {

bool is_pinned(const Tensor& self, std::optional<Device> device) {
  ST_CHECK(self.defined(), "is_pinned: expected a defined tensor for self");
  // Pinning is relative to an accelerator; the CPU is not one (PyTorch
  // refuses it the same way).
  ST_CHECK(!device.has_value() || device->type() != DeviceType::CPU,
           "is_pinned: device must be an accelerator, got ", *device);
  return false;
}

}  // namespace st::native
