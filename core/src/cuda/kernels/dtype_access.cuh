// Device-side helpers shared by the .cu files: element offsets from a
// linear index, and loads/stores by run-time dtype (Note [CUDA kernels load
// and store by run-time dtype] in cuda_kernels.h).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <type_traits>

#include "cuda_kernels.h"

namespace st::cuda::kernels {

constexpr int kThreads = 256;

inline unsigned int blocks_for(int64_t n) {
  const int64_t b = (n + kThreads - 1) / kThreads;
  return static_cast<unsigned int>(b < 65535 * 32 ? b : 65535 * 32);
}

// The element offset of linear index i (row-major over shape) in operand o.
__device__ __forceinline__ int64_t offset_of(const Shape& shape, const Operand& o, int64_t i) {
  int64_t off = 0;
  for (int d = shape.ndim - 1; d >= 0; --d) {
    const int64_t size = shape.sizes[d];
    const int64_t idx = i % size;
    i /= size;
    off += idx * o.strides[d];
  }
  return off;
}

__device__ __forceinline__ bool is_integral(int32_t dtype) {
  return dtype == kByte || dtype == kChar || dtype == kShort || dtype == kInt || dtype == kLong ||
         dtype == kBool;
}

// Loads element `off` of `data` (dtype) as Acc (float, double, int64_t, or
// uint64_t: the compute type of integer sums that must wrap, which goes
// through int64 so that negative values sign-extend).
template <typename Acc>
__device__ __forceinline__ Acc load(const void* data, int32_t dtype, int64_t off) {
  if constexpr (std::is_same_v<Acc, uint64_t>) {
    return static_cast<uint64_t>(load<int64_t>(data, dtype, off));
  } else {
    switch (dtype) {
      case kByte:
        return static_cast<Acc>(static_cast<const uint8_t*>(data)[off]);
      case kChar:
        return static_cast<Acc>(static_cast<const int8_t*>(data)[off]);
      case kShort:
        return static_cast<Acc>(static_cast<const int16_t*>(data)[off]);
      case kInt:
        return static_cast<Acc>(static_cast<const int32_t*>(data)[off]);
      case kLong:
        return static_cast<Acc>(static_cast<const int64_t*>(data)[off]);
      case kBool:
        return static_cast<Acc>(static_cast<const bool*>(data)[off] ? 1 : 0);
      case kHalf:
        return static_cast<Acc>(__half2float(static_cast<const __half*>(data)[off]));
      case kBFloat16:
        return static_cast<Acc>(__bfloat162float(static_cast<const __nv_bfloat16*>(data)[off]));
      case kDouble:
        return static_cast<Acc>(static_cast<const double*>(data)[off]);
      default:
        return static_cast<Acc>(static_cast<const float*>(data)[off]);
    }
  }
}

// Stores v into element `off` of `data` (dtype); a uint64_t goes through
// int64 (the stored width wraps it).
template <typename Acc>
__device__ __forceinline__ void store(void* data, int32_t dtype, int64_t off, Acc v) {
  if constexpr (std::is_same_v<Acc, uint64_t>) {
    store<int64_t>(data, dtype, off, static_cast<int64_t>(v));
  } else {
    switch (dtype) {
      case kByte:
        static_cast<uint8_t*>(data)[off] = static_cast<uint8_t>(v);
        break;
      case kChar:
        static_cast<int8_t*>(data)[off] = static_cast<int8_t>(v);
        break;
      case kShort:
        static_cast<int16_t*>(data)[off] = static_cast<int16_t>(v);
        break;
      case kInt:
        static_cast<int32_t*>(data)[off] = static_cast<int32_t>(v);
        break;
      case kLong:
        static_cast<int64_t*>(data)[off] = static_cast<int64_t>(v);
        break;
      case kBool:
        static_cast<bool*>(data)[off] = v != Acc(0);
        break;
      case kHalf:
        static_cast<__half*>(data)[off] = __float2half(static_cast<float>(v));
        break;
      case kBFloat16:
        static_cast<__nv_bfloat16*>(data)[off] = __float2bfloat16(static_cast<float>(v));
        break;
      case kDouble:
        static_cast<double*>(data)[off] = static_cast<double>(v);
        break;
      default:
        static_cast<float*>(data)[off] = static_cast<float>(v);
        break;
    }
  }
}

}  // namespace st::cuda::kernels
