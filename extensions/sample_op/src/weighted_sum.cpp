// weighted_sum: sum_i weights[i] * tensors[i], accumulated in double and
// written in the tensors' dtype.
#include "sample_op.h"

#include <torch/csrc/stable/ops.h>
#include <torch/headeronly/core/Dispatch_v2.h>
#include <torch/headeronly/util/Exception.h>

namespace sample_op {

using torch::headeronly::ScalarType;

Tensor weighted_sum(const std::vector<Tensor>& tensors, const std::vector<double>& weights) {
  STD_TORCH_CHECK(!tensors.empty(), "sample_op::weighted_sum: expected at least one tensor");
  STD_TORCH_CHECK(tensors.size() == weights.size(), "sample_op::weighted_sum: got ", tensors.size(),
                  " tensors but ", weights.size(), " weights");
  std::vector<Tensor> inputs;
  inputs.reserve(tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i) {
    STD_TORCH_CHECK(tensors[i].is_cpu(), "sample_op::weighted_sum: tensors[", i,
                    "] is not on the CPU");
    STD_TORCH_CHECK(tensors[i].sizes().equals(tensors[0].sizes()) &&
                        tensors[i].scalar_type() == tensors[0].scalar_type(),
                    "sample_op::weighted_sum: tensors[", i, "] (", tensors[i].sizes(), ", ",
                    tensors[i].scalar_type(), ") differs from tensors[0] (", tensors[0].sizes(),
                    ", ", tensors[0].scalar_type(), ")");
    inputs.push_back(torch::stable::contiguous(tensors[i]));
  }
  Tensor out = torch::stable::empty_like(inputs[0]);
  const int64_t n = out.numel();
  THO_DISPATCH_V2(out.scalar_type(), "sample_op::weighted_sum", AT_WRAP([&] {
                    std::vector<const scalar_t*> src;
                    for (const Tensor& t : inputs) src.push_back(t.const_data_ptr<scalar_t>());
                    scalar_t* dst = out.mutable_data_ptr<scalar_t>();
                    torch::stable::parallel_for(0, n, 8192, [&](int64_t begin, int64_t end) {
                      for (int64_t i = begin; i < end; ++i) {
                        double acc = 0;
                        for (size_t k = 0; k < src.size(); ++k) {
                          acc += weights[k] * static_cast<double>(src[k][i]);
                        }
                        dst[i] = static_cast<scalar_t>(acc);
                      }
                    });
                  }),
                  AT_EXPAND(AT_FLOATING_TYPES), ScalarType::Half, ScalarType::BFloat16);
  return out;
}

}  // namespace sample_op
