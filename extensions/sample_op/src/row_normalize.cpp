// row_normalize: (x - mean(row)) / sqrt(var(row) + eps) for each row of a
// 2-D floating tensor, rows spread over the thread pool.
#include "sample_op.h"

#include <torch/csrc/stable/ops.h>
#include <torch/headeronly/core/Dispatch_v2.h>
#include <torch/headeronly/core/TensorAccessor.h>
#include <torch/headeronly/util/Exception.h>

#include <cmath>

namespace sample_op {

using torch::headeronly::ScalarType;

Tensor row_normalize(const Tensor& x, double eps) {
  STD_TORCH_CHECK(x.dim() == 2, "sample_op::row_normalize: expected a 2-D tensor, got ", x.dim(),
                  "-D");
  STD_TORCH_CHECK(eps >= 0, "sample_op::row_normalize: eps must be >= 0, got ", eps);
  STD_TORCH_CHECK(x.is_cpu(), "sample_op::row_normalize: expected a CPU tensor");
  Tensor out = torch::stable::empty_like(x);
  const int64_t rows = x.size(0);
  const int64_t cols = x.size(1);
  THO_DISPATCH_V2(x.scalar_type(), "sample_op::row_normalize", AT_WRAP([&] {
                    // Accessors honour any strides, so x need not be contiguous.
                    torch::headeronly::HeaderOnlyTensorAccessor<const scalar_t, 2> in(
                        x.const_data_ptr<scalar_t>(), x.sizes().data(), x.strides().data());
                    torch::headeronly::HeaderOnlyTensorAccessor<scalar_t, 2> res(
                        out.mutable_data_ptr<scalar_t>(), out.sizes().data(), out.strides().data());
                    torch::stable::parallel_for(0, rows, 1, [&](int64_t begin, int64_t end) {
                      for (int64_t r = begin; r < end; ++r) {
                        double mean = 0;
                        for (int64_t c = 0; c < cols; ++c) mean += static_cast<double>(in[r][c]);
                        mean /= static_cast<double>(cols > 0 ? cols : 1);
                        double var = 0;
                        for (int64_t c = 0; c < cols; ++c) {
                          const double d = static_cast<double>(in[r][c]) - mean;
                          var += d * d;
                        }
                        var /= static_cast<double>(cols > 0 ? cols : 1);
                        const double inv = 1.0 / std::sqrt(var + eps);
                        for (int64_t c = 0; c < cols; ++c) {
                          res[r][c] =
                              static_cast<scalar_t>((static_cast<double>(in[r][c]) - mean) * inv);
                        }
                      }
                    });
                  }),
                  AT_EXPAND(AT_FLOATING_TYPES), ScalarType::Half, ScalarType::BFloat16);
  return out;
}

}  // namespace sample_op
