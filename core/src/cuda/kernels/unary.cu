// The unary ops whose result has the input's dtype, any dtype (`cuda_pointwise:
// unary`; Note [CUDA pointwise entry points] in cuda_kernels.h): one line
// each, the expressions of the CPU kernels in core/src/native/unary_ops.cpp.
#include "unary.cuh"

ST_CUDA_UNARY(sign, (Acc(0) < x) - (x < Acc(0)), (0 < x) - (x < 0))
