#include "sample_op.h"

#include <torch/csrc/stable/ops.h>
#include <torch/headeronly/util/Exception.h>

namespace sample_op {

using torch::headeronly::ScalarType;

Tensor masked_fill_value(const Tensor& x, const std::optional<Tensor>& mask, int64_t value) {
  STD_TORCH_CHECK(x.scalar_type() == ScalarType::Long,
                  "sample_op::masked_fill_value: expected an int64 tensor, got ", x.scalar_type());
  STD_TORCH_CHECK(x.is_cpu(), "sample_op::masked_fill_value: expected a CPU tensor");
  Tensor out = torch::stable::clone(torch::stable::contiguous(x));
  int64_t* dst = out.mutable_data_ptr<int64_t>();
  const int64_t n = out.numel();
  if (!mask.has_value()) {
    for (int64_t i = 0; i < n; ++i) dst[i] = value;
    return out;
  }
  STD_TORCH_CHECK(mask->scalar_type() == ScalarType::Bool,
                  "sample_op::masked_fill_value: mask must be bool, got ", mask->scalar_type());
  STD_TORCH_CHECK(mask->sizes().equals(x.sizes()), "sample_op::masked_fill_value: mask shape ",
                  mask->sizes(), " differs from x shape ", x.sizes());
  const Tensor m = torch::stable::contiguous(*mask);
  const bool* mp = m.const_data_ptr<bool>();
  for (int64_t i = 0; i < n; ++i) {
    if (mp[i]) dst[i] = value;
  }
  return out;
}

}  // namespace sample_op
