// _softmax and _log_softmax on CUDA, with the CPU kernels' checks
// (core/src/native/softmax.cpp): floating dtypes only, the result in the
// input's dtype, half_to_float refused as on the CPU. The input is made
// contiguous and viewed as [outer, n, inner] around `dim`
// (kernels/softmax.cu); half and bfloat16 compute in float.
#include <st/core/empty_tensor.h>
#include <st/core/error.h>
#include <st/core/wrap_dim.h>
#include <st/device/device_guard.h>
#include <st/generated/functions.h>
#include <st/native/dtype_dispatch.h>
#include <st/native/tensor_iterator.h>

#include "cuda_ops.h"
#include "cuda_runtime.h"
#include "cuda_tensor_args.h"

namespace st::cuda::ops {
namespace {

// y (contiguous, self's shape and dtype) = softmax of self along dim.
void softmax_into(bool log, const Tensor& y, const Tensor& self, int64_t d, const char* op) {
  const Tensor x = st::contiguous(self);
  int64_t outer = 1;
  int64_t inner = 1;
  const int64_t n = self.dim() > 0 ? self.size(d) : 1;
  for (int64_t i = 0; i < d; ++i) outer *= self.size(i);
  for (int64_t i = d + 1; i < self.dim(); ++i) inner *= self.size(i);
  const int32_t code = detail::kernel_dtype(self.dtype(), op);
  detail::check_launch(
      kernels::softmax(log, detail::compute_type(self.dtype()), x.const_data_ptr(), code,
                       y.data_ptr(), code, outer, n, inner, detail::current_native_stream()),
      op);
}

}  // namespace

Tensor softmax(bool log, const Tensor& self, int64_t dim, bool half_to_float,
               const std::optional<Tensor>& out) {
  const char* op = log ? "log_softmax" : "softmax";
  detail::check_cuda(self, op, "self");
  if (out) {
    detail::check_cuda(*out, op, "out");
    ST_CHECK(out->dtype() == self.dtype(), op, ": Expected out tensor to have dtype ",
             torch::headeronly::toString(self.dtype()), ", but got ",
             torch::headeronly::toString(out->dtype()), " instead");
    native::assert_no_partial_overlap(*out, self, op);
  }
  ST_CHECK(!half_to_float, op,
           ": softmax with half to float conversion is not supported on CUDA (as on the CPU)");
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  if ((native::kAllFloat & native::dtype_bit(self.dtype())) == 0) {
    native::throw_dtype_not_implemented(op, self.dtype());
  }
  DeviceGuard guard(self.device());
  // The kernel writes a fresh contiguous tensor unless out= is already a
  // contiguous tensor of the right shape that is not self (in place over
  // self would read elements already written when inner > 1).
  if (out) native::resize_output(*out, self.sizes());
  const bool direct = out && out->is_contiguous() && !out->is_alias_of(self);
  Tensor y = direct ? *out : st::detail::empty_generic(self.sizes(), self.dtype(), self.device());
  if (self.numel() > 0) softmax_into(log, y, self, d, op);
  if (out && !direct) {
    ops::copy_(*out, y, false);
    return *out;
  }
  return y;
}

}  // namespace st::cuda::ops
