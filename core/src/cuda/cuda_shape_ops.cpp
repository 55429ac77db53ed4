// cat, index_select and flip on CUDA.
#include <st/core/empty_tensor.h>
#include <st/core/error.h>
#include <st/core/result_type.h>
#include <st/core/wrap_dim.h>
#include <st/device/device_guard.h>
#include <st/generated/functions.h>
#include <st/native/reduction.h>

#include "cuda_ops.h"
#include "cuda_runtime.h"
#include "cuda_tensor_args.h"

namespace st::cuda::ops {

// Each input is copied (converting to the result dtype) into its slice of
// the result with the strided copy kernel.
Tensor cat(ArrayRef<Tensor> tensors, int64_t dim) {
  ST_CHECK(!tensors.empty(), "torch.cat(): expected a non-empty list of Tensors");
  // Legacy rule, as PyTorch: 1-d empty tensors are skipped.
  const Tensor* ref = nullptr;
  for (const Tensor& t : tensors) {
    if (!(t.dim() == 1 && t.numel() == 0)) {
      ref = &t;
      break;
    }
  }
  if (ref == nullptr) ref = &tensors.front();
  detail::check_cuda(*ref, "cat", "tensors");
  const Device device = ref->device();
  const int64_t d = maybe_wrap_dim(dim, ref->dim());
  ScalarType dtype = tensors.front().dtype();
  std::vector<int64_t> shape(ref->sizes().begin(), ref->sizes().end());
  int64_t total = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    ST_CHECK(t.device() == device,
             "torch.cat(): all input tensors must be on the same device. "
             "Received ",
             device, " and ", t.device());
    if (i > 0) dtype = torch::headeronly::promoteTypes(dtype, t.dtype());
    if (t.dim() == 1 && t.numel() == 0) continue;
    ST_CHECK(t.dim() == ref->dim(),
             "torch.cat(): Tensors must have same number of dimensions: "
             "got ",
             ref->dim(), " and ", t.dim());
    for (int64_t k = 0; k < t.dim(); ++k) {
      ST_CHECK(k == d || t.size(k) == ref->size(k),
               "Sizes of tensors must match except in "
               "dimension ",
               d, ". Expected size ", ref->size(k), " but got size ", t.size(k),
               " for tensor number ", i, " in the list.");
    }
    total += t.size(d);
  }
  if (ref->dim() > 0) shape[static_cast<size_t>(d)] = total;
  DeviceGuard guard(device);
  Tensor result = st::detail::empty_generic(IntArrayRef(shape), dtype, device);
  int64_t offset = 0;
  for (const Tensor& t : tensors) {
    if ((t.dim() == 1 && t.numel() == 0) || t.size(d) == 0) continue;
    ops::copy_(st::narrow(result, d, offset, t.size(d)), t, false);
    offset += t.size(d);
  }
  return result;
}

Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index) {
  detail::check_cuda(self, "index_select", "self");
  ST_CHECK(index.dim() <= 1, "index_select(): Index is supposed to be a vector");
  ST_CHECK(index.dtype() == ScalarType::Long || index.dtype() == ScalarType::Int,
           "index_select(): Expected dtype int32/int64 for index but got: ",
           torch::headeronly::toString(index.dtype()));
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  DeviceGuard guard(self.device());
  // The bounds are checked on the host, so the kernel never reads outside.
  const Tensor idx_host = st::to(index, Device(DeviceType::CPU), ScalarType::Long);
  const Tensor idx_c = st::contiguous(idx_host);
  const int64_t n = idx_c.numel();
  const int64_t self_dim = self.dim() == 0 ? 1 : self.size(d);
  const auto* iv = static_cast<const int64_t*>(idx_c.const_data_ptr());
  for (int64_t k = 0; k < n; ++k) {
    ST_CHECK(iv[k] >= 0 && iv[k] < self_dim, "index_select(): index ", iv[k],
             " is out of bounds for dimension ", d, " with size ", self_dim);
  }
  std::vector<int64_t> out_shape(self.sizes().begin(), self.sizes().end());
  if (self.dim() > 0) out_shape[static_cast<size_t>(d)] = n;
  Tensor result = st::detail::empty_generic(IntArrayRef(out_shape), self.dtype(), self.device());
  if (result.numel() == 0) return result;
  const Tensor src = st::contiguous(self);
  const Tensor idx_dev = st::to(idx_c, self.device(), ScalarType::Long);
  int64_t outer = 1;
  int64_t inner = 1;
  for (int64_t k = 0; k < d; ++k) outer *= self.size(k);
  for (int64_t k = d + 1; k < self.dim(); ++k) inner *= self.size(k);
  detail::check_launch(
      kernels::index_select(result.data_ptr(), src.const_data_ptr(),
                            static_cast<const int64_t*>(idx_dev.const_data_ptr()), n, outer,
                            self_dim, inner, static_cast<int32_t>(self.itemsize()),
                            detail::current_native_stream()),
      "index_select");
  return result;
}

// One thread per output element reads its flipped source element
// (kernels/flip.cu); raw elements, so every dtype is handled.
Tensor flip(const Tensor& self, IntArrayRef dims) {
  detail::check_cuda(self, "flip", "self");
  const int64_t nd = self.dim();
  std::vector<bool> flipped(static_cast<size_t>(nd), false);
  if (!dims.empty()) flipped = native::make_dim_mask(dims, nd, "flip");
  DeviceGuard guard(self.device());
  Tensor out = st::detail::empty_generic(self.sizes(), self.dtype(), self.device());
  const int64_t n = self.numel();
  if (n == 0) return out;
  const kernels::Shape shape = detail::make_shape(self.sizes(), "flip");
  kernels::Operand src;
  src.data = const_cast<void*>(self.const_data_ptr());
  uint32_t mask = 0;
  for (int64_t d = 0; d < nd; ++d) {
    src.strides[d] = self.stride(d);
    if (flipped[static_cast<size_t>(d)]) mask |= 1u << d;
  }
  detail::check_launch(
      kernels::flip(shape, src, mask, out.data_ptr(), static_cast<int32_t>(self.itemsize()), n,
                    detail::current_native_stream()),
      "flip");
  return out;
}

}  // namespace st::cuda::ops
