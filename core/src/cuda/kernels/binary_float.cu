// True division on CUDA (`cuda_pointwise: binary_float`: the host computes
// integer operands in the default float dtype, so there is no integer
// expression; Note [CUDA pointwise entry points] in cuda_kernels.h).
#include "binary.cuh"

ST_CUDA_BINARY_FLOAT(div, a / b)
