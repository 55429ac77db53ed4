// The argument checks of the unary kernels of unary_ops.cpp, one copy for
// the CPU kernels and the CUDA ones (cuda/cuda_pointwise.cpp) so both refuse
// the same arguments with the same messages.
#pragma once

#include <st/core/export.h>
#include <st/core/tensor.h>

namespace st::native {

// neg, abs and relu refuse bool tensors, each with its own message (neg's
// points to logical_not); another op gets "<op>: bool tensors are not
// supported".
ST_API void check_unary_not_bool(const char* op, ScalarType dtype);

}  // namespace st::native
