// Bitwise and/or/xor on CUDA (`cuda_pointwise: binary_bitwise`: integers and
// bool only; Note [CUDA pointwise entry points] in cuda_kernels.h).
#include "binary.cuh"

ST_CUDA_BINARY_BITWISE(bitwise_and, (a & b))
ST_CUDA_BINARY_BITWISE(bitwise_or, a | b)
ST_CUDA_BINARY_BITWISE(bitwise_xor, a ^ b)
