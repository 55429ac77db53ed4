// Resizing the tensors an operator writes: the resize_ primitive and the
// out= rule (an out= tensor of another shape is resized, with PyTorch's
// deprecation warning when it had elements).
#pragma once

#include <st/core/array_ref.h>
#include <st/core/export.h>
#include <st/core/tensor.h>

namespace st::native {

// Reshapes `t` in place to `shape` with contiguous strides, growing the
// storage if needed. The byte count is checked before anything changes:
// throws "resize: byte size ... overflows int64" and leaves t as it was.
ST_API void resize_impl(const Tensor& t, IntArrayRef shape);

// Resizes an out= tensor to `shape` (warning when it had elements and the
// shape changes, as PyTorch). Returns true when it was resized.
ST_API bool resize_output(const Tensor& out, IntArrayRef shape);

// resize_output, and a resized out= takes result's strides when result is
// non-overlapping and dense (the layout the operator gives its result).
ST_API bool resize_output_like(const Tensor& out, const Tensor& result);

}  // namespace st::native
