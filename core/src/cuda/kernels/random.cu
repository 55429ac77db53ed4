// rand / randn on CUDA: Philox4x32-10 (Salmon et al., "Parallel random
// numbers: as easy as 1, 2, 3"), one counter per four values, so element i
// depends only on (seed, offset + i / 4): the result does not depend on the
// launch configuration.
#include "dtype_access.cuh"

namespace st::cuda::kernels {
namespace {

struct Philox {
  uint32_t c[4];
};

__device__ __forceinline__ Philox philox10(uint64_t counter, uint64_t seed) {
  uint32_t c0 = static_cast<uint32_t>(counter);
  uint32_t c1 = static_cast<uint32_t>(counter >> 32);
  uint32_t c2 = 0;
  uint32_t c3 = 0;
  uint32_t k0 = static_cast<uint32_t>(seed);
  uint32_t k1 = static_cast<uint32_t>(seed >> 32);
  for (int r = 0; r < 10; ++r) {
    const uint32_t hi0 = __umulhi(0xD2511F53u, c0);
    const uint32_t lo0 = 0xD2511F53u * c0;
    const uint32_t hi1 = __umulhi(0xCD9E8D57u, c2);
    const uint32_t lo1 = 0xCD9E8D57u * c2;
    const uint32_t n0 = hi1 ^ c1 ^ k0;
    const uint32_t n2 = hi0 ^ c3 ^ k1;
    c0 = n0;
    c1 = lo1;
    c2 = n2;
    c3 = lo0;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return Philox{{c0, c1, c2, c3}};
}

// (0, 1]: never 0, so log() in Box-Muller is finite.
__device__ __forceinline__ double unit(uint32_t bits) {
  return (static_cast<double>(bits) + 1.0) * (1.0 / 4294967296.0);
}

__global__ void random_kernel(bool normal, void* out, int32_t dtype, int64_t n, uint64_t seed,
                              uint64_t offset, double a, double b) {
  const int64_t groups = (n + 3) / 4;
  for (int64_t g = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; g < groups;
       g += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const Philox r = philox10(offset + static_cast<uint64_t>(g), seed);
    double v[4];
    if (normal) {
      for (int k = 0; k < 4; k += 2) {
        const double radius = sqrt(-2.0 * log(unit(r.c[k])));
        const double theta = 2.0 * 3.14159265358979323846 * unit(r.c[k + 1]);
        v[k] = a + b * radius * cos(theta);
        v[k + 1] = a + b * radius * sin(theta);
      }
    } else {
      for (int k = 0; k < 4; ++k) v[k] = a + (b - a) * (1.0 - unit(r.c[k]));  // [a, b)
    }
    for (int k = 0; k < 4; ++k) {
      const int64_t i = g * 4 + k;
      if (i < n) store<double>(out, dtype, i, v[k]);
    }
  }
}

}  // namespace

cudaError_t random(bool normal, void* out, int32_t dtype, int64_t n, uint64_t seed, uint64_t offset,
                   double a, double b, cudaStream_t stream) {
  if (n == 0) return cudaSuccess;
  random_kernel<<<blocks_for((n + 3) / 4), kThreads, 0, stream>>>(normal, out, dtype, n, seed,
                                                                  offset, a, b);
  return cudaGetLastError();
}

}  // namespace st::cuda::kernels
