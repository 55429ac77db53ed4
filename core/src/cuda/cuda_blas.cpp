// cuBLAS handles: one per (thread, device), bound to the device's current
// stream each time it is handed out, so GEMMs run on the current stream.
#include <cublas_v2.h>

#include <vector>

#include <st/core/error.h>
#include <st/cuda/cuda_backend.h>

#include "cuda_blas.h"
#include "cuda_runtime.h"

namespace st::cuda {
namespace detail {

const char* blas_status_name(cublasStatus_t status) { return cublasGetStatusString(status); }

cublasHandle_t blas_handle() {
  // Never destroyed: destroying handles at thread or process exit races
  // with the CUDA runtime's own teardown (c10 makes the same choice).
  thread_local std::vector<cublasHandle_t> handles;
  const DeviceIndex device = cuda_runtime().current_device();
  const auto i = static_cast<size_t>(device);
  if (handles.size() <= i) handles.resize(i + 1, nullptr);
  if (handles[i] == nullptr) {
    const cublasStatus_t st = cublasCreate(&handles[i]);
    ST_CHECK(st == CUBLAS_STATUS_SUCCESS,
             "cuBLAS: cublasCreate failed on cuda:", static_cast<int>(device), ": ",
             blas_status_name(st));
  }
  const cublasStatus_t st = cublasSetStream(handles[i], current_native_stream());
  ST_CHECK(st == CUBLAS_STATUS_SUCCESS, "cuBLAS: cublasSetStream failed: ", blas_status_name(st));
  return handles[i];
}

}  // namespace detail
}  // namespace st::cuda
