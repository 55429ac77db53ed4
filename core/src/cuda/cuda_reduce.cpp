// Reductions on CUDA: sum / mean / prod / amax / amin / all / any over
// dimensions, max / min / argmax / argmin along one dimension with indices,
// var / std. The reduced dimensions are moved last and made contiguous on
// the device, then one block reduces each row (reduce.cu); var and std are
// two passes (mean, then the sum of squared deviations) over those kernels.
#include <algorithm>
#include <vector>

#include <st/core/empty_tensor.h>
#include <st/core/error.h>
#include <st/core/wrap_dim.h>
#include <st/device/device_guard.h>
#include <st/generated/functions.h>
#include <st/native/reduction.h>

#include "cuda_ops.h"
#include "cuda_runtime.h"
#include "cuda_tensor_args.h"

namespace st::cuda::ops {

Tensor reduce(kernels::Reduce op, const char* name, const Tensor& self,
              std::optional<IntArrayRef> dims, bool keepdim, std::optional<ScalarType> dtype) {
  detail::check_cuda(self, name, "self");
  DeviceGuard guard(self.device());
  const int64_t ndim = self.dim();
  // Which dimensions are reduced (none given or empty: all of them), with
  // the CPU's checks.
  const std::vector<bool> reduced = st::native::make_dim_mask(dims, ndim, name);
  ScalarType out_dtype = dtype.value_or(self.dtype());
  if (!dtype && (op == kernels::Reduce::Sum || op == kernels::Reduce::Prod) &&
      torch::headeronly::isIntegralType(self.dtype(), true)) {
    out_dtype = ScalarType::Long;  // as PyTorch: integer sums and products are int64
  }
  const bool logical = op == kernels::Reduce::All || op == kernels::Reduce::Any;
  if (logical) {
    // as the CPU: uint8 in, uint8 out; everything else gives bool
    out_dtype = self.dtype() == ScalarType::Byte ? ScalarType::Byte : ScalarType::Bool;
  }
  if (op == kernels::Reduce::Mean) {
    ST_CHECK(torch::headeronly::isFloatingType(out_dtype), name,
             "(): could not infer output dtype. Input dtype must be either a floating point or "
             "complex dtype. Got: ",
             torch::headeronly::toString(out_dtype));
  }
  std::vector<int64_t> perm;
  std::vector<int64_t> out_shape;
  int64_t rows = 1;
  int64_t row_len = 1;
  for (int64_t d = 0; d < ndim; ++d) {
    if (!reduced[static_cast<size_t>(d)]) {
      perm.push_back(d);
      out_shape.push_back(self.size(d));
      rows *= self.size(d);
    } else if (keepdim) {
      out_shape.push_back(1);
    }
  }
  for (int64_t d = 0; d < ndim; ++d) {
    if (reduced[static_cast<size_t>(d)]) {
      perm.push_back(d);
      row_len *= self.size(d);
    }
  }
  if (op == kernels::Reduce::Amax || op == kernels::Reduce::Amin) {
    ST_CHECK(row_len > 0 || rows == 0, name, "(): Expected reduction dim to have non-zero size.");
  }
  Tensor result = st::detail::empty_generic(IntArrayRef(out_shape), out_dtype, self.device());
  if (result.numel() == 0) return result;
  // Reduced dimensions last, contiguous: each output element is one row.
  const Tensor rows_view = st::contiguous(st::permute(self, IntArrayRef(perm)));
  // The CPU converts the input to the result dtype before summing (an
  // integer dtype= truncates each element); all/any test the input itself.
  const kernels::Compute compute =
      logical ? detail::compute_type(self.dtype()) : detail::compute_type(out_dtype);
  detail::check_launch(
      kernels::reduce_rows(op, compute, rows_view.const_data_ptr(),
                           detail::kernel_dtype(rows_view.dtype(), name), result.data_ptr(),
                           detail::kernel_dtype(out_dtype, name), rows, row_len,
                           detail::current_native_stream()),
      name);
  return result;
}

std::tuple<Tensor, Tensor> arg_reduce(bool is_max, const char* name, const Tensor& self,
                                      std::optional<int64_t> dim, bool keepdim, bool want_values) {
  detail::check_cuda(self, name, "self");
  DeviceGuard guard(self.device());
  if (!dim) {
    ST_CHECK(self.numel() != 0, name,
             "(): Expected reduction dim to be specified for input.numel() == 0.");
    auto r = arg_reduce(is_max, name, st::reshape(self, {-1}), 0, false, want_values);
    if (keepdim) {
      const std::vector<int64_t> ones(static_cast<size_t>(self.dim()), 1);
      std::get<1>(r) = st::reshape(std::get<1>(r), IntArrayRef(ones));
    }
    return r;
  }
  const int64_t ndim = self.dim();
  const int64_t d = maybe_wrap_dim(*dim, ndim);
  std::vector<int64_t> perm;
  std::vector<int64_t> out_shape;
  int64_t rows = 1;
  for (int64_t k = 0; k < ndim; ++k) {
    if (k == d) {
      if (keepdim) out_shape.push_back(1);
      continue;
    }
    perm.push_back(k);
    out_shape.push_back(self.size(k));
    rows *= self.size(k);
  }
  const int64_t row_len = ndim == 0 ? 1 : self.size(d);
  if (ndim > 0) perm.push_back(d);
  if (row_len == 0 && rows != 0) {
    ST_ERROR(name, "(): Expected reduction dim ", d, " to have non-zero size.");
  }
  Tensor values =
      want_values ? st::detail::empty_generic(IntArrayRef(out_shape), self.dtype(), self.device())
                  : Tensor();
  Tensor indices =
      st::detail::empty_generic(IntArrayRef(out_shape), ScalarType::Long, self.device());
  if (indices.numel() == 0) return {values, indices};
  const Tensor rows_view = st::contiguous(st::permute(self, IntArrayRef(perm)));
  detail::check_launch(
      kernels::arg_reduce_rows(
          is_max, detail::compute_type(self.dtype()), rows_view.const_data_ptr(),
          detail::kernel_dtype(rows_view.dtype(), name), want_values ? values.data_ptr() : nullptr,
          detail::kernel_dtype(self.dtype(), name), static_cast<int64_t*>(indices.data_ptr()), rows,
          row_len, detail::current_native_stream()),
      name);
  return {values, indices};
}

Tensor var_std(const char* name, const Tensor& self, std::optional<IntArrayRef> dims,
               const std::optional<Scalar>& correction, bool keepdim, bool take_sqrt) {
  detail::check_cuda(self, name, "self");
  ST_CHECK(self.is_floating_point() || self.is_complex(), name,
           ": std and var only support floating point and complex dtypes");
  DeviceGuard guard(self.device());
  const double corr = correction.has_value() ? correction->toDouble() : 1.0;
  // Two passes in float (double for double): the CPU's Welford runs in
  // double, so float results agree to float rounding, not bit for bit.
  const ScalarType acc =
      self.dtype() == ScalarType::Double ? ScalarType::Double : ScalarType::Float;
  const Tensor x = self.dtype() == acc ? self : st::to(self, acc);
  const Tensor mean = reduce(kernels::Reduce::Mean, name, x, dims, true, std::nullopt);
  const Tensor deviation = st::sub(x, mean);
  Tensor r = reduce(kernels::Reduce::Sum, name, st::mul(deviation, deviation), dims, keepdim,
                    std::nullopt);
  const int64_t n = mean.numel() > 0 ? x.numel() / mean.numel() : 0;
  r = st::div(r, Scalar(std::max(0.0, static_cast<double>(n) - corr)));
  if (take_sqrt) r = st::sqrt(r);
  return r.dtype() == self.dtype() ? r : st::to(r, self.dtype());
}

}  // namespace st::cuda::ops
