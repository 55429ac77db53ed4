// sort (stable) and topk on CUDA with the CPU kernels' checks, dtypes and
// order (core/src/native/sorting.cpp): NaN above every number, ties in
// index order, in both directions. Lines along dim are moved last and made
// contiguous, sorted with CUB's segmented radix sort (kernels/sort.cu),
// and moved back. topk is the first k of the stable sort (sorted=False
// returns them sorted all the same, which PyTorch allows).
#include <limits>
#include <vector>

#include <st/core/empty_tensor.h>
#include <st/core/error.h>
#include <st/core/wrap_dim.h>
#include <st/device/device_guard.h>
#include <st/generated/functions.h>
#include <st/native/dtype_dispatch.h>

#include "cuda_ops.h"
#include "cuda_runtime.h"
#include "cuda_tensor_args.h"
#include "native/sort_checks.h"

namespace st::cuda::ops {

std::tuple<Tensor, Tensor> sort(const Tensor& self, int64_t dim, std::optional<int64_t> k_opt,
                                bool descending, const char* op) {
  detail::check_cuda(self, op, "self");
  native::check_sortable(self, op);
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  const int64_t n = self.dim() ? self.size(d) : 1;
  const int64_t k = k_opt.value_or(n);
  if (k_opt) native::check_topk_k(k, n);
  // sort takes bool, topk does not (the CPU's dtype sets).
  const uint64_t allowed = native::kAllTypes | native::kReducedFloatTypes | native::kUnsignedTypes |
                           (k_opt ? 0 : native::kBoolType);
  if ((allowed & native::dtype_bit(self.dtype())) == 0) {
    native::throw_dtype_not_implemented(op, self.dtype());
  }
  const int32_t code = detail::kernel_dtype(self.dtype(), op);
  DeviceGuard guard(self.device());
  // Lines along dim, last and contiguous.
  const Tensor x =
      self.dim() == 0 ? st::reshape(self, {1}) : st::contiguous(st::transpose(self, d, -1));
  std::vector<int64_t> rshape(x.sizes().begin(), x.sizes().end());
  rshape.back() = k;
  Tensor v = st::detail::empty_generic(IntArrayRef(rshape), self.dtype(), self.device());
  Tensor i = st::detail::empty_generic(IntArrayRef(rshape), ScalarType::Long, self.device());
  const int64_t rows = n ? x.numel() / n : 0;
  if (rows * k > 0) {
    ST_CHECK(x.numel() <= std::numeric_limits<int>::max(), op, ": the CUDA sort handles at most ",
             std::numeric_limits<int>::max(), " elements, got ", x.numel());
    const size_t bytes = kernels::sort_scratch_bytes(rows, n);
    Tensor scratch =
        st::detail::empty_generic({static_cast<int64_t>(bytes)}, ScalarType::Byte, self.device());
    detail::check_launch(
        kernels::sort_rows(x.const_data_ptr(), code, static_cast<int32_t>(self.itemsize()), rows, n,
                           k, descending, v.data_ptr(), static_cast<int64_t*>(i.data_ptr()),
                           scratch.data_ptr(), bytes, detail::current_native_stream()),
        op);
  }
  if (self.dim() == 0) return {st::reshape(v, {}), st::reshape(i, {})};
  if (d == self.dim() - 1) return {v, i};
  return {st::contiguous(st::transpose(v, d, -1)), st::contiguous(st::transpose(i, d, -1))};
}

}  // namespace st::cuda::ops
