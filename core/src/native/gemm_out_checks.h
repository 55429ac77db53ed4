// The out= and in-place checks of the matrix products (mm, bmm, addmm,
// dot, mv, matmul), one copy for the CPU kernels (linear_algebra.cpp) and the CUDA
// ones (cuda/cuda_native_functions.cpp) so both raise the same messages.
#pragma once

#include <st/core/export.h>
#include <st/core/tensor.h>

namespace st::native {

// out must have the product's dtype exactly (no cast on write).
ST_API void check_gemm_out_dtype(const Tensor& out, ScalarType want, const char* op);

// addmm's out must have the result's shape [mat1.size(0), mat2.size(1)]
// (checked after out is resized; out = self is not resized).
ST_API void check_addmm_out_shape(const Tensor& out, const Tensor& mat1, const Tensor& mat2);

// addmm_'s self is the result: it must have that shape already (in-place
// results cannot broadcast). mat1 and mat2 are matrices.
ST_API void check_addmm_inplace_shape(const Tensor& self, const Tensor& mat1, const Tensor& mat2);

}  // namespace st::native
