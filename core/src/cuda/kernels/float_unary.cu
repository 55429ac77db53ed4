// The floating unary functions on CUDA, one line each: the device
// expression of `x` (float or double) that the CPU kernel's functor in
// core/src/native/unary_ops.cpp computes. Each defines the entry point
// that the YAML entry's `cuda_pointwise: float_unary` names (Note [CUDA
// pointwise entry points] in cuda_kernels.h).
#include "float_unary.cuh"

ST_CUDA_FLOAT_UNARY(exp, exp(x))
ST_CUDA_FLOAT_UNARY(log, log(x))
ST_CUDA_FLOAT_UNARY(sqrt, sqrt(x))
ST_CUDA_FLOAT_UNARY(rsqrt, Acc(1) / sqrt(x))
ST_CUDA_FLOAT_UNARY(sin, sin(x))
ST_CUDA_FLOAT_UNARY(cos, cos(x))
ST_CUDA_FLOAT_UNARY(tan, tan(x))
ST_CUDA_FLOAT_UNARY(tanh, tanh(x))
ST_CUDA_FLOAT_UNARY(sigmoid, Acc(1) / (Acc(1) + exp(-x)))
