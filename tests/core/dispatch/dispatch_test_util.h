// Helpers shared by the dispatcher tests.
#pragma once

#include <string>

#include <st/core/device.h>
#include <st/core/empty_tensor.h>
#include <st/core/tensor.h>
#include <st/core/tensor_impl.h>

namespace st {
namespace testing {

// A tensor on any device type without an allocator for it: a 1-d, size-0
// tensor with no storage. Enough for dispatch tests.
inline Tensor tensorOn(DeviceType type) {
  if (type == DeviceType::CPU) {
    return detail::empty_generic({2}, ScalarType::Float, Device(DeviceType::CPU));
  }
  return Tensor(make_intrusive<TensorImpl>(Storage(), ScalarType::Float, Device(type, 0)));
}

inline std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace testing
}  // namespace st
