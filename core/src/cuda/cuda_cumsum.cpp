// cumsum on CUDA with the CPU kernel's dtypes (integers and bool sum to
// int64 unless dtype= says otherwise; the input is converted to the result
// dtype first, as the CPU's) and accumulation (double for floating dtypes).
// The input is made contiguous and viewed as [outer, n, inner] around dim
// (kernels/cumsum.cu).
#include <st/core/empty_tensor.h>
#include <st/core/error.h>
#include <st/core/wrap_dim.h>
#include <st/device/device_guard.h>
#include <st/generated/functions.h>

#include "cuda_ops.h"
#include "cuda_runtime.h"
#include "cuda_tensor_args.h"

namespace st::cuda::ops {

Tensor cumsum(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  detail::check_cuda(self, "cumsum", "self");
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  ScalarType dt = self.dtype();
  if (dtype.has_value()) {
    dt = *dtype;
  } else if (torch::headeronly::isIntegralType(self.dtype(), true)) {
    dt = ScalarType::Long;
  }
  const int32_t code = detail::kernel_dtype(dt, "cumsum");
  DeviceGuard guard(self.device());
  Tensor result = st::detail::empty_generic(self.sizes(), dt, self.device());
  if (self.numel() == 0) return result;
  const Tensor input = st::contiguous(self.dtype() == dt ? self : st::to(self, dt));
  const int64_t n = self.dim() > 0 ? self.size(d) : 1;
  int64_t outer = 1;
  int64_t inner = 1;
  for (int64_t i = 0; i < d; ++i) outer *= self.size(i);
  for (int64_t i = d + 1; i < self.dim(); ++i) inner *= self.size(i);
  detail::check_launch(kernels::cumsum(input.const_data_ptr(), result.data_ptr(), code, outer, n,
                                       inner, detail::current_native_stream()),
                       "cumsum");
  return result;
}

}  // namespace st::cuda::ops
