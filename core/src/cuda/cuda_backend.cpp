// The core's side of the CUDA backend (st/cuda/cuda_backend.h): loads the
// backend module on first use and forwards to the hooks it registered.
#include <st/cuda/cuda_backend.h>

#include <atomic>

#include <st/core/error.h>

#include "cuda/cuda_hooks.h"
#include "device/backend_module.h"

namespace st::cuda {
namespace {

std::atomic<detail::CudaHooks*> g_hooks{nullptr};

detail::CudaHooks& hooks() {
  detail::CudaHooks* h = g_hooks.load(std::memory_order_acquire);
  if (__builtin_expect(h == nullptr, 0)) {
    load_backend();
    h = g_hooks.load(std::memory_order_acquire);
    ST_CHECK(h != nullptr,
             "CUDA is not available: the CUDA backend module is loaded but has "
             "not registered its hooks");
  }
  return *h;
}

}  // namespace

namespace detail {

void register_hooks(CudaHooks* hooks) {
  ST_CHECK(hooks != nullptr, "st::cuda::detail::register_hooks: expected hooks, got null");
  g_hooks.store(hooks, std::memory_order_release);
}

}  // namespace detail

void load_backend() {
  if (st::detail::load_backend_module(DeviceType::CUDA)) return;
  const std::string why = st::detail::backend_module_error(DeviceType::CUDA);
  ST_ERROR(why.empty() ? std::string("CUDA is not available: this core has no CUDA backend module")
                       : why);
}

bool backend_loaded() noexcept { return st::detail::backend_module_loaded(DeviceType::CUDA); }

CachingAllocator& caching_allocator() { return hooks().caching_allocator(); }

Stream stream_from_native(void* cuda_stream, DeviceIndex device) {
  return hooks().stream_from_native(cuda_stream, device);
}

void* current_blas_handle() { return hooks().current_blas_handle(); }

std::string check_message(int32_t error, const char* file, const char* function, uint32_t line,
                          bool include_device_assertions) {
  return hooks().check_message(error, file, function, line, include_device_assertions);
}

}  // namespace st::cuda
