// gelu on CUDA (the launcher unary_floating: floating dtypes only, the
// input's dtype; Note [CUDA pointwise entry points] in cuda_kernels.h). The
// hand-written gelu kernels (cuda_native_functions.cpp) pick the entry
// point by `approximate`. Computed in double for every dtype, with the CPU
// kernel's expressions (v / sqrt(2), not v * (1 / sqrt(2)), so the bits
// agree).
#include "unary.cuh"

namespace st::cuda::kernels {

__device__ __forceinline__ double gelu_erf(double v) {
  return 0.5 * v * (1.0 + erf(v / sqrt(2.0)));
}
__device__ __forceinline__ double gelu_tanh(double v) {
  const double k = sqrt(2.0 / 3.14159265358979323846);
  return 0.5 * v * (1.0 + tanh(k * (v + 0.044715 * v * v * v)));
}

}  // namespace st::cuda::kernels

ST_CUDA_UNARY_FLOATING(gelu, gelu_erf(static_cast<double>(x)))
ST_CUDA_UNARY_FLOATING(gelu_tanh, gelu_tanh(static_cast<double>(x)))
