// moments: mean and biased variance over dims, built from the core's own
// operators. Most calls go through torch::stable wrappers; `binary` shows
// the raw path for operators the stable API has no wrapper for: a
// StableIValue stack handed to torch_call_dispatcher. Only PyTorch's stable
// API is used, so the plugin also runs on PyTorch's runtime.
#include "sample_op.h"

#include <torch/csrc/stable/c/shim.h>
#include <torch/csrc/stable/macros.h>
#include <torch/csrc/stable/ops.h>
#include <torch/csrc/stable/stableivalue_conversions.h>
#include <torch/headeronly/util/Exception.h>

#include <array>

namespace sample_op {
namespace {

// aten::<op>.Tensor(Tensor self, Tensor other) -> Tensor, called by hand:
// the stack owns its entries; the callee steals the arguments and leaves
// the (owned) result in stack[0].
Tensor binary(const char* op, const Tensor& self, const Tensor& other) {
  std::array<StableIValue, 2> stack{torch::stable::detail::from(self),
                                    torch::stable::detail::from(other)};
  STABLE_TORCH_ERROR_CODE_CHECK(
      torch_call_dispatcher(op, "Tensor", stack.data(), TORCH_ABI_VERSION));
  return torch::stable::detail::to<Tensor>(stack[0]);
}

Tensor divide(const Tensor& self, const Tensor& other) { return binary("aten::div", self, other); }

Tensor count_of(const Tensor& x, const std::vector<int64_t>& dims) {
  int64_t count = 1;
  if (dims.empty()) {
    count = x.numel();
  } else {
    for (int64_t d : dims) {
      const int64_t wrapped = d < 0 ? d + x.dim() : d;
      STD_TORCH_CHECK(wrapped >= 0 && wrapped < x.dim(), "sample_op::moments: dim ", d,
                      " is out of range for a ", x.dim(), "-D tensor");
      count *= x.size(wrapped);
    }
  }
  AtenTensorHandle h = nullptr;
  STABLE_TORCH_ERROR_CODE_CHECK(
      aoti_torch_scalar_to_tensor_float64(static_cast<double>(count), &h));
  return Tensor(h);
}

}  // namespace

std::tuple<Tensor, Tensor> moments(const Tensor& x, std::vector<int64_t> dims, bool keepdim) {
  STD_TORCH_CHECK(torch::headeronly::isFloatingType(x.scalar_type()),
                  "sample_op::moments: expected a floating tensor, got ", x.scalar_type());
  const Tensor n = count_of(x, dims);
  // Keep dims for the centering so the mean broadcasts against x.
  const Tensor mean_kept = divide(torch::stable::sum(x, dims, /*keepdim=*/true), n);
  const Tensor centered = torch::stable::subtract(x, mean_kept);
  const Tensor var =
      divide(torch::stable::sum(binary("aten::mul", centered, centered), dims, keepdim), n);
  const Tensor mean = keepdim ? mean_kept : divide(torch::stable::sum(x, dims, false), n);
  return {mean, var};
}

}  // namespace sample_op
