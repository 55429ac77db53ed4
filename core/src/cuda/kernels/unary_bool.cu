// The unary predicates on CUDA (`cuda_pointwise: unary_bool`: a bool
// result, any input dtype; Note [CUDA pointwise entry points] in
// cuda_kernels.h). unary_bool_logical_not also serves bitwise_not on bool.
#include "unary.cuh"

ST_CUDA_UNARY_BOOL(logical_not, x == Acc(0), x == 0)
ST_CUDA_UNARY_BOOL(isnan, is_nan(x), 0)
ST_CUDA_UNARY_BOOL(isinf, isinf(x), 0)
