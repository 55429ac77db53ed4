// Comparisons and logical ops on CUDA (`cuda_pointwise: binary_compare`: a
// bool result; Note [CUDA pointwise entry points] in cuda_kernels.h). One
// expression serves every compute type.
#include "binary.cuh"

ST_CUDA_BINARY_COMPARE(eq, a == b)
ST_CUDA_BINARY_COMPARE(ne, a != b)
ST_CUDA_BINARY_COMPARE(lt, a < b)
ST_CUDA_BINARY_COMPARE(le, a <= b)
ST_CUDA_BINARY_COMPARE(gt, a > b)
ST_CUDA_BINARY_COMPARE(ge, a >= b)
ST_CUDA_BINARY_COMPARE(logical_and, a != Acc(0) && b != Acc(0))
ST_CUDA_BINARY_COMPARE(logical_or, a != Acc(0) || b != Acc(0))
ST_CUDA_BINARY_COMPARE(logical_xor, (a != Acc(0)) != (b != Acc(0)))
