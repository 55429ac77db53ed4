// Converting tensors between dtypes with PyTorch's conversion rules (the
// elementwise engine runs the cast; 8-bit floats go through float).
#pragma once

#include <cstdint>

#include <st/core/export.h>
#include <st/core/tensor.h>

namespace st::native {

// A copy of t converted to dtype (t itself when it already has it), laid
// out as empty_like with Preserve; a wrapped number stays one.
ST_API Tensor to_dtype(const Tensor& t, ScalarType dtype);

// Writes src (converted to dst's dtype, broadcast to dst's shape) into dst.
ST_API void copy_into(const Tensor& dst, const Tensor& src);

// Converts n contiguous elements at src into dst, dst_stride bytes apart.
using cast_to_strided_fn = void (*)(const char* src, char* dst, int64_t dst_stride, int64_t n);

// The cast_to_strided_fn from `from` to `to` (conversion rules of copy_);
// nullptr when either is an 8-bit float or the two are the same.
ST_API cast_to_strided_fn cast_to_strided(ScalarType from, ScalarType to);

}  // namespace st::native
