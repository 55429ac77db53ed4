// neg, abs and relu on CUDA (`cuda_pointwise: unary_nonbool`: the host
// refuses bool with the CPU's messages; Note [CUDA pointwise entry points]
// in cuda_kernels.h). Integers wrap, as the CPU's; relu keeps x unless it is below zero, so
// NaN and -0.0 pass, as on the CPU and in PyTorch.
#include "unary.cuh"

ST_CUDA_UNARY_NONBOOL(neg, -x, wrap_neg(x))
ST_CUDA_UNARY_NONBOOL(abs, fabs(x), x < 0 ? wrap_neg(x) : x)
ST_CUDA_UNARY_NONBOOL(relu, (x < Acc(0)) ? Acc(0) : x, (x > 0) ? x : 0)
