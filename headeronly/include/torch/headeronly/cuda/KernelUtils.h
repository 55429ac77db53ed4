// fastAtomicAdd(tensor, index, numel, value, fast_atomics): an atomic add
// into tensor[index] that, for Half and BFloat16 and when fast_atomics is
// set, uses the paired 32-bit instruction (__half2 / __nv_bfloat162 with a
// zero partner) when the partner element lies inside [0, numel); otherwise
// it is gpuAtomicAddNoReturn.
//
// For CUDA sources; compiled as plain C++ it declares nothing but macros.
#pragma once

#include <type_traits>

#include <torch/headeronly/cuda/Atomic.h>

#if defined(__CUDACC__) || defined(__HIPCC__)

namespace torch::headeronly {

namespace detail {
// Adds value at tensor[index] through the paired instruction on Pair (two
// 16-bit lanes), with the other lane adding zero. Falls back to the scalar
// atomic when the pair would leave the tensor.
template <typename scalar_t, typename Pair, typename index_t>
__device__ __forceinline__ void paired_atomic_add(scalar_t* tensor, index_t index,
                                                  const index_t numel, scalar_t value) {
  scalar_t* target = tensor + index;
  const bool low_lane = (reinterpret_cast<size_t>(target) % sizeof(Pair)) == 0;
  if (low_lane && index < numel - 1) {
    Pair pair;
    scalar_t* lanes = reinterpret_cast<scalar_t*>(&pair);
    lanes[0] = value;
    lanes[1] = scalar_t(0.0f);
    atomicAdd(reinterpret_cast<Pair*>(target), pair);
  } else if (!low_lane && index > 0) {
    Pair pair;
    scalar_t* lanes = reinterpret_cast<scalar_t*>(&pair);
    lanes[0] = scalar_t(0.0f);
    lanes[1] = value;
    atomicAdd(reinterpret_cast<Pair*>(target - 1), pair);
  } else {
    gpuAtomicAddNoReturn(target, value);
  }
}
}  // namespace detail

template <typename scalar_t, typename index_t,
          std::enable_if_t<std::is_same_v<Half, scalar_t>>* = nullptr>
__device__ __forceinline__ void fastSpecializedAtomicAdd(scalar_t* tensor, index_t index,
                                                         const index_t numel, scalar_t value) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 700
  gpuAtomicAddNoReturn(tensor + index, value);
#else
  detail::paired_atomic_add<scalar_t, __half2>(tensor, index, numel, value);
#endif
}

template <typename scalar_t, typename index_t,
          std::enable_if_t<std::is_same_v<BFloat16, scalar_t>>* = nullptr>
__device__ __forceinline__ void fastSpecializedAtomicAdd(scalar_t* tensor, index_t index,
                                                         const index_t numel, scalar_t value) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
  gpuAtomicAddNoReturn(tensor + index, value);
#else
  detail::paired_atomic_add<scalar_t, __nv_bfloat162>(tensor, index, numel, value);
#endif
}

template <typename scalar_t, typename index_t,
          std::enable_if_t<!std::is_same_v<Half, scalar_t> &&
                           !std::is_same_v<BFloat16, scalar_t>>* = nullptr>
__device__ __forceinline__ void fastSpecializedAtomicAdd(scalar_t* tensor, index_t index,
                                                         const index_t /*numel*/, scalar_t value) {
  gpuAtomicAddNoReturn(tensor + index, value);
}

template <class scalar_t, class index_t>
__device__ __forceinline__ void fastAtomicAdd(scalar_t* tensor, index_t index, const index_t numel,
                                              scalar_t value, bool fast_atomics) {
  if (fast_atomics) {
    fastSpecializedAtomicAdd(tensor, index, numel, value);
  } else {
    gpuAtomicAddNoReturn(tensor + index, value);
  }
}

}  // namespace torch::headeronly

#endif  // __CUDACC__ || __HIPCC__
