// The current accelerator: the device type the C ABI's device-generic
// functions (aoti_torch_create_device_guard, aoti_torch_get_current_stream,
// ...) act on, as PyTorch's at::accelerator.
#pragma once

#include <optional>

#include <st/core/device.h>
#include <st/core/export.h>

namespace st {

// The first of CUDA and PrivateUse1 whose runtime is registered and has at
// least one device; nullopt when there is none (then those functions act on
// the CPU). A CUDA build on a machine without a GPU has no accelerator
// unless a PrivateUse1 backend (such as the host test backend) is
// registered.
ST_API std::optional<DeviceType> current_accelerator() noexcept;

}  // namespace st
