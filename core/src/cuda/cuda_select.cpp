// masked_select and nonzero on CUDA with the CPU kernels' checks. A
// device-wide scan of the selection flags gives every selected element its
// output position (kernels/select.cu); the result's size is the last
// position, which the host has to know to allocate the result: that read
// is the one synchronization of these operators.
#include <algorithm>
#include <vector>

#include <st/core/empty_tensor.h>
#include <st/core/error.h>
#include <st/device/device_guard.h>
#include <st/generated/functions.h>
#include <st/native/tensor_iterator.h>

#include "cuda_ops.h"
#include "cuda_runtime.h"
#include "cuda_tensor_args.h"

namespace st::cuda::ops {
namespace {

// Scans the flags of contiguous `flags_of` (nonzero elements) into
// `positions` and returns how many are set. Synchronizes: the count is
// copied to the host (a blocking transfer on the current stream).
int64_t count_selected(const Tensor& flags_of, const Tensor& positions, const char* op) {
  const int64_t n = flags_of.numel();
  if (n == 0) return 0;
  const size_t bytes = kernels::select_scratch_bytes(n);
  ST_CHECK(bytes > 0, op, ": CUDA error: could not size the scan's scratch space");
  Tensor scratch =
      st::detail::empty_generic({static_cast<int64_t>(bytes)}, ScalarType::Byte, flags_of.device());
  detail::check_launch(kernels::select_positions(
                           flags_of.const_data_ptr(), detail::kernel_dtype(flags_of.dtype(), op),
                           static_cast<int64_t*>(positions.data_ptr()), n, scratch.data_ptr(),
                           bytes, detail::current_native_stream()),
                       op);
  const Tensor last =
      st::to(st::narrow(positions, 0, n - 1, 1), Device(DeviceType::CPU), ScalarType::Long);
  return *static_cast<const int64_t*>(last.const_data_ptr());
}

}  // namespace

Tensor masked_select(const Tensor& self, const Tensor& mask) {
  detail::check_cuda(self, "masked_select", "self");
  ST_CHECK(mask.dtype() == ScalarType::Bool, "masked_select: expected BoolTensor for mask, got ",
           torch::headeronly::toString(mask.dtype()));
  const std::vector<int64_t> shape = native::infer_size(self.sizes(), mask.sizes());
  DeviceGuard guard(self.device());
  const Tensor m_dev =
      mask.device() == self.device() ? mask : st::to(mask, self.device(), ScalarType::Bool);
  const Tensor s = st::contiguous(st::expand(self, IntArrayRef(shape)));
  const Tensor m = st::contiguous(st::expand(m_dev, IntArrayRef(shape)));
  const int64_t n = m.numel();
  Tensor positions =
      st::detail::empty_generic({std::max<int64_t>(n, 1)}, ScalarType::Long, self.device());
  const int64_t count = count_selected(m, positions, "masked_select");
  Tensor out = st::detail::empty_generic({count}, self.dtype(), self.device());
  if (count == 0) return out;
  detail::check_launch(
      kernels::masked_compact(s.const_data_ptr(),
                              static_cast<const int64_t*>(positions.const_data_ptr()),
                              out.data_ptr(), static_cast<int32_t>(self.itemsize()), n,
                              detail::current_native_stream()),
      "masked_select");
  return out;
}

Tensor nonzero(const Tensor& self) {
  detail::check_cuda(self, "nonzero", "self");
  DeviceGuard guard(self.device());
  const Tensor s = st::contiguous(self);
  const int64_t n = s.numel();
  const kernels::Shape shape = detail::make_shape(s.sizes(), "nonzero");
  Tensor positions =
      st::detail::empty_generic({std::max<int64_t>(n, 1)}, ScalarType::Long, self.device());
  const int64_t count = count_selected(s, positions, "nonzero");
  Tensor out = st::detail::empty_generic({count, s.dim()}, ScalarType::Long, self.device());
  if (out.numel() == 0) return out;
  detail::check_launch(
      kernels::nonzero_coords(shape, static_cast<const int64_t*>(positions.const_data_ptr()),
                              static_cast<int64_t*>(out.data_ptr()), n,
                              detail::current_native_stream()),
      "nonzero");
  return out;
}

}  // namespace st::cuda::ops
