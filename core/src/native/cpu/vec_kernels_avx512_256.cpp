// The avx512_256 variant of the vectorized inner loops (see vec_kernels.h):
// AVX-512's instructions on 32-byte vectors (vec_width.inc); its target
// flags come from cmake/StableTorchVecVariants.cmake.
#define ST_VEC_AVX512_256
#define ST_VEC_TABLE_FN vec_kernels_avx512_256
#define ST_VEC_ISA_NAME "avx512_256"
#include "vec_kernels_impl.inc"
