// The argument checks of the selection kernels of compare_ops.cpp (where,
// masked_fill_, clamp), one copy for the CPU kernels and the CUDA ones
// (cuda/cuda_pointwise.cpp) so both refuse the same arguments with the
// same messages.
#pragma once

#include <optional>

#include <st/core/export.h>
#include <st/core/tensor.h>

namespace st::native {

// where's condition is a bool tensor.
ST_API void check_where_condition(const Tensor& condition);

// masked_fill_'s mask is a bool tensor.
ST_API void check_masked_fill_mask(const Tensor& mask);

// masked_fill_'s tensor value has one element, as a 0-dim tensor.
ST_API void check_masked_fill_value(const Tensor& value);

// clamp needs at least one bound.
ST_API void check_clamp_bounds(bool has_min, bool has_max);

}  // namespace st::native
