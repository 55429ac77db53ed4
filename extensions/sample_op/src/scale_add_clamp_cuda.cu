// scale_add_clamp on CUDA: the same fused pass as the CPU kernel, one
// thread per element, launched on the core's current stream of x's device
// under a device guard.
#include "sample_op.h"

#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/csrc/stable/accelerator.h>
#include <torch/csrc/stable/macros.h>
#include <torch/csrc/stable/ops.h>
#include <torch/headeronly/core/Dispatch_v2.h>
#include <torch/headeronly/util/Exception.h>

#include <cuda_runtime.h>

#include <limits>

namespace sample_op {
namespace {

template <typename scalar_t, typename acc_t>
__global__ void scale_add_clamp_kernel(const scalar_t* x, const scalar_t* y, scalar_t* out,
                                       int64_t n, acc_t alpha, acc_t lo, acc_t hi) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    const acc_t v = static_cast<acc_t>(x[i]) + alpha * static_cast<acc_t>(y[i]);
    out[i] = static_cast<scalar_t>(v < lo ? lo : (v > hi ? hi : v));
  }
}

}  // namespace

Tensor scale_add_clamp_cuda(const Tensor& x, const Tensor& y, double alpha,
                            std::optional<double> min, std::optional<double> max) {
  STD_TORCH_CHECK(x.sizes().equals(y.sizes()),
                  "sample_op::scale_add_clamp: x and y must have one shape");
  STD_TORCH_CHECK(x.scalar_type() == y.scalar_type(),
                  "sample_op::scale_add_clamp: x and y must have one dtype");
  STD_TORCH_CHECK(x.is_cuda() && y.is_cuda() && x.get_device_index() == y.get_device_index(),
                  "sample_op::scale_add_clamp: the CUDA kernel needs x and y "
                  "on one CUDA device");
  const double lo = min.value_or(-std::numeric_limits<double>::infinity());
  const double hi = max.value_or(std::numeric_limits<double>::infinity());
  STD_TORCH_CHECK(lo <= hi, "sample_op::scale_add_clamp: min must not exceed max");

  torch::stable::accelerator::DeviceGuard guard(x.get_device_index());
  const Tensor xc = torch::stable::contiguous(x);
  const Tensor yc = torch::stable::contiguous(y);
  Tensor out = torch::stable::empty_like(xc);
  const int64_t n = xc.numel();
  if (n == 0) {
    return out;
  }
  void* stream_ptr = nullptr;
  TORCH_ERROR_CODE_CHECK(aoti_torch_get_current_cuda_stream(x.get_device_index(), &stream_ptr));
  const auto stream = static_cast<cudaStream_t>(stream_ptr);
  constexpr int kThreads = 256;
  const auto blocks = static_cast<unsigned>((n + kThreads - 1) / kThreads);

  THO_DISPATCH_V2(x.scalar_type(), "sample_op::scale_add_clamp_cuda", AT_WRAP([&] {
                    using acc_t =
                        std::conditional_t<std::is_same_v<scalar_t, double>, double, float>;
                    scale_add_clamp_kernel<scalar_t, acc_t><<<blocks, kThreads, 0, stream>>>(
                        xc.const_data_ptr<scalar_t>(), yc.const_data_ptr<scalar_t>(),
                        out.mutable_data_ptr<scalar_t>(), n, static_cast<acc_t>(alpha),
                        static_cast<acc_t>(lo), static_cast<acc_t>(hi));
                    STD_CUDA_KERNEL_LAUNCH_CHECK();
                  }),
                  AT_EXPAND(AT_FLOATING_TYPES));
  return out;
}

}  // namespace sample_op
