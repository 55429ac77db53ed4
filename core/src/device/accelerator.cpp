#include <st/device/accelerator.h>

#include <st/device/device_runtime.h>

namespace st {

std::optional<DeviceType> current_accelerator() noexcept {
  for (DeviceType t : {DeviceType::CUDA, DeviceType::PrivateUse1}) {
    DeviceRuntime* rt = try_get_device_runtime(t);
    if (rt != nullptr && rt->device_count() > 0) return t;
  }
  return std::nullopt;
}

}  // namespace st
