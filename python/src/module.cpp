// stabletorch._C: the CPython extension over the core. The Python package
// (python/stabletorch) builds the public API on top of it.
#include <stdexcept>

#include <st/core/error.h>

#include "bindings.h"

NB_MODULE(_C, m) {
  m.doc() = "stabletorch core bindings (use the stabletorch package)";

  // The core's one exception type carries the message users must see; it
  // becomes RuntimeError, as PyTorch's c10::Error does.
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const st::Error& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });

  stpy::bind_types(m);
  stpy::bind_tensor(m);
  stpy::bind_ops(m);
  stpy::bind_interop(m);
  stpy::bind_plugins(m);
  stpy::bind_timing(m);
  stpy::bind_pyobject(m);
}
