// The out= checks of reductions, one copy for the CPU kernels
// (reduce_ops.cpp) and the CUDA ones (cuda/cuda_native_functions.cpp) so
// both raise the same messages.
#pragma once

#include <st/core/export.h>
#include <st/core/tensor.h>

namespace st::native {

// amax/amin: out has self's dtype exactly.
ST_API void check_same_dtype_out(const Tensor& self, const Tensor& out);

}  // namespace st::native
