// The avx512_256 variant of the reduction engine's vectorized loops (see
// vec_reduce_kernels.h): AVX-512's instructions on 32-byte vectors
// (vec_width.inc); its target flags come from
// cmake/StableTorchVecVariants.cmake.
#define ST_VEC_AVX512_256
#define ST_VEC_REDUCE_TABLE_FN vec_reduce_kernels_avx512_256
#define ST_VEC_REDUCE_ISA_NAME "avx512_256"
#include "vec_reduce_kernels_impl.inc"
