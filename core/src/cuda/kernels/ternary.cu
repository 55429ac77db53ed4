// where and clamp on CUDA, one line each (Note [CUDA pointwise entry
// points] in cuda_kernels.h). where reads a as a truth value (masked_fill_
// is where(mask, value, self)); clamp propagates NaN, as on the CPU.
#include "ternary.cuh"

namespace st::cuda::kernels {

template <typename Acc>
__device__ __forceinline__ Acc clamp_value(Acc x, Acc lo, Acc hi) {
  const Acc low = (is_nan(x) || is_nan(lo)) ? x + lo : (x < lo ? lo : x);
  return (is_nan(low) || is_nan(hi)) ? low + hi : (low > hi ? hi : low);
}

}  // namespace st::cuda::kernels

ST_CUDA_TERNARY(where, a != Acc(0) ? b : c)
ST_CUDA_TERNARY(clamp, clamp_value(a, b, c))
