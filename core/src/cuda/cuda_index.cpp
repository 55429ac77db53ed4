// index.Tensor (advanced indexing) on CUDA, following the CPU kernel
// (core/src/native/indexing.cpp) step by step: boolean/byte masks become
// long indices through nonzero (CUDA's, which synchronizes to size its
// result), the index tensors broadcast together, the result is
// [broadcast shape..., non-indexed dims...] with the broadcast dims moved
// back into place when the indexed dims are adjacent. The device computes
// every position's offset in self (flagging values out of range) and then
// copies the non-indexed blocks (kernels/index.cu). Reading the flag is a
// synchronization; when it is set, the indices are read on the host to
// raise the CPU's error for the first bad value.
#include <vector>

#include <st/core/empty_tensor.h>
#include <st/core/error.h>
#include <st/device/device_guard.h>
#include <st/generated/functions.h>
#include <st/native/scalar_ops.h>
#include <st/native/tensor_iterator.h>

#include "cuda_ops.h"
#include "cuda_runtime.h"
#include "cuda_tensor_args.h"

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
      ST_CHECK(v >= -size && v < size, "index ", v, " is out of bounds for dimension ",
               indexed[j], " with size ", size);
    }
  }
  ST_ERROR("index: internal error: the device reported an index out of range, the host found "
           "none");
}

}  // namespace

Tensor index(const Tensor& self_in, const std::vector<std::optional<Tensor>>& indices) {
  detail::check_cuda(self_in, "index", "self");
  DeviceGuard guard(self_in.device());
  const Device device = self_in.device();
  int64_t consumed = 0;
  for (const auto& given : indices) {
    const bool mask = given.has_value() && given->defined() &&
                      (given->dtype() == ScalarType::Byte || given->dtype() == ScalarType::Bool);
    consumed += mask ? given->dim() : 1;
  }
  ST_CHECK(consumed <= self_in.dim(), "index: too many indices for tensor of dimension ",
           self_in.dim(), " (got ", consumed, ")");
  // 1. Masks become one long index per masked dim; a 0-d mask inserts a
  //    dim of size 1 indexed by [0] (true) or [] (false).
  Tensor self = self_in;
  std::vector<std::optional<Tensor>> idx;
  for (const auto& given : indices) {
    if (!given.has_value() || !given->defined()) {
      idx.emplace_back(std::nullopt);
      continue;
    }
    const Tensor& t = *given;
    const ScalarType dt = t.dtype();
    ST_CHECK(dt == ScalarType::Long || dt == ScalarType::Int || dt == ScalarType::Byte ||
                 dt == ScalarType::Bool,
             "index: tensors used as indices must be long, int, byte or bool tensors, got ",
             torch::headeronly::toString(dt));
    if (dt == ScalarType::Byte || dt == ScalarType::Bool) {
      const int64_t start = static_cast<int64_t>(idx.size());
      if (t.dim() == 0) {
        self = st::unsqueeze(self, start);
        const Tensor on = st::to(t, Device(DeviceType::CPU), ScalarType::Bool);
        const bool set = *static_cast<const bool*>(on.const_data_ptr());
        idx.emplace_back(st::zeros({set ? 1 : 0}, ScalarType::Long, std::nullopt, device));
        continue;
      }
      for (int64_t j = 0; j < t.dim(); ++j) {
        ST_CHECK(start + j < self.dim() && t.size(j) == self.size(start + j),
                 "index: The shape of the mask ", native::shape_str(t.sizes()), " at index ", j,
                 " does not match the shape of the indexed tensor ",
                 native::shape_str(self.sizes()), " at index ", start + j);
      }
      const Tensor nz = st::nonzero(t);
      for (int64_t j = 0; j < t.dim(); ++j) idx.emplace_back(st::select(nz, 1, j));
    } else {
      idx.emplace_back(t);
    }
  }
  while (static_cast<int64_t>(idx.size()) < self.dim()) idx.emplace_back(std::nullopt);

  // 2. Broadcast the index tensors; note where they sit.
  std::vector<int64_t> indexed, rest;
  std::vector<int64_t> bshape;
  bool first = true;
  for (size_t d = 0; d < idx.size(); ++d) {
    if (!idx[d].has_value()) {
      rest.push_back(static_cast<int64_t>(d));
      continue;
    }
    indexed.push_back(static_cast<int64_t>(d));
    if (first) {
      bshape.assign(idx[d]->sizes().begin(), idx[d]->sizes().end());
      first = false;
    } else {
      bshape = native::infer_size(IntArrayRef(bshape), idx[d]->sizes());
    }
  }
  if (indexed.empty()) return st::clone(self);
  const bool adjacent =
      indexed.back() - indexed.front() + 1 == static_cast<int64_t>(indexed.size());

  // 3. Offsets of the broadcast positions, then the non-indexed blocks.
  //    IndexArgs and the Operand of self hold kMaxDims entries: bound the
  //    indexed and the other dims before filling them.
  ST_CHECK(indexed.size() <= static_cast<size_t>(kernels::kMaxDims) &&
               rest.size() <= static_cast<size_t>(kernels::kMaxDims),
           "index: the CUDA kernels handle at most ", kernels::kMaxDims,
           " indexed and ", kernels::kMaxDims, " other dimensions, got ", indexed.size(),
           " and ", rest.size());
  const kernels::Shape bs = detail::make_shape(IntArrayRef(bshape), "index");
  kernels::IndexArgs args;
  args.count = static_cast<int32_t>(indexed.size());
  std::vector<Tensor> expanded;  // int64 on the device, broadcast (views)
  for (size_t j = 0; j < indexed.size(); ++j) {
    const Tensor& t = *idx[static_cast<size_t>(indexed[j])];
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
    detail::check_launch(kernels::index_offsets(bs, args, static_cast<int64_t*>(base.data_ptr()),
                                                static_cast<int32_t*>(flag.data_ptr()), bnum,
                                                stream),
                         "index");
    // The synchronizing read comes before the copy: an out-of-range value
    // got offset 0, which is outside self when the indexed dim has size 0
    // (self holds no element), so the copy must not run then.
    const Tensor flag_host = st::to(flag, Device(DeviceType::CPU), ScalarType::Int);
    if (*static_cast<const int32_t*>(flag_host.const_data_ptr()) != 0) {
      throw_out_of_range(expanded, indexed, self);
    }
    detail::check_launch(kernels::index_gather(rs, self_op,
                                               static_cast<const int64_t*>(base.const_data_ptr()),
                                               out.data_ptr(), bnum, rnum,
                                               static_cast<int32_t>(self.itemsize()), stream),
                         "index");
  }
  // 4. Adjacent indexed dims keep their place: move the broadcast dims back.
  if (adjacent && indexed.front() > 0) {
    const int64_t nb = static_cast<int64_t>(bshape.size());
    const int64_t before = indexed.front();
    std::vector<int64_t> perm;
    for (int64_t i = 0; i < before; ++i) perm.push_back(nb + i);
    for (int64_t i = 0; i < nb; ++i) perm.push_back(i);
    for (int64_t i = nb + before; i < static_cast<int64_t>(out_shape.size()); ++i) {
      perm.push_back(i);
    }
    return st::contiguous(st::permute(out, IntArrayRef(perm)));
  }
  return out;
}

}  // namespace st::cuda::ops
