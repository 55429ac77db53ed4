// The argument checks of fill_, one copy for the CPU kernel
// (conversions.cpp) and the CUDA one (cuda/cuda_copy.cpp) so both refuse
// the same arguments with the same message.
#pragma once

#include <st/core/export.h>
#include <st/core/tensor.h>

namespace st::native {

// fill_'s tensor value is one element, as a 0-dim tensor.
ST_API void check_fill_value(const Tensor& value);

}  // namespace st::native
