// The CUDA backend's own C++ API, for the C ABI's CUDA functions and for
// host applications. Exists only in cores built with STABLETORCH_CUDA
// (STABLETORCH_WITH_CUDA); the device-generic API (st/device/) is what
// most code needs. The header names no CUDA type, so it compiles without
// the CUDA Toolkit: streams and handles travel as void*.
//
// The backend is a module of its own (libstabletorch_cuda.so, next to
// libstabletorch_core), loaded the first time a CUDA device, tensor,
// stream or kernel is asked for (Note [Backend modules] in
// core/src/device/backend_module.h). Every function below loads it too,
// and throws st::Error "CUDA is not available: <why>" when the module or a
// CUDA library it links cannot be loaded. A machine without a driver or a
// GPU loads it and has 0 CUDA devices.
#pragma once

#include <cstdint>
#include <string>

#include <st/core/device.h>
#include <st/core/export.h>
#include <st/device/caching_allocator.h>
#include <st/device/stream.h>

namespace st::cuda {

// Streams per device in each of the two pools (normal, high priority).
constexpr int kStreamsPerPool = 32;

// Loads the backend if it is not loaded yet (see above); thread-safe.
ST_API void load_backend();
// True once the backend is loaded in this process; never loads it.
ST_API bool backend_loaded() noexcept;

// The CUDA allocator (registered for DeviceType::CUDA).
ST_API CachingAllocator& caching_allocator();

// The Stream for a cudaStream_t on `device`: the default (null) stream is id
// 0, a pool stream its pool id; any other stream is "external" and its id
// is the pointer value. Throws st::Error for an index out of range.
ST_API Stream stream_from_native(void* cuda_stream, DeviceIndex device);

// The cuBLAS handle of the current device for this thread, bound to the
// device's current stream (a cublasHandle_t). Borrowed: valid for the
// thread's lifetime.
ST_API void* current_blas_handle();

// The message of a CUDA error code, as c10's c10_cuda_check_implementation:
// "CUDA error: <string>" plus where it was checked. Empty for cudaSuccess.
ST_API std::string check_message(int32_t error, const char* file, const char* function,
                                 uint32_t line, bool include_device_assertions);

}  // namespace st::cuda
