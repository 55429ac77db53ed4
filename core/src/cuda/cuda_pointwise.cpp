// Pointwise operators on CUDA: PyTorch's type promotion and broadcasting on
// the host (the same result_type and dtype rules as the CPU kernels in
// core/src/native/{binary,unary,compare}_ops.cpp), one strided kernel launch
// on the device through the op's entry point (Note [CUDA pointwise entry
// points] in kernels/cuda_kernels.h).
#include <limits>
#include <string_view>
#include <vector>

#include <cuda_runtime_api.h>

#include <st/core/empty_tensor.h>
#include <st/core/error.h>
#include <st/core/result_type.h>
#include <st/device/device_guard.h>
#include <st/native/dtype_dispatch.h>
#include <st/native/tensor_iterator.h>

#include "cuda_ops.h"
#include "cuda_runtime.h"
#include "cuda_tensor_args.h"
#include "native/compare_checks.h"
#include "native/binary_checks.h"
#include "native/unary_checks.h"

namespace st::cuda::kernels {
// Defined in kernels/binary.cu: clamp with one bound.
BinaryEntry binary_clamp_min;
BinaryEntry binary_clamp_max;
// Defined in kernels/unary_bool.cu: bitwise_not on bool.
UnaryEntry unary_bool_logical_not;
// Defined in kernels/ternary.cu.
TernaryEntry ternary_where;
TernaryEntry ternary_clamp;
}  // namespace st::cuda::kernels

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
               "devices, ",
               *device, " and ", t->device());
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
                   ScalarType dtype, Device device, const Tensor* inplace_self = nullptr) {
  if (!out || !out->defined()) return st::detail::empty_generic(shape, dtype, device);
  if (inplace_self != nullptr && out->is_same(*inplace_self)) {
    // In place: the result must have self's shape (no resize, as the CPU).
    ST_CHECK(out->sizes() == shape, "output with shape ", out->sizes(),
             " doesn't match the broadcast shape ", shape);
  }
  ST_CHECK(out->device() == device, name, ": expected the output on ", device, " but got ",
           out->device());
  ST_CHECK(torch::headeronly::canCast(dtype, out->dtype()), "result type ",
           torch::headeronly::toString(dtype), " can't be cast to the desired output type ",
           torch::headeronly::toString(out->dtype()));
  st::native::resize_output(*out, shape);
  st::native::assert_no_internal_overlap(*out, name);
  return *out;
}

bool is_integral(ScalarType t) { return torch::headeronly::isIntegralType(t, true); }
bool is_floating(ScalarType t) { return torch::headeronly::isFloatingType(t); }

// The host's rules of a binary launcher (Note [CUDA pointwise entry points]
// in kernels/cuda_kernels.h), as the CPU kernels' dispatch sets and
// promotions; errors name the op as the CPU kernels do.
struct BinaryRules {
  bool int_to_float = false;   // integer operands compute in the default float dtype
  bool bool_result = false;    // comparisons and logical ops
  bool refuse_bool = false;    // pow, rounding division, remainder, shifts
  bool integral_only = false;  // bitwise ops and shifts
  bool alpha = false;          // add, sub: out = a + alpha * b
  bool zero_division = false;  // integer division by zero raises
};

void check_binary_dtype(const BinaryRules& rules, const char* name, ScalarType common,
                        const Tensor& self, const Tensor& other) {
  // sub is add's launcher with the CPU's refusal of bool operands.
  if (rules.alpha && std::string_view(name) == "sub") st::native::check_sub(self, other);
  const bool is_bool = common == ScalarType::Bool;
  if ((rules.integral_only && !is_integral(common)) || (rules.refuse_bool && is_bool)) {
    st::native::throw_dtype_not_implemented(name, common);
  }
}

// Integer division and remainder by zero raise on the CPU; a kernel cannot
// throw, so it raises a device flag that the host reads back (one
// synchronization, for these integer ops only).
class ZeroDivisionFlag {
 public:
  ZeroDivisionFlag(bool wanted, Device device) {
    if (!wanted) return;
    flag_ = st::detail::empty_generic({1}, ScalarType::Int, device);
    detail::check_launch(
        cudaMemsetAsync(flag_.data_ptr(), 0, sizeof(int32_t), detail::current_native_stream()),
        "ZeroDivisionError check");
  }
  int32_t* device_ptr() const {
    return flag_.defined() ? static_cast<int32_t*>(flag_.data_ptr()) : nullptr;
  }
  void raise_if_set() const {
    if (!flag_.defined()) return;
    int32_t host = 0;
    const cudaStream_t stream = detail::current_native_stream();
    detail::check_launch(cudaMemcpyAsync(&host, flag_.const_data_ptr(), sizeof(int32_t),
                                         cudaMemcpyDeviceToHost, stream),
                         "ZeroDivisionError check");
    detail::check_launch(cudaStreamSynchronize(stream), "ZeroDivisionError check");
    ST_CHECK(host == 0, "ZeroDivisionError");
  }

 private:
  Tensor flag_;
};

Tensor binary_launch(const BinaryRules& rules, kernels::BinaryEntry* entry, const char* name,
                     const Tensor& self, const Tensor& other, const Scalar& alpha,
                     const std::optional<Tensor>& out) {
  const Device device = common_cuda_device(name, {&self, &other, out ? &*out : nullptr});
  DeviceGuard guard(device);
  const std::vector<int64_t> shape = st::native::infer_size(self.sizes(), other.sizes());
  ScalarType common = result_type(self, other);
  if (rules.int_to_float && is_integral(common)) common = default_dtype();  // true division
  check_binary_dtype(rules, name, common, self, other);
  if (rules.alpha) st::native::check_alpha(name, common, alpha);
  const ScalarType result_dtype = rules.bool_result ? ScalarType::Bool : common;
  const Tensor a = on_device(self, device);
  const Tensor b = on_device(other, device);
  Tensor result = prepare_out(name, out, IntArrayRef(shape), result_dtype, device, &self);
  const kernels::Compute compute = detail::compute_type(common);
  const ZeroDivisionFlag zero_division(rules.zero_division && compute == kernels::Compute::Int,
                                       device);
  const double alpha_value =
      alpha.isBoolean() ? (alpha.toBool() ? 1.0 : 0.0) : alpha.toComplexDouble().real();
  detail::check_launch(
      entry(compute, make_shape(IntArrayRef(shape), name),
            make_operand(result, IntArrayRef(shape), name),
            make_operand(a, IntArrayRef(shape), name), make_operand(b, IntArrayRef(shape), name),
            alpha_value, zero_division.device_ptr(), result.numel(),
            detail::current_native_stream()),
      name);
  zero_division.raise_if_set();
  return result;
}

const Scalar kOne(int64_t{1});

}  // namespace

Tensor binary(kernels::BinaryEntry* entry, const char* name, const Tensor& self,
              const Tensor& other, const std::optional<Tensor>& out) {
  return binary_launch({}, entry, name, self, other, kOne, out);
}
Tensor binary_alpha(kernels::BinaryEntry* entry, const char* name, const Tensor& self,
                    const Tensor& other, const Scalar& alpha, const std::optional<Tensor>& out) {
  BinaryRules rules;
  rules.alpha = true;
  return binary_launch(rules, entry, name, self, other, alpha, out);
}
Tensor binary_float(kernels::BinaryEntry* entry, const char* name, const Tensor& self,
                    const Tensor& other, const std::optional<Tensor>& out) {
  BinaryRules rules;
  rules.int_to_float = true;
  return binary_launch(rules, entry, name, self, other, kOne, out);
}
Tensor binary_nonbool(kernels::BinaryEntry* entry, const char* name, const Tensor& self,
                      const Tensor& other, const std::optional<Tensor>& out) {
  BinaryRules rules;
  rules.refuse_bool = true;
  return binary_launch(rules, entry, name, self, other, kOne, out);
}
Tensor binary_divmod(kernels::BinaryEntry* entry, const char* name, const Tensor& self,
                     const Tensor& other, const std::optional<Tensor>& out) {
  BinaryRules rules;
  rules.refuse_bool = true;
  rules.zero_division = true;
  return binary_launch(rules, entry, name, self, other, kOne, out);
}
Tensor binary_compare(kernels::BinaryEntry* entry, const char* name, const Tensor& self,
                      const Tensor& other, const std::optional<Tensor>& out) {
  BinaryRules rules;
  rules.bool_result = true;
  return binary_launch(rules, entry, name, self, other, kOne, out);
}
Tensor binary_bitwise(kernels::BinaryEntry* entry, const char* name, const Tensor& self,
                      const Tensor& other, const std::optional<Tensor>& out) {
  BinaryRules rules;
  rules.integral_only = true;
  return binary_launch(rules, entry, name, self, other, kOne, out);
}
Tensor binary_shift(kernels::BinaryEntry* entry, const char* name, const Tensor& self,
                    const Tensor& other, const std::optional<Tensor>& out) {
  BinaryRules rules;
  rules.integral_only = true;
  rules.refuse_bool = true;
  return binary_launch(rules, entry, name, self, other, kOne, out);
}

namespace {

// The unary launchers' common path: result of `dtype`, then one launch.
Tensor unary_launch(kernels::UnaryEntry* entry, const char* name, const Tensor& self,
                    const std::optional<Tensor>& out, Device device, ScalarType result_dtype) {
  Tensor result = prepare_out(name, out, self.sizes(), result_dtype, device, &self);
  detail::check_launch(
      entry(detail::compute_type(self.dtype()), make_shape(self.sizes(), name),
            make_operand(result, self.sizes(), name), make_operand(self, self.sizes(), name),
            self.numel(), detail::current_native_stream()),
      name);
  return result;
}

}  // namespace

Tensor unary(kernels::UnaryEntry* entry, const char* name, const Tensor& self,
             const std::optional<Tensor>& out) {
  const Device device = common_cuda_device(name, {&self, out ? &*out : nullptr});
  DeviceGuard guard(device);
  return unary_launch(entry, name, self, out, device, self.dtype());
}
Tensor unary_nonbool(kernels::UnaryEntry* entry, const char* name, const Tensor& self,
                     const std::optional<Tensor>& out) {
  const Device device = common_cuda_device(name, {&self, out ? &*out : nullptr});
  DeviceGuard guard(device);
  st::native::check_unary_not_bool(name, self.dtype());
  return unary_launch(entry, name, self, out, device, self.dtype());
}
Tensor unary_bool(kernels::UnaryEntry* entry, const char* name, const Tensor& self,
                  const std::optional<Tensor>& out) {
  const Device device = common_cuda_device(name, {&self, out ? &*out : nullptr});
  DeviceGuard guard(device);
  return unary_launch(entry, name, self, out, device, ScalarType::Bool);
}
Tensor unary_floating(kernels::UnaryEntry* entry, const char* name, const Tensor& self,
                      const std::optional<Tensor>& out) {
  const Device device = common_cuda_device(name, {&self, out ? &*out : nullptr});
  DeviceGuard guard(device);
  if (!is_floating(self.dtype())) st::native::throw_dtype_not_implemented(name, self.dtype());
  return unary_launch(entry, name, self, out, device, self.dtype());
}
Tensor unary_bitwise(kernels::UnaryEntry* entry, const char* name, const Tensor& self,
                     const std::optional<Tensor>& out) {
  const Device device = common_cuda_device(name, {&self, out ? &*out : nullptr});
  DeviceGuard guard(device);
  const ScalarType dtype = self.dtype();
  if (!is_integral(dtype)) st::native::throw_dtype_not_implemented(name, dtype);
  // ~true is false: on bool, a bitwise op is its logical one.
  if (dtype == ScalarType::Bool) entry = &kernels::unary_bool_logical_not;
  return unary_launch(entry, name, self, out, device, dtype);
}

Tensor float_unary(kernels::FloatUnaryEntry* entry, const char* name, const Tensor& self,
                   const std::optional<Tensor>& out) {
  const Device device = common_cuda_device(name, {&self, out ? &*out : nullptr});
  DeviceGuard guard(device);
  // exp(int) is a float, as PyTorch's.
  const ScalarType dtype = is_integral(self.dtype()) ? default_dtype() : self.dtype();
  Tensor result = prepare_out(name, out, self.sizes(), dtype, device, &self);
  detail::check_launch(
      entry(detail::compute_type(dtype), make_shape(self.sizes(), name),
            make_operand(result, self.sizes(), name), make_operand(self, self.sizes(), name),
            self.numel(), detail::current_native_stream()),
      name);
  return result;
}

Tensor nan_to_num(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                  std::optional<double> neginf, const std::optional<Tensor>& out) {
  // Defaults: the limits of the stored dtype (float16's max, not float's).
  double max = 0;
  switch (self.dtype()) {
    case ScalarType::Half:
      max = 65504.0;
      break;
    case ScalarType::BFloat16:
      max = 3.3895313892515355e38;
      break;
    case ScalarType::Float:
      max = static_cast<double>(std::numeric_limits<float>::max());
      break;
    default:
      max = std::numeric_limits<double>::max();
      break;
  }
  const double nan_value = nan.value_or(0.0);
  const double posinf_value = posinf.value_or(max);
  const double neginf_value = neginf.value_or(-max);
  const char* name = "nan_to_num";
  const Device device = common_cuda_device(name, {&self, out ? &*out : nullptr});
  DeviceGuard guard(device);
  Tensor result = prepare_out(name, out, self.sizes(), self.dtype(), device, &self);
  detail::check_launch(
      kernels::nan_to_num(detail::compute_type(self.dtype()), make_shape(self.sizes(), name),
                          make_operand(result, self.sizes(), name),
                          make_operand(self, self.sizes(), name), nan_value, posinf_value,
                          neginf_value, self.numel(), detail::current_native_stream()),
      name);
  return result;
}

Tensor where(const Tensor& condition, const Tensor& self, const Tensor& other,
             const std::optional<Tensor>& out) {
  const char* name = "where";
  st::native::check_where_condition(condition);
  const Device device =
      common_cuda_device(name, {&condition, &self, &other, out ? &*out : nullptr});
  DeviceGuard guard(device);
  const std::vector<int64_t> shape = st::native::infer_size(
      IntArrayRef(st::native::infer_size(condition.sizes(), self.sizes())), other.sizes());
  const ScalarType common = result_type(self, other);
  const Tensor c = on_device(condition, device);
  const Tensor a = on_device(self, device);
  const Tensor b = on_device(other, device);
  Tensor result = prepare_out(name, out, IntArrayRef(shape), common, device);
  const IntArrayRef s(shape);
  detail::check_launch(
      kernels::ternary_where(detail::compute_type(common), make_shape(s, name),
                             make_operand(result, s, name), make_operand(c, s, name),
                             make_operand(a, s, name), make_operand(b, s, name), result.numel(),
                             detail::current_native_stream()),
      name);
  return result;
}

Tensor clamp(const Tensor& self, const std::optional<Tensor>& min, const std::optional<Tensor>& max,
             const std::optional<Tensor>& out) {
  const char* name = "clamp";
  const bool has_min = min.has_value() && min->defined();
  const bool has_max = max.has_value() && max->defined();
  st::native::check_clamp_bounds(has_min, has_max);
  if (!has_min) return binary(&kernels::binary_clamp_max, name, self, *max, out);
  if (!has_max) return binary(&kernels::binary_clamp_min, name, self, *min, out);
  const Device device = common_cuda_device(name, {&self, &*min, &*max, out ? &*out : nullptr});
  DeviceGuard guard(device);
  const std::vector<int64_t> shape = st::native::infer_size(
      IntArrayRef(st::native::infer_size(self.sizes(), min->sizes())), max->sizes());
  const ScalarType common = result_type(std::vector<Tensor>{self, *min, *max});
  const Tensor lo = on_device(*min, device);
  const Tensor hi = on_device(*max, device);
  Tensor result = prepare_out(name, out, IntArrayRef(shape), common, device, &self);
  const IntArrayRef s(shape);
  detail::check_launch(
      kernels::ternary_clamp(detail::compute_type(common), make_shape(s, name),
                             make_operand(result, s, name), make_operand(self, s, name),
                             make_operand(lo, s, name), make_operand(hi, s, name), result.numel(),
                             detail::current_native_stream()),
      name);
  return result;
}

Tensor masked_fill_(const Tensor& self, const Tensor& mask, const Tensor& value) {
  const char* name = "masked_fill_";
  st::native::check_masked_fill_mask(mask);
  st::native::check_masked_fill_value(value);
  const Device device = common_cuda_device(name, {&self, &mask, &value});
  DeviceGuard guard(device);
  st::native::assert_no_internal_overlap(self, name);
  const Tensor m = on_device(mask, device);
  const Tensor v = on_device(value, device);
  // self = mask ? value : self, elementwise in place; the value converts to
  // self's dtype through the compute type of self.
  detail::check_launch(
      kernels::ternary_where(
          detail::compute_type(self.dtype()), make_shape(self.sizes(), name),
          make_operand(self, self.sizes(), name), make_operand(m, self.sizes(), name),
          make_operand(v, self.sizes(), name), make_operand(self, self.sizes(), name), self.numel(),
          detail::current_native_stream()),
      name);
  return self;
}

}  // namespace st::cuda::ops
