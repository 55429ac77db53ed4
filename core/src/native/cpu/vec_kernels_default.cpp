// The default variant of the vectorized inner loops (see vec_kernels.h);
// its target flags come from cmake/StableTorchVecVariants.cmake.
#define ST_VEC_TABLE_FN vec_kernels_default
#define ST_VEC_ISA_NAME "default"
#include "vec_kernels_impl.inc"
