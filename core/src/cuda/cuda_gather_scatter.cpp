// gather and scatter (src and value) on CUDA with the CPU kernels' checks
// and messages (core/src/native/indexing.cpp). The kernels skip index
// values out of range (nothing outside self is read or written) and set a
// flag; reading that flag back is the one synchronization per call, and
// when it is set the index is read on the host to raise the CPU's error
// for the first bad value. Elements move as raw bytes (kernels/gather_scatter.cu), so every dtype
// is handled. Where a scatter index repeats, which write wins is
// unspecified on CUDA (the CPU: the last one), as in PyTorch.
#include <algorithm>
#include <cstring>
#include <vector>

#include <st/core/empty_tensor.h>
#include <st/core/error.h>
#include <st/core/wrap_dim.h>
#include <st/device/device_guard.h>
#include <st/generated/functions.h>
#include <st/native/scalar_ops.h>
#include <st/native/tensor_iterator.h>

#include "cuda_ops.h"
#include "cuda_runtime.h"
#include "cuda_tensor_args.h"
#include "native/gather_scatter_checks.h"

namespace st::cuda::ops {
namespace {

// The bound of these kernels, after the CPU's checks: self, src and the
// result have as many dims as the index (checked by the CPU's rules);
// their Operands hold kMaxDims strides, and raw_operand() fills them
// before make_shape() would check. An empty index launches nothing, so it
// is not bounded.
void check_kernel_dims(const char* op, const Tensor& index) {
  if (index.numel() == 0) return;
  const int64_t id = std::max<int64_t>(index.dim(), 1);
  ST_CHECK(id <= kernels::kMaxDims, op, ": the CUDA kernels handle at most ", kernels::kMaxDims,
           " dimensions, got ", id);
}

// Raises the CPU's error for the first index value outside [0, size),
// reading the index on the host (only after the device reported one).
[[noreturn]] void throw_index_range(const char* op, const Tensor& index, int64_t dim,
                                    int64_t size) {
  const Tensor host = st::contiguous(st::to(index, Device(DeviceType::CPU), ScalarType::Long));
  const auto* v = static_cast<const int64_t*>(host.const_data_ptr());
  for (int64_t k = 0; k < host.numel(); ++k) {
    ST_CHECK(v[k] >= 0 && v[k] < size, op, "(): index ", v[k], " is out of bounds for dimension ",
             dim, " with size ", size);
  }
  ST_ERROR(op,
           "(): internal error: the device reported an index out of range, the host found "
           "none");
}

// t as an operand over the index's shape: its own strides (0-d: one
// element of stride 1), dtype unused (raw elements).
kernels::Operand raw_operand(const Tensor& t) {
  kernels::Operand o;
  o.data = t.data_ptr();
  if (t.dim() == 0) {
    o.strides[0] = 1;
    return o;
  }
  for (int64_t d = 0; d < t.dim(); ++d) o.strides[d] = t.stride(d);
  return o;
}

kernels::Shape index_shape(const Tensor& index, const char* op) {
  if (index.dim() == 0) return detail::make_shape(IntArrayRef({1}), op);
  return detail::make_shape(index.sizes(), op);
}

// Whether the kernel flagged an index out of range: a 4-byte read that
// waits for the kernel (the synchronization of these operators).
bool flagged(const Tensor& flag) {
  const Tensor host = st::to(flag, Device(DeviceType::CPU), ScalarType::Int);
  return *static_cast<const int32_t*>(host.const_data_ptr()) != 0;
}

// The index on self's device (a copy when it lives elsewhere).
Tensor on_device(const Tensor& t, const Tensor& self) {
  return t.device() == self.device() ? t : st::to(t, self.device(), t.dtype());
}

}  // namespace

Tensor gather(const Tensor& self, int64_t dim, const Tensor& index) {
  detail::check_cuda(self, "gather", "self");
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  native::check_gather_scatter("gather", self, d, index, nullptr);
  check_kernel_dims("gather", index);
  DeviceGuard guard(self.device());
  Tensor out = st::detail::empty_generic(index.sizes(), self.dtype(), self.device());
  if (index.numel() == 0) return out;
  const int64_t size = self.dim() ? self.size(d) : 1;
  const Tensor idx = on_device(index, self);
  Tensor flag = st::zeros({1}, ScalarType::Int, std::nullopt, self.device());
  detail::check_launch(
      kernels::gather(index_shape(idx, "gather"), raw_operand(out), raw_operand(self),
                      raw_operand(idx), static_cast<int32_t>(d), size,
                      static_cast<int32_t>(self.itemsize()), static_cast<int32_t*>(flag.data_ptr()),
                      idx.numel(), detail::current_native_stream()),
      "gather");
  if (flagged(flag)) throw_index_range("gather", index, d, size);
  return out;
}

Tensor scatter_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor* src,
                const Scalar* value) {
  detail::check_cuda(self, "scatter", "self");
  const int64_t d = maybe_wrap_dim(dim, self.dim());
  native::check_scatter(self, d, index, src);
  check_kernel_dims("scatter", index);
  native::assert_no_internal_overlap(self, "scatter_");
  DeviceGuard guard(self.device());
  if (index.numel() == 0) return self;
  const int64_t size = self.dim() ? self.size(d) : 1;
  const Tensor idx = on_device(index, self);
  Tensor flag = st::zeros({1}, ScalarType::Int, std::nullopt, self.device());
  kernels::RawValue raw;
  Tensor src_dev;
  kernels::Operand src_op;
  if (src) {
    src_dev = on_device(*src, self);
    src_op = raw_operand(src_dev);
  } else {
    // The value converted to self's dtype on the host, passed as bytes.
    const Tensor v = native::scalar_to_tensor(*value, self.dtype());
    std::memcpy(raw.word, v.const_data_ptr(), static_cast<size_t>(v.itemsize()));
  }
  detail::check_launch(
      kernels::scatter(
          index_shape(idx, "scatter"), raw_operand(self), raw_operand(idx), src ? &src_op : nullptr,
          raw, static_cast<int32_t>(d), size, static_cast<int32_t>(self.itemsize()),
          static_cast<int32_t*>(flag.data_ptr()), idx.numel(), detail::current_native_stream()),
      "scatter");
  // As on the CPU, self may have been partly written when this throws.
  if (flagged(flag)) throw_index_range("scatter", index, d, size);
  return self;
}

}  // namespace st::cuda::ops
