// The converters between Python objects and core values that the C ABI's
// torch_*_pyobject functions use (c_api/src/pyobject.cpp).
//
// Note [Python object converters]
// The core and the C ABI library never link Python: a process may have no
// interpreter at all. The stabletorch Python module (python/src/pyobject.cpp)
// registers these converters when it is imported and clears them when the
// interpreter finalizes; until then pyobject_converters() is null and the
// C functions fail saying so. This is the one path between the C ABI and
// Python objects, as libtorch_python registers its own with libtorch.
//
// Every converter takes and returns PyObject* as void*, runs with the GIL
// held by its caller (it checks, and fails otherwise), reports failure by
// throwing st::Error (never leaving a Python exception set), and returns
// new references.
#pragma once

#include <st/core/device.h>
#include <st/core/export.h>
#include <st/core/tensor.h>

namespace st {

struct PyObjectConverters {
  // The tensor a stabletorch.Tensor (or subclass) holds: a new reference to
  // the same TensorImpl.
  Tensor (*tensor_from)(void* obj);
  // A new stabletorch.Tensor sharing t's TensorImpl; of exact type py_type
  // (a stabletorch.Tensor subclass) when it is not null.
  void* (*tensor_to)(const Tensor& t, void* py_type);
  // Whether obj is a stabletorch.Tensor or an instance of a subclass.
  bool (*is_tensor)(void* obj);
  ScalarType (*dtype_from)(void* obj);
  void* (*dtype_to)(ScalarType dtype);
  Device (*device_from)(void* obj);
  void* (*device_to)(Device device);
};

// Installs the converters (a pointer to a table that outlives its use;
// null uninstalls). Thread-safe.
ST_API void set_pyobject_converters(const PyObjectConverters* converters) noexcept;

// The installed converters; null when no Python module registered any.
// Thread-safe.
ST_API const PyObjectConverters* pyobject_converters() noexcept;

}  // namespace st
