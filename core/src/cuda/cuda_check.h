// ST_CUDA_CHECK: turns a failed CUDA runtime call into an st::Error naming
// the call, the CUDA error and where it happened. Internal to the backend.
#pragma once

#include <cuda_runtime_api.h>

namespace st::cuda::detail {

[[noreturn]] void throw_cuda_error(cudaError_t error, const char* expr, const char* file,
                                   int line);

}  // namespace st::cuda::detail

#define ST_CUDA_CHECK(expr)                                                        \
  do {                                                                             \
    const cudaError_t st_cuda_err_ = (expr);                                       \
    if (__builtin_expect(st_cuda_err_ != cudaSuccess, 0)) {                        \
      ::st::cuda::detail::throw_cuda_error(st_cuda_err_, #expr, __FILE__, __LINE__); \
    }                                                                              \
  } while (0)
