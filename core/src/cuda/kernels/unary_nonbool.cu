// neg, abs and relu on CUDA (`cuda_pointwise: unary_nonbool`: the host
// refuses bool with the CPU's messages; Note [CUDA pointwise entry points]
// in cuda_kernels.h). Integers wrap, as the CPU's; relu keeps NaN.
#include "unary.cuh"

ST_CUDA_UNARY_NONBOOL(neg, -x, wrap_neg(x))
ST_CUDA_UNARY_NONBOOL(abs, fabs(x), x < 0 ? wrap_neg(x) : x)
ST_CUDA_UNARY_NONBOOL(relu, (x > Acc(0) || is_nan(x)) ? x : Acc(0), x > 0 ? x : 0)
