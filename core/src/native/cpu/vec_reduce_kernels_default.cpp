// The default variant of the reduction engine's vectorized loops (see
// vec_reduce_kernels.h); its target flags come from cmake/StableTorchVecVariants.cmake.
#define ST_VEC_REDUCE_TABLE_FN vec_reduce_kernels_default
#define ST_VEC_REDUCE_ISA_NAME "default"
#include "vec_reduce_kernels_impl.inc"
