// scale_: the in-place op (schema `Tensor(a!) x ... -> Tensor(a!)`). It
// writes into x and returns x itself, as PyTorch's in-place ops do.
#include "sample_op.h"

#include <torch/csrc/stable/ops.h>
#include <torch/headeronly/core/Dispatch_v2.h>
#include <torch/headeronly/util/Exception.h>

namespace sample_op {

using torch::headeronly::ScalarType;

Tensor scale_(Tensor x, double factor) {
  STD_TORCH_CHECK(x.is_cpu(), "sample_op::scale_: expected a CPU tensor");
  STD_TORCH_CHECK(x.is_contiguous(), "sample_op::scale_: expected a contiguous tensor");
  const int64_t n = x.numel();
  THO_DISPATCH_V2(x.scalar_type(), "sample_op::scale_", AT_WRAP([&] {
                    scalar_t* p = x.mutable_data_ptr<scalar_t>();
                    torch::stable::parallel_for(0, n, 16384, [&](int64_t begin, int64_t end) {
                      for (int64_t i = begin; i < end; ++i) {
                        p[i] = static_cast<scalar_t>(static_cast<double>(p[i]) * factor);
                      }
                    });
                  }),
                  AT_EXPAND(AT_ALL_TYPES), ScalarType::Half, ScalarType::BFloat16);
  return x;
}

}  // namespace sample_op
