// stabletorch.dtype, stabletorch.device, and the Layout / MemoryFormat enums.
#include <array>
#include <string>

#include <nanobind/stl/string.h>

#include <st/core/tensor_print.h>

#include "bindings.h"

namespace stpy {
namespace {

// One Python object per dtype, so identity comparisons work as in PyTorch.
// The module's _dtypes dict owns them; this table borrows (the module lives
// as long as anything can ask for a dtype).
struct DType {
  st::ScalarType type;
};

constexpr size_t kNumDTypes = static_cast<size_t>(st::ScalarType::NumOptions);
std::array<PyObject*, kNumDTypes> g_dtypes{};

// "float32" from the core's "stabletorch.float32".
std::string short_dtype_name(st::ScalarType t) {
  std::string name = st::dtype_python_name(t);
  const std::string prefix = "stabletorch.";
  if (name.compare(0, prefix.size(), prefix) == 0) name.erase(0, prefix.size());
  return name;
}

std::string device_type_name(st::DeviceType type) {
  // Device(type).str() is the bare type name ("cpu", "cuda").
  return st::Device(type).str();
}

std::string device_repr(const st::Device& d) {
  std::string r = "device(type='" + device_type_name(d.type()) + "'";
  if (d.has_index()) r += ", index=" + std::to_string(d.index());
  return r + ")";
}

}  // namespace

nb::object dtype_object(st::ScalarType type) {
  const auto i = static_cast<size_t>(type);
  if (i >= kNumDTypes || g_dtypes[i] == nullptr) {
    throw nb::value_error(
        ("no Python dtype for scalar type " + std::string(torch::headeronly::toString(type)))
            .c_str());
  }
  return nb::borrow(g_dtypes[i]);
}

bool is_dtype(nb::handle h) { return nb::isinstance<DType>(h); }

std::optional<st::ScalarType> as_dtype(nb::handle h) {
  if (nb::isinstance<DType>(h)) return nb::cast<const DType&>(h).type;
  if (h.ptr() == reinterpret_cast<PyObject*>(&PyFloat_Type)) return st::ScalarType::Double;
  if (h.ptr() == reinterpret_cast<PyObject*>(&PyLong_Type)) return st::ScalarType::Long;
  if (h.ptr() == reinterpret_cast<PyObject*>(&PyBool_Type)) return st::ScalarType::Bool;
  if (h.ptr() == reinterpret_cast<PyObject*>(&PyComplex_Type)) {
    return st::ScalarType::ComplexDouble;
  }
  return std::nullopt;
}

void bind_types(nb::module_& m) {
  nb::class_<DType>(m, "dtype")
      .def_prop_ro("is_floating_point",
                   [](const DType& d) { return torch::headeronly::isFloatingType(d.type); })
      .def_prop_ro("is_complex",
                   [](const DType& d) { return torch::headeronly::isComplexType(d.type); })
      .def_prop_ro("is_signed",
                   [](const DType& d) { return torch::headeronly::isSignedType(d.type); })
      .def_prop_ro("itemsize",
                   [](const DType& d) { return torch::headeronly::elementSize(d.type); })
      .def("__repr__", [](const DType& d) { return "stabletorch." + short_dtype_name(d.type); })
      .def("__reduce__", [](const DType& d) { return short_dtype_name(d.type); });

  // Every dtype the core names, under its PyTorch name and aliases.
  nb::dict dtypes;
  for (size_t i = 0; i < kNumDTypes; ++i) {
    const auto t = static_cast<st::ScalarType>(i);
    std::string name;
    try {
      torch::headeronly::elementSize(t);
      name = short_dtype_name(t);
    } catch (const std::exception&) {
      continue;  // a placeholder code with no element type
    }
    nb::object obj = nb::cast(DType{t});
    g_dtypes[i] = obj.ptr();
    dtypes[name.c_str()] = obj;
    m.attr(name.c_str()) = obj;  // where pickle finds it (__reduce__ names it)
  }
  m.attr("_dtypes") = dtypes;

  nb::class_<st::Device>(m, "device")
      .def(
          "__init__",
          [](st::Device* self, const std::string& spec) { new (self) st::Device(spec); },
          nb::arg("type"))
      .def(
          "__init__",
          [](st::Device* self, const std::string& type, int64_t index) {
            const st::Device base(type);
            if (base.has_index()) {
              throw nb::value_error(
                  ("device: type '" + type + "' already has an index; pass 'cuda' and the index")
                      .c_str());
            }
            if (index < -1 || index > 127) {
              throw nb::value_error(
                  ("device: index " + std::to_string(index) + " is out of range").c_str());
            }
            new (self) st::Device(base.type(), static_cast<st::DeviceIndex>(index));
          },
          nb::arg("type"), nb::arg("index"))
      .def_prop_ro("type", [](const st::Device& d) { return device_type_name(d.type()); })
      .def_prop_ro("index",
                   [](const st::Device& d) -> nb::object {
                     if (!d.has_index()) return nb::none();
                     return nb::int_(d.index());
                   })
      .def("__str__", [](const st::Device& d) { return d.str(); })
      .def("__repr__", &device_repr)
      .def("__eq__", [](const st::Device& a, const st::Device& b) { return a == b; })
      .def("__eq__", [](const st::Device&, nb::handle) { return false; })
      .def("__hash__", [](const st::Device& d) { return std::hash<st::Device>()(d); });
  nb::implicitly_convertible<std::string, st::Device>();

  nb::enum_<st::Layout>(m, "layout").value("strided", st::Layout::Strided);
  nb::enum_<st::MemoryFormat>(m, "memory_format")
      .value("contiguous_format", st::MemoryFormat::Contiguous)
      .value("preserve_format", st::MemoryFormat::Preserve)
      .value("channels_last", st::MemoryFormat::ChannelsLast)
      .value("channels_last_3d", st::MemoryFormat::ChannelsLast3d);
}

}  // namespace stpy
