// The argument checks of cumsum, one copy for the CPU kernels
// (reduce_ops.cpp) and the CUDA ones (cuda/cuda_native_functions.cpp) so
// both refuse the same arguments with the same messages.
#pragma once

#include <optional>

#include <st/core/export.h>
#include <st/core/tensor.h>

namespace st::native {

// cumsum_ writes into self, so a given dtype must be self's.
ST_API void check_cumsum_inplace_dtype(const Tensor& self, std::optional<ScalarType> dtype);

}  // namespace st::native
