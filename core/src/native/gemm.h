// Internal: one matrix product on raw row-major pointers,
//   C[m, n] = alpha * op(A)[m, k] @ op(B)[k, n] + beta * C
// where op(X) is X or X^T (trans), and each matrix is row-major with a
// leading dimension (the stride between rows, >= its column count). With
// beta == 0, C is written without being read (NaN in C does not leak).
//
// float goes to oneDNN's dnnl_sgemm (small products to the per-ISA
// register-tiled kernel); double to the packed GEMM of dgemm.h (oneDNN has
// no double GEMM); integer products whose sums a float or a double holds
// exactly through those, with the exact sums wrapped to the dtype's width
// (Note [Integer products through a floating GEMM] in gemm.cpp); the
// others run a blocked loop accumulating in opmath_t<T>. All follow
// st::get_num_threads() (one thread inside our parallel regions). Not
// part of the public headers: linear_algebra.cpp is its only user.
#pragma once

#include <cstdint>

#include <st/core/scalar.h>
#include <st/core/tensor.h>
#include <st/native/dtype_dispatch.h>

namespace st::native {

// The dtypes mm/bmm/addmm support on CPU (PyTorch's: all types, complex,
// Half, BFloat16; no Bool).
inline constexpr uint64_t kGemmTypes = kAllTypes | kComplexTypes | kReducedFloatTypes;

template <typename T>
void gemm(bool transa, bool transb, int64_t m, int64_t n, int64_t k, opmath_t<T> alpha, const T* a,
          int64_t lda, const T* b, int64_t ldb, opmath_t<T> beta, T* c, int64_t ldc);

// How a 2-d operand is handed to gemm without a copy: trans + leading
// dimension, when its strides allow (row-major or column-major with a
// leading dimension >= the row length); ok == false otherwise.
struct GemmOperand {
  bool ok = false;
  bool trans = false;
  int64_t ld = 1;
};
GemmOperand gemm_layout(int64_t rows, int64_t cols, int64_t row_stride, int64_t col_stride);

// Batched matrix product of 3-d tensors of one dtype (batch dim first):
// out[i] = alpha * a[i] @ b[i] + beta * out[i], out of shape
// [batch, a.size(1), b.size(2)] with any strides; or of 2-d tensors, one
// product out = alpha * a @ b + beta * out. Operands whose strides
// gemm cannot express are copied first; a column-major out is handled by
// computing out^T = b^T a^T; an out sharing memory with a or b goes
// through a temporary.
void gemm_tensors(const Tensor& out, const Tensor& a, const Tensor& b, const Scalar& alpha,
                  const Scalar& beta, const char* op);

}  // namespace st::native
