// The shape and dtype checks of dot, one copy for the CPU kernel
// (linear_algebra.cpp) and the CUDA one (cuda/cuda_dot.cpp) so both refuse
// the same arguments with the same messages. Each device checks where its
// tensors live itself.
#pragma once

#include <st/core/export.h>
#include <st/core/tensor.h>

namespace st::native {

// Two 1-D tensors of one dtype and the same number of elements.
ST_API void check_dot_shapes(const Tensor& self, const Tensor& tensor);

}  // namespace st::native
