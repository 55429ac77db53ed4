// Picks the reduction loops' variant: the ISA of the elementwise loops
// (vec_kernels()), so one choice (and one ST_CPU_CAPABILITY) governs both.
#include <cstring>

#include "vec_kernels.h"
#include "vec_reduce_kernels.h"

namespace st::native::cpu {

const VecReduceKernels* vec_reduce_kernels_for(const char* isa) {
  if (vec_kernels_for(isa) == nullptr) return nullptr;
  // The avx512_256 choice (vec_width.inc) keeps the reductions at 64
  // bytes: they store nothing, and most ran slower with 32-byte vectors
  // (1M floats on the Zen 4, one sweep each way: amax 0.81-0.86x of
  // PyTorch's time at 64 bytes, 1.16-1.22x at 32).
  if (std::strcmp(isa, "avx512") == 0 || std::strcmp(isa, "avx512_256") == 0) {
    return &vec_reduce_kernels_avx512();
  }
  if (std::strcmp(isa, "avx2") == 0) return &vec_reduce_kernels_avx2();
  return &vec_reduce_kernels_default();
}

const VecReduceKernels& vec_reduce_kernels() {
  static const VecReduceKernels& k = *vec_reduce_kernels_for(vec_kernels().isa);
  return k;
}

}  // namespace st::native::cpu
