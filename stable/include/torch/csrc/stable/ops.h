// torch::stable operator wrappers: each builds a StableIValue stack and
// calls the core's operator through torch_call_dispatcher (or
// aoti_torch_call_dispatcher when targeting 2.9), with the operator's
// PyTorch schema, so results are exactly the core's own operators'.
// Defaults are resolved here, in the header, as PyTorch's are.
//
// Where PyTorch's ops.h calls a generated aoti_torch_aten_* shim
// (fill_, narrow, pad, amax, subtract, full and the 2.9 new_empty /
// new_zeros), these wrappers call the same shim, so a plugin built with
// either SDK imports the same C functions and runs on either runtime.
// A wrapper newer than the target is a compile error naming its level.
#pragma once

#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/csrc/inductor/aoti_torch/generated/c_shim_aten.h>
#include <torch/csrc/stable/c/shim.h>
#include <torch/csrc/stable/detail/version_gate.h>
#include <torch/csrc/stable/device.h>
#include <torch/csrc/stable/macros.h>
#include <torch/csrc/stable/parallel.h>
#include <torch/csrc/stable/scalar.h>
#include <torch/csrc/stable/stableivalue_conversions.h>
#include <torch/csrc/stable/tensor.h>
#include <torch/headeronly/core/Layout.h>
#include <torch/headeronly/core/MemoryFormat.h>
#include <torch/headeronly/core/ScalarType.h>
#include <torch/headeronly/macros/Macros.h>
#include <torch/headeronly/util/HeaderOnlyArrayRef.h>

#include <array>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

HIDDEN_NAMESPACE_BEGIN(torch, stable)

using torch::headeronly::IntHeaderOnlyArrayRef;
using torch::headeronly::Layout;
using torch::headeronly::MemoryFormat;
using torch::headeronly::ScalarType;

// The deleter type of from_blob's owning variants (PyTorch 2.11; declared
// here for source compatibility).
using DeleterFnPtr = void (*)(void*);

namespace detail {

// Calls name.overload on a stack of owned arguments (the core steals them)
// and leaves owned results in stack[0..).
template <size_t N>
void call_op(const char* name, const char* overload, std::array<StableIValue, N>& stack) {
#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0
  STABLE_TORCH_ERROR_CODE_CHECK(
      torch_call_dispatcher(name, overload, stack.data(), TORCH_ABI_VERSION));
#else
  STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_call_dispatcher(name, overload, stack.data()));
#endif
}

// The one-Tensor result of name.overload.
template <size_t N>
Tensor call_op_tensor(const char* name, const char* overload, std::array<StableIValue, N>&& stack) {
  call_op(name, overload, stack);
  return to<Tensor>(stack[0]);
}

}  // namespace detail

// ---- 2.9 -----------------------------------------------------------------

// aten::empty_like(self) with every keyword None.
inline Tensor empty_like(const Tensor& self) {
  return detail::call_op_tensor("aten::empty_like", "",
                                std::array<StableIValue, 6>{detail::from(self), 0, 0, 0, 0, 0});
}

// aten::fill_.Scalar, in place; returns self.
inline Tensor fill_(const Tensor& self, double value) {
  STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_aten_fill__Scalar(self.get(), value));
  return self;
}
#ifdef STABLETORCH_EXTENSIONS
// stabletorch addition: any Scalar (int64 exact, bool, complex).
inline Tensor fill_(const Tensor& self, const Scalar& value) {
  return detail::call_op_tensor(
      "aten::fill_", "Scalar",
      std::array<StableIValue, 2>{detail::from(self), detail::from(value)});
}
#else
STABLETORCH_EXTENSION_FN_(Tensor, fill_, (const Tensor&, const Scalar&))
#endif

// aten::narrow: a view of `length` items of dim from start.
inline Tensor narrow(const Tensor& self, int64_t dim, int64_t start, int64_t length) {
  AtenTensorHandle ret = nullptr;
  STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_aten_narrow(self.get(), dim, start, length, &ret));
  return Tensor(ret);
}

namespace detail {

// Optional tensor options as the aoti_torch_aten_* factory shims take
// them: a pointer to the code, or null for "not given".
struct ShimOptions {
  std::optional<int32_t> dtype, layout, device_type, pin_memory;
  int32_t device_index = 0;

  ShimOptions() = default;
  ShimOptions(std::optional<ScalarType> d, std::optional<Layout> l, std::optional<Device> dev,
              std::optional<bool> pin) {
    if (d) dtype = to_shim_dtype(*d);
    if (l) layout = to_shim_layout(*l);
    if (dev) {
      device_type = to_shim_device_type(dev->type());
      device_index = dev->index();
    }
    if (pin) pin_memory = *pin ? 1 : 0;
  }
  static int32_t* ptr(std::optional<int32_t>& v) { return v ? &*v : nullptr; }
  int32_t* dtype_ptr() { return ptr(dtype); }
  int32_t* layout_ptr() { return ptr(layout); }
  int32_t* device_ptr() { return ptr(device_type); }
  int32_t* pin_memory_ptr() { return ptr(pin_memory); }
};

// self's device and layout, with dtype or else self's: what the 2.9
// new_empty / new_zeros pass to their shims.
inline ShimOptions like(const Tensor& self, std::optional<ScalarType> dtype) {
  ShimOptions o;
  int32_t type = 0, layout = 0, code = 0;
  STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_get_device_type(self.get(), &type));
  STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_get_device_index(self.get(), &o.device_index));
  STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_get_layout(self.get(), &layout));
  if (dtype) {
    code = to_shim_dtype(*dtype);
  } else {
    STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_get_dtype(self.get(), &code));
  }
  o.dtype = code;
  o.layout = layout;
  o.device_type = type;
  return o;
}

}  // namespace detail

#if TORCH_FEATURE_VERSION < TORCH_VERSION_2_10_0
// The 2.9 forms (2.10 adds layout, device and pin_memory): a new tensor on
// self's device, with dtype or else self's.
inline Tensor new_empty(const Tensor& self, IntHeaderOnlyArrayRef size,
                        std::optional<ScalarType> dtype = std::nullopt) {
  detail::ShimOptions o = detail::like(self, dtype);
  AtenTensorHandle ret = nullptr;
  STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_aten_new_empty(
      self.get(), size.data(), static_cast<int64_t>(size.size()), o.dtype_ptr(), o.layout_ptr(),
      o.device_ptr(), o.device_index, o.pin_memory_ptr(), &ret));
  return Tensor(ret);
}

inline Tensor new_zeros(const Tensor& self, IntHeaderOnlyArrayRef size,
                        std::optional<ScalarType> dtype = std::nullopt) {
  detail::ShimOptions o = detail::like(self, dtype);
  AtenTensorHandle ret = nullptr;
  STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_aten_new_zeros(
      self.get(), size.data(), static_cast<int64_t>(size.size()), o.dtype_ptr(), o.layout_ptr(),
      o.device_ptr(), o.device_index, o.pin_memory_ptr(), &ret));
  return Tensor(ret);
}
#endif

// aten::pad: mode is "constant", "reflect", "replicate" or "circular".
inline Tensor pad(const Tensor& self, IntHeaderOnlyArrayRef pad,
                  const std::string& mode = "constant", double value = 0.0) {
  AtenTensorHandle ret = nullptr;
  STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_aten_pad(
      self.get(), pad.data(), static_cast<int64_t>(pad.size()), mode.c_str(), &value, &ret));
  return Tensor(ret);
}

inline Tensor amax(const Tensor& self, int64_t dim, bool keepdim = false) {
  AtenTensorHandle ret = nullptr;
  STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_aten_amax(self.get(), &dim, 1, keepdim, &ret));
  return Tensor(ret);
}

inline Tensor amax(const Tensor& self, IntHeaderOnlyArrayRef dims, bool keepdim = false) {
  AtenTensorHandle ret = nullptr;
  STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_aten_amax(
      self.get(), dims.data(), static_cast<int64_t>(dims.size()), keepdim, &ret));
  return Tensor(ret);
}

inline Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1) {
  return detail::call_op_tensor(
      "aten::transpose", "int",
      std::array<StableIValue, 3>{detail::from(self), detail::from(dim0), detail::from(dim1)});
}

// In place; returns self.
inline Tensor zero_(const Tensor& self) {
  return detail::call_op_tensor("aten::zero_", "", std::array<StableIValue, 1>{detail::from(self)});
}

// self.copy_(src), in place; returns self.
inline Tensor copy_(const Tensor& self, const Tensor& src,
                    std::optional<bool> non_blocking = std::nullopt) {
  return detail::call_op_tensor(
      "aten::copy_", "",
      std::array<StableIValue, 3>{detail::from(self), detail::from(src),
                                  detail::from(non_blocking.value_or(false))});
}

inline Tensor clone(const Tensor& self) {
  return detail::call_op_tensor("aten::clone", "",
                                std::array<StableIValue, 2>{detail::from(self), 0});
}

inline Tensor flatten(const Tensor& self, int64_t start_dim = 0, int64_t end_dim = -1) {
  return detail::call_op_tensor(
      "aten::flatten", "using_ints",
      std::array<StableIValue, 3>{detail::from(self), detail::from(start_dim),
                                  detail::from(end_dim)});
}

inline Tensor unsqueeze(const Tensor& self, int64_t dim) {
  return detail::call_op_tensor("aten::unsqueeze", "",
                                std::array<StableIValue, 2>{detail::from(self), detail::from(dim)});
}

inline Tensor squeeze(const Tensor& self, int64_t dim) {
  return detail::call_op_tensor("aten::squeeze", "dim",
                                std::array<StableIValue, 2>{detail::from(self), detail::from(dim)});
}

inline Tensor select(const Tensor& self, int64_t dim, int64_t index) {
  return detail::call_op_tensor(
      "aten::select", "int",
      std::array<StableIValue, 3>{detail::from(self), detail::from(dim), detail::from(index)});
}

inline Tensor matmul(const Tensor& self, const Tensor& other) {
  return detail::call_op_tensor(
      "aten::matmul", "", std::array<StableIValue, 2>{detail::from(self), detail::from(other)});
}

#ifdef STABLETORCH_EXTENSIONS
// self + alpha * other (stabletorch addition).
inline Tensor add(const Tensor& self, const Tensor& other, double alpha = 1.0) {
  return detail::call_op_tensor("aten::add", "Tensor",
                                std::array<StableIValue, 3>{detail::from(self), detail::from(other),
                                                            detail::from(Scalar(alpha))});
}

// Elementwise self * other (stabletorch addition).
inline Tensor mul(const Tensor& self, const Tensor& other) {
  return detail::call_op_tensor(
      "aten::mul", "Tensor", std::array<StableIValue, 2>{detail::from(self), detail::from(other)});
}
#else
STABLETORCH_EXTENSION_FN_(Tensor, add, (const Tensor&, const Tensor&, double = 1.0))
STABLETORCH_EXTENSION_FN_(Tensor, mul, (const Tensor&, const Tensor&))
#endif

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0

// ---- 2.10 ----------------------------------------------------------------

inline Tensor new_empty(const Tensor& self, IntHeaderOnlyArrayRef size,
                        std::optional<ScalarType> dtype = std::nullopt,
                        std::optional<Layout> layout = std::nullopt,
                        std::optional<Device> device = std::nullopt,
                        std::optional<bool> pin_memory = std::nullopt) {
  return detail::call_op_tensor(
      "aten::new_empty", "",
      std::array<StableIValue, 6>{detail::from(self), detail::from(size), detail::from(dtype),
                                  detail::from(layout), detail::from(device),
                                  detail::from(pin_memory)});
}

inline Tensor new_zeros(const Tensor& self, IntHeaderOnlyArrayRef size,
                        std::optional<ScalarType> dtype = std::nullopt,
                        std::optional<Layout> layout = std::nullopt,
                        std::optional<Device> device = std::nullopt,
                        std::optional<bool> pin_memory = std::nullopt) {
  return detail::call_op_tensor(
      "aten::new_zeros", "",
      std::array<StableIValue, 6>{detail::from(self), detail::from(size), detail::from(dtype),
                                  detail::from(layout), detail::from(device),
                                  detail::from(pin_memory)});
}

inline Tensor empty(IntHeaderOnlyArrayRef size, std::optional<ScalarType> dtype = std::nullopt,
                    std::optional<Layout> layout = std::nullopt,
                    std::optional<Device> device = std::nullopt,
                    std::optional<bool> pin_memory = std::nullopt,
                    std::optional<MemoryFormat> memory_format = std::nullopt) {
  return detail::call_op_tensor(
      "aten::empty", "memory_format",
      std::array<StableIValue, 6>{detail::from(size), detail::from(dtype), detail::from(layout),
                                  detail::from(device), detail::from(pin_memory),
                                  detail::from(memory_format)});
}

inline Tensor reshape(const Tensor& self, IntHeaderOnlyArrayRef shape) {
  return detail::call_op_tensor(
      "aten::reshape", "", std::array<StableIValue, 2>{detail::from(self), detail::from(shape)});
}

inline Tensor view(const Tensor& self, IntHeaderOnlyArrayRef size) {
  return detail::call_op_tensor(
      "aten::view", "", std::array<StableIValue, 2>{detail::from(self), detail::from(size)});
}

// A tensor over caller-owned memory (no copy, no deleter): the memory must
// outlive every tensor viewing it.
inline Tensor from_blob(void* data, IntHeaderOnlyArrayRef sizes, IntHeaderOnlyArrayRef strides,
                        Device device, ScalarType dtype, int64_t storage_offset = 0,
                        Layout layout = Layout::Strided) {
  STD_TORCH_CHECK(sizes.size() == strides.size(), "torch::stable::from_blob: ", sizes.size(),
                  " sizes but ", strides.size(), " strides");
  AtenTensorHandle handle = nullptr;
  STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_create_tensor_from_blob_v2(
      data, static_cast<int64_t>(sizes.size()), sizes.data(), strides.data(), storage_offset,
      detail::to_shim_dtype(dtype), detail::to_shim_device_type(device.type()), device.index(),
      &handle, detail::to_shim_layout(layout), nullptr, 0));
  return Tensor(handle);
}

// aten::to.dtype_layout.
inline Tensor to(const Tensor& self, std::optional<ScalarType> dtype = std::nullopt,
                 std::optional<Layout> layout = std::nullopt,
                 std::optional<Device> device = std::nullopt,
                 std::optional<bool> pin_memory = std::nullopt, bool non_blocking = false,
                 bool copy = false, std::optional<MemoryFormat> memory_format = std::nullopt) {
  return detail::call_op_tensor(
      "aten::to", "dtype_layout",
      std::array<StableIValue, 8>{detail::from(self), detail::from(dtype), detail::from(layout),
                                  detail::from(device), detail::from(pin_memory),
                                  detail::from(non_blocking), detail::from(copy),
                                  detail::from(memory_format)});
}

// self on another device (same dtype).
inline Tensor to(const Tensor& self, Device device, bool non_blocking = false, bool copy = false) {
  return to(self, std::nullopt, std::nullopt, device, std::nullopt, non_blocking, copy,
            std::nullopt);
}

inline Tensor contiguous(const Tensor& self,
                         MemoryFormat memory_format = MemoryFormat::Contiguous) {
  return detail::call_op_tensor(
      "aten::contiguous", "",
      std::array<StableIValue, 2>{detail::from(self), detail::from(memory_format)});
}

// aten::sum.dim_IntList (dim None or empty: every dimension).
inline Tensor sum(const Tensor& self, std::optional<IntHeaderOnlyArrayRef> dim = std::nullopt,
                  bool keepdim = false, std::optional<ScalarType> dtype = std::nullopt) {
  return detail::call_op_tensor(
      "aten::sum", "dim_IntList",
      std::array<StableIValue, 4>{detail::from(self), detail::from(dim), detail::from(keepdim),
                                  detail::from(dtype)});
}

// aten::sum.IntList_out: writes into out and returns it.
inline Tensor& sum_out(Tensor& out, const Tensor& self,
                       std::optional<IntHeaderOnlyArrayRef> dim = std::nullopt,
                       bool keepdim = false, std::optional<ScalarType> dtype = std::nullopt) {
  std::array<StableIValue, 5> stack{detail::from(self), detail::from(dim), detail::from(keepdim),
                                    detail::from(dtype), detail::from(out)};
  detail::call_op("aten::sum", "IntList_out", stack);
  // The result is a new handle to out: release it, out is what we return.
  (void)detail::to<Tensor>(stack[0]);
  return out;
}

// self - alpha * other.
inline Tensor subtract(const Tensor& self, const Tensor& other, double alpha = 1.0) {
  AtenTensorHandle ret = nullptr;
  STABLE_TORCH_ERROR_CODE_CHECK(
      aoti_torch_aten_subtract_Tensor(self.get(), other.get(), alpha, &ret));
  return Tensor(ret);
}

inline Tensor full(IntHeaderOnlyArrayRef size, double fill_value,
                   std::optional<ScalarType> dtype = std::nullopt,
                   std::optional<Layout> layout = std::nullopt,
                   std::optional<Device> device = std::nullopt,
                   std::optional<bool> pin_memory = std::nullopt) {
  detail::ShimOptions o(dtype, layout, device, pin_memory);
  AtenTensorHandle ret = nullptr;
  STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_aten_full(
      size.data(), static_cast<int64_t>(size.size()), fill_value, o.dtype_ptr(), o.layout_ptr(),
      o.device_ptr(), o.device_index, o.pin_memory_ptr(), &ret));
  return Tensor(ret);
}
#ifdef STABLETORCH_EXTENSIONS
// stabletorch addition: any Scalar (int64 exact, bool, complex).
inline Tensor full(IntHeaderOnlyArrayRef size, const Scalar& fill_value,
                   std::optional<ScalarType> dtype = std::nullopt,
                   std::optional<Layout> layout = std::nullopt,
                   std::optional<Device> device = std::nullopt,
                   std::optional<bool> pin_memory = std::nullopt) {
  return detail::call_op_tensor(
      "aten::full", "",
      std::array<StableIValue, 6>{detail::from(size), detail::from(fill_value), detail::from(dtype),
                                  detail::from(layout), detail::from(device),
                                  detail::from(pin_memory)});
}
#else
STABLETORCH_EXTENSION_FN_(Tensor, full,
                          (IntHeaderOnlyArrayRef, const Scalar&,
                           std::optional<ScalarType> = std::nullopt,
                           std::optional<Layout> = std::nullopt,
                           std::optional<Device> = std::nullopt,
                           std::optional<bool> = std::nullopt))
#endif

inline Tensor bitwise_and(const Tensor& self, const Tensor& other) {
  return detail::call_op_tensor(
      "aten::bitwise_and", "Tensor",
      std::array<StableIValue, 2>{detail::from(self), detail::from(other)});
}

inline Tensor bitwise_or(const Tensor& self, const Tensor& other) {
  return detail::call_op_tensor(
      "aten::bitwise_or", "Tensor",
      std::array<StableIValue, 2>{detail::from(self), detail::from(other)});
}

inline Tensor bitwise_left_shift(const Tensor& self, const Tensor& other) {
  return detail::call_op_tensor(
      "aten::bitwise_left_shift", "Tensor",
      std::array<StableIValue, 2>{detail::from(self), detail::from(other)});
}

inline Tensor bitwise_right_shift(const Tensor& self, const Tensor& other) {
  return detail::call_op_tensor(
      "aten::bitwise_right_shift", "Tensor",
      std::array<StableIValue, 2>{detail::from(self), detail::from(other)});
}

// A view of self with its dimensions reordered as dims says.
inline Tensor permute(const Tensor& self, IntHeaderOnlyArrayRef dims) {
  return detail::call_op_tensor(
      "aten::permute", "", std::array<StableIValue, 2>{detail::from(self), detail::from(dims)});
}

inline Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index) {
  return detail::call_op_tensor(
      "aten::index_select", "",
      std::array<StableIValue, 3>{detail::from(self), detail::from(dim), detail::from(index)});
}

// Division rounded toward negative infinity (aten::floor_divide).
inline Tensor floor_divide(const Tensor& self, const Tensor& other) {
  return detail::call_op_tensor(
      "aten::floor_divide", "",
      std::array<StableIValue, 2>{detail::from(self), detail::from(other)});
}

// aten::is_pinned with device None (the current accelerator).
inline bool is_pinned(const Tensor& self) {
  std::array<StableIValue, 2> stack{detail::from(self), detail::from(std::nullopt)};
  detail::call_op("aten::is_pinned", "", stack);
  return detail::to<bool>(stack[0]);
}

// (values, indices) of self sorted along dim (aten::sort).
inline std::tuple<Tensor, Tensor> sort(const Tensor& self, int64_t dim = -1,
                                       bool descending = false) {
  std::array<StableIValue, 3> stack{detail::from(self), detail::from(dim),
                                    detail::from(descending)};
  detail::call_op("aten::sort", "", stack);
  // Take both results before anything can throw, so neither handle leaks.
  Tensor values = detail::to<Tensor>(stack[0]);
  Tensor indices = detail::to<Tensor>(stack[1]);
  return std::make_tuple(std::move(values), std::move(indices));
}

// aten::sort.stable: stable=true keeps equal elements in their order.
inline std::tuple<Tensor, Tensor> sort(const Tensor& self, std::optional<bool> stable,
                                       int64_t dim = -1, bool descending = false) {
  std::array<StableIValue, 4> stack{detail::from(self), detail::from(stable), detail::from(dim),
                                    detail::from(descending)};
  detail::call_op("aten::sort", "stable", stack);
  Tensor values = detail::to<Tensor>(stack[0]);
  Tensor indices = detail::to<Tensor>(stack[1]);
  return std::make_tuple(std::move(values), std::move(indices));
}

// self's bytes reinterpreted as dtype (aten::view.dtype).
inline Tensor view(const Tensor& self, ScalarType dtype) {
  return detail::call_op_tensor(
      "aten::view", "dtype", std::array<StableIValue, 2>{detail::from(self), detail::from(dtype)});
}

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_11_0
// A tensor over caller-owned memory that calls deleter(data) once the last
// tensor viewing it is gone. deleter may be a function pointer or any
// callable, capturing lambdas included (moved to the heap, freed after the
// call). If creating the tensor fails the deleter is not called.
template <class F, std::enable_if_t<std::is_invocable_v<F, void*>, int> = 0>
inline Tensor from_blob(void* data, IntHeaderOnlyArrayRef sizes, IntHeaderOnlyArrayRef strides,
                        Device device, ScalarType dtype, F deleter, int64_t storage_offset = 0,
                        Layout layout = Layout::Strided) {
  STD_TORCH_CHECK(sizes.size() == strides.size(), "torch::stable::from_blob: ", sizes.size(),
                  " sizes but ", strides.size(), " strides");
  AtenTensorHandle handle = nullptr;
  auto create = [&](void (*callback)(void*, void*), void* ctx) {
    return torch_from_blob(data, static_cast<int64_t>(sizes.size()), sizes.data(), strides.data(),
                           storage_offset, detail::to_shim_dtype(dtype),
                           detail::to_shim_device_type(device.type()), device.index(), &handle,
                           detail::to_shim_layout(layout), nullptr, 0, callback, ctx);
  };
  if constexpr (std::is_convertible_v<F, DeleterFnPtr>) {
    // A plain function: its pointer is the context, nothing to allocate.
    auto call_fn = [](void* blob, void* ctx) { reinterpret_cast<DeleterFnPtr>(ctx)(blob); };
    STABLE_TORCH_ERROR_CODE_CHECK(
        create(call_fn, reinterpret_cast<void*>(static_cast<DeleterFnPtr>(deleter))));
  } else {
    auto owned = std::make_unique<F>(std::move(deleter));
    auto call_owned = [](void* blob, void* ctx) {
      std::unique_ptr<F> fn(static_cast<F*>(ctx));
      (*fn)(blob);
    };
    STABLE_TORCH_ERROR_CODE_CHECK(create(call_owned, owned.get()));
    // The tensor owns the callable now.
    (void)owned.release();
  }
  return Tensor(handle);
}
#endif  // TORCH_FEATURE_VERSION >= TORCH_VERSION_2_11_0

#else  // TORCH_FEATURE_VERSION < 2.10

#define STABLE_OPS_210_(ret, name, params) \
  STABLE_UNAVAILABLE_FN_(ret, name, params, "TORCH_VERSION_2_10_0", "2.10")
STABLE_OPS_210_(Tensor, empty,
                (IntHeaderOnlyArrayRef, std::optional<ScalarType> = std::nullopt,
                 std::optional<Layout> = std::nullopt, std::optional<Device> = std::nullopt,
                 std::optional<bool> = std::nullopt, std::optional<MemoryFormat> = std::nullopt))
STABLE_OPS_210_(Tensor, reshape, (const Tensor&, IntHeaderOnlyArrayRef))
STABLE_OPS_210_(Tensor, view, (const Tensor&, IntHeaderOnlyArrayRef))
STABLE_OPS_210_(Tensor, from_blob,
                (void*, IntHeaderOnlyArrayRef, IntHeaderOnlyArrayRef, Device, ScalarType,
                 int64_t = 0, Layout = Layout::Strided))
STABLE_OPS_210_(Tensor, to,
                (const Tensor&, std::optional<ScalarType> = std::nullopt,
                 std::optional<Layout> = std::nullopt, std::optional<Device> = std::nullopt,
                 std::optional<bool> = std::nullopt, bool = false, bool = false,
                 std::optional<MemoryFormat> = std::nullopt))
STABLE_OPS_210_(Tensor, to, (const Tensor&, Device, bool = false, bool = false))
STABLE_OPS_210_(Tensor, contiguous, (const Tensor&, MemoryFormat = MemoryFormat::Contiguous))
STABLE_OPS_210_(Tensor, sum,
                (const Tensor&, std::optional<IntHeaderOnlyArrayRef> = std::nullopt, bool = false,
                 std::optional<ScalarType> = std::nullopt))
STABLE_OPS_210_(Tensor, sum_out,
                (Tensor&, const Tensor&, std::optional<IntHeaderOnlyArrayRef> = std::nullopt,
                 bool = false, std::optional<ScalarType> = std::nullopt))
STABLE_OPS_210_(Tensor, subtract, (const Tensor&, const Tensor&, double = 1.0))
STABLE_OPS_210_(Tensor, full,
                (IntHeaderOnlyArrayRef, double, std::optional<ScalarType> = std::nullopt,
                 std::optional<Layout> = std::nullopt, std::optional<Device> = std::nullopt,
                 std::optional<bool> = std::nullopt))
STABLE_OPS_210_(Tensor, bitwise_and, (const Tensor&, const Tensor&))
STABLE_OPS_210_(Tensor, bitwise_or, (const Tensor&, const Tensor&))
STABLE_OPS_210_(Tensor, bitwise_left_shift, (const Tensor&, const Tensor&))
STABLE_OPS_210_(Tensor, bitwise_right_shift, (const Tensor&, const Tensor&))
STABLE_OPS_210_(Tensor, permute, (const Tensor&, IntHeaderOnlyArrayRef))
STABLE_OPS_210_(Tensor, index_select, (const Tensor&, int64_t, const Tensor&))
STABLE_OPS_210_(Tensor, floor_divide, (const Tensor&, const Tensor&))
STABLE_OPS_210_(bool, is_pinned, (const Tensor&))
namespace detail {
using SortResult = std::tuple<Tensor, Tensor>;
}  // namespace detail
STABLE_OPS_210_(detail::SortResult, sort, (const Tensor&, int64_t = -1, bool = false))
STABLE_OPS_210_(detail::SortResult, sort,
                (const Tensor&, std::optional<bool>, int64_t = -1, bool = false))
STABLE_OPS_210_(Tensor, view, (const Tensor&, ScalarType))
#undef STABLE_OPS_210_

#endif  // TORCH_FEATURE_VERSION >= TORCH_VERSION_2_10_0

HIDDEN_NAMESPACE_END(torch, stable)
