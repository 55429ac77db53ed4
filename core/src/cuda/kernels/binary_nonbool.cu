// pow on CUDA (`cuda_pointwise: binary_nonbool`: the host refuses bool;
// Note [CUDA pointwise entry points] in cuda_kernels.h). Integers wrap,
// as the CPU's.
#include "binary.cuh"

ST_CUDA_BINARY_NONBOOL(pow, pow(a, b), int_pow(a, b))
