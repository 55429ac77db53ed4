// ST_CUDA_CHECK: turns a failed CUDA runtime call into an st::Error naming
// the call, the CUDA error and where it happened. Internal to the backend.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

namespace st::cuda::detail {

[[noreturn]] void throw_cuda_error(cudaError_t error, const char* expr, const char* file, int line);

// st::cuda::check_message (st/cuda/cuda_backend.h).
std::string check_message(int32_t error, const char* file, const char* function, uint32_t line,
                          bool include_device_assertions);

}  // namespace st::cuda::detail

#define ST_CUDA_CHECK(expr)                                                          \
  do {                                                                               \
    const cudaError_t st_cuda_err_ = (expr);                                         \
    if (__builtin_expect(st_cuda_err_ != cudaSuccess, 0)) {                          \
      ::st::cuda::detail::throw_cuda_error(st_cuda_err_, #expr, __FILE__, __LINE__); \
    }                                                                                \
  } while (0)
