// index.Tensor's device-independent steps, used by the CPU kernel
// (indexing.cpp) and the CUDA one (cuda/cuda_index.cpp) so both count,
// check and lay out the indices the same way and raise the same messages.
// The kernels keep only what reads or writes memory.
#pragma once

#include <optional>
#include <vector>

#include <st/core/device.h>
#include <st/core/export.h>
#include <st/core/tensor.h>

namespace st::native {

// What the kernels gather from: self (with a size-1 dim for every 0-d
// mask) and, per dim of self, the index tensor or nullopt.
struct IndexPlan {
  Tensor self;
  // Long indices from masks, the given long/int tensors as they are (each
  // kernel converts them where it reads them).
  std::vector<std::optional<Tensor>> idx;
  std::vector<int64_t> indexed;  // dims of self with an index
  std::vector<int64_t> rest;     // the other dims
  std::vector<int64_t> bshape;   // the index tensors' broadcast shape
};

// The long index a 0-d mask turns into: [0] when it is true, [] when
// false. Reading the mask is device-specific; `device` is self's.
using ZeroDimMaskIndex = Tensor (*)(const Tensor& mask, Device device);

// Checks the number of indices and their dtypes, turns masks into long
// indices (checking their shapes), pads idx to self's dims and broadcasts
// the index tensors. `indexed` is empty when no dim has an index.
ST_API IndexPlan plan_index(const Tensor& self, const std::vector<std::optional<Tensor>>& indices,
                            ZeroDimMaskIndex zero_dim_mask_index);

// The gathered result is [broadcast shape..., other dims...]; when the
// indexed dims are adjacent they keep their place in self, so the
// broadcast dims move back there (contiguous). Returns out otherwise.
ST_API Tensor place_broadcast_dims(const Tensor& out, const IndexPlan& plan);

}  // namespace st::native
