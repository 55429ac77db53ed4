// The pieces of the stabletorch._C extension module and the helpers they
// share. Each bind_* function adds one group of types or functions to the
// module; module.cpp calls them in order (types first: later groups convert
// to and from them).
#pragma once

#include <optional>
#include <string>

#include <nanobind/nanobind.h>

#include <st/core/device.h>
#include <st/core/scalar.h>
#include <st/core/tensor.h>
#include <st/dispatch/function_schema.h>
#include <st/dispatch/ivalue.h>

namespace nb = nanobind;

namespace stpy {

void bind_types(nb::module_& m);     // dtype, device, layout, memory_format
void bind_tensor(nb::module_& m);    // Tensor: metadata, item, printing, operators
void bind_ops(nb::module_& m);       // OpGroup: schema-driven calls of any operator
void bind_interop(nb::module_& m);   // NumPy and DLPack
void bind_plugins(nb::module_& m);   // load_library over the C loader
void bind_timing(nb::module_& m);    // C++-side timing for bench/bench_python.py
void bind_pyobject(nb::module_& m);  // the converters of the C ABI's torch_*_pyobject

// The unique Python object for a dtype (st.float32 is st.float32).
nb::object dtype_object(st::ScalarType type);
// The dtype an object names (a stabletorch.dtype, or the Python types bool,
// int, float, complex as PyTorch accepts them); nullopt for anything else.
std::optional<st::ScalarType> as_dtype(nb::handle h);
// Whether h is a stabletorch.dtype object (not a Python type as_dtype takes).
bool is_dtype(nb::handle h);

bool is_tensor(nb::handle h);
// Borrowed: valid while h lives. Precondition: is_tensor(h).
const st::Tensor& tensor_of(nb::handle h);

// A Python bool, int, float or complex (or a NumPy scalar of those kinds) as
// a Scalar; nullopt for anything else, tensors included.
std::optional<st::Scalar> as_scalar(nb::handle h);

// A Scalar as the Python number of its kind.
nb::object scalar_to_python(const st::Scalar& s);

// The value an IValue holds, as Python objects (tensors wrapped, tuples and
// lists converted element by element).
nb::object ivalue_to_python(st::IValue&& v);

}  // namespace stpy
