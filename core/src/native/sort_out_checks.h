// The dtype checks of sort's and topk's values/indices out= tensors, one
// copy for the CPU kernels (sorting.cpp) and the CUDA ones
// (cuda/register_cuda_kernels.cpp) so both raise the same messages.
#pragma once

#include <st/core/export.h>
#include <st/core/tensor.h>

namespace st::native {

// values must have the computed values' dtype (v), indices Long.
ST_API void check_sort_outs(const Tensor& v, const Tensor& values, const Tensor& indices,
                            const char* op);

}  // namespace st::native
