// The argument checks of sort and topk, one copy for the CPU kernels
// (sorting.cpp) and the CUDA ones (cuda/cuda_sort.cpp,
// cuda/cuda_native_functions.cpp) so both refuse the same arguments with
// the same messages.
#pragma once

#include <cstdint>

#include <st/core/export.h>
#include <st/core/tensor.h>

namespace st::native {

// Complex tensors have no order.
ST_API void check_sortable(const Tensor& self, const char* op);

// topk's k selects from a line of n elements: 0 <= k <= n.
ST_API void check_topk_k(int64_t k, int64_t n);

// values must have the computed values' dtype (v), indices Long.
ST_API void check_sort_outs(const Tensor& v, const Tensor& values, const Tensor& indices,
                            const char* op);

}  // namespace st::native
