// A plugin that converts Python objects the way an extension author does,
// with torch/csrc/stable/pyobject.h (levels 2.14 and 2.15) and nothing but
// libstabletorch linked. tests/python/test_pyobject.py calls these entry
// points through ctypes, with the GIL held. Each returns a new reference
// (NULL on failure) or -1 on failure, so no exception leaves the plugin.
#include <torch/csrc/stable/pyobject.h>
#include <torch/csrc/stable/tensor.h>

#include <cstdint>
#include <exception>

#define PYOBJECT_PLUGIN_EXPORT extern "C" __attribute__((__visibility__("default")))

// A new Python tensor sharing the TensorImpl of `obj` (a tensor object).
PYOBJECT_PLUGIN_EXPORT void* pyobject_plugin_tensor_round_trip(void* obj) {
  try {
    if (!torch::stable::is_tensor_pyobject(obj)) return nullptr;
    const torch::stable::Tensor t = torch::stable::tensor_from_pyobject(obj);
    return torch::stable::tensor_to_pyobject(t);
  } catch (const std::exception&) {
    return nullptr;
  }
}

// The number of elements of a Python tensor, read through the stable API.
PYOBJECT_PLUGIN_EXPORT int64_t pyobject_plugin_numel(void* obj) {
  try {
    return torch::stable::tensor_from_pyobject(obj).numel();
  } catch (const std::exception&) {
    return -1;
  }
}

PYOBJECT_PLUGIN_EXPORT void* pyobject_plugin_dtype_round_trip(void* obj) {
  try {
    return torch::stable::dtype_to_pyobject(torch::stable::dtype_from_pyobject(obj));
  } catch (const std::exception&) {
    return nullptr;
  }
}

PYOBJECT_PLUGIN_EXPORT void* pyobject_plugin_device_round_trip(void* obj) {
  try {
    return torch::stable::device_to_pyobject(torch::stable::device_from_pyobject(obj));
  } catch (const std::exception&) {
    return nullptr;
  }
}
