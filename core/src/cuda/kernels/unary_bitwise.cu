// bitwise_not on CUDA (`cuda_pointwise: unary_bitwise`: integers only; on
// bool the host runs logical_not, since ~true is false; Note [CUDA
// pointwise entry points] in cuda_kernels.h).
#include "unary.cuh"

ST_CUDA_UNARY_BITWISE(bitwise_not, ~x)
