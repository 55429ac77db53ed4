// Internal: the double matrix product, packed panels around the per-ISA
// register tile (VecKernels::gemm_f64_tile):
//   C[m, n] = alpha * op(A)[m, k] @ op(B)[k, n] + beta * C
// with the operand conventions of gemm (gemm.h): row-major matrices with
// leading dimensions, op(X) = X or X^T. With beta == 0, C is written
// without being read; with alpha == 0 or k == 0, A and B are not read
// (as BLAS: C = beta * C). Each element sums its products in increasing
// p, kDgemmDepth at a time, whatever the thread count, so the result does
// not depend on it. Rows of C are split over the thread pool.
#pragma once

#include <cstdint>

namespace st::native {

void dgemm(bool transa, bool transb, int64_t m, int64_t n, int64_t k, double alpha, const double* a,
           int64_t lda, const double* b, int64_t ldb, double beta, double* c, int64_t ldc);

}  // namespace st::native
