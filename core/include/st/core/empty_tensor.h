// The allocation primitives behind every factory (empty, zeros, ...). The
// public factory ops (st::empty) come from the dispatcher layer; these take
// the allocator for the device from the registry.
#pragma once

#include <st/core/array_ref.h>
#include <st/core/device.h>
#include <st/core/export.h>
#include <st/core/tensor.h>
#include <torch/headeronly/core/MemoryFormat.h>
#include <torch/headeronly/core/ScalarType.h>

namespace st {
namespace detail {

// An uninitialised tensor of `sizes` in `memory_format` (Contiguous,
// ChannelsLast for 4-d, ChannelsLast3d for 5-d). Throws st::Error for
// negative sizes, numel * element size overflow (checked_arithmetic.h),
// Preserve, or a format that does not fit the rank.
ST_API Tensor empty_generic(IntArrayRef sizes, ScalarType dtype, Device device,
                            MemoryFormat memory_format = MemoryFormat::Contiguous);

// An uninitialised tensor with explicit strides (storage big enough for the
// largest reachable element). Throws for negative sizes or strides,
// mismatched lengths, overflow.
ST_API Tensor empty_strided_generic(IntArrayRef sizes, IntArrayRef strides, ScalarType dtype,
                                    Device device);

// Contiguous strides for `sizes` (size-0/1 dims get the stride the next
// dim would have, as PyTorch). Throws st::Error "Stride calculation
// overflowed" when a stride does not fit int64 (only possible for a tensor
// with a size-0 dim); out_strides may then be partly written.
ST_API void contiguous_strides(IntArrayRef sizes, int64_t* out_strides);

}  // namespace detail
}  // namespace st
