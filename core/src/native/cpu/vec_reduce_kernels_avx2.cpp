// The avx2 variant of the reduction engine's vectorized loops (see
// vec_reduce_kernels.h); its target flags come from cmake/StableTorchVecVariants.cmake.
#define ST_VEC_REDUCE_TABLE_FN vec_reduce_kernels_avx2
#define ST_VEC_REDUCE_ISA_NAME "avx2"
#include "vec_reduce_kernels_impl.inc"
