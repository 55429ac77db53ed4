// The out= checks of the indexing operators whose result is computed in a
// fresh tensor first (gather, scatter, index, masked_select, nonzero), one
// copy for the CPU kernels (indexing.cpp) and the CUDA ones
// (cuda/cuda_native_functions.cpp) so both raise the same messages.
#pragma once

#include <st/core/export.h>
#include <st/core/tensor.h>

namespace st::native {

// out has the result's dtype and shares no memory with it.
ST_API void check_indexing_out(const Tensor& result, const Tensor& out, const char* op);

// nonzero's out= holds indices: Long, whatever the input.
ST_API void check_nonzero_out_dtype(const Tensor& out);

}  // namespace st::native
