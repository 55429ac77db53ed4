// Zero-copy exchange with NumPy and any DLPack producer or consumer.
//
// Imports wrap the producer's memory in a Storage whose deleter drops the
// reference to the producer (taking the GIL: the last tensor may die on a
// thread that released it). Exports hand out a view whose owner keeps a
// reference to the tensor.
#include <algorithm>
#include <string>
#include <vector>

#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>

#include <st/core/checked_arithmetic.h>
#include <st/core/empty_tensor.h>
#include <st/core/storage.h>

#include "bindings.h"

namespace stpy {
namespace {

namespace dl = nb::dlpack;

// The producer's array as an nb::ndarray, or false when nanobind cannot
// import it (unsupported element type, byte order, device).
bool import_array(nb::handle obj, nb::ndarray<nb::ro>& out) {
  try {
    if (nb::try_cast(obj, out)) return true;
  } catch (const std::exception&) {
    // nanobind reports some refusals (e.g. string arrays) by throwing.
  }
  PyErr_Clear();
  return false;
}

std::optional<dl::dtype> to_dlpack_dtype(st::ScalarType t) {
  using S = st::ScalarType;
  using C = dl::dtype_code;
  auto make = [](C code, int bits) {
    dl::dtype d;
    d.code = static_cast<uint8_t>(code);
    d.bits = static_cast<uint8_t>(bits);
    d.lanes = 1;
    return d;
  };
  switch (t) {
    case S::Bool:
      return make(C::Bool, 8);
    case S::Byte:
      return make(C::UInt, 8);
    case S::UInt16:
      return make(C::UInt, 16);
    case S::UInt32:
      return make(C::UInt, 32);
    case S::UInt64:
      return make(C::UInt, 64);
    case S::Char:
      return make(C::Int, 8);
    case S::Short:
      return make(C::Int, 16);
    case S::Int:
      return make(C::Int, 32);
    case S::Long:
      return make(C::Int, 64);
    case S::Half:
      return make(C::Float, 16);
    case S::Float:
      return make(C::Float, 32);
    case S::Double:
      return make(C::Float, 64);
    case S::BFloat16:
      return make(C::Bfloat, 16);
    case S::ComplexFloat:
      return make(C::Complex, 64);
    case S::ComplexDouble:
      return make(C::Complex, 128);
    default:
      return std::nullopt;
  }
}

std::optional<st::ScalarType> from_dlpack_dtype(dl::dtype d) {
  if (d.lanes != 1) return std::nullopt;
  for (int i = 0; i < static_cast<int>(st::ScalarType::NumOptions); ++i) {
    const auto t = static_cast<st::ScalarType>(i);
    const auto m = to_dlpack_dtype(t);
    if (m && m->code == d.code && m->bits == d.bits) return t;
  }
  return std::nullopt;
}

// The producer's array, kept alive by the storage until the last tensor
// over it goes.
struct ImportedArray {
  nb::ndarray<nb::ro> array;
};

void release_imported(void* ctx) noexcept {
  if (!Py_IsInitialized()) return;  // the interpreter is gone: nothing to drop
  nb::gil_scoped_acquire gil;
  delete static_cast<ImportedArray*>(ctx);
}

// Read-only producers are accepted (as PyTorch does, which only warns):
// writing to such a tensor is the caller's responsibility.
st::Tensor wrap_array(const nb::ndarray<nb::ro>& a, const char* who) {
  const auto dtype = from_dlpack_dtype(a.dtype());
  if (!dtype) {
    throw nb::type_error((std::string(who) + ": unsupported element type (DLPack code " +
                          std::to_string(a.dtype().code) + ", " + std::to_string(a.dtype().bits) +
                          " bits)")
                             .c_str());
  }
  st::Device device(st::DeviceType::CPU);
  if (a.device_type() == nb::device::cuda::value) {
    device = st::Device(st::DeviceType::CUDA, static_cast<st::DeviceIndex>(a.device_id()));
  } else if (a.device_type() != nb::device::cpu::value) {
    throw nb::type_error(
        (std::string(who) + ": unsupported device type " + std::to_string(a.device_type()))
            .c_str());
  }
  const size_t ndim = a.ndim();
  std::vector<int64_t> sizes(ndim), strides(ndim);
  for (size_t i = 0; i < ndim; ++i) {
    sizes[i] = static_cast<int64_t>(a.shape(i));
    strides[i] = a.stride(i);
    if (strides[i] < 0) {
      throw nb::value_error((std::string(who) +
                             ": arrays with negative strides are not supported; make a copy "
                             "first (numpy: a.copy())")
                                .c_str());
    }
  }
  const size_t itemsize = torch::headeronly::elementSize(*dtype);
  const size_t nbytes = st::checked_storage_nbytes(sizes, strides, itemsize, 0, who);
  if (sizes.end() != std::find(sizes.begin(), sizes.end(), 0)) {
    // No element is reachable: producers report arbitrary strides here.
    st::detail::contiguous_strides(sizes, strides.data());
  }
  void* data = const_cast<void*>(a.data());
  auto* ctx = new ImportedArray{a};
  st::Storage storage;
  try {
    storage = st::Storage::from_blob(data, nbytes, device, ctx, &release_imported);
  } catch (...) {
    delete ctx;
    throw;
  }
  auto impl = st::make_intrusive<st::TensorImpl>(std::move(storage), *dtype, device);
  impl->set_sizes_and_strides(sizes, strides, 0);
  return st::Tensor(std::move(impl));
}

// A view of `t` as an nb::ndarray whose owner keeps a tensor reference.
template <typename... Framework>
nb::ndarray<Framework...> export_array(const st::Tensor& t, const char* who) {
  const auto dtype = to_dlpack_dtype(t.dtype());
  if (!dtype) {
    throw nb::type_error(
        (std::string(who) + ": unsupported ScalarType " + torch::headeronly::toString(t.dtype()))
            .c_str());
  }
  int device_type = nb::device::cpu::value;
  int device_id = 0;
  if (t.is_cuda()) {
    device_type = nb::device::cuda::value;
    device_id = t.device().index() < 0 ? 0 : t.device().index();
  } else if (!t.is_cpu()) {
    throw nb::type_error(
        (std::string(who) + ": tensors on " + t.device().str() + " cannot be exported").c_str());
  }
  const size_t ndim = static_cast<size_t>(t.dim());
  std::vector<size_t> shape(ndim);
  std::vector<int64_t> strides(ndim);
  for (size_t i = 0; i < ndim; ++i) {
    shape[i] = static_cast<size_t>(t.sizes()[i]);
    strides[i] = t.strides()[i];
  }
  nb::object owner = nb::cast(t);  // a new Python reference to the same TensorImpl
  return nb::ndarray<Framework...>(t.data_ptr(), ndim, shape.data(), owner, strides.data(), *dtype,
                                   device_type, device_id);
}

}  // namespace

void bind_interop(nb::module_& m) {
  m.def(
      "from_numpy",
      [](nb::handle obj) {
        nb::module_ np = nb::module_::import_("numpy");
        if (!nb::isinstance(obj, np.attr("ndarray"))) {
          throw nb::type_error(("from_numpy: expected numpy.ndarray, got " +
                                nb::cast<std::string>(nb::type_name(obj.type())))
                                   .c_str());
        }
        nb::ndarray<nb::ro> a;
        if (!import_array(obj, a)) {
          nb::object dtype = obj.attr("dtype");
          nb::object dtype_text = nb::steal(PyObject_Str(dtype.ptr()));
          if (!dtype_text.is_valid()) throw nb::python_error();
          throw nb::type_error(
              ("from_numpy: can't convert an array of dtype " + nb::cast<std::string>(dtype_text) +
               "; the supported types are: float64, float32, float16, complex64, complex128, "
               "int64, int32, int16, int8, uint8, uint16, uint32, uint64 and bool (native byte "
               "order)")
                  .c_str());
        }
        return wrap_array(a, "from_numpy");
      },
      nb::arg("ndarray"));
  m.def(
      "from_dlpack",
      [](nb::handle obj) {
        nb::ndarray<nb::ro> a;
        if (!import_array(obj, a)) {
          throw nb::type_error(("from_dlpack: expected an object with __dlpack__ or a DLPack "
                                "capsule, got " +
                                nb::cast<std::string>(nb::type_name(obj.type())))
                                   .c_str());
        }
        return wrap_array(a, "from_dlpack");
      },
      nb::arg("ext_tensor"));

  nb::handle cls = m.attr("Tensor");
  nb::cpp_function_def(
      [](const st::Tensor& t) {
        if (!t.is_cpu()) {
          throw nb::type_error(
              ("can't convert " + t.device().str() + " tensor to numpy; use .cpu() first").c_str());
        }
        if (t.dtype() == st::ScalarType::BFloat16) {
          // NumPy has no bfloat16 (PyTorch refuses the same way).
          throw nb::type_error("Got unsupported ScalarType BFloat16");
        }
        return export_array<nb::numpy>(t, "numpy");
      },
      nb::scope(cls), nb::name("numpy"), nb::is_method());
  nb::cpp_function_def(
      [](const st::Tensor& t, nb::kwargs) {
        // A DLPack capsule ("dltensor"); stream/max_version/copy requests
        // are met as is: CPU needs no stream, and the export never copies.
        return nb::cast(export_array<>(t, "__dlpack__"));
      },
      nb::scope(cls), nb::name("__dlpack__"), nb::is_method());
  nb::cpp_function_def(
      [](const st::Tensor& t) {
        if (t.is_cuda()) return nb::make_tuple(2, t.device().index() < 0 ? 0 : t.device().index());
        return nb::make_tuple(1, 0);
      },
      nb::scope(cls), nb::name("__dlpack_device__"), nb::is_method());
}

}  // namespace stpy
