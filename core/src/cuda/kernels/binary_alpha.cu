// add and sub on CUDA: out = a + alpha * b (a - alpha * b), one line each
// (`cuda_pointwise: binary_alpha`; Note [CUDA pointwise entry points] in
// cuda_kernels.h).
#include "binary.cuh"

ST_CUDA_BINARY_ALPHA(add, a + alpha * b, wrap_add(a, wrap_mul(alpha, b)))
ST_CUDA_BINARY_ALPHA(sub, a - alpha * b,
                     static_cast<int64_t>(uint64_t(a) - uint64_t(alpha) * uint64_t(b)))
