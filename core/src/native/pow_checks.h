// The argument checks of pow, one copy for the CPU kernels (binary_ops.cpp)
// and the CUDA ones (cuda/cuda_native_functions.cpp) so both refuse the
// same arguments with the same message.
#pragma once

#include <st/core/export.h>
#include <st/core/scalar.h>
#include <st/core/tensor.h>

namespace st::native {

// An integer tensor to a negative integer Scalar power has no integer
// result.
ST_API void check_int_pow_scalar(const Tensor& base, const Scalar& exp);

}  // namespace st::native
