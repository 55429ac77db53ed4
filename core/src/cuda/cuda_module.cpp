// The initializer of the CUDA backend module (libstabletorch_cuda.so): when
// the core loads it (Note [Backend modules]), registers the device
// runtime, the allocator and the hooks of st/cuda/cuda_backend.h; the
// kernels register themselves (register_cuda_kernels.cpp). No CUDA call
// happens here (the device count is queried on first use), so the module
// loads on machines without a driver or a GPU.
#include <st/device/device_runtime.h>

#include "cuda_allocator.h"
#include "cuda_blas.h"
#include "cuda_check.h"
#include "cuda_hooks.h"
#include "cuda_runtime.h"

namespace st::cuda::detail {
namespace {

class ModuleHooks final : public CudaHooks {
 public:
  CachingAllocator& caching_allocator() override { return detail::caching_allocator(); }
  Stream stream_from_native(void* cuda_stream, DeviceIndex device) override {
    return detail::stream_from_native(cuda_stream, device);
  }
  void* current_blas_handle() override { return static_cast<void*>(blas_handle()); }
  std::string check_message(int32_t error, const char* file, const char* function, uint32_t line,
                            bool include_device_assertions) override {
    return detail::check_message(error, file, function, line, include_device_assertions);
  }
};

[[maybe_unused]] const bool g_registered = [] {
  static ModuleHooks hooks;
  register_device_runtime(&cuda_runtime());
  set_allocator(DeviceType::CUDA, &detail::caching_allocator());
  register_hooks(&hooks);
  return true;
}();

}  // namespace
}  // namespace st::cuda::detail
