// sum / mean / amax / amin over dimensions on CUDA: the reduced dimensions
// are moved last and made contiguous on the device, then one block reduces
// each row (reduce.cu).
#include <st/core/empty_tensor.h>
#include <st/core/error.h>
#include <st/core/wrap_dim.h>
#include <st/device/device_guard.h>
#include <st/generated/functions.h>

#include "cuda_ops.h"
#include "cuda_runtime.h"
#include "cuda_tensor_args.h"

namespace st::cuda::ops {

Tensor reduce(kernels::Reduce op, const char* name, const Tensor& self,
              std::optional<IntArrayRef> dims, bool keepdim, std::optional<ScalarType> dtype) {
  detail::check_cuda(self, name, "self");
  DeviceGuard guard(self.device());
  const int64_t ndim = self.dim();
  // Which dimensions are reduced (none given or empty: all of them).
  std::vector<bool> reduced(static_cast<size_t>(ndim), !dims || dims->empty());
  if (dims) {
    for (int64_t d : *dims) {
      const int64_t w = maybe_wrap_dim(d, ndim);
      if (ndim == 0) continue;
      ST_CHECK(!reduced[static_cast<size_t>(w)] || dims->empty(), name, ": dim ", w,
               " appears multiple times in the list of dims");
      reduced[static_cast<size_t>(w)] = true;
    }
  }
  ScalarType out_dtype = dtype.value_or(self.dtype());
  if (!dtype && (op == kernels::Reduce::Sum) &&
      torch::headeronly::isIntegralType(self.dtype(), true)) {
    out_dtype = ScalarType::Long;  // as PyTorch: integer sums are int64
  }
  if (op == kernels::Reduce::Mean) {
    ST_CHECK(torch::headeronly::isFloatingType(out_dtype), name,
             "(): could not infer output dtype. Input dtype must be either a floating point or "
             "complex dtype. Got: ", torch::headeronly::toString(out_dtype));
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
    ST_CHECK(row_len > 0 || rows == 0, name,
             "(): Expected reduction dim to have non-zero size.");
  }
  Tensor result = st::detail::empty_generic(IntArrayRef(out_shape), out_dtype, self.device());
  if (result.numel() == 0) return result;
  // Reduced dimensions last, contiguous: each output element is one row.
  const Tensor rows_view = st::contiguous(st::permute(self, IntArrayRef(perm)));
  const kernels::Compute compute = detail::compute_type(
      torch::headeronly::isFloatingType(out_dtype) ? out_dtype
                                                   : (torch::headeronly::isFloatingType(
                                                          self.dtype())
                                                          ? self.dtype()
                                                          : ScalarType::Long));
  detail::check_launch(
      kernels::reduce_rows(op, compute, rows_view.const_data_ptr(),
                           detail::kernel_dtype(rows_view.dtype(), name), result.data_ptr(),
                           detail::kernel_dtype(out_dtype, name), rows, row_len,
                           detail::current_native_stream()),
      name);
  return result;
}

}  // namespace st::cuda::ops
