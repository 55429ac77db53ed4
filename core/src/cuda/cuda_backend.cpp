// Registers the CUDA backend when the core is loaded: its device runtime
// and its allocator. No CUDA call happens here (the device count is queried
// on first use), so a CUDA-built core loads on machines without a GPU.
#include <st/cuda/cuda_backend.h>
#include <st/device/device_runtime.h>

#include "cuda_runtime.h"

namespace st::cuda {
namespace {

[[maybe_unused]] const bool g_registered = [] {
  register_device_runtime(&detail::cuda_runtime());
  set_allocator(DeviceType::CUDA, &caching_allocator());
  return true;
}();

}  // namespace
}  // namespace st::cuda
