// dot on CUDA: the CPU kernel's checks and dtypes (every real dtype but
// bool, integers included), computed by the two-pass reduction of
// kernels/dot.cu rather than cuBLAS, which has no integer dot.
#include <st/core/empty_tensor.h>
#include <st/core/error.h>
#include <st/device/device_guard.h>
#include <st/native/dtype_dispatch.h>

#include "cuda_ops.h"
#include "cuda_runtime.h"
#include "cuda_tensor_args.h"
#include "native/dot_checks.h"

namespace st::cuda::ops {

Tensor dot(const Tensor& self, const Tensor& tensor) {
  detail::check_cuda(self, "dot", "self");
  detail::check_cuda(tensor, "dot", "tensor");
  ST_CHECK(self.device() == tensor.device(),
           "dot: expected all tensors to be on the same device, but found at least two devices, ",
           self.device(), " and ", tensor.device());
  native::check_dot_shapes(self, tensor);
  constexpr uint64_t kDotTypes =
      native::kAllTypes | native::kReducedFloatTypes | native::kComplexTypes;
  if ((kDotTypes & native::dtype_bit(self.dtype())) == 0) {
    native::throw_dtype_not_implemented("dot", self.dtype());
  }
  const int32_t code = detail::kernel_dtype(self.dtype(), "dot");
  DeviceGuard guard(self.device());
  Tensor out = st::detail::empty_generic({}, self.dtype(), self.device());
  const int64_t n = self.numel();
  // Scratch for the per-block partial sums (8 bytes each: float, double or
  // int64), from the caching allocator on the current stream.
  Tensor partials =
      st::detail::empty_generic({kernels::dot_partials(n)}, ScalarType::Long, self.device());
  detail::check_launch(
      kernels::dot(detail::compute_type(self.dtype()), self.const_data_ptr(), self.stride(0),
                   tensor.const_data_ptr(), tensor.stride(0), code, out.data_ptr(), n,
                   partials.data_ptr(), detail::current_native_stream()),
      "dot");
  return out;
}

}  // namespace st::cuda::ops
