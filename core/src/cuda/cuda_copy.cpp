// copy_, fill_ and zero_ for CUDA tensors.
//
// Note [CUDA copies]
// copy_ dispatches here whenever either side is a CUDA tensor:
//   - on one device: cudaMemcpyAsync when both are contiguous with one
//     dtype and shape, else the strided converting kernel (broadcasting src);
//   - host to device: src is converted and broadcast on the host into a
//     contiguous staging tensor of the destination's dtype, uploaded, then
//     scattered by the kernel if the destination is not contiguous;
//   - device to host: src is made contiguous on its device, downloaded, and
//     the CPU copy_ converts and scatters it;
//   - device to device: the same as device to host to device, through a
//     staging copy on the host (simple and always correct; peer copies are
//     a possible optimisation).
// Transfers are synchronous: non_blocking is accepted and ignored (the
// staging buffers are pageable host memory).
#include <cstring>

#include <st/core/empty_tensor.h>
#include <st/core/error.h>
#include <st/device/device_guard.h>
#include <st/generated/functions.h>
#include <st/native/tensor_iterator.h>

#include "cuda_check.h"
#include "cuda_ops.h"
#include "cuda_runtime.h"
#include "cuda_tensor_args.h"
#include "native/fill_checks.h"

namespace st::cuda::ops {
namespace {

using detail::make_operand;
using detail::make_shape;

bool same_geometry_contiguous(const Tensor& a, const Tensor& b) {
  return a.dtype() == b.dtype() && a.sizes() == b.sizes() && a.is_contiguous() && b.is_contiguous();
}

// dst (CUDA) = src (CUDA, same device), src broadcast to dst's shape.
void device_copy(const Tensor& dst, const Tensor& src) {
  DeviceGuard guard(dst.device());
  cudaStream_t stream = detail::current_native_stream();
  if (same_geometry_contiguous(dst, src)) {
    ST_CUDA_CHECK(cudaMemcpyAsync(dst.data_ptr(), src.const_data_ptr(), dst.nbytes(),
                                  cudaMemcpyDeviceToDevice, stream));
    return;
  }
  const kernels::Shape shape = make_shape(dst.sizes(), "copy_");
  detail::check_launch(kernels::copy(shape, make_operand(dst, dst.sizes(), "copy_"),
                                     make_operand(src, dst.sizes(), "copy_"), dst.numel(), stream),
                       "copy_");
}

// A contiguous copy of a CUDA tensor on its device (t itself if already so).
Tensor contiguous_on_device(const Tensor& t) {
  if (t.is_contiguous()) return t;
  Tensor c = st::detail::empty_generic(t.sizes(), t.dtype(), t.device());
  device_copy(c, t);
  return c;
}

void synchronize_current_stream() {
  ST_CUDA_CHECK(cudaStreamSynchronize(detail::current_native_stream()));
}

// A contiguous host tensor with the contents of CUDA tensor t.
Tensor download(const Tensor& t) {
  DeviceGuard guard(t.device());
  const Tensor c = contiguous_on_device(t);
  Tensor host = st::detail::empty_generic(t.sizes(), t.dtype(), Device(DeviceType::CPU));
  if (host.nbytes() != 0) {
    ST_CUDA_CHECK(cudaMemcpyAsync(host.data_ptr(), c.const_data_ptr(), host.nbytes(),
                                  cudaMemcpyDeviceToHost, detail::current_native_stream()));
    synchronize_current_stream();
  }
  return host;
}

// dst (CUDA) = host tensor src (any dtype, broadcast to dst's shape).
void upload(const Tensor& dst, const Tensor& src) {
  DeviceGuard guard(dst.device());
  Tensor staged = src;
  if (!(src.is_cpu() && src.dtype() == dst.dtype() && src.sizes() == dst.sizes() &&
        src.is_contiguous())) {
    staged = st::detail::empty_generic(dst.sizes(), dst.dtype(), Device(DeviceType::CPU));
    st::copy_(staged, src);  // the CPU kernel converts and broadcasts
  }
  Tensor target =
      dst.is_contiguous() ? dst : st::detail::empty_generic(dst.sizes(), dst.dtype(), dst.device());
  ST_CUDA_CHECK(cudaMemcpyAsync(target.data_ptr(), staged.const_data_ptr(), staged.nbytes(),
                                cudaMemcpyHostToDevice, detail::current_native_stream()));
  if (!target.is_same(dst)) device_copy(dst, target);
  synchronize_current_stream();
}

}  // namespace

Tensor copy_(const Tensor& self, const Tensor& src, bool non_blocking) {
  (void)non_blocking;  // Note [CUDA copies]: transfers are synchronous
  ST_CHECK(self.defined() && src.defined(), "copy_: expected defined tensors");
  if (self.is_same(src)) return self;
  st::native::infer_size(self.sizes(), src.sizes());  // src must broadcast to self
  if (self.numel() == 0) return self;
  ST_CHECK(self.is_cuda() || self.is_cpu(), "copy_: copying from ", src.device(), " to ",
           self.device(), " is not supported (the CUDA copy serves CUDA and CPU tensors)");
  ST_CHECK(src.is_cuda() || src.is_cpu(), "copy_: copying from ", src.device(), " to ",
           self.device(), " is not supported (the CUDA copy serves CUDA and CPU tensors)");
  st::native::assert_no_internal_overlap(self, "copy_");
  if (self.is_cuda() && src.is_cuda() && self.device() == src.device()) {
    device_copy(self, src);
  } else if (self.is_cuda() && src.is_cpu()) {
    upload(self, src);
  } else if (self.is_cpu()) {
    st::copy_(self, download(src));  // the CPU kernel converts and broadcasts
  } else {
    upload(self, download(src));  // CUDA device to another CUDA device
  }
  return self;
}

Tensor fill_(const Tensor& self, const Scalar& value) {
  detail::check_cuda(self, "fill_", "self");
  if (self.numel() == 0) return self;
  st::native::assert_no_internal_overlap(self, "fill_");
  DeviceGuard guard(self.device());
  double f = 0;
  int64_t i = 0;
  if (value.isFloatingPoint() || value.isComplex()) {
    f = value.toComplexDouble().real();
    i = torch::headeronly::isIntegralType(self.dtype(), true) ? static_cast<int64_t>(f) : 0;
    if (self.dtype() == ScalarType::Bool) i = f != 0 ? 1 : 0;
  } else {
    i = value.isBoolean() ? (value.to<bool>() ? 1 : 0) : value.to<int64_t>();
    f = static_cast<double>(i);
    if (self.dtype() == ScalarType::Bool) i = i != 0 ? 1 : 0;
  }
  detail::check_launch(
      kernels::fill(make_shape(self.sizes(), "fill_"), make_operand(self, self.sizes(), "fill_"), f,
                    i, self.numel(), detail::current_native_stream()),
      "fill_");
  return self;
}

Tensor fill_tensor_(const Tensor& self, const Tensor& value) {
  native::check_fill_value(value);
  detail::check_cuda(self, "fill_", "self");
  if (self.numel() == 0) return self;
  // A 0-dim value on any device: broadcast-copy it (no host round trip for
  // a CUDA value).
  return ops::copy_(self, value, false);
}

Tensor zero_(const Tensor& self) { return ops::fill_(self, Scalar(int64_t{0})); }

}  // namespace st::cuda::ops
