// The argument checks of gather and scatter, one copy for the CPU kernels
// (indexing.cpp) and the CUDA ones (cuda/cuda_gather_scatter.cpp) so both
// refuse the same arguments with the same messages.
#pragma once

#include <cstdint>

#include <st/core/export.h>
#include <st/core/tensor.h>

namespace st::native {

// PyTorch's rules: index is int64, has as many dims as self (0-d counts as
// 1-d) and (scatter, src given) as src, and is no larger than self outside
// `dim` and than src anywhere. `dim` is already wrapped. An empty index
// skips the size checks.
ST_API void check_gather_scatter(const char* op, const Tensor& self, int64_t dim,
                                 const Tensor& index, const Tensor* src);

// scatter's: check_gather_scatter, and src (when given) has self's dtype.
ST_API void check_scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* src);

}  // namespace st::native
