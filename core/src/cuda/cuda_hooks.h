// What the core's st::cuda functions (st/cuda/cuda_backend.h) need from the
// CUDA backend module beyond the device-runtime, allocator and kernel
// registries. The module registers its hooks from its initializers; the
// core loads the module (Note [Backend modules]) before it uses them.
#pragma once

#include <cstdint>
#include <string>

#include <st/core/device.h>
#include <st/core/export.h>
#include <st/device/caching_allocator.h>
#include <st/device/stream.h>

namespace st::cuda::detail {

class CudaHooks {
 public:
  virtual ~CudaHooks() = default;
  virtual CachingAllocator& caching_allocator() = 0;
  virtual Stream stream_from_native(void* cuda_stream, DeviceIndex device) = 0;
  virtual void* current_blas_handle() = 0;
  virtual std::string check_message(int32_t error, const char* file, const char* function,
                                    uint32_t line, bool include_device_assertions) = 0;
};

// Publishes the module's hooks; they must live until the process ends.
// Null is refused. Thread-safe.
ST_API void register_hooks(CudaHooks* hooks);

}  // namespace st::cuda::detail
