// cuBLAS access for the CUDA kernels (internal).
#pragma once

#include <cublas_v2.h>

namespace st::cuda::detail {

// The handle of the current device for this thread, on its current stream.
cublasHandle_t blas_handle();
const char* blas_status_name(cublasStatus_t status);

}  // namespace st::cuda::detail
