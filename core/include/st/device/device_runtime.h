// st::DeviceRuntime: what the core needs from a device backend besides its
// allocator and its kernels: how many devices there are, which one is
// current on this thread, its streams, and how to wait for them. One
// runtime per device type, registered once; DeviceGuard, StreamGuard, the
// factories (which device "cuda" means), copy_ and the C ABI's device and
// stream functions all go through it. See docs/devices.md.
#pragma once

#include <optional>
#include <vector>

#include <st/core/device.h>
#include <st/core/export.h>
#include <st/device/stream.h>

namespace st {

// Note [Device runtime contract]
// - The generic functions below validate every device index and stream
//   before they call a runtime, so a runtime's methods receive indices in
//   [0, device_count()) and streams of its own device type.
// - The current device and the current stream of each device are per
//   thread, as in CUDA; a new thread starts on device 0 with every device's
//   default stream current.
// - Methods may be called from any thread at any time and must be
//   thread-safe. The `_noexcept` setters are for guards' destructors: they
//   restore a value the runtime itself reported, so they cannot fail.
// - host_accessible() runtimes hand out memory the CPU can address and run
//   their work synchronously; the CPU kernels may then serve their tensors
//   (the host test backend does exactly that).
class ST_API DeviceRuntime {
 public:
  virtual ~DeviceRuntime();

  virtual DeviceType type() const noexcept = 0;
  // Devices present (0 when the backend is built but finds none).
  virtual DeviceIndex device_count() const noexcept = 0;
  virtual bool host_accessible() const noexcept = 0;

  virtual DeviceIndex current_device() const = 0;
  virtual void set_device(DeviceIndex index) = 0;
  virtual void set_device_noexcept(DeviceIndex index) noexcept = 0;

  virtual Stream current_stream(DeviceIndex index) const = 0;
  virtual Stream default_stream(DeviceIndex index) const = 0;
  // A stream from the device's pool (round robin, as c10's pools).
  virtual Stream stream_from_pool(DeviceIndex index, bool high_priority) = 0;
  // Makes `stream` current on its device for this thread.
  virtual void set_current_stream(const Stream& stream) = 0;
  virtual void set_current_stream_noexcept(const Stream& stream) noexcept = 0;
  // Blocks until all work queued on the stream has finished.
  virtual void synchronize_stream(const Stream& stream) = 0;
  // True when all work queued on the stream has finished.
  virtual bool query_stream(const Stream& stream) = 0;
  // Blocks until all work on the device has finished.
  virtual void synchronize_device(DeviceIndex index) = 0;
  // The backend's own stream object (a cudaStream_t), or null when the
  // backend has none. Borrowed: valid while the runtime lives.
  virtual void* native_stream_handle(const Stream& stream) const = 0;
};

// --- registry (thread-safe; lookups are lock-free) -------------------------
// Registers the runtime of runtime->type(). The runtime must live until the
// process ends (runtimes are never unregistered: tensors and streams may
// refer to it). Registering the same runtime again does nothing; a
// different runtime for a type that has one is refused with an error naming
// the type. Null is refused.
ST_API void register_device_runtime(DeviceRuntime* runtime);
// Null when the type has no runtime.
ST_API DeviceRuntime* try_get_device_runtime(DeviceType type) noexcept;
// Throws st::Error naming the type and the types that do have a runtime.
ST_API DeviceRuntime& get_device_runtime(DeviceType type);
// Device types with a runtime, in DeviceType order.
ST_API std::vector<DeviceType> registered_device_types();

// --- generic queries --------------------------------------------------------
// 1 for the CPU, the runtime's count for a type with a runtime, 0 otherwise.
ST_API DeviceIndex device_count(DeviceType type) noexcept;
// True for the CPU and for devices of a host_accessible() runtime.
ST_API bool is_host_accessible(Device device) noexcept;
// Checks that `index` names a device of `type` (CPU: -1 or 0); `where`
// names the caller in the error, e.g. "DeviceGuard".
ST_API void check_device_index(DeviceType type, DeviceIndex index, const char* where);
// The concrete device a tensor is created on: index -1 of a type with a
// runtime becomes the current device; an index out of range is an error.
// Devices without a runtime (CPU, Meta, or a type an allocator serves
// without a runtime) are returned unchanged.
ST_API Device resolve_device(Device device, const char* where);

// --- streams ------------------------------------------------------------------
// index -1 means the current device of the type.
ST_API Stream current_stream(Device device);
ST_API Stream default_stream(Device device);
ST_API Stream stream_from_pool(Device device, bool high_priority = false);
ST_API void set_current_stream(const Stream& stream);
ST_API void synchronize_stream(const Stream& stream);
ST_API bool query_stream(const Stream& stream);
ST_API void synchronize_device(Device device);
// The backend's stream object (DeviceRuntime::native_stream_handle);
// throws for a CPU stream, which has none.
ST_API void* native_stream_handle(const Stream& stream);

}  // namespace st
