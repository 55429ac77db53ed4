// Pointwise operators on CUDA: PyTorch's type promotion and broadcasting on
// the host, one strided kernel launch on the device (pointwise.cu).
#include <st/core/empty_tensor.h>
#include <st/core/error.h>
#include <st/core/result_type.h>
#include <st/device/device_guard.h>
#include <st/native/tensor_iterator.h>

#include "cuda_ops.h"
#include "cuda_runtime.h"
#include "cuda_tensor_args.h"

namespace st::cuda::ops {
namespace {

using detail::make_operand;
using detail::make_shape;

// The device of the operands: every tensor that is not a 0-dim CPU scalar
// must be on the same CUDA device.
Device common_cuda_device(const char* name, std::initializer_list<const Tensor*> ts) {
  std::optional<Device> device;
  for (const Tensor* t : ts) {
    if (t == nullptr || !t->defined() || (t->is_cpu() && t->dim() == 0)) continue;
    if (!device) {
      device = t->device();
    } else {
      ST_CHECK(t->device() == *device, name,
               ": expected all tensors to be on the same device, but found at least two "
               "devices, ", *device, " and ", t->device());
    }
  }
  ST_CHECK(device && device->is_cuda(), name, ": expected CUDA tensors");
  return *device;
}

// A 0-dim CPU scalar moved to the device (the kernels read device memory).
Tensor on_device(const Tensor& t, Device device) {
  if (t.device() == device) return t;
  Tensor d = st::detail::empty_generic(t.sizes(), t.dtype(), device);
  ops::copy_(d, t, false);
  return d;
}

// The output: `out` checked (device, dtype castable, resized), or a new
// tensor of `shape` and `dtype`.
Tensor prepare_out(const char* name, const std::optional<Tensor>& out, IntArrayRef shape,
                   ScalarType dtype, Device device) {
  if (!out || !out->defined()) return st::detail::empty_generic(shape, dtype, device);
  ST_CHECK(out->device() == device, name, ": expected the output on ", device, " but got ",
           out->device());
  ST_CHECK(torch::headeronly::canCast(dtype, out->dtype()), "result type ",
           torch::headeronly::toString(dtype), " can't be cast to the desired output type ",
           torch::headeronly::toString(out->dtype()));
  st::native::resize_output(*out, shape);
  st::native::assert_no_internal_overlap(*out, name);
  return *out;
}

}  // namespace

Tensor binary(kernels::Binary op, const char* name, const Tensor& self, const Tensor& other,
              const Scalar& alpha, const std::optional<Tensor>& out) {
  const Device device = common_cuda_device(name, {&self, &other, out ? &*out : nullptr});
  DeviceGuard guard(device);
  const std::vector<int64_t> shape = st::native::infer_size(self.sizes(), other.sizes());
  ScalarType common = result_type(self, other);
  if (op == kernels::Binary::Div && torch::headeronly::isIntegralType(common, true)) {
    common = default_dtype();  // true division
  }
  ST_CHECK(common != ScalarType::Bool || op == kernels::Binary::Mul ||
               op == kernels::Binary::Maximum || op == kernels::Binary::Minimum,
           name, ": operation is not supported for bool tensors on CUDA");
  const Tensor a = on_device(self, device);
  const Tensor b = on_device(other, device);
  Tensor result = prepare_out(name, out, IntArrayRef(shape), common, device);
  detail::check_launch(
      kernels::binary(op, detail::compute_type(common), make_shape(IntArrayRef(shape), name),
                      make_operand(result, IntArrayRef(shape), name),
                      make_operand(a, IntArrayRef(shape), name),
                      make_operand(b, IntArrayRef(shape), name),
                      alpha.toComplexDouble().real(), result.numel(),
                      detail::current_native_stream()),
      name);
  return result;
}

Tensor unary(kernels::Unary op, const char* name, const Tensor& self,
             const std::optional<Tensor>& out) {
  const Device device = common_cuda_device(name, {&self, out ? &*out : nullptr});
  DeviceGuard guard(device);
  const bool closed_over_ints =
      op == kernels::Unary::Neg || op == kernels::Unary::Abs || op == kernels::Unary::Relu;
  ScalarType dtype = self.dtype();
  if (!closed_over_ints && torch::headeronly::isIntegralType(dtype, true)) {
    dtype = default_dtype();  // exp(int) is a float, as PyTorch's
  }
  ST_CHECK(!(op == kernels::Unary::Neg && dtype == ScalarType::Bool), name,
           ": Negation, the `-` operator, on a bool tensor is not supported.");
  Tensor result = prepare_out(name, out, self.sizes(), dtype, device);
  detail::check_launch(kernels::unary(op, detail::compute_type(dtype),
                                      make_shape(self.sizes(), name),
                                      make_operand(result, self.sizes(), name),
                                      make_operand(self, self.sizes(), name), self.numel(),
                                      detail::current_native_stream()),
                       name);
  return result;
}

}  // namespace st::cuda::ops
