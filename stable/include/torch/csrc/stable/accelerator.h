// Device-generic accelerator helpers (torch::stable::accelerator): a device
// guard, streams, and the current device. They act on whatever accelerator
// the running core drives (CUDA, or none: then they fail with the core's
// message).
#pragma once

#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/csrc/stable/macros.h>
#include <torch/headeronly/macros/Macros.h>

#include <cstdint>
#include <memory>

HIDDEN_NAMESPACE_BEGIN(torch, stable, accelerator)

using DeviceIndex = int32_t;
using StreamId = int64_t;
using DeleterFnPtr = void (*)(void*);

// Deletes a device guard handle given as void* (the DeleterFnPtr shape, for
// unique_ptr<DeviceGuardOpaque, DeleterFnPtr>). Throws if the core fails.
inline void delete_device_guard(void* ptr) {
  STABLE_TORCH_ERROR_CODE_CHECK(
      aoti_torch_delete_device_guard(static_cast<DeviceGuardHandle>(ptr)));
}

// Makes a device current for the lifetime of the guard, then restores the
// previous one. Not copyable; movable.
class DeviceGuard {
 public:
  DeviceGuard() = delete;
  explicit DeviceGuard(DeviceIndex device_index) {
    DeviceGuardHandle handle = nullptr;
    STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_create_device_guard(device_index, &handle));
    guard_.reset(handle);
  }

  void set_index(DeviceIndex device_index) {
    STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_device_guard_set_index(guard_.get(), device_index));
  }

 private:
  struct Deleter {
    // Never throws: a failure to delete cannot be reported from here.
    void operator()(DeviceGuardOpaque* handle) const noexcept {
      (void)aoti_torch_delete_device_guard(handle);
    }
  };
  std::unique_ptr<DeviceGuardOpaque, Deleter> guard_;
};

// A stream of the current accelerator. Copies share the one handle.
class Stream {
 public:
  Stream() = delete;
  // Steals the handle.
  explicit Stream(StreamHandle stream)
      : stream_(stream,
                [](StreamHandle handle) noexcept { (void)aoti_torch_delete_stream(handle); }) {}

  StreamId id() const {
    StreamId stream_id = 0;
    STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_stream_id(stream_.get(), &stream_id));
    return stream_id;
  }

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_13_0
  // The backend's own stream object (CUDA: a cudaStream_t to static_cast
  // to), borrowed. Throws for a CPU stream, which has none.
  void* nativeHandle() const {
    void* native_handle = nullptr;
    STABLE_TORCH_ERROR_CODE_CHECK(torch_stream_native_handle(stream_.get(), &native_handle));
    return native_handle;
  }
#endif  // TORCH_FEATURE_VERSION >= TORCH_VERSION_2_13_0

  // Borrowed handle.
  StreamHandle get() const noexcept { return stream_.get(); }

 private:
  std::shared_ptr<StreamOpaque> stream_;
};

inline Stream getCurrentStream(DeviceIndex device_index) {
  StreamHandle stream = nullptr;
  STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_get_current_stream(device_index, &stream));
  return Stream(stream);
}

inline DeviceIndex getCurrentDeviceIndex() {
  DeviceIndex device_index = -1;
  STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_get_current_device_index(&device_index));
  return device_index;
}

HIDDEN_NAMESPACE_END(torch, stable, accelerator)
