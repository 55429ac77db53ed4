// The argument checks of add and sub (binary_ops.cpp), one copy for the CPU
// kernels and the CUDA ones (cuda/cuda_pointwise.cpp) so both refuse the
// same arguments with the same messages.
#pragma once

#include <st/core/export.h>
#include <st/core/scalar.h>
#include <st/core/tensor.h>

namespace st::native {

// alpha of add/sub against the common dtype: a bool alpha only for a bool
// result, an integral one for integral results, a complex one only for a
// complex result. `op` names the operator in the message.
ST_API void check_alpha(const char* op, ScalarType common, const Scalar& alpha);

// sub refuses bool operands (the message points to logical_xor or
// logical_not, as PyTorch's does).
ST_API void check_sub(const Tensor& a, const Tensor& b);

}  // namespace st::native
