// Converting tensors between dtypes with PyTorch's conversion rules (the
// elementwise engine runs the cast; 8-bit floats go through float).
#pragma once

#include <st/core/export.h>
#include <st/core/tensor.h>

namespace st::native {

// A copy of t converted to dtype (t itself when it already has it), laid
// out as empty_like with Preserve; a wrapped number stays one.
ST_API Tensor to_dtype(const Tensor& t, ScalarType dtype);

// Writes src (converted to dst's dtype, broadcast to dst's shape) into dst.
ST_API void copy_into(const Tensor& dst, const Tensor& src);

}  // namespace st::native
