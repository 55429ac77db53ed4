// scale_add_clamp on the CPU: one fused pass over the elements, split over
// the core's thread pool with torch::stable::parallel_for.
#include "sample_op.h"

#include <torch/csrc/stable/ops.h>
#include <torch/headeronly/core/Dispatch_v2.h>
#include <torch/headeronly/util/Exception.h>

#include <algorithm>
#include <limits>

namespace sample_op {

using torch::headeronly::ScalarType;

Tensor scale_add_clamp(const Tensor& x, const Tensor& y, double alpha, std::optional<double> min,
                       std::optional<double> max) {
  STD_TORCH_CHECK(x.sizes().equals(y.sizes()),
                  "sample_op::scale_add_clamp: x and y must have one shape, got ", x.sizes(),
                  " and ", y.sizes());
  STD_TORCH_CHECK(x.scalar_type() == y.scalar_type(),
                  "sample_op::scale_add_clamp: x and y must have one dtype, got ", x.scalar_type(),
                  " and ", y.scalar_type());
  STD_TORCH_CHECK(x.is_cpu() && y.is_cpu(),
                  "sample_op::scale_add_clamp: the CPU kernel got a non-CPU tensor");
  const double lo = min.value_or(-std::numeric_limits<double>::infinity());
  const double hi = max.value_or(std::numeric_limits<double>::infinity());
  STD_TORCH_CHECK(lo <= hi, "sample_op::scale_add_clamp: min (", lo, ") must not exceed max (", hi,
                  ")");

  const Tensor xc = torch::stable::contiguous(x);
  const Tensor yc = torch::stable::contiguous(y);
  Tensor out = torch::stable::empty_like(xc);
  const int64_t n = xc.numel();

  THO_DISPATCH_V2(x.scalar_type(), "sample_op::scale_add_clamp", AT_WRAP([&] {
                    const scalar_t* xp = xc.const_data_ptr<scalar_t>();
                    const scalar_t* yp = yc.const_data_ptr<scalar_t>();
                    scalar_t* op = out.mutable_data_ptr<scalar_t>();
                    // Half and BFloat16 compute in float, like PyTorch's opmath type.
                    using acc_t =
                        std::conditional_t<std::is_same_v<scalar_t, double>, double, float>;
                    const acc_t a = static_cast<acc_t>(alpha);
                    const acc_t l = static_cast<acc_t>(lo);
                    const acc_t h = static_cast<acc_t>(hi);
                    torch::stable::parallel_for(0, n, 16384, [&](int64_t begin, int64_t end) {
                      for (int64_t i = begin; i < end; ++i) {
                        const acc_t v = static_cast<acc_t>(xp[i]) + a * static_cast<acc_t>(yp[i]);
                        op[i] = static_cast<scalar_t>(std::min(std::max(v, l), h));
                      }
                    });
                  }),
                  AT_EXPAND(AT_FLOATING_TYPES), ScalarType::Half, ScalarType::BFloat16);
  return out;
}

}  // namespace sample_op
