// The avx2 variant of the vector float functions (see vec_math.h); its
// target flags come from cmake/StableTorchVecVariants.cmake.
#define ST_VEC_MATH_TABLE_FN vec_math_avx2
#define ST_VEC_MATH_ISA_NAME "avx2"
#include "vec_math_impl.inc"
