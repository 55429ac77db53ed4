// Picks the reduction loops' variant: the ISA of the elementwise loops
// (vec_kernels()), so one choice (and one ST_CPU_CAPABILITY) governs both.
#include <cstring>

#include "vec_kernels.h"
#include "vec_reduce_kernels.h"

namespace st::native::cpu {

const VecReduceKernels* vec_reduce_kernels_for(const char* isa) {
  if (vec_kernels_for(isa) == nullptr) return nullptr;
  if (std::strcmp(isa, "avx512") == 0) return &vec_reduce_kernels_avx512();
  if (std::strcmp(isa, "avx512_256") == 0) return &vec_reduce_kernels_avx512_256();
  if (std::strcmp(isa, "avx2") == 0) return &vec_reduce_kernels_avx2();
  return &vec_reduce_kernels_default();
}

const VecReduceKernels& vec_reduce_kernels() {
  static const VecReduceKernels& k = *vec_reduce_kernels_for(vec_kernels().isa);
  return k;
}

}  // namespace st::native::cpu
