// The kernels of the sample_op extension. Every one is an ordinary typed
// C++ function; registration.cpp boxes them with TORCH_BOX.
#pragma once

#include <torch/csrc/stable/tensor.h>
#include <torch/headeronly/core/ScalarType.h>

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace sample_op {

using torch::stable::Tensor;

// out = clamp(x + alpha * y, min, max); x and y of one shape and floating
// dtype. CPU: parallel_for over elements, dtype dispatch with THO_DISPATCH_V2.
Tensor scale_add_clamp(const Tensor& x, const Tensor& y, double alpha, std::optional<double> min,
                       std::optional<double> max);
#ifdef SAMPLE_OP_WITH_CUDA
Tensor scale_add_clamp_cuda(const Tensor& x, const Tensor& y, double alpha,
                            std::optional<double> min, std::optional<double> max);
#endif

// Each row of a 2-D tensor shifted to zero mean and scaled to unit variance
// (biased variance, eps added inside the square root).
Tensor row_normalize(const Tensor& x, double eps);

// In place: x *= factor. Returns x.
Tensor scale_(Tensor x, double factor);

// sum_i weights[i] * tensors[i]; all tensors of one shape and dtype.
Tensor weighted_sum(const std::vector<Tensor>& tensors, const std::vector<double>& weights);

// Mean and biased variance over `dims`, computed with the core's own
// operators called through torch_call_dispatcher.
std::tuple<Tensor, Tensor> moments(const Tensor& x, std::vector<int64_t> dims, bool keepdim);

// A one-line description of a tensor, prefixed with `label`.
std::string describe(const Tensor& x, std::string_view label, bool verbose);

// x converted to dtype on device (a copy through the core's `to`).
Tensor cast_to(const Tensor& x, torch::headeronly::ScalarType dtype, torch::stable::Device device);

// A copy of x (int64) with `value` where mask is true; without a mask,
// every element becomes value.
Tensor masked_fill_value(const Tensor& x, const std::optional<Tensor>& mask, int64_t value);

}  // namespace sample_op
