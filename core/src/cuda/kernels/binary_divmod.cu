// Rounding division and remainder on CUDA (`cuda_pointwise: binary_divmod`:
// the host refuses bool and raises the CPU's ZeroDivisionError for integers
// from the device flag; Note [CUDA pointwise entry points] in
// cuda_kernels.h). div_trunc and div_floor serve div's rounding modes and
// floor_divide (hand-written kernels in cuda_native_functions.cpp).
#include "binary.cuh"

ST_CUDA_BINARY_DIVMOD(div_trunc, trunc(a / b), int_divide<IntDivide::Trunc>(a, b, zero_division))
ST_CUDA_BINARY_DIVMOD(div_floor, floor_div(a, b), int_divide<IntDivide::Floor>(a, b, zero_division))
ST_CUDA_BINARY_DIVMOD(remainder, float_remainder(a, b),
                      int_divide<IntDivide::Remainder>(a, b, zero_division))
