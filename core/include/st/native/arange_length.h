// The number of elements of arange(start, end, step), shared by the CPU and
// CUDA kernels so both accept and refuse the same ranges.
#pragma once

#include <cstdint>

#include <st/core/export.h>
#include <st/core/scalar.h>
#include <torch/headeronly/core/ScalarType.h>

namespace st::native {

// ceil((end - start) / step) for an output of `dtype`. Computed exactly in
// integers when the dtype and all three scalars are integral (so ranges
// near the int64 limits neither round nor wrap), in double otherwise
// (PyTorch's rule). Throws st::Error for a zero step, a non-finite bound, a
// step whose sign does not lead from start to end, and a length that does
// not fit int64, naming the range. Never casts an out-of-range double.
ST_API int64_t arange_length(const Scalar& start, const Scalar& end, const Scalar& step,
                             torch::headeronly::ScalarType dtype);

}  // namespace st::native
