// The avx2 variant of the vectorized inner loops (see vec_kernels.h);
// its target flags come from cmake/StableTorchVecVariants.cmake.
#define ST_VEC_TABLE_FN vec_kernels_avx2
#define ST_VEC_ISA_NAME "avx2"
#include "vec_kernels_impl.inc"
