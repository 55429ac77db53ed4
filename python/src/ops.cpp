// The one generic entry behind every generated function and method and
// behind stabletorch.ops: an OpGroup holds the overloads of one Python name
// (e.g. add -> aten::add.Tensor, aten::add.Scalar, aten::add.out) and, when
// called, binds the Python arguments to each overload's schema in order, as
// PyTorch's Python argument parser does. The first overload that binds is
// called through the dispatcher as a boxed call (st::IValue stack); when
// none binds, TypeError lists every signature and why it did not match.
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <st/dispatch/dispatcher.h>
#include <st/native/tensor_iterator.h>

#include "bindings.h"

namespace stpy {
namespace {

// One overload, with what binding needs precomputed from its schema.
struct Overload {
  st::OperatorHandle op;
  const st::FunctionSchema* schema = nullptr;
  size_t num_positional = 0;  // arguments before '*'
  // The IValue each argument takes when it is not passed (none: required).
  std::vector<std::optional<st::IValue>> defaults;
  // For each return: the index of the argument it aliases and writes
  // (in-place and out= forms), whose Python object is returned as is.
  std::vector<int> return_is_arg;
  // Index of the first argument after self that is a plain int list: its
  // elements may be passed as separate positional ints (t.view(2, 3)).
  int varargs_list = -1;
};

std::optional<st::IValue> default_ivalue(const st::Argument& a) {
  if (!a.default_value) return std::nullopt;
  const st::DefaultValue& d = *a.default_value;
  const st::SchemaType& t = a.type;
  const st::TypeKind base = t.isOptional() ? t.elem().kind() : t.kind();
  switch (d.kind) {
    case st::DefaultValue::Kind::None:
      return st::IValue();
    case st::DefaultValue::Kind::Bool:
      return base == st::TypeKind::Scalar ? st::IValue(st::Scalar(d.b)) : st::IValue(d.b);
    case st::DefaultValue::Kind::Int:
      if (base == st::TypeKind::Scalar) return st::IValue(st::Scalar(d.i));
      if (base == st::TypeKind::Float) return st::IValue(static_cast<double>(d.i));
      if (base == st::TypeKind::List) {
        // int[2] stride=1 means [1, 1].
        const int64_t n = (t.isOptional() ? t.elem() : t).fixedSize().value_or(1);
        return st::IValue(std::vector<int64_t>(static_cast<size_t>(n), d.i));
      }
      return st::IValue(d.i);
    case st::DefaultValue::Kind::Float:
      return base == st::TypeKind::Scalar ? st::IValue(st::Scalar(d.d)) : st::IValue(d.d);
    case st::DefaultValue::Kind::String:
      return st::IValue(d.s);
    case st::DefaultValue::Kind::IntList:
      return st::IValue(d.ints);
    case st::DefaultValue::Kind::FloatList:
      return st::IValue(d.doubles);
    case st::DefaultValue::Kind::BoolList:
      return st::IValue(d.bools);
    case st::DefaultValue::Kind::Enum: {
      const std::optional<int64_t> v = st::enumDefaultValue(d.s);
      if (!v) return std::nullopt;
      if (base == st::TypeKind::ScalarType) return st::IValue(static_cast<st::ScalarType>(*v));
      if (base == st::TypeKind::Layout) return st::IValue(static_cast<st::Layout>(*v));
      if (base == st::TypeKind::MemoryFormat) return st::IValue(static_cast<st::MemoryFormat>(*v));
      return st::IValue(*v);
    }
  }
  return std::nullopt;
}

bool is_int_list(const st::SchemaType& t) {
  return t.isList() &&
         (t.elem().kind() == st::TypeKind::Int || t.elem().kind() == st::TypeKind::SymInt);
}

Overload make_overload(const st::OperatorHandle& op) {
  Overload o;
  o.op = op;
  o.schema = &op.schema();
  const auto& args = o.schema->arguments();
  for (const auto& a : args) {
    if (!a.kwarg_only) ++o.num_positional;
    o.defaults.push_back(default_ivalue(a));
  }
  const size_t first = (!args.empty() && args[0].name == "self") ? 1 : 0;
  if (first < o.num_positional && is_int_list(args[first].type)) {
    o.varargs_list = static_cast<int>(first);
  }
  for (const auto& r : o.schema->returns()) {
    int index = -1;
    const st::AliasInfo* ra = r.type.anyAliasInfo();
    if (ra != nullptr && ra->is_write && !ra->before_sets.empty()) {
      for (size_t i = 0; i < args.size(); ++i) {
        const st::AliasInfo* aa = args[i].type.anyAliasInfo();
        if (aa != nullptr && aa->is_write && aa->before_sets == ra->before_sets &&
            args[i].type.kind() == st::TypeKind::Tensor) {
          index = static_cast<int>(i);
          break;
        }
      }
    }
    o.return_is_arg.push_back(index);
  }
  return o;
}

std::string type_name_of(nb::handle h) {
  if (h.is_none()) return "NoneType";
  if (is_tensor(h)) return "Tensor";
  return nb::cast<std::string>(
      nb::handle(reinterpret_cast<PyObject*>(Py_TYPE(h.ptr()))).attr("__name__"));
}

bool is_sequence(nb::handle h) {
  return (PyList_Check(h.ptr()) || PyTuple_Check(h.ptr())) && !is_tensor(h);
}

bool to_int(nb::handle h, int64_t& out) {
  PyObject* o = h.ptr();
  if (PyBool_Check(o)) return false;
  if (PyLong_Check(o) || (PyIndex_Check(o) && !PyFloat_Check(o))) {
    if (is_tensor(h)) {
      const st::Tensor& t = tensor_of(h);
      if (t.numel() != 1 || t.is_floating_point() || t.is_complex()) return false;
    }
    nb::object i = nb::steal(PyNumber_Index(o));
    if (!i.is_valid()) {
      PyErr_Clear();
      return false;
    }
    int overflow = 0;
    out = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
    return overflow == 0;
  }
  return false;
}

bool to_double(nb::handle h, double& out) {
  PyObject* o = h.ptr();
  if (PyBool_Check(o) || PyComplex_Check(o)) return false;
  if (PyFloat_Check(o) || PyLong_Check(o)) {
    out = PyFloat_AsDouble(o);
    if (out == -1.0 && PyErr_Occurred()) {
      PyErr_Clear();
      return false;
    }
    return true;
  }
  if (is_tensor(h)) return false;
  std::optional<st::Scalar> s = as_scalar(h);
  if (!s || s->isComplex() || s->isBoolean()) return false;
  out = s->toDouble();
  return true;
}

// Converts one Python value to the schema type; false (and why) when it
// does not fit. Python numbers bind to Tensor arguments only when
// numbers_as_tensors (the second pass, as in PyTorch).
bool convert(nb::handle h, const st::SchemaType& t, bool numbers_as_tensors, st::IValue& out,
             std::string& why) {
  using K = st::TypeKind;
  PyObject* o = h.ptr();
  switch (t.kind()) {
    case K::Optional:
      if (h.is_none()) {
        out = st::IValue();
        return true;
      }
      return convert(h, t.elem(), numbers_as_tensors, out, why);
    case K::Tensor:
      if (is_tensor(h)) {
        out = st::IValue(tensor_of(h));
        return true;
      }
      if (numbers_as_tensors &&
          (PyBool_Check(o) || PyLong_Check(o) || PyFloat_Check(o) || PyComplex_Check(o))) {
        out = st::IValue(st::native::wrapped_scalar_tensor(*as_scalar(h)));
        return true;
      }
      break;
    case K::Int:
    case K::SymInt: {
      int64_t v = 0;
      if (to_int(h, v)) {
        out = st::IValue(v);
        return true;
      }
      break;
    }
    case K::Float: {
      double v = 0;
      if (to_double(h, v)) {
        out = st::IValue(v);
        return true;
      }
      break;
    }
    case K::Bool:
      if (PyBool_Check(o)) {
        out = st::IValue(o == Py_True);
        return true;
      }
      break;
    case K::Str:
      if (PyUnicode_Check(o)) {
        out = st::IValue(nb::cast<std::string>(h));
        return true;
      }
      break;
    case K::Scalar: {
      if (is_tensor(h)) break;
      std::optional<st::Scalar> s = as_scalar(h);
      if (s) {
        out = st::IValue(*s);
        return true;
      }
      break;
    }
    case K::ScalarType: {
      std::optional<st::ScalarType> d = as_dtype(h);
      if (d) {
        out = st::IValue(*d);
        return true;
      }
      break;
    }
    case K::Layout:
      if (nb::isinstance<st::Layout>(h)) {
        out = st::IValue(nb::cast<st::Layout>(h));
        return true;
      }
      break;
    case K::MemoryFormat:
      if (nb::isinstance<st::MemoryFormat>(h)) {
        out = st::IValue(nb::cast<st::MemoryFormat>(h));
        return true;
      }
      break;
    case K::Device:
      if (nb::isinstance<st::Device>(h)) {
        out = st::IValue(nb::cast<st::Device>(h));
        return true;
      }
      if (PyUnicode_Check(o)) {
        try {
          out = st::IValue(st::Device(nb::cast<std::string>(h)));
          return true;
        } catch (const st::Error& e) {
          why = e.what();
          return false;
        }
      }
      if (PyLong_Check(o) && !PyBool_Check(o)) {
        out = st::IValue(
            st::Device(st::DeviceType::CUDA, static_cast<st::DeviceIndex>(nb::cast<int64_t>(h))));
        return true;
      }
      break;
    case K::List: {
      const st::SchemaType& e = t.elem();
      const K ek = e.kind();
      if ((ek == K::Int || ek == K::SymInt) && !is_sequence(h)) {
        // int[N] accepts one int for all N (PyTorch: kernel_size=3).
        int64_t v = 0;
        if (to_int(h, v)) {
          out = st::IValue(std::vector<int64_t>(static_cast<size_t>(t.fixedSize().value_or(1)), v));
          return true;
        }
        break;
      }
      if (!is_sequence(h)) break;
      nb::sequence seq = nb::borrow<nb::sequence>(h);
      const size_t n = nb::len(seq);
      // int[1] means "one int may stand for the list" and takes any length.
      if (t.fixedSize() && *t.fixedSize() > 1 && static_cast<int64_t>(n) != *t.fixedSize() &&
          n != 1) {
        why = "expected a sequence of " + std::to_string(*t.fixedSize()) + " elements";
        return false;
      }
      if (ek == K::Int || ek == K::SymInt) {
        std::vector<int64_t> v(n);
        for (size_t i = 0; i < n; ++i) {
          if (!to_int(seq[i], v[i])) {
            why = "element " + std::to_string(i) + " must be int, not " + type_name_of(seq[i]);
            return false;
          }
        }
        out = st::IValue(std::move(v));
        return true;
      }
      if (ek == K::Float) {
        std::vector<double> v(n);
        for (size_t i = 0; i < n; ++i) {
          if (!to_double(seq[i], v[i])) {
            why = "element " + std::to_string(i) + " must be float, not " + type_name_of(seq[i]);
            return false;
          }
        }
        out = st::IValue(std::move(v));
        return true;
      }
      if (ek == K::Bool) {
        std::vector<bool> v(n);
        for (size_t i = 0; i < n; ++i) {
          if (!PyBool_Check(seq[i].ptr())) {
            why = "element " + std::to_string(i) + " must be bool, not " + type_name_of(seq[i]);
            return false;
          }
          v[i] = seq[i].ptr() == Py_True;
        }
        out = st::IValue(std::move(v));
        return true;
      }
      if (ek == K::Tensor) {
        std::vector<st::Tensor> v;
        v.reserve(n);
        for (size_t i = 0; i < n; ++i) {
          nb::object item = seq[i];
          if (!is_tensor(item)) {
            why = "element " + std::to_string(i) + " must be Tensor, not " + type_name_of(item);
            return false;
          }
          v.push_back(tensor_of(item));
        }
        out = st::IValue(std::move(v));
        return true;
      }
      if (ek == K::Str) {
        std::vector<std::string> v;
        for (size_t i = 0; i < n; ++i) {
          nb::object item = seq[i];
          if (!PyUnicode_Check(item.ptr())) {
            why = "element " + std::to_string(i) + " must be str, not " + type_name_of(item);
            return false;
          }
          v.push_back(nb::cast<std::string>(item));
        }
        out = st::IValue(std::move(v));
        return true;
      }
      std::vector<st::IValue> items(n);
      for (size_t i = 0; i < n; ++i) {
        std::string inner;
        if (!convert(seq[i], e, numbers_as_tensors, items[i], inner)) {
          why = "element " + std::to_string(i) + " must be " + e.toString() + ", not " +
                type_name_of(seq[i]);
          return false;
        }
      }
      out = st::IValue::makeList(std::move(items));
      return true;
    }
    default:
      break;
  }
  return false;
}

// Binds args/kwargs to one overload: fills `stack` and `objects` (the Python
// object given for each argument, or null) and returns true, or returns
// false with the reason in `why`.
bool bind(const Overload& ov, const nb::args& args, const nb::kwargs& kwargs,
          bool numbers_as_tensors, st::Stack& stack, std::vector<PyObject*>& objects,
          std::string& why) {
  const auto& sargs = ov.schema->arguments();
  const size_t n = sargs.size();
  objects.assign(n, nullptr);
  const size_t nargs = args.size();
  nb::object packed;  // the tuple of separate ints, when varargs were used
  size_t used = nargs;
  if (ov.varargs_list >= 0 && nargs > static_cast<size_t>(ov.varargs_list)) {
    const auto k = static_cast<size_t>(ov.varargs_list);
    PyObject* first = PyTuple_GET_ITEM(args.ptr(), k);
    if (PyLong_Check(first) && !PyBool_Check(first)) {
      packed = nb::steal(
          PyTuple_GetSlice(args.ptr(), static_cast<Py_ssize_t>(k), static_cast<Py_ssize_t>(nargs)));
      objects[k] = packed.ptr();
      used = k;
    }
  }
  const size_t positional = packed.is_valid() ? used : nargs;
  if (positional > ov.num_positional) {
    why = "takes " + std::to_string(ov.num_positional) + " positional arguments but " +
          std::to_string(nargs) + " were given";
    return false;
  }
  for (size_t i = 0; i < positional; ++i) objects[i] = PyTuple_GET_ITEM(args.ptr(), i);
  if (kwargs.is_valid()) {
    for (auto [key, value] : kwargs) {
      const std::string name = nb::cast<std::string>(key);
      size_t index = n;
      for (size_t i = 0; i < n; ++i) {
        if (sargs[i].name == name) {
          index = i;
          break;
        }
      }
      if (index == n) {
        why = "got an unexpected keyword argument '" + name + "'";
        return false;
      }
      if (objects[index] != nullptr) {
        why = "got multiple values for argument '" + name + "'";
        return false;
      }
      objects[index] = value.ptr();
    }
  }
  stack.clear();
  stack.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    if (objects[i] == nullptr) {
      if (!ov.defaults[i]) {
        why = "missing required argument '" + sargs[i].name + "'";
        return false;
      }
      stack.push_back(*ov.defaults[i]);
      continue;
    }
    st::IValue v;
    std::string inner;
    if (!convert(nb::handle(objects[i]), sargs[i].type, numbers_as_tensors, v, inner)) {
      why = "argument '" + sargs[i].name + "' (position " + std::to_string(i + 1) + ") must be " +
            sargs[i].type.toString() + ", not " + type_name_of(nb::handle(objects[i]));
      if (!inner.empty()) why += " (" + inner + ")";
      return false;
    }
    stack.push_back(std::move(v));
  }
  return true;
}

}  // namespace

nb::object ivalue_to_python(st::IValue&& v) {
  using T = st::IValue::Tag;
  switch (v.tag()) {
    case T::None:
      return nb::none();
    case T::Tensor: {
      st::Tensor t = std::move(v).toTensor();
      if (!t.defined()) return nb::none();
      return nb::cast(std::move(t));
    }
    case T::Int:
      return nb::int_(v.toInt());
    case T::Double:
      return nb::float_(v.toDouble());
    case T::Bool:
      return nb::bool_(v.toBool());
    case T::String:
      return nb::str(v.toStringRef().c_str());
    case T::Scalar:
      return scalar_to_python(v.toScalar());
    case T::Device:
      return nb::cast(v.toDevice());
    case T::ScalarType:
      return dtype_object(v.toScalarType());
    case T::Layout:
      return nb::cast(v.toLayout());
    case T::MemoryFormat:
      return nb::cast(v.toMemoryFormat());
    case T::IntList:
      return nb::cast(v.toIntVector());
    case T::DoubleList:
      return nb::cast(v.toDoubleVector());
    case T::BoolList:
      return nb::cast(v.toBoolVector());
    case T::StringList:
      return nb::cast(v.toStringVector());
    case T::TensorList: {
      nb::list l;
      for (st::Tensor& t : std::move(v).toTensorVector()) l.append(nb::cast(std::move(t)));
      return std::move(l);
    }
    case T::List: {
      nb::list l;
      for (st::IValue& e : v.toListRef()) l.append(ivalue_to_python(std::move(e)));
      return std::move(l);
    }
    case T::Tuple: {
      nb::list l;
      for (st::IValue& e : v.toTupleRef()) l.append(ivalue_to_python(std::move(e)));
      return nb::tuple(l);
    }
    case T::Generator:
      break;
  }
  throw nb::type_error(
      (std::string("cannot return a value of type ") + v.tagName() + " to Python").c_str());
}

namespace {

class OpGroup {
 public:
  OpGroup(std::string name, const std::vector<std::string>& qualified) : name_(std::move(name)) {
    for (const std::string& q : qualified) {
      // "ns::name.overload" or "ns::name".
      const size_t dot = q.find('.', q.find("::") == std::string::npos ? 0 : q.find("::") + 2);
      const std::string op = dot == std::string::npos ? q : q.substr(0, dot);
      const std::string overload = dot == std::string::npos ? "" : q.substr(dot + 1);
      overloads_.push_back(
          make_overload(st::Dispatcher::singleton().findSchemaOrThrow(op, overload)));
    }
    if (overloads_.empty()) {
      throw nb::value_error(("OpGroup '" + name_ + "': no overloads").c_str());
    }
  }

  const std::string& name() const { return name_; }

  std::vector<std::string> schemas() const {
    std::vector<std::string> out;
    for (const Overload& o : overloads_) out.push_back(o.schema->toString());
    return out;
  }

  nb::object call(const nb::args& args, const nb::kwargs& kwargs) const {
    st::Stack stack;
    std::vector<PyObject*> objects;
    std::string why;
    for (int pass = 0; pass < 2; ++pass) {
      for (const Overload& ov : overloads_) {
        if (bind(ov, args, kwargs, pass == 1, stack, objects, why)) return run(ov, stack, objects);
      }
    }
    // Nothing bound: bind again to collect every reason (kept off the
    // success path, which then allocates nothing for messages).
    std::vector<std::string> reasons(overloads_.size());
    for (size_t i = 0; i < overloads_.size(); ++i) {
      bind(overloads_[i], args, kwargs, false, stack, objects, reasons[i]);
    }
    std::string msg = name_ + "() received an invalid combination of arguments - got (";
    for (size_t i = 0; i < args.size(); ++i) {
      msg += (i ? ", " : "") + type_name_of(args[i]);
    }
    if (kwargs.is_valid()) {
      bool first = args.size() == 0;
      for (auto [k, v] : kwargs) {
        msg += (first ? "" : ", ") + nb::cast<std::string>(k) + "=" + type_name_of(v);
        first = false;
      }
    }
    msg += "), but expected one of:";
    for (size_t i = 0; i < overloads_.size(); ++i) {
      msg += "\n * " + overloads_[i].schema->toString() +
             "\n      didn't match because: " + reasons[i];
    }
    throw nb::type_error(msg.c_str());
  }

 private:
  static nb::object run(const Overload& ov, st::Stack& stack,
                        const std::vector<PyObject*>& objects) {
    {
      nb::gil_scoped_release release;
      ov.op.callBoxed(&stack);
    }
    const size_t nret = ov.return_is_arg.size();
    auto one = [&](size_t i) -> nb::object {
      const int a = ov.return_is_arg[i];
      if (a >= 0 && objects[a] != nullptr && is_tensor(nb::handle(objects[a]))) {
        return nb::borrow(objects[a]);
      }
      return ivalue_to_python(std::move(stack[i]));
    };
    if (nret == 1 && stack.size() == 1) return one(0);
    if (stack.size() != nret) {
      nb::list l;
      for (st::IValue& v : stack) l.append(ivalue_to_python(std::move(v)));
      return nb::tuple(l);
    }
    if (nret == 0) return nb::none();
    nb::list l;
    for (size_t i = 0; i < nret; ++i) l.append(one(i));
    return nb::tuple(l);
  }

  std::string name_;
  std::vector<Overload> overloads_;
};

// OpGroup is a method descriptor: stored on Tensor, t.add is a bound method
// (PyMethod) that prepends t, with no Python frame in between. It also makes
// pydoc treat a group as a routine, so help() shows its __doc__ (the
// schemas, set per instance: the type has a __dict__).
PyObject* opgroup_descr_get(PyObject* self, PyObject* obj, PyObject* /*type*/) {
  if (obj == nullptr || obj == Py_None) {
    Py_INCREF(self);
    return self;
  }
  return PyMethod_New(self, obj);
}

// Sets the Python error for an exception escaping an OpGroup call, as the
// module's translator and nanobind would (this slot is called by CPython
// directly, outside nanobind's function dispatch).
void set_python_error() noexcept {
  try {
    throw;
  } catch (nb::python_error& e) {
    e.restore();
  } catch (const nb::builtin_exception& e) {
    PyObject* type = PyExc_RuntimeError;
    switch (e.type()) {
      case nb::exception_type::type_error:
        type = PyExc_TypeError;
        break;
      case nb::exception_type::value_error:
        type = PyExc_ValueError;
        break;
      case nb::exception_type::index_error:
        type = PyExc_IndexError;
        break;
      case nb::exception_type::attribute_error:
        type = PyExc_AttributeError;
        break;
      default:
        break;
    }
    PyErr_SetString(type, e.what());
  } catch (const st::Error& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  } catch (const std::bad_alloc&) {
    PyErr_NoMemory();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  } catch (...) {
    PyErr_SetString(PyExc_RuntimeError, "unknown C++ exception in an operator call");
  }
}

// tp_call: CPython calls the group straight, without looking up __call__
// and without nanobind's *args/**kwargs argument marshalling.
PyObject* opgroup_call(PyObject* self, PyObject* args, PyObject* kwargs) noexcept {
  try {
    const OpGroup* group = nb::inst_ptr<OpGroup>(self);
    return group->call(nb::borrow<nb::args>(args), nb::borrow<nb::kwargs>(kwargs)).release().ptr();
  } catch (...) {
    set_python_error();
    return nullptr;
  }
}

PyType_Slot opgroup_slots[] = {
    {Py_tp_descr_get, reinterpret_cast<void*>(&opgroup_descr_get)},
    {Py_tp_call, reinterpret_cast<void*>(&opgroup_call)},
    {0, nullptr},
};

}  // namespace

void bind_ops(nb::module_& m) {
  nb::class_<OpGroup>(m, "OpGroup", nb::type_slots(opgroup_slots), nb::dynamic_attr())
      .def(nb::init<std::string, const std::vector<std::string>&>(), nb::arg("name"),
           nb::arg("overloads"))
      .def_prop_ro("name", &OpGroup::name)
      .def("schemas", &OpGroup::schemas);

  // Every registered "ns::name.overload" (aten and plugins alike).
  m.def("_all_op_names", [] {
    std::vector<std::string> out;
    for (const st::OperatorName& n : st::Dispatcher::singleton().getAllOpNames()) {
      out.push_back(n.overload_name.empty() ? n.name : n.name + "." + n.overload_name);
    }
    return out;
  });
}

}  // namespace stpy
