// Conversions between Python objects (a PyObject* passed as void*, so no
// Python.h is needed) and torch::stable values, over the torch_*_pyobject
// functions of the C shim. The plugin links only the runtime's C library;
// the conversions work once the runtime's Python module is imported in the
// process (`import stabletorch`), and fail with the runtime's message
// otherwise. The caller holds the GIL. Every PyObject* returned is a new
// reference. Failures throw std::runtime_error with the runtime's message.
#pragma once

#include <torch/csrc/stable/c/shim.h>
#include <torch/csrc/stable/detail/version_gate.h>
#include <torch/csrc/stable/device_struct.h>
#include <torch/csrc/stable/enum_codes.h>
#include <torch/csrc/stable/macros.h>
#include <torch/csrc/stable/tensor_struct.h>
#include <torch/headeronly/core/ScalarType.h>
#include <torch/headeronly/macros/Macros.h>

#include <cstdint>
#include <type_traits>

HIDDEN_NAMESPACE_BEGIN(torch, stable)

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_14_0

// A Tensor sharing the TensorImpl of a Python tensor object.
inline Tensor tensor_from_pyobject(void* py_obj) {
  AtenTensorHandle handle = nullptr;
  STABLE_TORCH_ERROR_CODE_CHECK(torch_tensor_from_pyobject(py_obj, &handle));
  return Tensor(handle);
}

// A new Python tensor object sharing t's TensorImpl. py_type: null for the
// runtime's tensor type, else the PyTypeObject* of a subclass of it, which
// the result has exactly.
inline void* tensor_to_pyobject(const Tensor& t, void* py_type = nullptr) {
  void* obj = nullptr;
  STABLE_TORCH_ERROR_CODE_CHECK(torch_tensor_to_pyobject(t.get(), py_type, &obj));
  return obj;
}

#else

// (std::add_pointer_t<void> is void*, spelled so the stub can value-initialize it.)
STABLE_UNAVAILABLE_FN_(Tensor, tensor_from_pyobject, (void*), "TORCH_VERSION_2_14_0", "2.14")
STABLE_UNAVAILABLE_FN_(std::add_pointer_t<void>, tensor_to_pyobject,
                       (const Tensor&, void* = nullptr), "TORCH_VERSION_2_14_0", "2.14")

#endif  // TORCH_FEATURE_VERSION >= TORCH_VERSION_2_14_0

#if TORCH_FEATURE_VERSION >= TORCH_VERSION_2_15_0

// Whether py_obj is a Python tensor object (or an instance of a subclass):
// a check before tensor_from_pyobject, which fails for anything else.
inline bool is_tensor_pyobject(void* py_obj) {
  bool is_tensor = false;
  STABLE_TORCH_ERROR_CODE_CHECK(torch_is_tensor_pyobject(py_obj, &is_tensor));
  return is_tensor;
}

// The ScalarType of a Python dtype object. Only the dtypes the stable
// enum translation knows are accepted (enum_codes.h).
inline torch::headeronly::ScalarType dtype_from_pyobject(void* py_obj) {
  int32_t code = 0;
  STABLE_TORCH_ERROR_CODE_CHECK(torch_dtype_from_pyobject(py_obj, &code));
  return detail::from_shim_dtype(code);
}

// The Python dtype object of a ScalarType.
inline void* dtype_to_pyobject(torch::headeronly::ScalarType dtype) {
  void* obj = nullptr;
  STABLE_TORCH_ERROR_CODE_CHECK(torch_dtype_to_pyobject(detail::to_shim_dtype(dtype), &obj));
  return obj;
}

// The Device of a Python device object (index -1 when it has none).
inline Device device_from_pyobject(void* py_obj) {
  int32_t type = 0;
  int32_t index = -1;
  STABLE_TORCH_ERROR_CODE_CHECK(torch_device_from_pyobject(py_obj, &type, &index));
  return Device(detail::from_shim_device_type(type), static_cast<DeviceIndex>(index));
}

// A new Python device object for a Device.
inline void* device_to_pyobject(const Device& device) {
  void* obj = nullptr;
  STABLE_TORCH_ERROR_CODE_CHECK(torch_device_to_pyobject(
      detail::to_shim_device_type(device.type()), static_cast<int32_t>(device.index()), &obj));
  return obj;
}

#else

STABLE_UNAVAILABLE_FN_(bool, is_tensor_pyobject, (void*), "TORCH_VERSION_2_15_0", "2.15")
STABLE_UNAVAILABLE_FN_(torch::headeronly::ScalarType, dtype_from_pyobject, (void*),
                       "TORCH_VERSION_2_15_0", "2.15")
STABLE_UNAVAILABLE_FN_(std::add_pointer_t<void>, dtype_to_pyobject, (torch::headeronly::ScalarType),
                       "TORCH_VERSION_2_15_0", "2.15")
STABLE_UNAVAILABLE_FN_(Device, device_from_pyobject, (void*), "TORCH_VERSION_2_15_0", "2.15")
STABLE_UNAVAILABLE_FN_(std::add_pointer_t<void>, device_to_pyobject, (const Device&),
                       "TORCH_VERSION_2_15_0", "2.15")

#endif  // TORCH_FEATURE_VERSION >= TORCH_VERSION_2_15_0

HIDDEN_NAMESPACE_END(torch, stable)
