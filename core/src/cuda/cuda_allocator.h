// The CUDA allocator (internal to the backend module): the caching
// allocator over cudaMalloc / cudaFree, registered for DeviceType::CUDA.
#pragma once

#include <st/device/caching_allocator.h>

namespace st::cuda::detail {

CachingAllocator& caching_allocator();

}  // namespace st::cuda::detail
