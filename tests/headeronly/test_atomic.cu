// Compiles every device atomic of cuda/Atomic.h and cuda/KernelUtils.h, and
// the device-usable helpers (irange, CUDA_KERNEL_ASSERT*), under nvcc. Built
// as an object library when the CUDA backend is on: a declaration that
// nvcc rejects fails the build.
#include <torch/headeronly/cuda/KernelUtils.h>
#include <torch/headeronly/util/TypeCast.h>
#include <torch/headeronly/util/irange.h>

#include <cfloat>

namespace tho = torch::headeronly;

__global__ void every_atomic(float* f, double* d, int32_t* i, int64_t* l, uint8_t* u, int8_t* c,
                             int16_t* s, bool* b, tho::Half* h, tho::BFloat16* bf,
                             tho::complex<float>* cf, tho::complex<double>* cd) {
  gpuAtomicAdd(f, 1.0f);
  gpuAtomicAdd(d, 1.0);
  gpuAtomicAdd(i, 1);
  gpuAtomicAdd(l, int64_t{1});
  gpuAtomicAdd(u, uint8_t{1});
  gpuAtomicAdd(c, int8_t{1});
  gpuAtomicAdd(s, int16_t{1});
  gpuAtomicAdd(b, true);
  gpuAtomicAdd(h, tho::Half(1.0f));
  gpuAtomicAdd(bf, tho::BFloat16(1.0f));
  gpuAtomicAdd(cf, tho::complex<float>(1.0f, 2.0f));
  gpuAtomicAdd(cd, tho::complex<double>(1.0, 2.0));
  gpuAtomicAddNoReturn(h, tho::Half(1.0f));
  gpuAtomicAddNoReturn(u, uint8_t{2});
  atomicAdd(h, tho::Half(1.0f));
  atomicAdd(s, int16_t{3});
  gpuAtomicMul(f, 2.0f);
  gpuAtomicMul(l, int64_t{3});
  gpuAtomicMul(bf, tho::BFloat16(2.0f));
  gpuAtomicMax(d, 2.0);
  gpuAtomicMax(u, uint8_t{3});
  gpuAtomicMax(h, tho::Half(2.0f));
  gpuAtomicMin(i, 0);
  gpuAtomicMin(bf, tho::BFloat16(1.0f));
  const int64_t index = threadIdx.x;
  tho::fastAtomicAdd(h, index, int64_t{10}, tho::Half(1.0f), true);
  tho::fastAtomicAdd(bf, index, int64_t{10}, tho::BFloat16(1.0f), true);
  tho::fastAtomicAdd(f, index, int64_t{10}, 1.0f, false);
  for (const auto k : c10::irange(3)) {
    CUDA_KERNEL_ASSERT(k < 3);
  }
  CUDA_KERNEL_ASSERT_MSG(*i >= 0, "negative");
  CUDA_KERNEL_ASSERT_PRINTF(*i >= 0, "value %d", *i);
  *f = c10::convert<float>(*cf) + static_cast<float>(C10_WARP_SIZE) + (FLT_MAX > 0 ? 0.0f : 1.0f);
}
