// The binary ops whose result has the operands' common dtype, any dtype:
// one line each, the expressions of the CPU kernels in
// core/src/native/binary_ops.cpp. Each defines the entry point its YAML
// entries' `cuda_pointwise: binary` names (Note [CUDA pointwise entry
// points] in cuda_kernels.h).
#include "binary.cuh"

ST_CUDA_BINARY(mul, (a * b), wrap_mul(a, b))
// NaN wins in maximum/minimum (b's when both are) and clamp, as on the CPU.
ST_CUDA_BINARY(maximum, is_nan(b) ? b : (is_nan(a) ? a : (a < b ? b : a)), a < b ? b : a)
ST_CUDA_BINARY(minimum, is_nan(b) ? b : (is_nan(a) ? a : (b < a ? b : a)), b < a ? b : a)
// clamp with one bound (b), for the hand-written clamp kernels.
ST_CUDA_BINARY(clamp_min, (is_nan(a) || is_nan(b)) ? a + b : (a < b ? b : a), a < b ? b : a)
ST_CUDA_BINARY(clamp_max, (is_nan(a) || is_nan(b)) ? a + b : (a > b ? b : a), b < a ? b : a)
