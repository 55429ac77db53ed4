// The converters behind the C ABI's torch_*_pyobject functions (Note
// [Python object converters] in st/core/pyobject_converters.h): registered
// with the core when this module is imported, removed when the interpreter
// finalizes. They are called from C with the caller's GIL, so each checks
// it holds the GIL, and turns every failure (a Python exception included)
// into an st::Error, leaving no Python exception set.
#include <exception>
#include <string>

#include <st/core/error.h>
#include <st/core/pyobject_converters.h>

#include "bindings.h"

namespace stpy {
namespace {

std::string type_name(PyObject* obj) { return Py_TYPE(obj)->tp_name; }

// Runs f with the checks every converter needs, and maps any failure to an
// st::Error whose message starts with `what`.
template <typename F>
auto guarded(const char* what, F&& f) -> decltype(f()) {
  ST_CHECK(Py_IsInitialized() && PyGILState_Check(),
           "the calling thread must hold the GIL of a running Python interpreter");
  try {
    return f();
  } catch (const st::Error&) {
    throw;
  } catch (const nb::python_error& e) {  // fetched: no Python error stays set
    ST_ERROR(what, ": ", e.what());
  } catch (const std::exception& e) {
    ST_ERROR(what, ": ", e.what());
  }
}

st::Tensor tensor_from(void* obj) {
  return guarded("py_obj", [&] {
    nb::handle h(static_cast<PyObject*>(obj));
    ST_CHECK(is_tensor(h), "py_obj: expected a stabletorch.Tensor, got an object of type '",
             type_name(h.ptr()), "'");
    return tensor_of(h);
  });
}

void* tensor_to(const st::Tensor& t, void* py_type) {
  return guarded("py_type", [&]() -> void* {
    if (py_type == nullptr) return nb::cast(st::Tensor(t)).release().ptr();
    PyObject* tp = static_cast<PyObject*>(py_type);
    PyObject* base = nb::type<st::Tensor>().ptr();
    ST_CHECK(PyType_Check(tp) && PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(tp),
                                                  reinterpret_cast<PyTypeObject*>(base)),
             "py_type: expected stabletorch.Tensor or a subclass of it, got ",
             PyType_Check(tp)
                 ? "the type '" + std::string(reinterpret_cast<PyTypeObject*>(tp)->tp_name) + "'"
                 : "an object of type '" + type_name(tp) + "'");
    nb::object obj = nb::inst_alloc(nb::handle(tp));
    new (nb::inst_ptr<st::Tensor>(obj)) st::Tensor(t);
    nb::inst_mark_ready(obj);
    return obj.release().ptr();
  });
}

bool is_tensor_object(void* obj) {
  return guarded("py_obj", [&] { return is_tensor(nb::handle(static_cast<PyObject*>(obj))); });
}

st::ScalarType dtype_from(void* obj) {
  return guarded("py_obj", [&] {
    nb::handle h(static_cast<PyObject*>(obj));
    ST_CHECK(is_dtype(h), "py_obj: expected a stabletorch.dtype, got an object of type '",
             type_name(h.ptr()), "'");
    return *as_dtype(h);
  });
}

void* dtype_to(st::ScalarType t) {
  return guarded("dtype", [&] { return dtype_object(t).release().ptr(); });
}

st::Device device_from(void* obj) {
  return guarded("py_obj", [&] {
    nb::handle h(static_cast<PyObject*>(obj));
    ST_CHECK(nb::isinstance<st::Device>(h),
             "py_obj: expected a stabletorch.device, got an object of type '", type_name(h.ptr()),
             "'");
    return nb::cast<st::Device>(h);
  });
}

void* device_to(st::Device d) {
  return guarded("device", [&] { return nb::cast(d).release().ptr(); });
}

const st::PyObjectConverters kConverters = {
    &tensor_from, &tensor_to, &is_tensor_object, &dtype_from, &dtype_to, &device_from, &device_to,
};

// After finalization no Python object can be made or read.
void unregister_converters() { st::set_pyobject_converters(nullptr); }

}  // namespace

void bind_pyobject(nb::module_&) {
  st::set_pyobject_converters(&kConverters);
  Py_AtExit(&unregister_converters);
}

}  // namespace stpy
