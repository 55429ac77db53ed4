// Device-side atomics for every dtype a CUDA kernel accumulates into:
// gpuAtomicAdd / gpuAtomicAddNoReturn / gpuAtomicMul / gpuAtomicMax /
// gpuAtomicMin over bool, the integer types, Half, BFloat16, float, double
// and complex, plus the atomicAdd overloads (Half, BFloat16, small
// integers, bool) that extensions call directly.
//
// Types without a hardware atomic are updated by a compare-and-swap loop on
// the aligned 32-bit (or 64-bit) word that holds them, so a 1- or 2-byte
// value is updated without disturbing its neighbours. NaN propagates
// through Max/Min as in the tensor operators.
//
// For CUDA sources (nvcc or clang -x cuda). Compiled as plain C++ the header
// declares nothing but the two helper macros.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <torch/headeronly/macros/Macros.h>
#include <torch/headeronly/util/BFloat16.h>
#include <torch/headeronly/util/Half.h>
#include <torch/headeronly/util/NumericUtils.h>
#include <torch/headeronly/util/complex.h>

// ATOMIC_INTEGER_IMPL(NAME) declares Atomic<NAME>IntegerImpl<T, sizeof(T)>,
// a functor applying `func(val, old)` atomically at an address;
// GPU_ATOMIC_INTEGER(NAME, OP, DTYPE) defines gpuAtomic<NAME>(DTYPE*, DTYPE)
// over it, with OP an expression of the incoming value `a` and the stored
// value `b`.
#define ATOMIC_INTEGER_IMPL(NAME)                                              \
  template <typename T, size_t n>                                              \
  struct Atomic##NAME##IntegerImpl {                                           \
    template <typename func_t>                                                 \
    inline __device__ void operator()(T* address, T val, const func_t& func) { \
      ::torch::headeronly::detail::atomic_apply(                               \
          address, [&](T old) { return static_cast<T>(func(val, old)); });     \
    }                                                                          \
  };

#define GPU_ATOMIC_INTEGER(NAME, OP, DTYPE)                                                 \
  inline __device__ void gpuAtomic##NAME(DTYPE* address, DTYPE val) {                       \
    Atomic##NAME##IntegerImpl<DTYPE, sizeof(DTYPE)>()(address, val,                         \
                                                      [](DTYPE a, DTYPE b) { return OP; }); \
  }

#if defined(__CUDACC__) || defined(__HIPCC__)

#include <cuda_fp16.h>
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
#include <cuda_bf16.h>
#endif

namespace torch::headeronly::detail {

// Replaces *address with update(*address) atomically and returns the value
// it replaced. T is 1, 2, 4 or 8 bytes and naturally aligned.
template <typename T, typename F>
__device__ inline T atomic_apply(T* address, const F& update) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                "atomic_apply: unsupported size");
  if constexpr (sizeof(T) == 8) {
    auto* word = reinterpret_cast<unsigned long long*>(address);
    unsigned long long old = *word;
    unsigned long long assumed;
    do {
      assumed = old;
      T current;
      memcpy(&current, &assumed, sizeof(T));
      const T next = update(current);
      unsigned long long next_bits;
      memcpy(&next_bits, &next, sizeof(T));
      old = atomicCAS(word, assumed, next_bits);
    } while (assumed != old);
    T result;
    memcpy(&result, &old, sizeof(T));
    return result;
  } else {
    // The aligned 32-bit word holding the value, and the value's bit
    // offset in it (little-endian).
    const size_t offset = reinterpret_cast<size_t>(address) & 3u;
    auto* word = reinterpret_cast<unsigned int*>(reinterpret_cast<char*>(address) - offset);
    const unsigned int shift = static_cast<unsigned int>(offset) * 8u;
    const unsigned int mask =
        sizeof(T) == 4 ? 0xFFFFFFFFu : (((1u << (sizeof(T) * 8u)) - 1u) << shift);
    unsigned int old = *word;
    unsigned int assumed;
    do {
      assumed = old;
      const unsigned int current_bits = (assumed & mask) >> shift;
      T current;
      memcpy(&current, &current_bits, sizeof(T));
      const T next = update(current);
      unsigned int next_bits = 0;
      memcpy(&next_bits, &next, sizeof(T));
      old = atomicCAS(word, assumed, (assumed & ~mask) | (next_bits << shift));
    } while (assumed != old);
    const unsigned int old_bits = (old & mask) >> shift;
    T result;
    memcpy(&result, &old_bits, sizeof(T));
    return result;
  }
}

}  // namespace torch::headeronly::detail

// NaN wins; otherwise the larger / smaller value.
template <typename T>
__host__ __device__ T safe_max(T a, T b) {
  return torch::headeronly::_isnan(b) ? b : (a < b ? b : a);
}
template <typename T>
__host__ __device__ T safe_min(T a, T b) {
  return torch::headeronly::_isnan(b) ? b : (b < a ? b : a);
}

// ---- Add ------------------------------------------------------------------------
ATOMIC_INTEGER_IMPL(Add)
GPU_ATOMIC_INTEGER(Add, a || b, bool)

inline __device__ void gpuAtomicAdd(uint8_t* address, uint8_t val) {
  AtomicAddIntegerImpl<uint8_t, 1>()(address, val, [](uint8_t a, uint8_t b) { return a + b; });
}
inline __device__ void gpuAtomicAdd(int8_t* address, int8_t val) {
  AtomicAddIntegerImpl<int8_t, 1>()(address, val, [](int8_t a, int8_t b) { return a + b; });
}
inline __device__ void gpuAtomicAdd(int16_t* address, int16_t val) {
  AtomicAddIntegerImpl<int16_t, 2>()(address, val, [](int16_t a, int16_t b) { return a + b; });
}
inline __device__ int32_t gpuAtomicAdd(int32_t* address, int32_t val) {
  return atomicAdd(address, val);
}
inline __device__ void gpuAtomicAdd(int64_t* address, int64_t val) {
  // Two's complement: the unsigned 64-bit add is the signed one.
  atomicAdd(reinterpret_cast<unsigned long long*>(address), static_cast<unsigned long long>(val));
}
inline __device__ torch::headeronly::Half gpuAtomicAdd(torch::headeronly::Half* address,
                                                       torch::headeronly::Half val) {
  return torch::headeronly::detail::atomic_apply(address, [val](torch::headeronly::Half old) {
    return torch::headeronly::Half(static_cast<float>(old) + static_cast<float>(val));
  });
}
inline __device__ torch::headeronly::BFloat16 gpuAtomicAdd(torch::headeronly::BFloat16* address,
                                                           torch::headeronly::BFloat16 val) {
  return torch::headeronly::detail::atomic_apply(address, [val](torch::headeronly::BFloat16 old) {
    return torch::headeronly::BFloat16(static_cast<float>(old) + static_cast<float>(val));
  });
}
inline __device__ double gpuAtomicAdd(double* address, double val) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 600
  return torch::headeronly::detail::atomic_apply(address, [val](double old) { return old + val; });
#else
  return atomicAdd(address, val);
#endif
}
inline __device__ float gpuAtomicAdd(float* address, float val) { return atomicAdd(address, val); }
template <typename T>
inline __device__ void gpuAtomicAdd(torch::headeronly::complex<T>* address,
                                    torch::headeronly::complex<T> val) {
  gpuAtomicAdd(&address->real_, val.real_);
  gpuAtomicAdd(&address->imag_, val.imag_);
}

// atomicAdd for the types CUDA's own overloads do not cover.
inline __device__ torch::headeronly::Half atomicAdd(torch::headeronly::Half* address,
                                                    torch::headeronly::Half val) {
  return gpuAtomicAdd(address, val);
}
inline __device__ torch::headeronly::BFloat16 atomicAdd(torch::headeronly::BFloat16* address,
                                                        torch::headeronly::BFloat16 val) {
  return gpuAtomicAdd(address, val);
}
inline __device__ void atomicAdd(uint8_t* address, uint8_t val) { gpuAtomicAdd(address, val); }
inline __device__ void atomicAdd(int8_t* address, int8_t val) { gpuAtomicAdd(address, val); }
inline __device__ void atomicAdd(int16_t* address, int16_t val) { gpuAtomicAdd(address, val); }
inline __device__ void atomicAdd(int64_t* address, int64_t val) { gpuAtomicAdd(address, val); }
inline __device__ void atomicAdd(bool* address, bool val) { gpuAtomicAdd(address, val); }

// The same additions when the caller does not need the previous value,
// which lets the compiler emit the cheaper reduction instruction.
template <typename T>
inline __device__ void gpuAtomicAddNoReturn(torch::headeronly::complex<T>* address,
                                            torch::headeronly::complex<T> val) {
  gpuAtomicAdd(address, val);
}
inline __device__ void gpuAtomicAddNoReturn(uint8_t* address, uint8_t val) {
  gpuAtomicAdd(address, val);
}
inline __device__ void gpuAtomicAddNoReturn(int8_t* address, int8_t val) {
  gpuAtomicAdd(address, val);
}
inline __device__ void gpuAtomicAddNoReturn(int16_t* address, int16_t val) {
  gpuAtomicAdd(address, val);
}
inline __device__ void gpuAtomicAddNoReturn(int32_t* address, int32_t val) {
  gpuAtomicAdd(address, val);
}
inline __device__ void gpuAtomicAddNoReturn(int64_t* address, int64_t val) {
  gpuAtomicAdd(address, val);
}
inline __device__ void gpuAtomicAddNoReturn(bool* address, bool val) { gpuAtomicAdd(address, val); }
inline __device__ void gpuAtomicAddNoReturn(torch::headeronly::Half* address,
                                            torch::headeronly::Half val) {
  gpuAtomicAdd(address, val);
}
inline __device__ void gpuAtomicAddNoReturn(torch::headeronly::BFloat16* address,
                                            torch::headeronly::BFloat16 val) {
  gpuAtomicAdd(address, val);
}
inline __device__ void gpuAtomicAddNoReturn(float* address, float val) {
  gpuAtomicAdd(address, val);
}
inline __device__ void gpuAtomicAddNoReturn(double* address, double val) {
  gpuAtomicAdd(address, val);
}

// ---- Mul, Max, Min -----------------------------------------------------------------
// Integer forms from the macros; floating forms compute in float (Half,
// BFloat16) or the type itself.
ATOMIC_INTEGER_IMPL(Mul)
GPU_ATOMIC_INTEGER(Mul, a* b, uint8_t)
GPU_ATOMIC_INTEGER(Mul, a* b, int8_t)
GPU_ATOMIC_INTEGER(Mul, a* b, int16_t)
GPU_ATOMIC_INTEGER(Mul, a* b, int32_t)
GPU_ATOMIC_INTEGER(Mul, a* b, int64_t)
ATOMIC_INTEGER_IMPL(Max)
GPU_ATOMIC_INTEGER(Max, safe_max(a, b), uint8_t)
GPU_ATOMIC_INTEGER(Max, safe_max(a, b), int8_t)
GPU_ATOMIC_INTEGER(Max, safe_max(a, b), int16_t)
GPU_ATOMIC_INTEGER(Max, safe_max(a, b), int32_t)
GPU_ATOMIC_INTEGER(Max, safe_max(a, b), int64_t)
ATOMIC_INTEGER_IMPL(Min)
GPU_ATOMIC_INTEGER(Min, safe_min(a, b), uint8_t)
GPU_ATOMIC_INTEGER(Min, safe_min(a, b), int8_t)
GPU_ATOMIC_INTEGER(Min, safe_min(a, b), int16_t)
GPU_ATOMIC_INTEGER(Min, safe_min(a, b), int32_t)
GPU_ATOMIC_INTEGER(Min, safe_min(a, b), int64_t)

#define TORCH_HEADERONLY_GPU_ATOMIC_FLOAT_(NAME, T, EXPR)                  \
  inline __device__ T gpuAtomic##NAME(T* address, T val) {                 \
    return torch::headeronly::detail::atomic_apply(address, [val](T old) { \
      using C = std::conditional_t<sizeof(T) < 4, float, T>;               \
      const C a = static_cast<C>(val);                                     \
      const C b = static_cast<C>(old);                                     \
      return static_cast<T>(EXPR);                                         \
    });                                                                    \
  }
TORCH_HEADERONLY_GPU_ATOMIC_FLOAT_(Mul, torch::headeronly::Half, a* b)
TORCH_HEADERONLY_GPU_ATOMIC_FLOAT_(Mul, torch::headeronly::BFloat16, a* b)
TORCH_HEADERONLY_GPU_ATOMIC_FLOAT_(Mul, float, a* b)
TORCH_HEADERONLY_GPU_ATOMIC_FLOAT_(Mul, double, a* b)
TORCH_HEADERONLY_GPU_ATOMIC_FLOAT_(Max, torch::headeronly::Half, safe_max(a, b))
TORCH_HEADERONLY_GPU_ATOMIC_FLOAT_(Max, torch::headeronly::BFloat16, safe_max(a, b))
TORCH_HEADERONLY_GPU_ATOMIC_FLOAT_(Max, float, safe_max(a, b))
TORCH_HEADERONLY_GPU_ATOMIC_FLOAT_(Max, double, safe_max(a, b))
TORCH_HEADERONLY_GPU_ATOMIC_FLOAT_(Min, torch::headeronly::Half, safe_min(a, b))
TORCH_HEADERONLY_GPU_ATOMIC_FLOAT_(Min, torch::headeronly::BFloat16, safe_min(a, b))
TORCH_HEADERONLY_GPU_ATOMIC_FLOAT_(Min, float, safe_min(a, b))
TORCH_HEADERONLY_GPU_ATOMIC_FLOAT_(Min, double, safe_min(a, b))
#undef TORCH_HEADERONLY_GPU_ATOMIC_FLOAT_

#endif  // __CUDACC__ || __HIPCC__
