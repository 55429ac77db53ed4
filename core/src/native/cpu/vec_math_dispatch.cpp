// Picks the vector float functions' variant: the one vec_kernels() runs,
// so that one CPU check and one ST_CPU_CAPABILITY setting govern both
// tables. Compiled for the baseline ISA.
#include <cstring>

#include "vec_kernels.h"
#include "vec_math.h"

namespace st::native::cpu {

const VecMath* vec_math_for(const char* isa) {
  const VecKernels* k = vec_kernels_for(isa);  // nullptr when the CPU lacks it
  if (k == nullptr) return nullptr;
  if (std::strcmp(k->isa, "avx512") == 0) return &vec_math_avx512();
  if (std::strcmp(k->isa, "avx512_256") == 0) return &vec_math_avx512_256();
  if (std::strcmp(k->isa, "avx2") == 0) return &vec_math_avx2();
  return &vec_math_default();
}

const VecMath& vec_math() {
  static const VecMath& m = *vec_math_for(vec_kernels().isa);
  return m;
}

}  // namespace st::native::cpu
