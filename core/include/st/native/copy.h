// Same-dtype strided copy: the kernel behind contiguous() and the copying
// path of reshape(). Any strides, every dtype (moved by element size).
#pragma once

#include <st/core/export.h>
#include <st/core/tensor.h>

namespace st::native {

// Copies src into dst elementwise. dst and src must have the same sizes,
// dtype and device (CPU); src may have stride-0 (expanded) dims. dst must
// not partially overlap src. Returns dst. Throws st::Error otherwise.
ST_API const Tensor& copy_same_dtype_(const Tensor& dst, const Tensor& src);

}  // namespace st::native
