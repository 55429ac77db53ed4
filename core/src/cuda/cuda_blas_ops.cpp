// mm / bmm / addmm on CUDA through cuBLAS, on the current stream.
//
// cuBLAS is column-major; a row-major C = A @ B is the column-major
// C^T = B^T @ A^T, so the operands are passed swapped and untransposed.
// Inputs are made contiguous first (a copy when they are not).
#include <cublas_v2.h>

#include <limits>

#include <st/core/empty_tensor.h>
#include <st/core/error.h>
#include <st/device/device_guard.h>
#include <st/generated/functions.h>
#include <st/native/scalar_ops.h>
#include <st/native/tensor_iterator.h>

#include "cuda_blas.h"
#include "cuda_ops.h"
#include "cuda_runtime.h"
#include "cuda_tensor_args.h"
#include "native/gemm_out_checks.h"

namespace st::cuda::ops {
namespace {

cudaDataType blas_type(ScalarType t, const char* op) {
  switch (t) {
    case ScalarType::Float:
      return CUDA_R_32F;
    case ScalarType::Double:
      return CUDA_R_64F;
    case ScalarType::Half:
      return CUDA_R_16F;
    case ScalarType::BFloat16:
      return CUDA_R_16BF;
    default:
      ST_ERROR(op, ": \"", op, "_cuda\" not implemented for '", torch::headeronly::toString(t),
               "'");
  }
}

int checked_int(int64_t v, const char* op) {
  ST_CHECK(v <= std::numeric_limits<int>::max(), op, ": dimension ", v,
           " is too large for cuBLAS (at most ", std::numeric_limits<int>::max(), ")");
  return static_cast<int>(v);
}

// c[b] = alpha * a[b] @ m[b] + beta * c[b] (k == 0: beta * c[b], as BLAS)
// for `batch` contiguous row-major
// matrices a (n x k), m (k x p), c (n x p).
void gemm(const char* op, const Tensor& a, const Tensor& m, const Tensor& c, int64_t batch,
          int64_t n, int64_t k, int64_t p, double alpha, double beta) {
  const cudaDataType type = blas_type(c.dtype(), op);
  const bool dbl = c.dtype() == ScalarType::Double;
  const float alpha_f = static_cast<float>(alpha);
  const float beta_f = static_cast<float>(beta);
  const void* alpha_p = dbl ? static_cast<const void*>(&alpha) : &alpha_f;
  const void* beta_p = dbl ? static_cast<const void*>(&beta) : &beta_f;
  const cublasComputeType_t compute = dbl ? CUBLAS_COMPUTE_64F : CUBLAS_COMPUTE_32F;
  cublasHandle_t h = detail::blas_handle();
  const int N = checked_int(n, op), K = checked_int(k, op), P = checked_int(p, op);
  // Column-major: C^T (p x n) = M^T (p x k) @ A^T (k x n).
  const cublasStatus_t status = cublasGemmStridedBatchedEx(
      h, CUBLAS_OP_N, CUBLAS_OP_N, P, N, K, alpha_p, m.const_data_ptr(), type, P, k * p,
      a.const_data_ptr(), type, K > 0 ? K : 1, n * k, beta_p, c.data_ptr(), type, P, n * p,
      checked_int(batch, op), compute, CUBLAS_GEMM_DEFAULT);
  ST_CHECK(status == CUBLAS_STATUS_SUCCESS, op,
           ": cuBLAS error: ", detail::blas_status_name(status));
}

void check_operands(const char* op, const Tensor& a, const Tensor& b) {
  detail::check_cuda(a, op, "self");
  detail::check_cuda(b, op, "mat2");
  ST_CHECK(a.device() == b.device(), op,
           ": expected all tensors to be on the same device, but found at least two devices, ",
           a.device(), " and ", b.device());
  ST_CHECK(a.dtype() == b.dtype(), op,
           ": expected mat1 and mat2 to have the same dtype, but "
           "got: ",
           torch::headeronly::toString(a.dtype()), " != ", torch::headeronly::toString(b.dtype()));
}

}  // namespace

Tensor mm(const Tensor& self, const Tensor& mat2) {
  check_operands("mm", self, mat2);
  ST_CHECK(self.dim() == 2, "self must be a matrix");
  ST_CHECK(mat2.dim() == 2, "mat2 must be a matrix");
  ST_CHECK(self.size(1) == mat2.size(0), "mat1 and mat2 shapes cannot be multiplied (",
           self.size(0), "x", self.size(1), " and ", mat2.size(0), "x", mat2.size(1), ")");
  DeviceGuard guard(self.device());
  const int64_t n = self.size(0), k = self.size(1), p = mat2.size(1);
  Tensor out = st::detail::empty_generic({n, p}, self.dtype(), self.device());
  if (out.numel() == 0) return out;
  if (k == 0) return ops::zero_(out);
  gemm("mm", st::contiguous(self), st::contiguous(mat2), out, 1, n, k, p, 1.0, 0.0);
  return out;
}

Tensor bmm(const Tensor& self, const Tensor& mat2) {
  check_operands("bmm", self, mat2);
  ST_CHECK(self.dim() == 3, "batch1 must be a 3D tensor");
  ST_CHECK(mat2.dim() == 3, "batch2 must be a 3D tensor");
  ST_CHECK(self.size(0) == mat2.size(0),
           "batch1 and batch2 must have same number of batches, "
           "got ",
           self.size(0), " and ", mat2.size(0));
  ST_CHECK(self.size(2) == mat2.size(1),
           "Expected size for first two dimensions of batch2 "
           "tensor to be: [",
           self.size(0), ", ", self.size(2), "] but got: [", mat2.size(0), ", ", mat2.size(1),
           "].");
  DeviceGuard guard(self.device());
  const int64_t b = self.size(0), n = self.size(1), k = self.size(2), p = mat2.size(2);
  Tensor out = st::detail::empty_generic({b, n, p}, self.dtype(), self.device());
  if (out.numel() == 0) return out;
  if (k == 0) return ops::zero_(out);
  gemm("bmm", st::contiguous(self), st::contiguous(mat2), out, b, n, k, p, 1.0, 0.0);
  return out;
}

Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
             const Scalar& alpha) {
  check_operands("addmm", mat1, mat2);
  detail::check_cuda(self, "addmm", "self");
  ST_CHECK(mat1.dim() == 2 && mat2.dim() == 2, "addmm: expected 2-d matrices, got ", mat1.dim(),
           "-d and ", mat2.dim(), "-d");
  ST_CHECK(mat1.size(1) == mat2.size(0), "mat1 and mat2 shapes cannot be multiplied (",
           mat1.size(0), "x", mat1.size(1), " and ", mat2.size(0), "x", mat2.size(1), ")");
  DeviceGuard guard(mat1.device());
  const int64_t n = mat1.size(0), k = mat1.size(1), p = mat2.size(1);
  // out starts as self broadcast to [n, p]; the GEMM accumulates into it.
  Tensor out = st::detail::empty_generic({n, p}, mat1.dtype(), mat1.device());
  if (out.numel() == 0) return out;
  const double b = beta.toComplexDouble().real();
  if (b == 0) {
    ops::zero_(out);  // beta = 0 ignores self, NaNs included, as PyTorch
  } else {
    ops::copy_(out, self, false);
  }
  gemm("addmm", st::contiguous(mat1), st::contiguous(mat2), out, 1, n, k, p,
       alpha.toComplexDouble().real(), b);
  return out;
}

// In place: the GEMM accumulates into self directly when self is a
// contiguous matrix that shares no memory with mat1 or mat2; otherwise the
// result is computed apart and copied in.
Tensor addmm_(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
              const Scalar& alpha) {
  check_operands("addmm_", mat1, mat2);
  detail::check_cuda(self, "addmm_", "self");
  ST_CHECK(self.device() == mat1.device(),
           "addmm_: expected all tensors to be on the same "
           "device, but found at least two devices, ",
           self.device(), " and ", mat1.device());
  ST_CHECK(mat1.dim() == 2 && mat2.dim() == 2, "addmm_: expected 2-d matrices, got ", mat1.dim(),
           "-d and ", mat2.dim(), "-d");
  ST_CHECK(mat1.size(1) == mat2.size(0), "mat1 and mat2 shapes cannot be multiplied (",
           mat1.size(0), "x", mat1.size(1), " and ", mat2.size(0), "x", mat2.size(1), ")");
  ST_CHECK(self.dtype() == mat2.dtype(),
           "addmm_: expected self and mat2 to have the same "
           "dtype, but got: ",
           torch::headeronly::toString(self.dtype()),
           " != ", torch::headeronly::toString(mat2.dtype()));
  native::check_addmm_inplace_shape(self, mat1, mat2);
  native::assert_no_internal_overlap(self, "addmm_");
  DeviceGuard guard(self.device());
  if (self.numel() == 0) return self;
  if (!self.is_contiguous() || self.is_alias_of(mat1) || self.is_alias_of(mat2)) {
    ops::copy_(self, ops::addmm(self, mat1, mat2, beta, alpha), false);
    return self;
  }
  const int64_t n = mat1.size(0), k = mat1.size(1), p = mat2.size(1);
  const double b = beta.toComplexDouble().real();
  if (b == 0) ops::zero_(self);  // beta = 0 ignores self, NaNs included, as PyTorch
  gemm("addmm_", st::contiguous(mat1), st::contiguous(mat2), self, 1, n, k, p,
       alpha.toComplexDouble().real(), b);
  return self;
}

}  // namespace st::cuda::ops
