// The avx512_256 variant of the vector float functions (see vec_math.h):
// AVX-512's instructions on 32-byte vectors (vec_width.inc); its target
// flags come from cmake/StableTorchVecVariants.cmake.
#define ST_VEC_AVX512_256
#define ST_VEC_MATH_TABLE_FN vec_math_avx512_256
#define ST_VEC_MATH_ISA_NAME "avx512_256"
#include "vec_math_impl.inc"
