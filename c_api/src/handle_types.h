// What each handle kind holds (its slot payload), and typed shortcuts for
// the tensor handle used by nearly every file.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <st/core/generator.h>
#include <st/core/scalar.h>
#include <st/core/tensor.h>
#include <st/device/device_guard.h>
#include <torch/csrc/inductor/aoti_torch/c/shim.h>

#include "handle_registry.h"

namespace stc {

class LibraryObject;  // library.cpp

using StableList = std::vector<StableIValue>;
// Defined in library.cpp, where LibraryObject is complete.
void delete_library_object(LibraryObject* library) noexcept;
struct LibraryDeleter {
  void operator()(LibraryObject* library) const noexcept { delete_library_object(library); }
};
struct LibraryBox {
  std::unique_ptr<LibraryObject, LibraryDeleter> library;
};
// A device guard: the accelerator's st::DeviceGuard (which restores the
// original device when the handle is deleted), or none on a core without
// an accelerator, where the guard stands for the one CPU device.
struct DeviceGuardState {
  DeviceGuardState() = default;
  explicit DeviceGuardState(st::Device device) : device_type(static_cast<int32_t>(device.type())) {
    guard.emplace(device);
  }
  int32_t device_type = static_cast<int32_t>(torch::headeronly::DeviceType::CPU);
  std::optional<st::DeviceGuard> guard;
};
// A stream: which device, and its id on that device.
struct StreamState {
  int32_t device_type;
  int32_t device_index;
  int64_t id;
};

// A CUDA guard (aoti_torch_create_cuda_guard): restores the device when
// deleted.
struct CudaGuardState {
  explicit CudaGuardState(st::Device device) : guard(device) {}
  st::DeviceGuard guard;
};
// A CUDA stream guard: restores the device and its stream when deleted.
struct CudaStreamGuardState {
  std::unique_ptr<st::StreamGuard> guard;
};

template <>
struct HandleTraits<st::Tensor> {
  static constexpr HandleKind kind = HandleKind::Tensor;
};
template <>
struct HandleTraits<StableList> {
  static constexpr HandleKind kind = HandleKind::List;
};
template <>
struct HandleTraits<std::string> {
  static constexpr HandleKind kind = HandleKind::String;
};
template <>
struct HandleTraits<st::Scalar> {
  static constexpr HandleKind kind = HandleKind::Scalar;
};
template <>
struct HandleTraits<LibraryBox> {
  static constexpr HandleKind kind = HandleKind::Library;
};
template <>
struct HandleTraits<DeviceGuardState> {
  static constexpr HandleKind kind = HandleKind::DeviceGuard;
};
template <>
struct HandleTraits<StreamState> {
  static constexpr HandleKind kind = HandleKind::Stream;
};
template <>
struct HandleTraits<CudaGuardState> {
  static constexpr HandleKind kind = HandleKind::CudaGuard;
};
template <>
struct HandleTraits<CudaStreamGuardState> {
  static constexpr HandleKind kind = HandleKind::CudaStreamGuard;
};
template <>
struct HandleTraits<st::Generator> {
  static constexpr HandleKind kind = HandleKind::Generator;
};

// The tensor behind a handle (possibly undefined). `what` names the
// argument in errors ("self").
inline st::Tensor& tensor_of(AtenTensorHandle h, const char* what) {
  return get<st::Tensor>(h, what);
}
// As tensor_of, but an undefined tensor is an error too.
st::Tensor& defined_tensor_of(AtenTensorHandle h, const char* what);

// A new owning handle to t (the tensor is built in the handle's slot).
inline AtenTensorHandle new_tensor_handle(const st::Tensor& t) {
  return to_handle<AtenTensorHandle>(make_handle<st::Tensor>(t));
}
inline AtenTensorHandle new_tensor_handle(st::Tensor&& t) {
  return to_handle<AtenTensorHandle>(make_handle<st::Tensor>(std::move(t)));
}

// Deletes whatever live handle `handle` is (any kind); does nothing for
// anything else. For payloads this library owns whatever they turn out to
// be (stolen stack slots). Never throws.
inline void destroy_any_if_live(const void* handle) noexcept {
  const HandleInfo info = classify(handle);
  if (info.cls != Classification::Live) return;
  switch (info.kind) {
    case HandleKind::Tensor:
      destroy_if_live<st::Tensor>(handle);
      break;
    case HandleKind::List:
      destroy_if_live<StableList>(handle);
      break;
    case HandleKind::String:
      destroy_if_live<std::string>(handle);
      break;
    case HandleKind::Scalar:
      destroy_if_live<st::Scalar>(handle);
      break;
    case HandleKind::Library:
      destroy_if_live<LibraryBox>(handle);
      break;
    case HandleKind::DeviceGuard:
      destroy_if_live<DeviceGuardState>(handle);
      break;
    case HandleKind::Stream:
      destroy_if_live<StreamState>(handle);
      break;
    case HandleKind::CudaGuard:
      destroy_if_live<CudaGuardState>(handle);
      break;
    case HandleKind::CudaStreamGuard:
      destroy_if_live<CudaStreamGuardState>(handle);
      break;
    case HandleKind::Generator:
      destroy_if_live<st::Generator>(handle);
      break;
    case HandleKind::Dead:
      break;
  }
}

// Checks an out-parameter is not null; `what` names it.
inline void check_out(const void* out, const char* what) {
  ST_CHECK(out != nullptr, what, ": null output pointer");
}

}  // namespace stc
