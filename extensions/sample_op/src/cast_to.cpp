#include "sample_op.h"

#include <torch/csrc/stable/ops.h>

namespace sample_op {

Tensor cast_to(const Tensor& x, torch::headeronly::ScalarType dtype, torch::stable::Device device) {
  // Always a copy, so callers can mutate the result freely.
  return torch::stable::to(x, dtype, std::nullopt, device, std::nullopt,
                           /*non_blocking=*/false, /*copy=*/true);
}

}  // namespace sample_op
