// The CUDA allocator: the device-generic caching allocator (Note [Caching
// allocator]) over cudaMalloc / cudaFree.
#include <cuda_runtime_api.h>

#include <st/core/error.h>
#include <st/cuda/cuda_backend.h>
#include <st/device/device_guard.h>

#include "cuda_allocator.h"
#include "cuda_check.h"

namespace st::cuda {
namespace {

class CudaRawMemory final : public RawDeviceMemory {
 public:
  void* raw_alloc(DeviceIndex device, size_t nbytes) override {
    DeviceGuard guard(Device(DeviceType::CUDA, device));
    void* ptr = nullptr;
    const cudaError_t err = cudaMalloc(&ptr, nbytes);
    if (err == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();
      return nullptr;  // the caching allocator empties its cache and retries
    }
    ST_CUDA_CHECK(err);
    return ptr;
  }
  void raw_free(DeviceIndex device, void* ptr) noexcept override {
    int previous = 0;
    const bool switched = cudaGetDevice(&previous) == cudaSuccess && previous != device &&
                          cudaSetDevice(device) == cudaSuccess;
    if (cudaFree(ptr) != cudaSuccess) (void)cudaGetLastError();
    if (switched) (void)cudaSetDevice(previous);
  }
  void raw_copy(void* dst, const void* src, size_t nbytes) const override {
    ST_CUDA_CHECK(cudaMemcpy(dst, src, nbytes, cudaMemcpyDeviceToDevice));
  }
};

}  // namespace

namespace detail {

CachingAllocator& caching_allocator() {
  static CudaRawMemory raw;
  static CachingAllocator allocator(DeviceType::CUDA, &raw);
  return allocator;
}

}  // namespace detail
}  // namespace st::cuda
