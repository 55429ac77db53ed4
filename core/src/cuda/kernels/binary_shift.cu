// Shifts on CUDA (`cuda_pointwise: binary_shift`: integers only, not bool;
// Note [CUDA pointwise entry points] in cuda_kernels.h). Operands are sign-
// (or zero-, for uint8) extended to 64 bits, so a shift by at least the
// stored width already gives the CPU's 0 (left) or sign fill (right) once
// stored; only shifts the int64 cannot do need the explicit rule.
#include "binary.cuh"

ST_CUDA_BINARY_SHIFT(bitwise_left_shift,
                     (b < 0 || b >= 64) ? 0 : static_cast<int64_t>(uint64_t(a) << b))
ST_CUDA_BINARY_SHIFT(bitwise_right_shift, (b < 0 || b >= 64) ? (a < 0 ? -1 : 0) : (a >> b))
