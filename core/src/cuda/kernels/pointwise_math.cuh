// Device math shared by the pointwise kernels' functors.
#pragma once

#include <cstdint>

namespace st::cuda::kernels {

template <typename Acc>
__device__ __forceinline__ bool is_nan(Acc v) {
  return v != v;
}

// Integer arithmetic wraps through uint64 (so overflow is defined); the
// narrower stored dtype then keeps the low bits, which is the same wrap
// the CPU's native-width arithmetic gives.
__device__ __forceinline__ int64_t wrap_add(int64_t a, int64_t b) {
  return static_cast<int64_t>(uint64_t(a) + uint64_t(b));
}
__device__ __forceinline__ int64_t wrap_mul(int64_t a, int64_t b) {
  return static_cast<int64_t>(uint64_t(a) * uint64_t(b));
}
__device__ __forceinline__ int64_t wrap_neg(int64_t a) {
  return static_cast<int64_t>(uint64_t(0) - uint64_t(a));
}

}  // namespace st::cuda::kernels
