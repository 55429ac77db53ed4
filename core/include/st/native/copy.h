// Same-dtype strided copy: the kernel behind contiguous() and the copying
// path of reshape(). Any strides, every dtype (moved by element size).
#pragma once

#include <vector>

#include <st/core/export.h>
#include <st/core/tensor.h>

namespace st::native {

// Copies src into dst elementwise. dst and src must have the same sizes,
// dtype and device (CPU); src may have stride-0 (expanded) dims. dst must
// not partially overlap src. Returns dst. Throws st::Error otherwise.
ST_API const Tensor& copy_same_dtype_(const Tensor& dst, const Tensor& src);

// Copies src into dst with the dims whose flag is set in `flipped` (one flag
// per dim) reversed: along such a dim, dst[i] = src[size - 1 - i]. Same
// sizes, dtype and host memory as copy_same_dtype_; dst must not share
// memory with src at all (a flip reads elements it has already written).
// Returns dst. Throws st::Error otherwise.
ST_API const Tensor& copy_flipped_(const Tensor& dst, const Tensor& src,
                                   const std::vector<bool>& flipped);

}  // namespace st::native
