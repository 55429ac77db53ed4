// The members of torch::stable::Generator that need the StableIValue
// conversions (see generator_struct.h).
#pragma once

#include <torch/csrc/stable/generator_struct.h>
#include <torch/csrc/stable/macros.h>
#include <torch/csrc/stable/stableivalue_conversions.h>
#include <torch/headeronly/macros/Macros.h>

HIDDEN_NAMESPACE_BEGIN(torch, stable)

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_13_0

inline Device Generator::device() const {
  int32_t device_type = 0;
  int32_t device_index = 0;
  STABLE_TORCH_ERROR_CODE_CHECK(
      torch_generator_get_device(gen_.get(), &device_type, &device_index));
  return Device(torch::stable::detail::to<DeviceType>(torch::stable::detail::from(device_type)),
                static_cast<DeviceIndex>(device_index));
}

#endif  // TORCH_FEATURE_VERSION >= TORCH_VERSION_2_13_0

HIDDEN_NAMESPACE_END(torch, stable)
