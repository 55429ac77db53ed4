// stabletorch.Tensor: a Python object holding an st::Tensor by value (one
// reference on the TensorImpl). Metadata, item/tolist, printing and the
// Python operators live here; every other method is generated (ops.cpp and
// the tables gen_python.py writes) and attached by the Python package.
//
// The operators are hand-written on purpose: `a + b` is the hottest call in
// Python code, and going straight to the typed C++ API (st::add) skips the
// schema-driven argument parsing of the generic path.
#include <complex>
#include <string>
#include <vector>

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <st/core/tensor_print.h>
#include <st/native/tensor_iterator.h>
#include <st/generated/functions.h>

#include "bindings.h"

namespace stpy {

bool is_tensor(nb::handle h) { return nb::isinstance<st::Tensor>(h); }

const st::Tensor& tensor_of(nb::handle h) { return nb::cast<const st::Tensor&>(h); }

std::optional<st::Scalar> as_scalar(nb::handle h) {
  PyObject* o = h.ptr();
  if (PyBool_Check(o)) return st::Scalar(o == Py_True);
  if (PyLong_Check(o)) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow != 0) {
      throw nb::value_error("Python int too large to convert to an int64 scalar");
    }
    return st::Scalar(static_cast<int64_t>(v));
  }
  if (PyFloat_Check(o)) return st::Scalar(PyFloat_AS_DOUBLE(o));
  if (PyComplex_Check(o)) {
    return st::Scalar(std::complex<double>(PyComplex_RealAsDouble(o), PyComplex_ImagAsDouble(o)));
  }
  if (is_tensor(h)) return std::nullopt;
  // NumPy scalars: integers have __index__, floats __float__.
  if (PyIndex_Check(o)) {
    nb::object i = nb::steal(PyNumber_Index(o));
    if (!i.is_valid()) throw nb::python_error();
    return as_scalar(i);
  }
  if (Py_TYPE(o)->tp_as_number != nullptr && Py_TYPE(o)->tp_as_number->nb_float != nullptr &&
      !PyUnicode_Check(o)) {
    const double d = PyFloat_AsDouble(o);
    if (d == -1.0 && PyErr_Occurred()) throw nb::python_error();
    return st::Scalar(d);
  }
  return std::nullopt;
}

nb::object scalar_to_python(const st::Scalar& s) {
  if (s.isBoolean()) return nb::bool_(s.toBool());
  if (s.isIntegral(false)) return nb::int_(s.toLong());
  if (s.isComplex()) {
    const auto z = s.toComplexDouble();
    return nb::steal(PyComplex_FromDoubles(z.real(), z.imag()));
  }
  return nb::float_(s.toDouble());
}

namespace {

// The type a tensor's elements take in Python: bool, int, float or complex,
// as a CPU dtype that holds them all exactly.
st::ScalarType python_kind_dtype(st::ScalarType t) {
  if (t == st::ScalarType::Bool) return st::ScalarType::Bool;
  if (torch::headeronly::isComplexType(t)) return st::ScalarType::ComplexDouble;
  if (torch::headeronly::isFloatingType(t)) return st::ScalarType::Double;
  return st::ScalarType::Long;
}

// A contiguous CPU copy (or the tensor itself when it already is one) in
// the dtype python_kind_dtype chose.
st::Tensor host_values(const st::Tensor& t) {
  const st::ScalarType want = python_kind_dtype(t.dtype());
  if (t.is_cpu() && t.dtype() == want && t.is_contiguous()) return t;
  nb::gil_scoped_release release;
  return st::_to_copy(t, want, std::nullopt, st::Device(st::DeviceType::CPU), std::nullopt, false,
                      st::MemoryFormat::Contiguous)
      .contiguous();
}

nb::object element_to_python(const st::Tensor& host, int64_t i) {
  switch (host.dtype()) {
    case st::ScalarType::Bool:
      return nb::bool_(host.const_data_ptr<bool>()[i]);
    case st::ScalarType::Long:
      return nb::int_(host.const_data_ptr<int64_t>()[i]);
    case st::ScalarType::Double:
      return nb::float_(host.const_data_ptr<double>()[i]);
    default: {
      const auto z = static_cast<const std::complex<double>*>(host.const_data_ptr())[i];
      return nb::steal(PyComplex_FromDoubles(z.real(), z.imag()));
    }
  }
}

nb::object item(const st::Tensor& t) {
  if (t.numel() != 1) {
    throw nb::value_error(
        ("a Tensor with " + std::to_string(t.numel()) + " elements cannot be converted to Scalar")
            .c_str());
  }
  return element_to_python(host_values(t), 0);
}

// Nested lists over a contiguous host tensor, dim by dim.
nb::object to_list(const st::Tensor& host, st::IntArrayRef sizes, size_t dim, int64_t& next) {
  if (dim == sizes.size()) return element_to_python(host, next++);
  nb::list out;
  for (int64_t i = 0; i < sizes[dim]; ++i) out.append(to_list(host, sizes, dim + 1, next));
  return std::move(out);
}

nb::object tolist(const st::Tensor& t) {
  const st::Tensor host = host_values(t);
  int64_t next = 0;
  return to_list(host, t.sizes(), 0, next);
}

// The other operand of a Python operator: a tensor, or a Python number as
// a wrapped-number tensor (so PyTorch's promotion treats it as a scalar).
// Undefined when the object is neither: the operator returns NotImplemented.
st::Tensor operand(nb::handle h) {
  if (is_tensor(h)) return tensor_of(h);
  if (PyBool_Check(h.ptr()) || PyLong_Check(h.ptr()) || PyFloat_Check(h.ptr()) ||
      PyComplex_Check(h.ptr())) {
    return st::native::wrapped_scalar_tensor(*as_scalar(h));
  }
  return st::Tensor();
}

using BinaryFn = st::Tensor (*)(const st::Tensor&, const st::Tensor&);

template <BinaryFn F>
nb::object binary(nb::handle self, nb::handle other) {
  st::Tensor b = operand(other);
  if (!b.defined()) return nb::borrow(Py_NotImplemented);
  const st::Tensor& a = tensor_of(self);
  st::Tensor r;
  {
    nb::gil_scoped_release release;
    r = F(a, b);
  }
  return nb::cast(std::move(r));
}

template <BinaryFn F>
nb::object reflected(nb::handle self, nb::handle other) {
  st::Tensor a = operand(other);
  if (!a.defined()) return nb::borrow(Py_NotImplemented);
  const st::Tensor& b = tensor_of(self);
  st::Tensor r;
  {
    nb::gil_scoped_release release;
    r = F(a, b);
  }
  return nb::cast(std::move(r));
}

template <BinaryFn F>
nb::object inplace(nb::handle self, nb::handle other) {
  st::Tensor b = operand(other);
  if (!b.defined()) return nb::borrow(Py_NotImplemented);
  const st::Tensor& a = tensor_of(self);
  {
    nb::gil_scoped_release release;
    F(a, b);
  }
  return nb::borrow(self);
}

// The typed API's defaulted arguments (alpha, rounding mode) filled in, so
// every operator has the BinaryFn shape.
st::Tensor add_fn(const st::Tensor& a, const st::Tensor& b) { return st::add(a, b); }
st::Tensor sub_fn(const st::Tensor& a, const st::Tensor& b) { return st::sub(a, b); }
st::Tensor mul_fn(const st::Tensor& a, const st::Tensor& b) { return st::mul(a, b); }
st::Tensor div_fn(const st::Tensor& a, const st::Tensor& b) { return st::div(a, b); }
st::Tensor floordiv_fn(const st::Tensor& a, const st::Tensor& b) { return st::floor_divide(a, b); }
st::Tensor mod_fn(const st::Tensor& a, const st::Tensor& b) { return st::remainder(a, b); }
st::Tensor pow_fn(const st::Tensor& a, const st::Tensor& b) { return st::pow(a, b); }
st::Tensor matmul_fn(const st::Tensor& a, const st::Tensor& b) { return st::matmul(a, b); }
st::Tensor and_fn(const st::Tensor& a, const st::Tensor& b) { return st::bitwise_and(a, b); }
st::Tensor or_fn(const st::Tensor& a, const st::Tensor& b) { return st::bitwise_or(a, b); }
st::Tensor xor_fn(const st::Tensor& a, const st::Tensor& b) { return st::bitwise_xor(a, b); }
st::Tensor lshift_fn(const st::Tensor& a, const st::Tensor& b) {
  return st::bitwise_left_shift(a, b);
}
st::Tensor rshift_fn(const st::Tensor& a, const st::Tensor& b) {
  return st::bitwise_right_shift(a, b);
}
st::Tensor eq_fn(const st::Tensor& a, const st::Tensor& b) { return st::eq(a, b); }
st::Tensor ne_fn(const st::Tensor& a, const st::Tensor& b) { return st::ne(a, b); }
st::Tensor lt_fn(const st::Tensor& a, const st::Tensor& b) { return st::lt(a, b); }
st::Tensor le_fn(const st::Tensor& a, const st::Tensor& b) { return st::le(a, b); }
st::Tensor gt_fn(const st::Tensor& a, const st::Tensor& b) { return st::gt(a, b); }
st::Tensor ge_fn(const st::Tensor& a, const st::Tensor& b) { return st::ge(a, b); }

st::Tensor iadd_fn(const st::Tensor& a, const st::Tensor& b) { return st::add_(a, b); }
st::Tensor isub_fn(const st::Tensor& a, const st::Tensor& b) { return st::sub_(a, b); }
st::Tensor imul_fn(const st::Tensor& a, const st::Tensor& b) { return st::mul_(a, b); }
st::Tensor idiv_fn(const st::Tensor& a, const st::Tensor& b) { return st::div_(a, b); }
st::Tensor ifloordiv_fn(const st::Tensor& a, const st::Tensor& b) {
  return st::floor_divide_(a, b);
}
st::Tensor imod_fn(const st::Tensor& a, const st::Tensor& b) { return st::remainder_(a, b); }
st::Tensor ipow_fn(const st::Tensor& a, const st::Tensor& b) { return st::pow_(a, b); }
st::Tensor iand_fn(const st::Tensor& a, const st::Tensor& b) { return st::bitwise_and_(a, b); }
st::Tensor ior_fn(const st::Tensor& a, const st::Tensor& b) { return st::bitwise_or_(a, b); }
st::Tensor ixor_fn(const st::Tensor& a, const st::Tensor& b) { return st::bitwise_xor_(a, b); }
st::Tensor ilshift_fn(const st::Tensor& a, const st::Tensor& b) {
  return st::bitwise_left_shift_(a, b);
}
st::Tensor irshift_fn(const st::Tensor& a, const st::Tensor& b) {
  return st::bitwise_right_shift_(a, b);
}

using UnaryFn = st::Tensor (*)(const st::Tensor&);

template <UnaryFn F>
st::Tensor unary(const st::Tensor& a) {
  nb::gil_scoped_release release;
  return F(a);
}

st::Tensor neg_fn(const st::Tensor& a) { return st::neg(a); }
st::Tensor invert_fn(const st::Tensor& a) { return st::bitwise_not(a); }
st::Tensor abs_fn(const st::Tensor& a) { return st::abs(a); }

nb::tuple int_tuple(st::IntArrayRef v) {
  nb::list l;
  for (int64_t x : v) l.append(x);
  return nb::tuple(l);
}

int64_t single_dim_size(const st::Tensor& t, const char* what) {
  if (t.dim() == 0) throw nb::type_error((std::string(what) + " of a 0-d tensor").c_str());
  return t.size(0);
}

}  // namespace

void bind_tensor(nb::module_& m) {
  nb::class_<st::Tensor> cls(m, "Tensor");
  cls.def("_sizes", [](const st::Tensor& t) { return int_tuple(t.sizes()); })
      .def("_strides", [](const st::Tensor& t) { return int_tuple(t.strides()); })
      .def_prop_ro("ndim", &st::Tensor::dim)
      .def("dim", &st::Tensor::dim)
      .def("ndimension", &st::Tensor::dim)
      .def("numel", &st::Tensor::numel)
      .def("nelement", &st::Tensor::numel)
      .def("storage_offset", &st::Tensor::storage_offset)
      .def("element_size", &st::Tensor::element_size)
      .def_prop_ro("itemsize", &st::Tensor::element_size)
      .def_prop_ro("nbytes", &st::Tensor::nbytes)
      .def("data_ptr",
           [](const st::Tensor& t) { return reinterpret_cast<uintptr_t>(t.data_ptr()); })
      .def_prop_ro("dtype", [](const st::Tensor& t) { return dtype_object(t.dtype()); })
      .def_prop_ro("device", &st::Tensor::device)
      .def_prop_ro("is_cuda", &st::Tensor::is_cuda)
      .def_prop_ro("is_cpu", &st::Tensor::is_cpu)
      .def_prop_ro("is_meta", &st::Tensor::is_meta)
      .def("is_contiguous", [](const st::Tensor& t) { return t.is_contiguous(); })
      .def("is_complex", &st::Tensor::is_complex)
      .def("is_floating_point", &st::Tensor::is_floating_point)
      .def("_is_alias_of", &st::Tensor::is_alias_of)
      .def("_use_count", &st::Tensor::use_count)
      .def("item", &item)
      .def("tolist", &tolist)
      .def("__len__", [](const st::Tensor& t) { return single_dim_size(t, "len()"); })
      .def("__bool__",
           [](const st::Tensor& t) {
             if (t.numel() != 1) {
               throw std::runtime_error(
                   "Boolean value of Tensor with more than one value is ambiguous");
             }
             return nb::cast<bool>(nb::bool_(item(t)));
           })
      .def("__float__", [](const st::Tensor& t) { return nb::float_(item(t)); })
      .def("__int__", [](const st::Tensor& t) { return nb::int_(item(t)); })
      .def("__complex__",
           [](const st::Tensor& t) {
             nb::object v = item(t);
             return nb::steal(PyNumber_Add(v.ptr(), nb::steal(PyComplex_FromDoubles(0, 0)).ptr()));
           })
      .def("__index__",
           [](const st::Tensor& t) {
             if (torch::headeronly::isFloatingType(t.dtype()) ||
                 torch::headeronly::isComplexType(t.dtype()) || t.numel() != 1) {
               throw nb::type_error(
                   "only integer tensors of a single element can be converted to an index");
             }
             return nb::int_(item(t));
           })
      .def("__repr__", [](const st::Tensor& t) { return st::to_string(t); })
      .def("__hash__", [](nb::handle self) { return reinterpret_cast<intptr_t>(self.ptr()); })
      .def("__add__", &binary<add_fn>, nb::arg("other").none())
      .def("__radd__", &reflected<add_fn>, nb::arg("other").none())
      .def("__iadd__", &inplace<iadd_fn>, nb::arg("other").none())
      .def("__sub__", &binary<sub_fn>, nb::arg("other").none())
      .def("__rsub__", &reflected<sub_fn>, nb::arg("other").none())
      .def("__isub__", &inplace<isub_fn>, nb::arg("other").none())
      .def("__mul__", &binary<mul_fn>, nb::arg("other").none())
      .def("__rmul__", &reflected<mul_fn>, nb::arg("other").none())
      .def("__imul__", &inplace<imul_fn>, nb::arg("other").none())
      .def("__truediv__", &binary<div_fn>, nb::arg("other").none())
      .def("__rtruediv__", &reflected<div_fn>, nb::arg("other").none())
      .def("__itruediv__", &inplace<idiv_fn>, nb::arg("other").none())
      .def("__floordiv__", &binary<floordiv_fn>, nb::arg("other").none())
      .def("__rfloordiv__", &reflected<floordiv_fn>, nb::arg("other").none())
      .def("__ifloordiv__", &inplace<ifloordiv_fn>, nb::arg("other").none())
      .def("__mod__", &binary<mod_fn>, nb::arg("other").none())
      .def("__rmod__", &reflected<mod_fn>, nb::arg("other").none())
      .def("__imod__", &inplace<imod_fn>, nb::arg("other").none())
      .def("__pow__", &binary<pow_fn>, nb::arg("other").none())
      .def("__rpow__", &reflected<pow_fn>, nb::arg("other").none())
      .def("__ipow__", &inplace<ipow_fn>, nb::arg("other").none())
      .def("__matmul__", &binary<matmul_fn>, nb::arg("other").none())
      .def("__rmatmul__", &reflected<matmul_fn>, nb::arg("other").none())
      .def("__and__", &binary<and_fn>, nb::arg("other").none())
      .def("__rand__", &reflected<and_fn>, nb::arg("other").none())
      .def("__iand__", &inplace<iand_fn>, nb::arg("other").none())
      .def("__or__", &binary<or_fn>, nb::arg("other").none())
      .def("__ror__", &reflected<or_fn>, nb::arg("other").none())
      .def("__ior__", &inplace<ior_fn>, nb::arg("other").none())
      .def("__xor__", &binary<xor_fn>, nb::arg("other").none())
      .def("__rxor__", &reflected<xor_fn>, nb::arg("other").none())
      .def("__ixor__", &inplace<ixor_fn>, nb::arg("other").none())
      .def("__lshift__", &binary<lshift_fn>, nb::arg("other").none())
      .def("__rlshift__", &reflected<lshift_fn>, nb::arg("other").none())
      .def("__ilshift__", &inplace<ilshift_fn>, nb::arg("other").none())
      .def("__rshift__", &binary<rshift_fn>, nb::arg("other").none())
      .def("__rrshift__", &reflected<rshift_fn>, nb::arg("other").none())
      .def("__irshift__", &inplace<irshift_fn>, nb::arg("other").none())
      .def("__eq__", &binary<eq_fn>, nb::arg("other").none())
      .def("__ne__", &binary<ne_fn>, nb::arg("other").none())
      .def("__lt__", &binary<lt_fn>, nb::arg("other").none())
      .def("__le__", &binary<le_fn>, nb::arg("other").none())
      .def("__gt__", &binary<gt_fn>, nb::arg("other").none())
      .def("__ge__", &binary<ge_fn>, nb::arg("other").none())
      .def("__neg__", &unary<neg_fn>)
      .def("__invert__", &unary<invert_fn>)
      .def("__abs__", &unary<abs_fn>)
      .def("__pos__", [](nb::handle self) { return nb::borrow(self); });

  // The number of live TensorImpls: leak checks in tests.
  m.def("live_tensor_count", &st::live_tensor_count);
  m.def(
      "manual_seed", [](int64_t seed) { st::manual_seed(static_cast<uint64_t>(seed)); },
      nb::arg("seed"));
  // A 0-dim tensor from a Python number in the dtype PyTorch infers
  // (bool, int64, float32 by default, complex64) or the one given.
  m.def(
      "_scalar_tensor",
      [](nb::handle value, nb::handle dtype) {
        const std::optional<st::Scalar> s = as_scalar(value);
        if (!s) throw nb::type_error("expected a Python number");
        st::ScalarType t;
        if (!dtype.is_none()) {
          const auto d = as_dtype(dtype);
          if (!d) throw nb::type_error("dtype must be a stabletorch.dtype");
          t = *d;
        } else if (s->isBoolean()) {
          t = st::ScalarType::Bool;
        } else if (s->isIntegral(false)) {
          t = st::ScalarType::Long;
        } else if (s->isComplex()) {
          t = st::ScalarType::ComplexFloat;
        } else {
          t = st::ScalarType::Float;
        }
        return st::native::scalar_to_tensor(*s, t);
      },
      nb::arg("value").none(), nb::arg("dtype").none());
}

}  // namespace stpy
