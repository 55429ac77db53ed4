// aten::is_pinned. The core has no page-locked (pinned) host allocator:
// pin_memory=True is refused by every factory, so no tensor the core
// allocates is pinned, and tensors on a device are never pinned (as in
// PyTorch). Stable extensions call it through the dispatcher.
#include <st/core/error.h>
#include <st/generated/native_kernels.h>

namespace st::native {

// device names the accelerator the pinning would be for; any device gets
// the same answer here, as PyTorch answers false for a CPU device too.
bool is_pinned(const Tensor& self, std::optional<Device> /*device*/) {
  ST_CHECK(self.defined(), "is_pinned: expected a defined tensor for self");
  return false;
}

}  // namespace st::native
