// index.Tensor (advanced indexing) on CUDA, following the CPU kernel
// (core/src/native/indexing.cpp) step by step: boolean/byte masks become
// long indices through nonzero (CUDA's, which synchronizes to size its
// result), the index tensors broadcast together, the result is
// [broadcast shape..., non-indexed dims...] with the broadcast dims moved
// back into place when the indexed dims are adjacent. The device computes
// every position's offset in self (flagging values out of range) and then
// copies the non-indexed blocks (kernels/index.cu). Reading the flag is a
// synchronization; when it is set, the indices are read on the host to
// raise the CPU's error for the first bad value. Steps 1, 2 and 4 are the
// CPU's own code (native/index_preprocess.h); this file keeps step 3.
#include <vector>

#include <st/core/empty_tensor.h>
#include <st/core/error.h>
#include <st/device/device_guard.h>
#include <st/generated/functions.h>

#include "cuda_ops.h"
#include "cuda_runtime.h"
#include "cuda_tensor_args.h"
#include "native/index_preprocess.h"

namespace st::cuda::ops {
namespace {

// Raises the CPU's message for the first out-of-range value, in the CPU's
// order (broadcast positions, then indexed dims).
[[noreturn]] void throw_out_of_range(const std::vector<Tensor>& expanded,
                                     const std::vector<int64_t>& indexed, const Tensor& self) {
  std::vector<Tensor> host;
  for (const Tensor& e : expanded) {
    host.push_back(st::contiguous(st::to(e, Device(DeviceType::CPU), ScalarType::Long)));
  }
  const int64_t bnum = host.empty() ? 0 : host.front().numel();
  for (int64_t b = 0; b < bnum; ++b) {
    for (size_t j = 0; j < host.size(); ++j) {
      const int64_t v = static_cast<const int64_t*>(host[j].const_data_ptr())[b];
      const int64_t size = self.size(indexed[j]);
      ST_CHECK(v >= -size && v < size, "index ", v, " is out of bounds for dimension ", indexed[j],
               " with size ", size);
    }
  }
  ST_ERROR(
      "index: internal error: the device reported an index out of range, the host found "
      "none");
}

// A 0-d mask read on the host (a synchronizing copy when it is on the
// device); its index goes on self's device.
Tensor zero_dim_mask_index(const Tensor& mask, Device device) {
  const Tensor on = st::to(mask, Device(DeviceType::CPU), ScalarType::Bool);
  const bool set = *static_cast<const bool*>(on.const_data_ptr());
  return st::zeros({set ? 1 : 0}, ScalarType::Long, std::nullopt, device);
}

}  // namespace

Tensor index(const Tensor& self_in, const std::vector<std::optional<Tensor>>& indices) {
  detail::check_cuda(self_in, "index", "self");
  DeviceGuard guard(self_in.device());
  const Device device = self_in.device();
  // 1. and 2. (the CPU's): masks to long indices, the index tensors
  //    broadcast.
  const native::IndexPlan plan = native::plan_index(self_in, indices, zero_dim_mask_index);
  const Tensor& self = plan.self;
  const std::vector<int64_t>& indexed = plan.indexed;
  const std::vector<int64_t>& rest = plan.rest;
  const std::vector<int64_t>& bshape = plan.bshape;
  if (indexed.empty()) return st::clone(self);

  // 3. Offsets of the broadcast positions, then the non-indexed blocks.
  //    IndexArgs and the Operand of self hold kMaxDims entries: bound the
  //    indexed and the other dims before filling them.
  ST_CHECK(indexed.size() <= static_cast<size_t>(kernels::kMaxDims) &&
               rest.size() <= static_cast<size_t>(kernels::kMaxDims),
           "index: the CUDA kernels handle at most ", kernels::kMaxDims, " indexed and ",
           kernels::kMaxDims, " other dimensions, got ", indexed.size(), " and ", rest.size());
  const kernels::Shape bs = detail::make_shape(IntArrayRef(bshape), "index");
  kernels::IndexArgs args;
  args.count = static_cast<int32_t>(indexed.size());
  std::vector<Tensor> expanded;  // int64 on the device, broadcast (views)
  for (size_t j = 0; j < indexed.size(); ++j) {
    const Tensor& t = *plan.idx[static_cast<size_t>(indexed[j])];
    const Tensor l = t.device() == device && t.dtype() == ScalarType::Long
                         ? t
                         : st::to(t, device, ScalarType::Long);
    expanded.push_back(st::expand(l, IntArrayRef(bshape)));
    args.index[j] = detail::make_operand(l, IntArrayRef(bshape), "index");
    args.sizes[j] = self.size(indexed[j]);
    args.strides[j] = self.stride(indexed[j]);
  }
  std::vector<int64_t> rsizes;
  kernels::Operand self_op;
  self_op.data = self.data_ptr();
  for (size_t k = 0; k < rest.size(); ++k) {
    rsizes.push_back(self.size(rest[k]));
    self_op.strides[k] = self.stride(rest[k]);
  }
  const kernels::Shape rs = detail::make_shape(IntArrayRef(rsizes), "index");
  std::vector<int64_t> out_shape(bshape);
  out_shape.insert(out_shape.end(), rsizes.begin(), rsizes.end());
  Tensor out = st::detail::empty_generic(IntArrayRef(out_shape), self.dtype(), device);
  int64_t bnum = 1;
  for (int64_t s : bshape) bnum *= s;
  int64_t rnum = 1;
  for (int64_t s : rsizes) rnum *= s;
  if (bnum > 0) {
    Tensor base = st::detail::empty_generic({bnum}, ScalarType::Long, device);
    Tensor flag = st::zeros({1}, ScalarType::Int, std::nullopt, device);
    const cudaStream_t stream = detail::current_native_stream();
    detail::check_launch(
        kernels::index_offsets(bs, args, static_cast<int64_t*>(base.data_ptr()),
                               static_cast<int32_t*>(flag.data_ptr()), bnum, stream),
        "index");
    // The synchronizing read comes before the copy: an out-of-range value
    // got offset 0, which is outside self when the indexed dim has size 0
    // (self holds no element), so the copy must not run then.
    const Tensor flag_host = st::to(flag, Device(DeviceType::CPU), ScalarType::Int);
    if (*static_cast<const int32_t*>(flag_host.const_data_ptr()) != 0) {
      throw_out_of_range(expanded, indexed, self);
    }
    detail::check_launch(
        kernels::index_gather(rs, self_op, static_cast<const int64_t*>(base.const_data_ptr()),
                              out.data_ptr(), bnum, rnum, static_cast<int32_t>(self.itemsize()),
                              stream),
        "index");
  }
  // 4. Adjacent indexed dims keep their place.
  return native::place_broadcast_dims(out, plan);
}

}  // namespace st::cuda::ops
