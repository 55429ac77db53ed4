// The memory layout of tensors an operator creates: dense strides in the
// dim order its operands suggest (PyTorch's infer_dense_strides for one
// operand, TensorIterator's output layout for several, empty_like with
// Preserve).
#pragma once

#include <cstdint>

#include <st/core/array_ref.h>
#include <st/core/export.h>
#include <st/core/small_vector.h>
#include <st/core/tensor.h>

namespace st::native {

// The dims of `shape` fastest-first, ordered by the operands' strides
// (`strides` holds one row of shape.size() strides per operand, in the
// shape's dims; a stride of 0 marks a broadcast dim, which does not vote);
// ties keep the original order.
ST_API DimVector fastest_first_dim_order(IntArrayRef shape, IntArrayRef strides);

// Dense strides (elements) for `shape` laid out in `order` (fastest dim
// first), a permutation of the shape's dims.
ST_API DimVector dense_strides_in_order(IntArrayRef shape, IntArrayRef order);

// dense_strides_in_order(shape, fastest_first_dim_order(shape, strides)).
ST_API DimVector permuted_dense_strides(IntArrayRef shape, IntArrayRef strides);

// A new tensor of like's sizes and `dtype` on its device laid out as
// empty_like with Preserve: like's strides when it is non-overlapping and
// dense, else dense strides in the order of like's strides.
ST_API Tensor empty_preserving(const Tensor& like, ScalarType dtype);

}  // namespace st::native
